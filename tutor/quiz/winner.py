"""Which card wins this trick: one to four cards in play order, tap the one that takes it.

Tricks come from legal random deals, chosen for the rule that decides them: two equal
cards, a trump on a plain lead, a Dulle, a discard that cannot win.
"""
from __future__ import annotations

import random
from typing import Final

from tutor.quiz.base import Choice, Field, Question, check
from tutor.quiz.positions import base_rules, game_of, pick_game, play, rules_of, schweinchen_in_play
from tutor.rules.cards import card_id
from tutor.rules.explain import trick_reason
from tutor.rules.games import game_table
from tutor.rules.rulesets import RuleSet

KIND: Final = "winner"
SECTION: Final = "trumps"
# The rules worth drilling, most wanted first; a plain "highest trump" is the fallback.
WANTED: Final = ("first_of_equal", "second_dulle", "first_dulle_in_last_trick", "schweinchen", "trump_on_plain",
                 "off_suit_cannot_win", "highest_of_suit", "highest_trump")

__all__ = ["build", "check"]


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
            reason = trick_reason([card_id(c) for c in cards], game_of(deal.game), rules_of(position), t == last)
            found.setdefault(reason.code, (t, size))
            if reason.code == target or house:
                found[target] = (t, size)
                break
        code = target if target in found else next((c for c in WANTED if c in found), None)
        if code is None:
            continue
        t, size = found[code]
        ids = [card_id(c) for c in deal.tricks[t][:size]]
        reason = trick_reason(ids, game_of(deal.game), rules_of(position), t == last)
        plays = [(deal.seat_of(t, i), c) for i, c in enumerate(ids)]
        choices = tuple(Choice(str(i), card=c, params={"seat": seat}) for i, (seat, c) in enumerate(plays))
        return Question(
            kind=KIND, seed=0, level=level, rules=rules, game=deal.game,
            prompt="winner_complete" if size == 4 else "winner_so_far",
            params={"trick": t + 1, "last": t == last},
            fields=(Field("card", "one", choices),),
            answer=(str(reason.params["winner"]),),
            reasons=(reason,),
            section=SECTION,
            facts={"plays": plays, "schweinchen": schweinchen_in_play(position)},
            # The house options decide when the trick goes another way without them.
            rules_decide=table.winner(deal.tricks[t][:size], t == last) != plain_table.winner(deal.tricks[t][:size], t == last),
        )
