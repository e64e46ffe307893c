"""Fresh positions of the lessons' own kinds (tutor/learn/kinds/): ``infer``, ``decide`` (one of
the position's own variants or its mirror image, ``mirror``), ``sheet``, ``recall``, ``name``."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping, Sequence
from itertools import permutations
from typing import Any, Final

from tutor.learn import kinds
from tutor.learn.variants.search import deck, key, pick, search
from tutor.quiz.base import SEATS, Question
from tutor.rules.cards import IDS, card_id, parse_card, rank_of, suit_of
from tutor.rules.deals import deal_hands, play_randomly
from tutor.rules.games import game_table
from tutor.rules.rulesets import RuleSet


def _swap_out(rng: random.Random, hands: list[list[int]], seat: int, keep: Callable[[int], bool],
              others: Sequence[int]) -> None:
    """Trade every card of ``seat`` that ``keep`` refuses for a card of another seat that it
    accepts, so that ``seat`` ends up holding only cards ``keep`` likes."""
    for card in [c for c in hands[seat] if not keep(c)]:
        donors = [(o, c) for o in others for c in hands[o] if keep(c)]
        if not donors:
            return
        other, given = rng.choice(donors)
        hands[seat].remove(card)
        hands[other].remove(given)
        hands[seat].append(given)
        hands[other].append(card)


def fresh_infer(original: Mapping[str, Any], q: Question, rules: RuleSet, seed: int, avoid: set[str]) -> dict[str, Any]:
    code = q.reasons[0].code
    count = len(original.get("tricks", []))
    calls = bool(original.get("said"))
    plain = rules.with_options(schweinchen=False)
    table = game_table("normal", plain)
    queen = parse_card("QC")

    def make(rng: random.Random) -> dict[str, Any] | None:
        seat = rng.randrange(1, SEATS)
        leader = rng.randrange(SEATS)
        hands = deal_hands(rng, plain)
        others = [s for s in range(SEATS) if s != seat]
        if code == "infer_no_trump":
            # The asked player holds no trump at all (so no Q♣): he cannot follow a trump lead.
            _swap_out(rng, hands, seat, lambda c: not table.is_trump(c), others)
        if code == "infer_silent_wedding":
            _swap_out(rng, hands, seat, lambda c: c == queen or table.is_trump(c), others)
            for other in others:
                while queen in hands[other]:
                    plain_cards = [c for c in hands[seat] if c != queen]
                    given = rng.choice(plain_cards)
                    hands[other].remove(queen)
                    hands[seat].remove(given)
                    hands[other].append(given)
                    hands[seat].append(queen)
        if code != "infer_silent_wedding" and sum(queen in h for h in hands) != 2:
            return None  # one player with both Q♣: not the normal game this check is about
        if hands[0].count(queen) == 2:
            return None
        tricks, _leaders, _winners = play_randomly(rng, table, hands, leader)
        ids = [[card_id(c) for c in t] for t in tricks]
        shown = count
        if code == "infer_no_trump":
            leads = [t for t in range(len(ids)) if table.is_trump(tricks[t][0])]
            if not leads or leads[0] > 4:
                return None
            shown = leads[0] + 1
        elif code == "infer_silent_wedding":
            queens = 0
            for t in range(len(ids)):
                queens += ids[t].count("QC")
                if queens == 2:
                    shown = t + 1
                    break
            if shown > 5:
                return None
        said = {}
        if calls:
            caller = rng.randrange(1, SEATS)
            said[str(caller)] = "re" if queen in hands[caller] else "kontra"
        return {"hand": [card_id(c) for c in sorted(hands[0])], "leader": leader, "seat": seat,
                "tricks": ids[:shown], **({"said": said} if said else {})}

    return search("infer", original, rules, seed, avoid, make, lambda v: v.reasons[0].code == code, tries=800)


CLUBS_SPADES: Final = {"C": "S", "S": "C"}


def mirror(position: Any) -> Any:
    """The position with plain clubs and spades traded (A, 10, K, 9; queens and jacks are
    trumps and stay): in a normal game both suits play alike, so every answer holds."""
    if isinstance(position, str) and position in IDS:
        card = parse_card(position)
        rank, suit = rank_of(card), suit_of(card)
        if rank in ("A", "10", "K", "9") and suit in CLUBS_SPADES:
            return rank + CLUBS_SPADES[suit]
        return position
    if isinstance(position, list):
        return [mirror(p) for p in position]
    if isinstance(position, dict):
        return {k: (v if k == "variants" else mirror(v)) for k, v in position.items()}
    return position


def fresh_decide(original: Mapping[str, Any], q: Question, rules: RuleSet, seed: int,
                 avoid: set[str]) -> dict[str, Any]:
    base = {k: v for k, v in original.items() if k != "variants"}
    own = [base] + [{**{k: v for k, v in base.items() if k in ("game", "claim", "judge", "groom")}, **v}
                    for v in original.get("variants", [])]
    # A decision to announce shows card points only: its mirror would look the same.
    candidates = own + ([] if "announce" in base else [mirror(p) for p in own])
    return pick("decide", candidates, rules, seed, avoid, lambda v: True)


def fresh_sheet(original: Mapping[str, Any], q: Question, rules: RuleSet, seed: int, avoid: set[str]) -> dict[str, Any]:
    players = original.get("players", 4)

    def make(rng: random.Random) -> dict[str, Any]:
        deals = []
        for i, deal in enumerate(original["deals"]):
            dealer = (original.get("first", 0) + i) % players
            playing = [(dealer + k) % players for k in range(1, SEATS + 1)]
            why = deal.get("why")
            winner = "kontra" if why in ("tie", "lost_re") else "re" if why == "lost_kontra" else \
                rng.choice(("re", "kontra"))
            re = sorted(rng.sample(playing, len(deal.get("re", [0, 1]))))
            value = max(2 if why == "tie" else 1, min(6, deal.get("value", 1) + rng.choice((-1, 0, 1, 2))))
            deals.append({**deal, "re": re, "winner": winner, "value": value})
        return {**original, "deals": deals}

    return search("sheet", original, rules, seed, avoid, make, lambda v: True, lambda v: v.answer != q.answer)


def fresh_recall(original: Mapping[str, Any], q: Question, rules: RuleSet, seed: int,
                 avoid: set[str]) -> dict[str, Any]:
    """Another fact of the step (a variant: its own ``section`` of prose, question and list)
    where there is one not just asked, else the same list in another order. ``original``
    holds the variants; ``avoid`` the positions just asked (as keys) and the step's own."""
    own = {k: v for k, v in original.items() if k != "variants"}
    facts = [own, *(dict(v) for v in original.get("variants", ()))]
    asked = {json.loads(a).get("section") for a in avoid if a != key(own)}
    rng = random.Random(seed)
    fresh_facts = [f for f in facts if f.get("section") not in (asked or {None})]
    if fresh_facts:
        fact = rng.choice(fresh_facts)
        if fact.get("section") is not None:
            return fact  # a new question, its list as written
    else:
        fact = own
    count = int(fact["count"])
    orders = [list(p) for p in permutations(range(1, count + 1)) if list(p) != list(range(1, count + 1))]
    fitting = [o for o in orders if key({**fact, "order": o}) not in avoid] or orders
    return {**fact, "order": rng.choice(fitting)}


def fresh_name(original: Mapping[str, Any], q: Question, rules: RuleSet, seed: int, avoid: set[str]) -> dict[str, Any]:
    names = sorted(kinds.NAMES)

    def make(rng: random.Random) -> dict[str, Any]:
        name = rng.choice(names)
        others = [c for c in deck(rules) if c not in {card_id(x) for x in kinds.NAMES.values()}]
        cards = rng.sample(others, len(original["cards"]) - 1) + [card_id(kinds.NAMES[name])]
        rng.shuffle(cards)
        return {"name": name, "cards": cards}

    return search("name", original, rules, seed, avoid, make, lambda v: True, lambda v: v.answer != q.answer)
