"""Fresh positions of the kinds about a deal: who may still announce (``announce``), what a
party needs, the score (only with lines already taught), which game is played, Re or Kontra."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from itertools import permutations
from typing import Any, Final

from tutor.learn.variants.search import TRIES, deck, pick, random_cards, search
from tutor.quiz.base import SEATS, Question
from tutor.quiz.positions import play
from tutor.quiz.why import rule_of
from tutor.rules.announcements import LIMITS
from tutor.rules.cards import card_id
from tutor.rules.games import is_solo
from tutor.rules.rulesets import RuleSet

# The rule of lessons/rules.toml each scoring line belongs to: a fresh score uses only lines
# whose rule the learner has met on the path.
LINE_RULES: Final = {
    "won": "8.won", "against_the_old_ones": "8.old-ones", "below_90": "8.below", "below_60": "8.below",
    "below_30": "8.below", "schwarz": "8.below", "re_announced": "8.announced", "kontra_announced": "8.announced",
    "no_90_announced": "8.limits-announced", "no_60_announced": "8.limits-announced",
    "no_30_announced": "8.limits-announced", "schwarz_announced": "8.limits-announced",
    "reached_120_against_no_90": "8.reached", "reached_90_against_no_60": "8.reached",
    "reached_60_against_no_30": "8.reached", "reached_30_against_schwarz": "8.reached",
    "failed_announcement": "9.scoring", "fox": "8.extras", "doppelkopf": "8.extras", "karlchen": "8.extras",
    "karlchen_caught": "9.extras",
}
# Lines that grow with the card points: a fresh score may have more or fewer of them.
LADDER: Final = frozenset({"won", "below_90", "below_60", "below_30", "schwarz"})


def fresh_announce(original: Mapping[str, Any], q: Question, rules: RuleSet, seed: int,
                   avoid: set[str]) -> dict[str, Any]:
    code = rule_of(q)
    said = dict(original.get("said") or {})
    flip = {"re": "kontra", "kontra": "re"}

    def mirrored(s: Mapping[str, str]) -> dict[str, str]:
        out = {}
        for party, value in s.items():
            other = flip[party]
            out[other] = other if value == party else value
        return out

    candidates: list[dict[str, Any]] = []
    base = {k: v for k, v in original.items() if k not in ("party", "cards", "said", "parties")}
    if original.get("ask") == "who":
        arrangements = sorted(set(permutations(original["parties"])))
        for parties in arrangements:
            for shift in (-1, 0, 1):
                cards = [c + shift for c in original["cards"]]
                for s in (said, mirrored(said)):
                    candidates.append({**base, "parties": list(parties), "cards": cards, "said": s})
    else:
        for party in ("re", "kontra"):
            s = said if party == original["party"] else mirrored(said)
            for count in range(0, rules.tricks + 1):
                candidates.append({**base, "party": party, "cards": count, "said": s})
    return pick("announce", candidates, rules, seed, avoid, lambda v: rule_of(v) == code,
                 lambda v: v.answer != q.answer)


SAID_CHOICES: Final = (None, 0, 1, 2, 3, 4)


def _said(party: str, level: int | None) -> str | None:
    if level is None:
        return None
    return party if level == 0 else LIMITS[level - 1]


def said_kinds(said: Mapping[str, str] | None) -> frozenset[str]:
    """What kinds of announcement a position's ``said`` holds: "party" (a Re or Kontra on
    its own) and "limit" (no 90 and beyond). A fresh position uses no kind its step's own
    position leaves out: before announcements are taught, nothing is said."""
    return frozenset("party" if value in ("re", "kontra") else "limit" for value in (said or {}).values())


def fresh_needs(original: Mapping[str, Any], q: Question, rules: RuleSet, seed: int, avoid: set[str]) -> dict[str, Any]:
    code = q.reasons[0].code
    nobody = bool(q.reasons[0].params.get("nobody"))
    kinds_used = said_kinds(original.get("said"))
    candidates = []
    for party in ("re", "kontra"):
        for r in SAID_CHOICES:
            for k in SAID_CHOICES:
                said = {p: s for p, s in (("re", _said("re", r)), ("kontra", _said("kontra", k))) if s}
                if not said_kinds(said) <= kinds_used:
                    continue
                candidates.append({**{x: v for x, v in original.items() if x == "game"}, "party": party,
                                   "said": said})
    return pick("needs", candidates, rules, seed, avoid,
                 lambda v: v.reasons[0].code == code and bool(v.reasons[0].params.get("nobody")) == nobody,
                 lambda v: v.answer != q.answer)


def _lines(q: Question) -> set[str]:
    return {line for line, _party, _points in q.reasons[-1].params["lines"]}


def fresh_score(original: Mapping[str, Any], q: Question, rules: RuleSet, seed: int, avoid: set[str],
                taught: frozenset[str]) -> dict[str, Any]:
    focus = _lines(q) - LADDER
    nobody = q.answer[0] == "nobody"
    allowed = {line for line, rule in LINE_RULES.items() if rule in taught} | _lines(q)
    candidates = [{**original, "re_points": points} for points in range(0, 241)]
    candidates = [{k: v for k, v in c.items() if k != "re_tricks"} for c in candidates]

    def same(v: Question) -> bool:
        lines = _lines(v)
        return focus <= lines and lines <= allowed and (v.answer[0] == "nobody") == nobody

    return pick("score", candidates, rules, seed, avoid, same, lambda v: v.answer != q.answer)


def fresh_game(original: Mapping[str, Any], q: Question, rules: RuleSet, seed: int, avoid: set[str]) -> dict[str, Any]:
    codes = [r.code for r in q.reasons]
    said = list(original.get("reservations", ["healthy"] * SEATS))
    compulsory = set(original.get("compulsory", []))
    candidates = []
    for order in sorted(set(permutations(range(SEATS)))):
        for dealer in range(SEATS):
            reservations = [said[order[s]] for s in range(SEATS)]
            flags = sorted(s for s in range(SEATS) if order[s] in compulsory)
            candidate: dict[str, Any] = {"dealer": dealer, "reservations": reservations}
            if flags:
                candidate["compulsory"] = flags
            candidates.append(candidate)
    return pick("game", candidates, rules, seed, avoid, lambda v: [r.code for r in v.reasons] == codes,
                 lambda v: v.answer != q.answer)


def _rotated(hands: Sequence[Sequence[int]], by: int) -> list[list[str]]:
    return [[card_id(c) for c in hands[(s + by) % SEATS]] for s in range(SEATS)]


def fresh_party(original: Mapping[str, Any], q: Question, rules: RuleSet, seed: int, avoid: set[str]) -> dict[str, Any]:
    code = q.reasons[0].code
    game = original.get("game", "normal")
    keep = {k: v for k, v in original.items() if k == "game"}

    if game == "normal":
        queens = "QC" in original["hand"]

        def make(rng: random.Random) -> dict[str, Any] | None:
            others = [c for c in deck(rules) if c != "QC"]
            hand = random_cards(rng, rules, rules.tricks - (1 if queens else 0), others) + (["QC"] if queens else [])
            return {**keep, "seat": 0, "hand": hand}
    elif game in ("wedding", "wedding_solo"):
        groom_seat = original.get("groom", 0)

        def make(rng: random.Random) -> dict[str, Any] | None:
            position = play(rng, rules.with_options(schweinchen=False), "wedding")
            deal, groom = position.deal, position.info["groom"]
            by = (groom - groom_seat) % SEATS  # the groom sits where he sat in the lesson
            winners = deal.winners
            clarified = next((t for t in range(3) if winners[t] != groom), None)
            shown = 3 if clarified is None else clarified + 1
            tricks = [[card_id(c) for c in deal.tricks[t]] for t in range(shown)]
            return {**keep, "groom": groom_seat, "leader": (deal.leaders[0] - by) % SEATS,
                    "seat": rng.randrange(SEATS), "tricks": tricks}
    elif game == "poverty":
        def make(rng: random.Random) -> dict[str, Any] | None:
            poor, acceptor, seat = rng.randrange(SEATS), rng.randrange(SEATS), rng.randrange(SEATS)
            return {**keep, "poor": poor, "acceptor": acceptor, "seat": seat}
    else:
        name = "groom" if game == "silent_wedding" and "groom" in original else "soloist"
        solos = [g for g in ("solo_queens", "solo_jacks", "solo_clubs", "solo_spades", "solo_hearts", "solo_diamonds",
                             "solo_aces") if is_solo(g)]

        def make(rng: random.Random) -> dict[str, Any] | None:
            chosen = game if game == "silent_wedding" or rng.random() < 0.5 else rng.choice(solos)
            return {"game": chosen, name: rng.randrange(SEATS), "seat": rng.randrange(SEATS)}

    return search("party", original, rules, seed, avoid, make, lambda v: v.reasons[0].code == code,
                   tries=600 if game in ("wedding", "wedding_solo") else TRIES)
