"""The lessons' own kinds (being split into the modules of this package)."""

from tutor.learn.kinds.decide import *  # noqa: F403
from tutor.learn.kinds.decide import CLAIMS, JUDGES, NAMES, OWN_KINDS, Verdict, ask, judge, seat_view_data, situation  # noqa: F401
