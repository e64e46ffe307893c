"""The calculator offline: a table of the engine's answers, served as JSON and looked up on
the device by static/js/score-table.js when there is no connection.

Nothing of the rules is written here or in the script: every number in the table is what
the engine answers when asked. The table is small because the engine's answers repeat: Re's
card points fall into bands in which every answer is the same (found by asking the engine
for each of 0..240), games that score alike share one column, and the extra points, which
only ever add a line of their own, are asked once each. tests/web/test_score_offline.py runs
the script against the engine for the inputs the form can send, under both rule sets and
each house option.

When a deal cannot happen, the table also holds the engine's own error for each check the
engine makes (code, the form's field, the message's values), so the phone names the field
and says why in the words the server would use; the script only knows in which order to
look the checks up, and the test holds that order to the engine's answers.
"""
from __future__ import annotations

import hashlib
from functools import lru_cache
from itertools import product
from pathlib import Path
from typing import Any, Final

from tutor.rules.announcements import PARTIES, announcement_choices
from tutor.rules.cards import DECK_POINTS
from tutor.rules.errors import RulesError
from tutor.rules.games import GAMES, check_game, is_normal_type
from tutor.rules.rulesets import RuleSet
from tutor.rules.scoring import (
    EXTRAS,
    check_summary,
    counted_extras,
    default_re_tricks,
    extra_max,
    fitting_re_tricks,
    schwarz_summary,
    score,
)
from tutor.rules.terms import Party
from tutor.web.score.form import field_name

# The rules the table depends on: the rule set, the deck (tricks, schwarz) and the extras it
# counts. Other house options do not change what a deal scores; the test checks that.
VARIANT_OPTIONS: Final = ("deck", "karlchen")
# The errors the form itself finds before it asks the engine (tutor/web/score/form.py), which
# the script finds the same way; with the engine's codes in a table, the ones it has words for.
FORM_CODES: Final = ("not_a_number", "out_of_range", "unknown_choice", "schwarz_tricks")
ENGINE_CODES: Final = ("points_do_not_fit_tricks", "points_need_schwarz", "too_many_extras", "extras_need_tricks",
                       "extras_need_points", "karlchen_both_parties", "poverty_not_played")


@lru_cache(maxsize=1)
def version() -> str:
    """A short hash of the engine and of this module and the words (the calculator's, the
    form's messages, the catalogs): a new one means a new table URL, so no phone keeps
    answers an older engine gave or words an older page used."""
    digest = hashlib.sha256()
    root = Path(__file__).resolve().parents[2]
    here = Path(__file__).resolve().parent
    sources = [*(root / "rules").rglob("*.py"), Path(__file__), here / "calculator.py", here / "form.py",
               root / "web" / "words" / "errors.py", *(root.parent / "translations").rglob("*.po")]
    for path in sorted(sources):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def variant_key(rules: RuleSet) -> str:
    """The table a visitor's rules need: ``ddv-48-win``."""
    return "-".join([rules.ruleset, *(str(getattr(rules, option)) for option in VARIANT_OPTIONS)])


def variant_rules(key: str) -> RuleSet:
    """The rules of a variant key; ValueError for one that is not known."""
    for candidate in _variants():
        if variant_key(candidate) == key:
            return candidate
    raise ValueError(f"unknown offline table {key!r}")


@lru_cache(maxsize=1)
def _variants() -> tuple[RuleSet, ...]:
    from tutor.rules.rulesets import OPTION_CHOICES, RULESETS

    found: dict[str, RuleSet] = {}
    for ruleset in RULESETS:
        for values in product(*(OPTION_CHOICES[o] for o in VARIANT_OPTIONS)):
            rules = RuleSet.named(ruleset).with_options(**dict(zip(VARIANT_OPTIONS, values, strict=True)),
                                                       poverty=True)
            found.setdefault(variant_key(rules), rules)
    return tuple(found.values())


def _levels(party: Party) -> list[str | None]:
    return [None, *announcement_choices(party)]


def _game_lines(rules: RuleSet, game: str, points: int, tricks: int, re_said: str | None,
                kontra_said: str | None) -> tuple[Any, ...]:
    result = score(rules, game, points, tricks, re_said, kontra_said)
    return (result.winner, tuple((line.id, line.party, line.points) for line in result.lines),
            result.scores["re"], result.scores["kontra"])


def _fits(rules: RuleSet, points: int, tricks: int, extras: dict[str, dict[str, int]] | None = None,
          game: str = "normal") -> bool:
    return _refusal(rules, points, tricks, extras, game) is None


def _refusal(rules: RuleSet, points: int, tricks: int, extras: dict[str, dict[str, int]] | None = None,
             game: str = "normal") -> RulesError | None:
    """The engine's error for this summary, or None when it could happen."""
    try:
        check_summary(rules, game, points, tricks, extras or {})
    except RulesError as error:
        return error
    return None


def error_entry(error: RulesError) -> tuple[Any, ...]:
    """An engine error as the table keeps it: code, the form's field, the message's values."""
    return (error.code, field_name(error.field), tuple(sorted(error.params.items())))


@lru_cache(maxsize=16)
def build(key: str) -> dict[str, Any]:
    """The table of one variant (language-free: ids and numbers only)."""
    rules = variant_rules(key)
    tricks = rules.tricks
    states = (0, 1, tricks)  # Re took no trick, some, every trick: the engine's tricks
    levels = {p: _levels(p) for p in PARTIES}
    pairs = [(r, k) for r in levels["re"] for k in levels["kontra"]]

    # Games that score alike on a probe share a column; the test checks every game in full.
    def probe(game: str) -> tuple[Any, ...]:
        return tuple(_game_lines(rules, game, p, s, r, k) for p in range(0, DECK_POINTS + 1, 3) for s in states
                     for r, k in pairs[::4]) + (score(rules, game, 150, 5, None, None, {"re": {"fox": 1}}).value,)

    columns: dict[tuple[Any, ...], int] = {}
    game_column: dict[str, int] = {}
    representative: list[str] = []
    for game in GAMES:
        signature = probe(game)
        if signature not in columns:
            columns[signature] = len(representative)
            representative.append(game)
        game_column[game] = columns[signature]

    # Each distinct answer once, each distinct line (id, party, points) once: the answers
    # are lists of line numbers, which keeps the table small.
    answers: dict[tuple[Any, ...], int] = {}
    answer_list: list[Any] = []
    line_numbers: dict[tuple[Any, ...], int] = {}
    line_list: list[Any] = []
    winners: list[Party | None] = ["re", "kontra", None]

    def answer_id(answer: tuple[Any, ...]) -> int:
        if answer not in answers:
            answers[answer] = len(answer_list)
            winner, lines, re_score, kontra_score = answer
            numbers = []
            for line in lines:
                if line not in line_numbers:
                    line_numbers[line] = len(line_list)
                    line_list.append(list(line))
                numbers.append(line_numbers[line])
            answer_list.append([winners.index(winner), re_score, kontra_score, *numbers])
        return answers[answer]

    # Re's points into bands: consecutive points with the same answer everywhere.
    per_points = [tuple(answer_id(_game_lines(rules, game, p, s, r, k)) for game in representative
                        for s in states for r, k in pairs) for p in range(DECK_POINTS + 1)]
    band_starts = [p for p in range(DECK_POINTS + 1) if p == 0 or per_points[p] != per_points[p - 1]]
    width = len(states) * len(pairs)
    grid = [[list(per_points[start][c * width:(c + 1) * width]) for start in band_starts]
            for c in range(len(representative))]

    # Which games count extra points: an extra adds its own line there, and nothing else.
    counts_extras = [score(rules, game, 150, 5, None, None, {"re": {"fox": 1}}).value
                     != score(rules, game, 150, 5).value for game in representative]

    # Which card points fit each number of tricks (no extras): an interval per count.
    fit = []
    for t in range(tricks + 1):
        good = [p for p in range(DECK_POINTS + 1) if _fits(rules, p, t)]
        fit.append([good[0], good[-1]] if good else None)

    extras = list(counted_extras(rules))
    extra_top = {e: extra_max(e, rules) for e in extras}
    # For each party's extras alone (the other party none) and its tricks: the fewest card
    # points of its own it needs (None: impossible at that many tricks).
    combos = list(product(*(range(extra_top[e] + 1) for e in extras)))
    need: dict[str, list[list[int | None]]] = {}
    for party in PARTIES:
        table: list[list[int | None]] = []
        for combo in combos:
            counts: dict[str, int] = {e: n for e, n in zip(extras, combo, strict=True) if n}
            row: list[int | None] = []
            for won in range(tricks + 1):
                t = won if party == "re" else tricks - won
                interval = fit[t]
                if interval is None:
                    row.append(None)
                    continue
                own = sorted((p if party == "re" else DECK_POINTS - p) for p in range(interval[0], interval[1] + 1))
                row.append(_fewest(rules, party, counts, t, own))
            table.append(row)
        need[party] = table
    # Each distinct engine error once; the checks below name them by number.
    error_numbers: dict[tuple[Any, ...], int] = {}

    def error_id(error: RulesError) -> int:
        entry = error_entry(error)
        return error_numbers.setdefault(entry, len(error_numbers))

    # The error where the points do not fit the tricks (the same at every such point).
    fit_error = []
    for t in range(tricks + 1):
        outside = next(p for p in range(DECK_POINTS + 1) if not _fits(rules, p, t))
        refusal = _refusal(rules, outside, t)
        assert refusal is not None
        fit_error.append(error_id(refusal))
    # And the error for a party's extras alone where its card points fall short of `need`
    # (or at every point, where `need` has none): rows of it, each distinct row once.
    row_numbers: dict[tuple[int | None, ...], int] = {}
    need_error: dict[str, list[int]] = {}
    for party in PARTIES:
        rows_of_party = []
        # The party's own card points that fit each count of its own tricks, fewest first.
        owns = []
        for won in range(tricks + 1):
            interval = fit[won if party == "re" else tricks - won]
            owns.append([] if interval is None else sorted(
                (p if party == "re" else DECK_POINTS - p) for p in range(interval[0], interval[1] + 1)))
        for combo_index, combo in enumerate(combos):
            counts = {e: n for e, n in zip(extras, combo, strict=True) if n}
            row_errors: list[int | None] = []
            for won in range(tricks + 1):
                t = won if party == "re" else tricks - won
                own, fewest = owns[won], need[party][combo_index][won]
                short = own if fewest is None else [q for q in own if q < fewest]
                if not short:
                    row_errors.append(None)
                    continue
                q = short[-1]
                refusal = _refusal(rules, q if party == "re" else DECK_POINTS - q, t, {party: counts})
                assert refusal is not None
                row_errors.append(error_id(refusal))
            rows_of_party.append(row_numbers.setdefault(tuple(row_errors), len(row_numbers)))
        need_error[party] = rows_of_party
    # Extras of both parties together (no doppelkopf): the engine's error, asked at a deal where
    # both took tricks and card points, and whether the engine finds it before it looks at
    # each party's own extras (the same error where one party took no trick) or after.
    no_dk = [c for c in combos if dict(zip(extras, c, strict=True)).get("doppelkopf", 0) == 0]
    mid = tricks // 2
    together = {}
    for re_combo in no_dk:
        for kontra_combo in no_dk:
            both: dict[str, dict[str, int]] = {"re": {e: n for e, n in zip(extras, re_combo, strict=True) if n},
                    "kontra": {e: n for e, n in zip(extras, kontra_combo, strict=True) if n}}
            refusal = _refusal(rules, 120, mid, both)
            if refusal is None:
                continue
            probes = [(0, 0)] if both["re"] else []
            probes += [(DECK_POINTS, tricks)] if both["kontra"] else []
            first = all(error_entry(_refusal(rules, p, t, both) or refusal) == error_entry(refusal)
                        for p, t in probes)
            together[f"{combos.index(re_combo)}:{combos.index(kontra_combo)}"] = [error_id(refusal), int(first)]
    # Re's tricks when the table did not say: the engine tries the count it would guess first,
    # and its error there is the answer (or that only schwarz gives these points).
    guess = [min(max(default_re_tricks(rules, p), 1), tricks - 1) for p in range(DECK_POINTS + 1)]
    schwarz_only = {}
    for p in range(DECK_POINTS + 1):
        try:
            fitting_re_tricks(rules, "normal", p, {})
        except RulesError as error:
            schwarz_only[str(p)] = error_id(error)
    refused_games = {}
    without = rules.with_options(poverty=False)
    for game in GAMES:
        try:
            check_game(game, without)
        except RulesError as error:
            refused_games[game] = error_id(error)
    return {
        "key": key,
        "deck_points": DECK_POINTS,
        "tricks": tricks,
        "games": {game: game_column[game] for game in GAMES},
        "levels": {p: [said or "" for said in levels[p]] for p in PARTIES},
        "states": list(states),
        "band_starts": band_starts,
        "grid": grid,  # [column][band][state * pairs + re level * kontra levels + kontra level]
        "winners": winners,
        "answers": answer_list,  # [winner number, Re writes, Kontra writes, line number, ...]
        "lines": line_list,  # [line id, party, points]
        "counts_extras": counts_extras,
        "schwarz": {p: list(schwarz_summary(rules, p)) for p in PARTIES},
        "fit": fit,
        "extras": extras,
        "extra_max": extra_top,
        "need": need,  # [party][combo][own tricks]: fewest own card points, or null
        "refused_together": together,  # "re combo:kontra combo": [error, found before each party's own]
        "all_extras": list(EXTRAS),
        "checks_extras": {game: is_normal_type(game) for game in GAMES},
        "errors": [[code, field, dict(params)] for code, field, params in error_numbers],  # [code, field, values]
        "fit_error": fit_error,  # [Re's tricks]: the error where the points do not fit them
        "need_error": need_error,  # [party][combo]: a row of need_error_rows
        "need_error_rows": [list(row) for row in row_numbers],  # [own tricks]: error below `need`, or null
        "guess": guess,  # [Re's points]: the tricks the engine tries first when none are given
        "schwarz_only": schwarz_only,  # {Re's points: error}: no count of tricks but 0 or all fits them
        "refused_games": refused_games,  # {game: error} where the rules do not play it
    }


def _fewest(rules: RuleSet, party: str, counts: dict[str, int], tricks: int, own: list[int]) -> int | None:
    """The fewest of ``own`` card points (sorted) at which the engine takes these extras;
    the engine's answer is the same for every larger number (checked by the test)."""
    def ok(q: int) -> bool:
        points = q if party == "re" else DECK_POINTS - q
        return _fits(rules, points, tricks, {party: counts} if counts else None)

    if not own or not ok(own[-1]):
        return None
    low, high = 0, len(own) - 1
    while low < high:
        middle = (low + high) // 2
        if ok(own[middle]):
            high = middle
        else:
            low = middle + 1
    return own[low]


