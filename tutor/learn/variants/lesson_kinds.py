"""Fresh positions of the quiz's kinds only lessons ask: a trick's extra points (``extras``),
whether a row could be on the sheet (``sheet_row``), who deals next (``dealer``), poverty."""

from __future__ import annotations

import random
from collections.abc import Mapping
from itertools import permutations
from typing import Any, Final

from tutor.learn.variants.search import deck, pick, random_cards, search
from tutor.quiz.base import SEATS, Question
from tutor.rules.cards import parse_card
from tutor.rules.games import game_table
from tutor.rules.rulesets import RuleSet

# Reasons of the extras kind that say what the trick is about (its cards), not who took it.
EXTRA_FOCUS: Final = frozenset({"fox_caught", "fox_own", "karlchen_wins_last", "karlchen_caught",
                                "karlchen_caught_not_counted", "karlchen_not_last", "karlchen_beaten_by_partner",
                                "doppelkopf_trick", "no_extras_in_solo"})


def _focus(q: Question) -> list[str]:
    return sorted(r.code for r in q.reasons if r.code in EXTRA_FOCUS)


def fresh_extras(original: Mapping[str, Any], q: Question, rules: RuleSet, seed: int,
                 avoid: set[str]) -> dict[str, Any]:
    focus = _focus(q)
    must = [c for c in ("AD", "JC") if c in original["trick"]]
    arrangements = sorted(set(permutations(["re", "re", "kontra", "kontra"])))

    def make(rng: random.Random) -> dict[str, Any]:
        trick = random_cards(rng, rules, SEATS)
        for i, card in enumerate(must):
            trick[(i + rng.randrange(SEATS)) % SEATS] = card
        return {**{k: v for k, v in original.items() if k in ("game", "last")}, "trick": trick,
                "leader": rng.randrange(SEATS), "parties": list(rng.choice(arrangements))}

    return search("extras", original, rules, seed, avoid, make, lambda v: _focus(v) == focus,
                   lambda v: v.answer != q.answer)


def fresh_sheet_row(original: Mapping[str, Any], q: Question, rules: RuleSet, seed: int,
                    avoid: set[str]) -> dict[str, Any]:
    codes = [r.code for r in q.reasons]

    def make(rng: random.Random) -> dict[str, Any]:
        value = rng.randint(1, 6)
        if rng.random() < 0.5:
            entries = [3 * value, -value, -value, -value]
        else:
            entries = [value, value, -value, -value]
        roll = rng.random()
        if roll < 0.35:
            entries[rng.randrange(SEATS)] += rng.choice((-2, -1, 1, 2))  # no longer sums to zero
        elif roll < 0.7:
            i, j = rng.sample(range(SEATS), 2)  # still sums to zero, parity mixed when odd
            step = rng.choice((1, 2, 3))
            entries[i] += step
            entries[j] -= step
        rng.shuffle(entries)
        return {"entries": entries}

    return search("sheet_row", original, rules, seed, avoid, make, lambda v: [r.code for r in v.reasons] == codes)


def fresh_dealer(original: Mapping[str, Any], q: Question, rules: RuleSet, seed: int,
                 avoid: set[str]) -> dict[str, Any]:
    players = int(original.get("players", 4))
    codes = [r.code for r in q.reasons]
    solos = ["solo_queens", "solo_jacks", "solo_clubs", "solo_spades", "solo_hearts", "solo_diamonds"]
    candidates = []
    for shift in range(players):
        for swap in (0, 2):
            def moved(n: int, shift: int = shift) -> int:
                return (n + shift) % players

            candidate: dict[str, Any] = {k: v for k, v in original.items() if k not in ("deals", "owed", "dealer")}
            if "deals" in original:
                deals = []
                for deal in original["deals"]:
                    entry = {**deal, "dealer": moved(deal["dealer"])}
                    if "soloist" in deal:
                        entry["soloist"] = moved(deal["soloist"])
                    if str(deal.get("game", "")).startswith("solo_"):
                        entry["game"] = solos[(solos.index(deal["game"]) + swap) % len(solos)] \
                            if deal["game"] in solos else deal["game"]
                    deals.append(entry)
                candidate["deals"] = deals
            if "owed" in original:
                candidate["owed"] = sorted(moved(n) for n in original["owed"])
            if "dealer" in original:
                candidate["dealer"] = moved(original["dealer"])
            candidates.append(candidate)
    if "deals_left" in original:
        more = []
        for candidate in candidates:
            for owed in (candidate.get("owed", []),):
                for extra in range(0, 3):
                    more.append({**candidate, "owed": owed, "deals_left": max(1, original["deals_left"] + extra)})
        candidates = more
    return pick("dealer", candidates, rules, seed, avoid, lambda v: [r.code for r in v.reasons] == codes,
                 lambda v: v.answer != q.answer)


def fresh_poverty(original: Mapping[str, Any], q: Question, rules: RuleSet, seed: int,
                  avoid: set[str]) -> dict[str, Any]:
    code = q.reasons[0].code
    fox = "AD" in original["hand"]
    table = game_table("normal", rules.with_options(schweinchen=False))
    trumps = [c for c in deck(rules) if table.is_trump(parse_card(c))]
    plain = [c for c in deck(rules) if c not in trumps]
    want = q.reasons[0].params["count"]

    def make(rng: random.Random) -> dict[str, Any]:
        count = max(0, min(6, want + rng.choice((-1, 0, 1))))
        hand = random_cards(rng, rules, count, trumps) if count else []
        if fox and "AD" not in hand:
            if not hand:
                return {"hand": []}
            hand[0] = "AD"
        hand += random_cards(rng, rules, rules.tricks - len(hand), plain)
        return {"hand": hand}

    return search("poverty", original, rules, seed, avoid, make,
                   lambda v: v.reasons[0].code == code, lambda v: v.facts["hand"] != q.facts["hand"])
