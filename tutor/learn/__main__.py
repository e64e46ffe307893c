"""``python -m tutor.learn stamp <lang> [slug]`` and ``python -m tutor.learn status [lang]``."""
import sys

from tutor.learn.translations import main

raise SystemExit(main(sys.argv[1:]))
