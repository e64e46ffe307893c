"""``python -m tutor.lessons stamp <lang> [slug]`` and ``python -m tutor.lessons status [lang]``."""
import sys

from tutor.lessons import main

raise SystemExit(main(sys.argv[1:]))
