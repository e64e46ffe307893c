"""Fresh positions (being split into the modules of this package)."""

from tutor.learn.variants.deals import *  # noqa: F403
from tutor.learn.variants.deals import mirror  # noqa: F401
