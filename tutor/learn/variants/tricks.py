"""Fresh positions of the kinds about tricks and cards: who takes the trick (``winner``),
which cards may be played (``legal``), trumps, card points."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from tutor.learn.variants.search import deck, random_cards, search
from tutor.quiz.base import SEATS, Question
from tutor.quiz.why import rule_of
from tutor.rules.cards import parse_card, rank_of
from tutor.rules.rulesets import RuleSet


def fresh_winner(original: Mapping[str, Any], q: Question, rules: RuleSet, seed: int,
                 avoid: set[str]) -> dict[str, Any]:
    size = len(original["trick"])
    code = rule_of(q)

    def make(rng: random.Random) -> dict[str, Any]:
        trick = random_cards(rng, rules, size)
        if code == "first_of_equal" or rng.random() < 0.3:
            i, j = sorted(rng.sample(range(size), 2))
            trick[j] = trick[i]
        return {**{k: v for k, v in original.items() if k in ("game", "last")}, "trick": trick,
                "leader": rng.randrange(SEATS)}

    return search("winner", original, rules, seed, avoid, make, lambda v: rule_of(v) == code,
                   lambda v: v.answer != q.answer)


def fresh_legal(original: Mapping[str, Any], q: Question, rules: RuleSet, seed: int, avoid: set[str]) -> dict[str, Any]:
    size, trick_size = len(original["hand"]), len(original["trick"])
    reason = q.reasons[0]
    disguised = bool(reason.params.get("trumps_of_suit"))
    restricted = len(q.answer[0].split(",")) < len(q.fields[0].choices)

    def make(rng: random.Random) -> dict[str, Any]:
        cards = random_cards(rng, rules, size + trick_size)
        return {**{k: v for k, v in original.items() if k == "game"}, "hand": cards[:size], "trick": cards[size:]}

    def same(v: Question) -> bool:
        r = v.reasons[0]
        return (r.code == reason.code and bool(r.params.get("trumps_of_suit")) == disguised
                and (len(v.answer[0].split(",")) < len(v.fields[0].choices)) == restricted)

    return search("legal", original, rules, seed, avoid, make, same)


def fresh_trumps(original: Mapping[str, Any], q: Question, rules: RuleSet, seed: int,
                 avoid: set[str]) -> dict[str, Any]:
    code = q.reasons[0].code
    pair = "cards" in original

    def make(rng: random.Random) -> dict[str, Any]:
        game = {k: v for k, v in original.items() if k == "game"}
        if pair:
            first, second = rng.sample(deck(rules), 2)
            return {**game, "cards": [first, second]}
        return {**game, "card": rng.choice(deck(rules))}

    return search("trumps", original, rules, seed, avoid, make, lambda v: v.reasons[0].code == code)


def fresh_points(original: Mapping[str, Any], q: Question, rules: RuleSet, seed: int,
                 avoid: set[str]) -> dict[str, Any]:
    cards = list(original.get("cards") or [c for t in original["tricks"] for c in t])
    ranks = {rank_of(parse_card(c)) for c in cards}
    pool = [c for c in deck(rules) if rank_of(parse_card(c)) in ranks] or deck(rules)
    extra = [c for c in deck(rules) if c not in pool]

    def make(rng: random.Random) -> dict[str, Any]:
        chosen = random_cards(rng, rules, len(cards), pool)
        if extra and len(chosen) <= 4 and rng.random() < 0.5:
            chosen[rng.randrange(len(chosen))] = rng.choice(extra)
        if "tricks" in original:
            sizes = [len(t) for t in original["tricks"]]
            out, at = [], 0
            for n in sizes:
                out.append(chosen[at:at + n])
                at += n
            return {"tricks": out}
        return {"cards": chosen}

    return search("points", original, rules, seed, avoid, make, lambda v: True, lambda v: v.answer != q.answer)
