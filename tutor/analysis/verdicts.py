"""How much a card cost, as a verdict: the thresholds and the rule that applies them.

The measure is the loss Δ of a card against the best one, in the deciding seat's sheet score
per player (a soloist's divided by three, so that a threshold means the same in a solo), on
the same sampled worlds, measured on worlds that were not used to choose the best card;
beside it Δcp, the card points the seat's party lost. ``error`` is the standard error of
Δ over the worlds (paired: both cards played in every world).

Calibration (PLAY-REVIEW.md §6.4 and §7.2; docs/analysis.md has the figures measured with
this code by bench/calibrate.py): the standard error of a loss at N = 100 is about 0.23 game
points per player at the median (0.35 at the 90th percentile; card points 2 to 3), measured by
the bootstrap with the choice of the best card redone, which matches the spread of the loss
from one run to the next. A gap of a quarter game point is what a club player calls a small
slip; three quarters a mistake (about one deal in four or five lost); a game point and a half
a blunder (a fox, a Doppelkopf, a lost announcement or a lost game). Each class also has to
stand out of the noise: 2.5 standard errors for an inaccuracy, 3 for a mistake or a blunder,
so that a card that is only noise is very rarely called a mistake (2 of 94 mistakes and
blunders at N = 100 lost less than a quarter at N = 600). A gap of a quarter or more that is
not out of the noise is ``unclear``; below a quarter a card is ``good`` unless it gave away ten
card points or more, clearly (2.5 standard errors of the card points), which is an inaccuracy
too.
"""
from __future__ import annotations

from typing import Final, Literal

Verdict = Literal["best", "good", "inaccuracy", "mistake", "blunder", "unclear"]
VERDICTS: Final[tuple[Verdict, ...]] = ("best", "good", "inaccuracy", "mistake", "blunder", "unclear")

GOOD_BELOW: Final = 0.25  # a loss below this (game points per player) is no slip
MISTAKE_FROM: Final = 0.75
BLUNDER_FROM: Final = 1.5
INACCURACY_ERRORS: Final = 2.5  # standard errors a loss must reach to be more than noise
MISTAKE_ERRORS: Final = 3.0
BLUNDER_ERRORS: Final = 3.0
CARD_POINTS_SLIP: Final = 10.0  # card points given away that make a slip of a card whose game points are even


def verdict(loss: float, error: float, card_points_loss: float, card_points_error: float) -> Verdict:
    """The verdict on a card that is not the best one.

    >>> verdict(0.1, 0.15, 2, 3), verdict(0.4, 0.1, 0, 3), verdict(0.4, 0.2, 0, 3)
    ('good', 'inaccuracy', 'unclear')
    >>> verdict(1.0, 0.15, 20, 3), verdict(1.0, 0.35, 20, 3), verdict(2.0, 0.2, 30, 4)
    ('mistake', 'inaccuracy', 'blunder')
    >>> verdict(0.1, 0.05, 14, 3)
    'inaccuracy'
    """
    if loss < GOOD_BELOW:
        if card_points_loss >= CARD_POINTS_SLIP and card_points_loss >= INACCURACY_ERRORS * card_points_error:
            return "inaccuracy"
        return "good"
    if loss >= BLUNDER_FROM and loss >= BLUNDER_ERRORS * error:
        return "blunder"
    if loss >= MISTAKE_FROM and loss >= MISTAKE_ERRORS * error:
        return "mistake"
    if loss >= INACCURACY_ERRORS * error:
        return "inaccuracy"
    return "unclear"
