"""Who wins a deal and what it scores, as named lines (RULES.md §7–§10).

>>> ddv = RuleSet.named("ddv")
>>> s = score(ddv, "normal", re_points=156, re_tricks=8, extras={"re": {"fox": 1}, "kontra": {"doppelkopf": 1}})
>>> s.winner, s.value, s.scores
('re', 2, {'re': 2, 'kontra': -2})
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import accumulate
from typing import Any, Final

from tutor.rules.announcements import NONE, SCHWARZ, THRESHOLDS, level_of, other
from tutor.rules.cards import DECK_POINTS, POINTS, deck
from tutor.rules.errors import RulesError
from tutor.rules.games import is_normal_type, is_solo
from tutor.rules.rulesets import RuleSet
from tutor.rules.terms import EXTRA_IDS, LINE_ID_LIST, AnnouncementId, Extra, Game, LineId, Party

# Every line id, in the order a score sheet lists them (API.md).
LINE_IDS: Final[tuple[LineId, ...]] = LINE_ID_LIST
EXTRAS: Final[tuple[Extra, ...]] = EXTRA_IDS
# Most of each extra one party can have (API.md); doppelkopf is capped by tricks instead.
EXTRA_MAX: Final[dict[str, int]] = {"fox": 2, "karlchen": 1, "karlchen_caught": 2}
# Reached against an announced level: the line and the card points it takes (RULES.md §8).
REACHED: Final[dict[int, tuple[LineId, int]]] = {
    1: ("reached_120_against_no_90", 120),
    2: ("reached_90_against_no_60", 90),
    3: ("reached_60_against_no_30", 60),
    4: ("reached_30_against_schwarz", 30),
}
SOLO_FACTOR: Final = 3  # a soloist plays against three and writes three times the value
PARTY_ORDER: Final[tuple[Party, ...]] = ("re", "kontra")
_PARTY_ORDER: Final[dict[Party, int]] = {"re": 0, "kontra": 1}
_LINE_ORDER: Final = {line_id: i for i, line_id in enumerate(LINE_IDS)}
# Each (line, party) key by its place on the sheet: by line, Re before Kontra.
_SHEET_ORDER: Final[dict[tuple[LineId, Party], int]] = {
    (line_id, party): 2 * i + _PARTY_ORDER[party] for line_id, i in _LINE_ORDER.items() for party in PARTY_ORDER
}
_BELOW: Final[tuple[tuple[LineId, int], ...]] = (("below_90", 90), ("below_60", 60), ("below_30", 30))
_ANNOUNCED: Final[dict[int, LineId]] = {1: "no_90_announced", 2: "no_60_announced", 3: "no_30_announced",
                                        4: "schwarz_announced"}


@dataclass(frozen=True, slots=True)
class Line:
    """One line of the score: its id, the party that earns it and its points."""

    id: LineId
    party: Party
    points: int


@dataclass(frozen=True, slots=True)
class Score:
    """The result of a deal: winner (None when nobody won), the lines, Re's net value and
    what one player of each party writes on the sheet."""

    winner: Party | None
    re_points: int
    re_tricks: int
    lines: tuple[Line, ...]
    value: int
    scores: dict[Party, int] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "re_points": self.re_points,
            "re_tricks": self.re_tricks,
            "lines": [{"id": line.id, "party": line.party, "points": line.points} for line in self.lines],
            "value": self.value,
            "scores": dict(self.scores),
        }


def meets(level: int, opponent_points: int, opponent_tricks: int) -> bool:
    """Whether a party that announced ``level`` (above 0) holds it: the opponents stayed
    below 90/60/30 card points, or for schwarz took no trick."""
    if level == SCHWARZ:
        return opponent_tricks == 0
    return opponent_points < THRESHOLDS[level]


def who_wins(re_points: int, re_tricks: int, tricks: int, re_level: int, kontra_level: int) -> Party | None:
    """The winning party, or None when both announced a level above 0 and neither met it
    (RULES.md §10, "Who wins"). A soloist counts as Re."""
    kontra_points, kontra_tricks = DECK_POINTS - re_points, tricks - re_tricks
    re_meets = re_level > 0 and meets(re_level, kontra_points, kontra_tricks)
    kontra_meets = kontra_level > 0 and meets(kontra_level, re_points, re_tricks)
    if re_level > 0 and kontra_level > 0:
        return "re" if re_meets else "kontra" if kontra_meets else None
    if re_level > 0:
        return "re" if re_meets else "kontra"
    if kontra_level > 0:
        return "kontra" if kontra_meets else "re"
    # "Kontra" alone moves the line: Re then wins with 120 (RULES.md §7).
    needed = 120 if kontra_level == 0 and re_level == NONE else 121
    return "re" if re_points >= needed else "kontra"


class _Tally:
    """The facts of a deal seen from each party, and the lines collected so far."""

    def __init__(self, re_points: int, re_tricks: int, tricks: int, re_level: int, kontra_level: int) -> None:
        self.points: dict[Party, int] = {"re": re_points, "kontra": DECK_POINTS - re_points}
        self.tricks: dict[Party, int] = {"re": re_tricks, "kontra": tricks - re_tricks}
        self.levels: dict[Party, int] = {"re": re_level, "kontra": kontra_level}
        self.lines: dict[tuple[LineId, Party], int] = {}

    def add(self, line_id: LineId, party: Party, points: int = 1) -> None:
        if points:
            self.lines[line_id, party] = self.lines.get((line_id, party), 0) + points

    def below(self, party: Party) -> None:
        """The lines for the opponents staying below 90/60/30 and taking no trick."""
        opponent = other(party)
        points = self.points[opponent]
        for line_id, threshold in _BELOW:
            if points < threshold:
                self.add(line_id, party)
        if self.tricks[opponent] == 0:
            self.add("schwarz", party)

    def reached(self, party: Party) -> None:
        """ddv: 120 against the opponents' no 90, 90 against no 60, and so on."""
        announced = self.levels[other(party)]
        for level in range(1, announced + 1):
            line_id, needed = REACHED[level]
            if self.points[party] >= needed:
                self.add(line_id, party)

    def announced(self, winner: Party, counted_for: tuple[Party, ...]) -> None:
        """2 for each "Re" and "Kontra", 1 for each announced level of the parties named."""
        levels = self.levels
        own: tuple[tuple[Party, LineId], ...] = (("re", "re_announced"), ("kontra", "kontra_announced"))
        for party, line_id in own:
            if levels[party] >= 0:
                self.add(line_id, winner, 2)
        for level in range(1, max([levels[p] for p in counted_for]) + 1):
            self.add(_ANNOUNCED[level], winner, sum([levels[p] >= level for p in counted_for]))

    def sorted_lines(self) -> tuple[Line, ...]:
        lines = self.lines
        keys = sorted(lines, key=_SHEET_ORDER.__getitem__)
        return tuple([Line(line_id, party, lines[line_id, party]) for line_id, party in keys])

    def value(self) -> int:
        """Re's net value: the points of Re's lines less those of Kontra's."""
        value = 0
        for (_, party), points in self.lines.items():
            value += points if party == "re" else -points
        return value


def _ddv_game_lines(tally: _Tally, game: str, winner: Party | None) -> None:
    if winner is None:
        # Nobody won: won, the old ones and the announcement lines lapse; each party keeps
        # what it achieved against the other (RULES.md §10).
        for party in ("re", "kontra"):
            tally.below(party)
            tally.reached(party)
        return
    tally.add("won", winner)
    if winner == "kontra" and is_normal_type(game):
        tally.add("against_the_old_ones", winner)
    tally.below(winner)
    tally.announced(winner, ("re", "kontra"))  # TSR: every announced level, by either party
    tally.reached(winner)


def _pagat_game_lines(tally: _Tally, game: str, winner: Party | None) -> None:
    if winner is None:
        return  # pagat: no game points at all when nobody wins
    loser = other(winner)
    tally.add("won", winner)
    if winner == "kontra" and is_normal_type(game):
        tally.add("against_the_old_ones", winner)
    tally.below(winner)
    tally.announced(winner, (winner,))
    for level in range(1, tally.levels[loser] + 1):
        # Seed 001: 2 for each level the losers announced and missed.
        if not meets(level, tally.points[winner], tally.tricks[winner]):
            tally.add("failed_announcement", winner, 2)


def _extra_lines(tally: _Tally, rules: RuleSet, extras: Mapping[str, Mapping[str, int]]) -> None:
    counted = counted_extras(rules)
    for party in PARTY_ORDER:
        counts = extras.get(party)
        if counts:
            for extra in counted:
                tally.add(extra, party, counts.get(extra, 0))


def score(
    rules: RuleSet,
    game: str,
    re_points: int,
    re_tricks: int,
    re_announced: str | None = None,
    kontra_announced: str | None = None,
    extras: Mapping[str, Mapping[str, int]] | None = None,
) -> Score:
    """Score a deal from its summary: Re's card points and tricks, each party's highest
    announcement, each party's extra points. Input is assumed valid (see check_summary)."""
    winner, tally = _tally(rules, game, re_points, re_tricks, re_announced, kontra_announced, extras)
    value = tally.value()
    re_score = SOLO_FACTOR * value if is_solo(game) else value
    return Score(winner, re_points, re_tricks, tally.sorted_lines(), value, {"re": re_score, "kontra": -value})


def sheet_scores(
    rules: RuleSet,
    game: str,
    re_points: int,
    re_tricks: int,
    re_announced: str | None = None,
    kontra_announced: str | None = None,
    extras: Mapping[str, Mapping[str, int]] | None = None,
) -> tuple[int, int]:
    """What one Re and one Kontra player write on the sheet: ``score(...).scores`` from the
    same lines, without naming them (the analysis scores thousands of deals a second). The
    game's lines are those of ``_game_value``, kept for each summary; the extra points add
    their count, Re's less Kontra's."""
    re_level = level_of(re_announced, "re", "announcements.re")
    kontra_level = level_of(kontra_announced, "kontra", "announcements.kontra")
    value = _game_value(rules.ruleset, rules.tricks, game, re_points, re_tricks, re_level, kontra_level)
    if extras and is_normal_type(game):  # extra points never count in a solo
        counted = counted_extras(rules)
        for party, sign in (("re", 1), ("kontra", -1)):
            counts = extras.get(party)
            if counts:
                for extra, count in counts.items():
                    if extra in counted:
                        value += sign * count
    return (SOLO_FACTOR * value if is_solo(game) else value), -value


@lru_cache(maxsize=16384)
def _game_value(ruleset: str, tricks: int, game: str, re_points: int, re_tricks: int, re_level: int,
                kontra_level: int) -> int:
    """Re's net value of the game's lines (all but the extra points), which depend on no
    more than these: a few hundred summaries make nearly every deal of an analysis."""
    winner = who_wins(re_points, re_tricks, tricks, re_level, kontra_level)
    tally = _Tally(re_points, re_tricks, tricks, re_level, kontra_level)
    if ruleset == "pagat":
        _pagat_game_lines(tally, game, winner)
    else:
        _ddv_game_lines(tally, game, winner)
    return tally.value()


def _tally(
    rules: RuleSet,
    game: str,
    re_points: int,
    re_tricks: int,
    re_announced: str | None,
    kontra_announced: str | None,
    extras: Mapping[str, Mapping[str, int]] | None,
) -> tuple[Party | None, _Tally]:
    """The winner and every line the deal scores."""
    re_level = level_of(re_announced, "re", "announcements.re")
    kontra_level = level_of(kontra_announced, "kontra", "announcements.kontra")
    winner = who_wins(re_points, re_tricks, rules.tricks, re_level, kontra_level)
    tally = _Tally(re_points, re_tricks, rules.tricks, re_level, kontra_level)
    if rules.ruleset == "pagat":
        _pagat_game_lines(tally, game, winner)
    else:
        _ddv_game_lines(tally, game, winner)
    if is_normal_type(game):  # extra points never count in a solo
        _extra_lines(tally, rules, extras or {})
    return winner, tally


def quick_score(game: str, winner: Party, value: int) -> Score:
    """A deal scored as on paper, without card points: the party whose players write the
    plus, and the value each of them writes; the soloist writes three times the value and the
    other side writes the minus. It has no lines (nothing was counted) and no card points.

    >>> quick_score("normal", "re", 3).scores
    {'re': 3, 'kontra': -3}
    >>> s = quick_score("solo_queens", "kontra", 2)
    >>> s.winner, s.value, s.scores
    ('kontra', -2, {'re': -6, 'kontra': 2})
    """
    net = value if winner == "re" else -value
    re_score = SOLO_FACTOR * net if is_solo(game) else net
    return Score(winner, 0, 0, (), net, {"re": re_score, "kontra": -net})


@dataclass(frozen=True, slots=True)
class DealSummary:
    """What scoring needs to know of a deal: the game, Re's card points and tricks, each
    party's highest announcement and each party's extra points."""

    game: Game
    re_points: int
    re_tricks: int
    re_announced: AnnouncementId | None = None
    kontra_announced: AnnouncementId | None = None
    extras: Mapping[str, Mapping[str, int]] = field(default_factory=dict)

    def kwargs(self) -> dict[str, Any]:
        """The arguments of ``score()`` besides the rules."""
        return {
            "game": self.game,
            "re_points": self.re_points,
            "re_tricks": self.re_tricks,
            "re_announced": self.re_announced,
            "kontra_announced": self.kontra_announced,
            "extras": self.extras,
        }

    def score(self, rules: RuleSet) -> Score:
        """The deal's score under these rules (the summary is assumed valid)."""
        return score(rules, **self.kwargs())


@dataclass(frozen=True, slots=True)
class LineValue:
    """A line the rules can score: its id, what one of it is worth, and whether a solo can
    score it too (extra points and "against the old ones" never count in a solo)."""

    id: LineId
    points: int
    in_solo: bool


# Lines worth two each time (RULES.md §8): "Re" and "Kontra" announced; pagat: a missed
# announcement of the losers.
_DOUBLE_LINES: Final[frozenset[str]] = frozenset({"re_announced", "kontra_announced", "failed_announcement"})
_NORMAL_TYPE_ONLY: Final[frozenset[str]] = frozenset({"against_the_old_ones", *EXTRAS})


def scored_lines(rules: RuleSet) -> tuple[LineValue, ...]:
    """Every line these rules can score, in sheet order, with what one of it is worth: ddv
    counts what was reached against an announcement, pagat what the losers announced and
    missed; Karlchen caught counts only with its house option.

    >>> [line.id for line in scored_lines(RuleSet.named("pagat"))][-5:]
    ['failed_announcement', 'fox', 'doppelkopf', 'karlchen', 'karlchen_caught']
    """
    def exists(line_id: str) -> bool:
        if line_id.startswith("reached_"):
            return rules.ruleset == "ddv"
        if line_id == "failed_announcement":
            return rules.ruleset == "pagat"
        return line_id in counted_extras(rules) or line_id not in EXTRAS

    return tuple(
        LineValue(line_id, 2 if line_id in _DOUBLE_LINES else 1, line_id not in _NORMAL_TYPE_ONLY)
        for line_id in LINE_IDS if exists(line_id)
    )


def counted_extras(rules: RuleSet) -> tuple[Extra, ...]:
    """The extra points these rules count: Karlchen caught only with its house option."""
    return _COUNTED[rules.karlchen == "win_or_catch"]


_COUNTED: Final = {True: EXTRAS, False: tuple(e for e in EXTRAS if e != "karlchen_caught")}


def extra_max(extra: str, rules: RuleSet) -> int:
    """The most of one extra point one party can have in a deal (doppelkopf: one a trick)."""
    return EXTRA_MAX.get(extra, rules.tricks)


def schwarz_summary(rules: RuleSet, party: Party) -> tuple[int, int]:
    """Re's card points and tricks when ``party`` took every trick: the other party, with no
    trick, has no card points either."""
    return (DECK_POINTS, rules.tricks) if party == "re" else (0, 0)


def schwarz_party(rules: RuleSet, re_tricks: int) -> Party | None:
    """The party that took every trick, if one did."""
    return "re" if re_tricks == rules.tricks else "kontra" if re_tricks == 0 else None


def _point_bounds(deck_size: int) -> tuple[list[int], list[int]]:
    """Fewest and most card points that k tricks (4k cards) can hold, for k = 0..tricks."""
    values = sorted(POINTS[c] for c in deck(deck_size))
    low = [0, *accumulate(values)]
    high = [0, *accumulate(reversed(values))]
    return low[::4], high[::4]


_BOUNDS: Final = {size: _point_bounds(size) for size in (48, 40)}


def default_re_tricks(rules: RuleSet, re_points: int) -> int:
    """Re's tricks when only the card points are known: none with 0 points, all with 240,
    and otherwise a count that fits the points without making either party schwarz."""
    if re_points <= 0:
        return 0
    if re_points >= DECK_POINTS:
        return rules.tricks
    low, high = _BOUNDS[rules.deck]
    tricks = rules.tricks
    fitting = [
        k for k in range(1, tricks)
        if max(low[k], DECK_POINTS - high[tricks - k]) <= re_points <= min(high[k], DECK_POINTS - low[tricks - k])
    ]
    share = re_points * tricks / DECK_POINTS
    # No count fits points that no deal can give (1 point without nines): check_summary says so.
    return min(fitting or [max(1, min(tricks - 1, round(share)))], key=lambda k: abs(k - share))


def fitting_re_tricks(rules: RuleSet, game: str, re_points: int, extras: Mapping[str, Mapping[str, int]]) -> int:
    """Re's tricks when the table did not say: the count nearest ``default_re_tricks`` that
    the points and extra points fit, with both parties taking a trick (schwarz is said on
    its own). Tricks matter only for schwarz, so any fitting count scores the same.
    RulesError("points_need_schwarz") for points that only a schwarz deal can give."""
    tricks = rules.tricks
    guess = min(max(default_re_tricks(rules, re_points), 1), tricks - 1)
    first_error: RulesError | None = None
    for count in sorted(range(1, tricks), key=lambda k: abs(k - guess)):
        try:
            check_summary(rules, game, re_points, count, extras)
            return count
        except RulesError as error:
            first_error = first_error or error
    assert first_error is not None
    if first_error.code == "points_do_not_fit_tricks":
        raise RulesError("points_need_schwarz", "re_points")
    raise first_error


def check_summary(
    rules: RuleSet, game: str, re_points: int, re_tricks: int, extras: Mapping[str, Mapping[str, int]]
) -> None:
    """RulesError unless the summary could come from a real deal: points and tricks that fit
    together, and extra points that the tricks could hold."""
    tricks = rules.tricks
    if not 0 <= re_points <= DECK_POINTS:
        raise RulesError("out_of_range", "re_points", low=0, high=DECK_POINTS)
    if not 0 <= re_tricks <= tricks:
        raise RulesError("out_of_range", "re_tricks", low=0, high=tricks)
    low, high = _BOUNDS[rules.deck]
    kontra_tricks = tricks - re_tricks
    lowest = max(low[re_tricks], DECK_POINTS - high[kontra_tricks])
    highest = min(high[re_tricks], DECK_POINTS - low[kontra_tricks])
    if not lowest <= re_points <= highest:
        raise RulesError("points_do_not_fit_tricks", "re_points", tricks=re_tricks, low=lowest, high=highest)
    for party in ("re", "kontra"):
        for extra, count in extras.get(party, {}).items():
            top = EXTRA_MAX.get(extra, tricks)
            if not 0 <= count <= top:
                raise RulesError("out_of_range", f"extras.{party}.{extra}", low=0, high=top)
    if not is_normal_type(game):
        return  # extras are ignored in solos, so they cannot contradict anything there
    party_tricks = {"re": re_tricks, "kontra": kontra_tricks}
    totals = {e: sum(extras.get(p, {}).get(e, 0) for p in party_tricks) for e in EXTRAS}
    if totals["fox"] > 2:
        raise RulesError("too_many_extras", "extras.kontra.fox", extra="fox", most=2)
    if totals["karlchen"] + totals["karlchen_caught"] > 2 or totals["karlchen"] > 1:
        raise RulesError("too_many_extras", "extras.kontra.karlchen", extra="karlchen", most=2)
    for party, won in party_tricks.items():
        counts = extras.get(party, {})
        if counts.get("doppelkopf", 0) > won:
            raise RulesError("extras_need_tricks", f"extras.{party}.doppelkopf", extra="doppelkopf", tricks=won)
        if counts.get("doppelkopf", 0) * 40 > (re_points if party == "re" else DECK_POINTS - re_points):
            raise RulesError("extras_need_points", f"extras.{party}.doppelkopf", extra="doppelkopf")
        if counts.get("fox", 0) and not won:
            raise RulesError("extras_need_tricks", f"extras.{party}.fox", extra="fox", tricks=won)
        last_trick = counts.get("karlchen", 0) + counts.get("karlchen_caught", 0)
        if last_trick and not won:
            raise RulesError("extras_need_tricks", f"extras.{party}.karlchen", extra="karlchen", tricks=won)
    if all(extras.get(p, {}).get("karlchen", 0) + extras.get(p, {}).get("karlchen_caught", 0) for p in party_tricks):
        # Only one party takes the last trick.
        raise RulesError("karlchen_both_parties", "extras.kontra.karlchen")


@dataclass(frozen=True, slots=True)
class WorkedExample(DealSummary):
    """One worked example of RULES.md §8 (from seed 002): a deal's summary and what the DDV
    tournament rules make of it. The rules reference and the tests score these."""

    scores: Mapping[str, int] = field(default_factory=dict)  # under ddv: one Re, one Kontra player


WORKED_EXAMPLES: Final = (
    WorkedExample(
        "normal", 156, 8, None, None, {"re": {"fox": 1}, "kontra": {"doppelkopf": 1}}, {"re": 2, "kontra": -2}
    ),
    WorkedExample("normal", 120, 6, None, None, {}, {"re": -2, "kontra": 2}),
    WorkedExample("normal", 125, 7, "re", "kontra", {}, {"re": 5, "kontra": -5}),
    WorkedExample("normal", 145, 7, "no_90", None, {}, {"re": -5, "kontra": 5}),
    WorkedExample("solo_queens", 190, 10, "re", None, {}, {"re": 15, "kontra": -5}),
    WorkedExample("solo_jacks", 110, 5, None, None, {}, {"re": -3, "kontra": 1}),
)
