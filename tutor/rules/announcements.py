"""Announcements: levels, deadlines, replies, skipping, and what a player may say now.

Deadlines count the cards still in the announcer's hand (RULES.md §6, §10).

>>> ddv, pagat = RuleSet.named("ddv"), RuleSet.named("pagat")
>>> may_announce(ddv, "normal", "kontra", 10, None, "re")
['kontra', 'no_90', 'no_60', 'no_30', 'schwarz']
>>> may_announce(ddv, "normal", "re", 10, None, None)
['no_90', 'no_60', 'no_30', 'schwarz']
>>> may_announce(pagat, "normal", "re", 10, None, None)
[]
"""
from __future__ import annotations

from typing import Final

from tutor.rules.errors import RulesError
from tutor.rules.games import CLARIFICATION_TRICKS, WEDDINGS
from tutor.rules.rulesets import RuleSet
from tutor.rules.terms import LIMIT_IDS, PARTY_IDS, AnnouncementId, Game, Limit, Party

PARTIES: Final[tuple[Party, ...]] = PARTY_IDS
# Levels above 0; level 0 is the party's own name ("re" or "kontra").
LIMITS: Final[tuple[Limit, ...]] = LIMIT_IDS
_OWN_NAME: Final[dict[str, AnnouncementId]] = {"re": "re", "kontra": "kontra"}
SCHWARZ: Final = 4
NONE: Final = -1  # the level of a party that announced nothing
# Cards a player must still hold to announce each level, 48-card deck, no wedding (§6).
BASE_DEADLINES: Final = (11, 10, 9, 8, 7)
# What the opponents must stay below for each level above 0 to be met (schwarz: no trick).
THRESHOLDS: Final = {1: 90, 2: 60, 3: 30}
# The situations a deadline table has a column for: no wedding (None), then a wedding
# clarified in each of its clarification tricks.
DEADLINE_COLUMNS: Final[tuple[int | None, ...]] = (None, *range(1, CLARIFICATION_TRICKS + 1))


def announcement_id(level: int, party: str) -> AnnouncementId:
    """The id of a level for a party: level 0 is ``re`` or ``kontra``."""
    return _OWN_NAME[party] if level == 0 else LIMITS[level - 1]


def level_of(announcement: object, party: str, field: str = "announcement") -> int:
    """The level of an announcement id made by ``party``; NONE for None."""
    if announcement is None:
        return NONE
    if announcement == party:
        return 0
    if isinstance(announcement, str) and announcement in LIMITS:
        return LIMITS.index(announcement) + 1
    raise RulesError("unknown_announcement", field, value=str(announcement), party=party)


def other(party: str) -> Party:
    """The other party."""
    return "kontra" if party == "re" else "re"


def announcement_choices(party: str) -> tuple[AnnouncementId, ...]:
    """What a party can have announced, lowest first: its own name, then the limits."""
    return (_OWN_NAME[party], *LIMITS)


def wedding_clarification(
    game: Game | str, clarified_in_trick: int | None, field: str = "wedding_clarified_in_trick"
) -> int | None:
    """The trick in which a deal's wedding was clarified, as the deadlines count it: given
    for a declared wedding (0 while it is not yet clarified); for a wedding solo, the last
    clarification trick, unless given; None for a game without a wedding. RulesError when a
    wedding lacks it or another game has one.

    >>> wedding_clarification("wedding_solo", None), wedding_clarification("normal", None)
    (3, None)
    """
    if game not in WEDDINGS:
        if clarified_in_trick is not None:
            raise RulesError("wedding_only", field)
        return None
    if clarified_in_trick is None:
        if game == "wedding":
            raise RulesError("missing_field", field)
        # A wedding becomes a solo only once the groom has won the last clarification trick.
        return CLARIFICATION_TRICKS
    return clarified_in_trick


def shift(rules: RuleSet, wedding_clarified_in_trick: int | None = None) -> int:
    """How many cards later every deadline falls: the 40-card deck (two) and a wedding."""
    cards = 2 if rules.deck == 40 else 0
    if wedding_clarified_in_trick:
        # ddv: clarified in trick t moves the deadlines t - 1 cards; pagat (seed 001,
        # "reduced by as many tricks as were needed"): t cards. RULES.md §10.
        cards += wedding_clarified_in_trick - (1 if rules.ruleset == "ddv" else 0)
    return cards


def deadline(level: int, rules: RuleSet, wedding_clarified_in_trick: int | None = None) -> int:
    """The fewest cards a player may hold and still announce this level by its own deadline."""
    return BASE_DEADLINES[level] - shift(rules, wedding_clarified_in_trick)


def reply_deadline(opponent: int, rules: RuleSet, wedding_clarified_in_trick: int | None = None) -> int | None:
    """The fewest cards with which a party may still make its level-0 announcement in reply
    to the other party's highest announcement; None when there is nothing to reply to."""
    if opponent == NONE:
        return None
    # ddv: one card fewer than the replying party's own first announcement needs, whatever the
    # other party reached; pagat: one card fewer than the announcement being answered needed.
    answered = 0 if rules.ruleset == "ddv" else opponent
    return deadline(answered, rules, wedding_clarified_in_trick) - 1


def level_in_time(
    level: int, cards_in_hand: int, opponent: int, rules: RuleSet, wedding: int | None = None
) -> bool:
    """Whether this single level is in time by itself: its deadline, or for level 0 also
    the reply window."""
    if cards_in_hand >= deadline(level, rules, wedding):
        return True
    reply = reply_deadline(opponent, rules, wedding)
    return level == 0 and reply is not None and cards_in_hand >= reply


def may_announce_level(
    target: int, own: int, opponent: int, cards_in_hand: int, rules: RuleSet, wedding: int | None = None
) -> bool:
    """Whether a party at level ``own`` may announce up to ``target`` now, making every
    level in between at the same moment (RULES.md §10, "Skipping levels")."""
    if wedding == 0 or target <= own:
        return False  # before the clarification trick nobody announces
    for level in range(max(own + 1, 1), target + 1):
        if cards_in_hand < deadline(level, rules, wedding):
            return False  # a missed level above 0 is never made up
    if own == NONE and (target == 0 or rules.ruleset == "pagat"):
        # pagat: "each only after the preceding one", so level 0 must be in time itself;
        # ddv (seed 002): level 0 may ride along late with a level above it.
        return level_in_time(0, cards_in_hand, opponent, rules, wedding)
    return True


def may_announce(
    rules: RuleSet,
    game: str,
    party: str,
    cards_in_hand: int,
    own: str | None,
    opponent: str | None,
    wedding_clarified_in_trick: int | None = None,
) -> list[str]:
    """Every announcement the player may make now, each meaning "up to this level",
    lowest first. ``own``/``opponent``: the highest announcement of each party so far."""
    own_level = level_of(own, party, "own")
    opponent_level = level_of(opponent, other(party), "opponent")
    return [
        announcement_id(level, party)
        for level in range(SCHWARZ + 1)
        if may_announce_level(level, own_level, opponent_level, cards_in_hand, rules, wedding_clarified_in_trick)
    ]


def announce_until(
    target: int, own: int, opponent: int, cards_in_hand: int, rules: RuleSet, wedding: int | None = None
) -> int:
    """The fewest cards a player may hold and still announce up to ``target``, as things
    stand now (nobody announcing anything meanwhile): the "until" of an offer. Deadlines
    only ever close as cards are played, so this counts down while the offer holds.

    >>> ddv = RuleSet.named("ddv")
    >>> announce_until(2, NONE, NONE, 12, ddv)  # no 60 must come with no 90, due with 10 cards
    10
    """
    until = cards_in_hand
    while until > 0 and may_announce_level(target, own, opponent, until - 1, rules, wedding):
        until -= 1
    return until
