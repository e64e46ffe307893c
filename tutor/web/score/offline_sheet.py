"""A score sheet offline: what a sheet's pages carry so that a phone without a connection can
show the deals typed on it and take the next ones (static/js/sheet.js walks it).

As with the calculator's table (offline.py), nothing of the rules is written here or in the
script: every number is what the engine answers when asked. In tutor.rules.sheet.play the
rotation (who deals and sits out, compulsory solos, vorgeführt, rounds) and the Bock rounds
do not depend on each other, so each is a small table: the courses the next deals can reach
from the sheet as it stands, and where a deal of each kind leads. Only an announced solo can
send the rotation elsewhere, and only by its soloist; only whether a deal starts Bock moves
the Bock rounds. The script walks both tables with the deals kept on the phone, looks each
deal's score up in the calculator's table (or, entered quickly, in the engine's quick scores
for a value of 1), and writes for each player the score of his party times the multiplier.
tests/web/test_sheet_offline.py runs the script against the engine's own evening.

Language-free: ids and numbers only; the words come with the page.
"""
from __future__ import annotations

import heapq
from collections.abc import Hashable, Sequence
from typing import Any, Final

from tutor.rules.announcements import PARTIES, announcement_choices
from tutor.rules.cards import DECK_POINTS
from tutor.rules.games import played_games
from tutor.rules.reservations import ANNOUNCED_SOLOS
from tutor.rules.rulesets import RuleSet
from tutor.rules.scoring import Score, quick_score
from tutor.rules.sheet import (
    Course,
    Deal,
    Row,
    ahead,
    bock_multiplier,
    next_bock_rounds,
    play,
    re_players_wanted,
    seating,
    triggers_bock,
)
from tutor.rules.terms import Party

# The rotation's table stops after this many courses, or this many deals ahead: at seven
# players of the DDV rules that is about seven deals (every owing player may play his solo
# in any of them); at four, a whole round; without compulsory solos the rotation is a circle
# of one course per dealer and never ends. Deals beyond it are still kept and sent: the
# script then leaves their dealer to the table and to the server.
MAX_TURNS: Final = 240
MAX_DEPTH: Final = 48
# A deal that sends the rotation nowhere else, and an announced solo (every one of them
# counts as the compulsory solo alike: tutor.rules.sheet.play).
PLAIN: Final = "-"
# The table holds every way the next EVERY_WAY deals can go; further on, each compulsory solo
# on the way costs it as much reach as SOLO_COST deals without one (see rotation).
EVERY_WAY: Final = 4
SOLO_COST: Final = 3


def _flags(row: Row) -> int:
    """0, or 1 for a compulsory solo, 2 for one that was vorgeführt."""
    return 2 if row.vorgefuehrt else 1 if row.compulsory else 0


def rotation(rules: RuleSet, players: int, course: Course) -> list[list[Any]]:
    """The rotation's table, the sheet's next deal first: each course as [dealer, solos owed,
    vorgeführt (or None), round, deals left in it, {key: [course or None, flags]}], the key
    PLAIN for any deal but an announced solo whose soloist leads elsewhere, and his number
    for those. None: past the table's end."""
    rounds, owing = rules.has_rounds, rules.has_compulsory_solos

    def ident(c: Course) -> Hashable:
        # Without rounds the count of deals is never read, without compulsory solos the owed.
        return (c.count if rounds else 0, c.dealer, c.owed if owing else frozenset())

    zeros = (0,) * players
    start = Course(course.count, course.dealer, course.owed, ())
    # Every course of the next few deals, then the likely ones first: the table reaches further
    # along deals without a compulsory solo (most deals) than along those with many (each
    # player plays one a round).
    found: dict[Hashable, int] = {ident(start): 0}
    courses = [start]
    waiting: list[tuple[int, int, int, int]] = [(0, 0, 0, 0)]  # (cost, order found, deals ahead, solos)
    edges_of: dict[Hashable, dict[str, tuple[Course, int]]] = {}
    taken: list[Hashable] = []
    while waiting and len(taken) < MAX_TURNS:
        _cost, order, depth, solos = heapq.heappop(waiting)
        at = courses[order]
        key = ident(at)
        taken.append(key)
        playing = seating(players, at.dealer)[0]
        row, after = play(rules, players, False, at, Deal.quick_entry("normal", at.dealer, playing[:2], "re", 1),
                          zeros)
        edges = {PLAIN: (after, _flags(row))}
        for soloist in playing:
            solo = Deal.quick_entry(ANNOUNCED_SOLOS[0], at.dealer, (soloist,), "re", 1)
            solo_row, solo_after = play(rules, players, False, at, solo, zeros)
            if ident(solo_after) != ident(after) or _flags(solo_row) != _flags(row):
                edges[str(soloist)] = (solo_after, _flags(solo_row))
        edges_of[key] = edges
        for next_course, flags in edges.values():
            next_key = ident(next_course)
            if next_key not in found and depth < MAX_DEPTH:
                found[next_key] = len(courses)
                courses.append(next_course)
                more = solos + bool(flags)
                cost = depth + 1 if depth + 1 <= EVERY_WAY else depth + 1 + SOLO_COST * more
                heapq.heappush(waiting, (cost, len(courses) - 1, depth + 1, more))
    numbers = {key: n for n, key in enumerate(taken)}
    nodes: list[list[Any]] = []
    for key in taken:
        next_deal = ahead(rules, players, courses[found[key]])
        edges_out = {name: [numbers.get(ident(c)), flags] for name, (c, flags) in edges_of[key].items()}
        nodes.append([next_deal.dealer, list(next_deal.solos_owed), next_deal.vorgefuehrt, next_deal.round_number,
                      next_deal.deals_left_in_round, edges_out])
    return nodes


def bock_table(players: int, bock_rounds: Sequence[int], bock: bool) -> list[list[int]]:
    """The Bock rounds' table, the next deal first: [multiplier, then after a deal that starts
    no Bock round, after one that starts one]. Finite: each running round has at most one
    deal per player to go, and one deal starts at most one round."""
    start = tuple(bock_rounds)
    numbers = {start: 0}
    order = [start]
    nodes: list[list[int]] = []
    for rounds in order:  # grows while it is read
        follow = []
        for trigger in (False, bock):
            after = next_bock_rounds(rounds, trigger, players)
            if after not in numbers:
                numbers[after] = len(order)
                order.append(after)
            follow.append(numbers[after])
        nodes.append([bock_multiplier(rounds), *follow])
    return nodes


def _spans(points: list[int]) -> list[list[int]]:
    """Sorted card points as [first, last] runs."""
    spans: list[list[int]] = []
    for p in points:
        if spans and spans[-1][1] == p - 1:
            spans[-1][1] = p
        else:
            spans.append([p, p])
    return spans


def bock_triggers() -> dict[str, Any]:
    """Which deals entered with card points start a Bock round, asked of the engine for each
    winner, each pair of announcements and each of Re's card points (what it looks at):
    runs of Re's card points per "winner|Re's|Kontra's" (the winner "" for nobody, an
    announcement "" for none); the most common runs once, as the default."""
    found: dict[str, tuple[tuple[int, int], ...]] = {}
    winners: tuple[Party | None, ...] = ("re", "kontra", None)
    for winner in winners:
        for re_said in (None, *announcement_choices("re")):
            for kontra_said in (None, *announcement_choices("kontra")):
                result = Score(winner, 0, 0, (), 0, {"re": 0, "kontra": 0})
                points = [p for p in range(DECK_POINTS + 1)
                          if triggers_bock(Deal("normal", p, 0, 0, (0, 1), re_said, kontra_said), result)]
                key = "|".join((winner or "", re_said or "", kontra_said or ""))
                found[key] = tuple((a, b) for a, b in _spans(points))
    lists = sorted(set(found.values()))
    default = max(lists, key=lambda spans: sum(1 for v in found.values() if v == spans))
    return {"spans": [[list(s) for s in spans] for spans in lists], "default": lists.index(default),
            "cells": {key: lists.index(spans) for key, spans in found.items() if spans != default}}


def quick_units(rules: RuleSet) -> dict[str, Any]:
    """What each party writes in a quick deal of value 1, by game and winner (the engine's
    quick_score: a deal of value n writes n times as much)."""
    units: list[list[list[int]]] = []
    games: dict[str, int] = {}
    for game in played_games(rules):
        unit = [[quick_score(game, winner, 1).scores[p] for p in PARTIES] for winner in PARTIES]
        if unit not in units:
            units.append(unit)
        games[game] = units.index(unit)
    return {"games": games, "units": units}


def outlook(rules: RuleSet, players: int, bock: bool, course: Course) -> dict[str, Any]:
    """Everything the script needs of the rules for the next deals of one sheet."""
    data: dict[str, Any] = {
        "players": players,
        "seating": [[list(part) for part in seating(players, dealer)] for dealer in range(players)],
        "turns": rotation(rules, players, course),
        "bock": bock_table(players, course.bock_rounds, bock),
        "solo_games": [game for game in played_games(rules) if game in ANNOUNCED_SOLOS],
        "re_count": {game: re_players_wanted(game) for game in played_games(rules)},
        "quick": quick_units(rules),
    }
    if bock:
        data["triggers"] = bock_triggers()
    return data
