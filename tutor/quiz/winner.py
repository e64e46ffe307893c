"""Which card wins this trick: one to four cards in play order, tap the one that takes it.

Tricks come from legal random deals, chosen for the rule that decides them: two equal
cards, a trump on a plain lead, a Dulle, a discard that cannot win.
"""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, Final

from tutor.quiz.base import SEATS, Choice, Field, Question, card_ids, check, flag, game_id, given_seat, keys, number
from tutor.quiz.positions import base_rules, game_of, pick_game, play, rules_of, schweinchen_in_play
from tutor.rules.cards import Card, card_id, parse_card
from tutor.rules.explain import trick_reason
from tutor.rules.games import GameTable, game_table, is_normal_type
from tutor.rules.rulesets import RuleSet

KIND: Final = "winner"
SECTION: Final = "trumps"
# The rules worth drilling, most wanted first; a plain "highest trump" is the fallback.
WANTED: Final = ("first_of_equal", "second_dulle", "first_dulle_in_last_trick", "schweinchen", "trump_on_plain",
                 "off_suit_cannot_win", "highest_of_suit", "highest_trump")

KEYS: Final = frozenset({"trick", "leader", "last", "game", "number", "schweinchen"})

__all__ = ["ask", "build", "check", "contenders"]


def build(rng: random.Random, rules: RuleSet, level: int = 0) -> Question:
    """A trick (or the start of one) from a played deal, with its winner and the reason."""
    plain = base_rules(rules)
    # At the top level, the house options the player enabled are a lesson of their own.
    want_house = level >= 3 and (rules.dullen != plain.dullen or rules.schweinchen) and rng.random() < 0.4
    tries = 0
    while True:
        tries += 1
        game = pick_game(rng, level, rules)
        position = play(rng, rules, game)
        deal, table = position.deal, position.table
        plain_table = game_table(game_of(deal.game), plain)
        target = rng.choice(WANTED)
        found: dict[str, tuple[int, int]] = {}
        last = len(deal.tricks) - 1
        if want_house and tries < 25:
            # Only a trick that goes another way without the house options will do.
            house_tricks = [(t, size) for t in range(last + 1) for size in (2, 3, 4)
                            if table.winner(deal.tricks[t][:size], t == last)
                            != plain_table.winner(deal.tricks[t][:size], t == last)]
            if not house_tricks:
                continue
            found[target] = rng.choice(house_tricks)
        order = list(range(len(deal.tricks)))
        rng.shuffle(order)
        for t in order if not found else ():
            trick = deal.tricks[t]
            size = 2 + int(rng.random() * 3)
            cards = list(trick[:size])
            winner = table.winner(cards, t == last)
            house = winner != plain_table.winner(cards, t == last)
            if house and level < 3:
                continue  # below the top level, keep house options out of the answer
            if level == 0 and contenders(cards, table) < 2:
                continue  # a newcomer's trick has a real choice: two cards at least that could win
            reason = trick_reason([card_id(c) for c in cards], game_of(deal.game), rules_of(position), t == last)
            found.setdefault(reason.code, (t, size))
            if reason.code == target or house:
                found[target] = (t, size)
                break
        code = target if target in found else next((c for c in WANTED if c in found), None)
        if code is None:
            continue
        t, size = found[code]
        question = ask({"trick": [card_id(c) for c in deal.tricks[t][:size]], "leader": deal.leaders[t],
                        "last": t == last, "game": deal.game, "number": t + 1,
                        "schweinchen": schweinchen_in_play(position)}, rules)
        return replace(question, level=level)


def contenders(cards: Sequence[Card], table: GameTable) -> int:
    """How many cards of a trick could take it: the trumps and the cards of the suit led."""
    lead = table.suit_class[cards[0]]
    return sum(table.is_trump(c) or table.suit_class[c] == lead for c in cards)


def ask(position: Mapping[str, Any], rules: RuleSet) -> Question:
    """Who takes this trick: ``trick`` (2-4 card ids in play order), ``leader`` (the seat of
    the first card, 0), ``last`` (whether it is the deal's last trick), ``game`` ("normal");
    ``number`` (the trick's number) and ``schweinchen`` (both A♦ declared, by default
    whenever the option is on) are optional."""
    keys(position, KEYS)
    game = game_id(position.get("game", "normal"), rules)
    ids = card_ids(position.get("trick"), rules, "trick", 2, SEATS)
    leader = given_seat(position.get("leader", 0), "leader")
    last = flag(position.get("last", False), "last")
    trick_number = number(position.get("number", rules.tricks if last else 1), "number", 1, rules.tricks)
    declared = flag(position.get("schweinchen", rules.schweinchen and is_normal_type(game)), "schweinchen")
    played = rules if declared or not rules.schweinchen else rules.with_options(schweinchen=False)
    table = game_table(game_of(game), played)
    plain_table = game_table(game_of(game), base_rules(rules))
    cards = [parse_card(c) for c in ids]
    reason = trick_reason(ids, game_of(game), played, last)
    plays = [((leader + i) % SEATS, c) for i, c in enumerate(ids)]
    choices = tuple(Choice(str(i), card=c, params={"seat": s}) for i, (s, c) in enumerate(plays))
    return Question(
        kind=KIND, seed=0, level=0, rules=rules, game=game,
        prompt="winner_complete" if len(ids) == SEATS else "winner_so_far",
        params={"trick": trick_number, "last": last},
        fields=(Field("card", "one", choices),),
        answer=(str(reason.params["winner"]),),
        reasons=(reason,),
        section=SECTION,
        facts={"plays": plays, "schweinchen": declared and played.schweinchen},
        # The house options decide when the trick goes another way without them.
        rules_decide=table.winner(cards, last) != plain_table.winner(cards, last),
    )
