"""Which party a player is in: the Q♣ in a normal game, a wedding's clarification trick,
a poverty, a solo (RULES.md §4)."""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, Final

from tutor.quiz.base import SEATS, Choice, Field, Question, card_ids, check, copies, flag, game_id, given_seat, keys
from tutor.quiz.positions import display_order, pick_game, play, schweinchen_in_play
from tutor.rules.cards import QUEEN_OF_CLUBS, card_id, parse_card
from tutor.rules.deals import clarification_trick, wedding_parties
from tutor.rules.errors import RulesError
from tutor.rules.explain import party_reason, poverty_parties
from tutor.rules.games import CLARIFICATION_TRICKS, game_table, is_normal_type
from tutor.rules.rulesets import RuleSet

KIND: Final = "party"
SECTION: Final = "parties"

KEYS: Final = frozenset({"game", "seat", "hand", "groom", "tricks", "leader", "poor", "acceptor", "soloist",
                         "schweinchen"})

__all__ = ["ask", "build", "check"]


def build(rng: random.Random, rules: RuleSet, level: int = 0) -> Question:
    """A seat of a played deal, what the table saw, and that seat's party."""
    game = pick_game(rng, level, rules)
    position = play(rng, rules, game)
    deal, info = position.deal, position.info
    seat = int(rng.random() * SEATS)
    if deal.game in ("wedding", "wedding_solo") and seat == info["groom"] and rng.random() < 0.7:
        seat = (seat + 1 + int(rng.random() * 3)) % SEATS  # the partner is the question
    if deal.game == "poverty" and seat in (info["poor"], info["acceptor"]) and rng.random() < 0.5:
        # The instructive seat: one holding a Q♣ and still Kontra.
        holders = [s for s in range(SEATS)
                   if QUEEN_OF_CLUBS in deal.hands[s] and s not in (info["poor"], info["acceptor"])]
        seat = holders[0] if holders else seat
    position_: dict[str, Any] = {"game": deal.game, "seat": seat, "hand": [card_id(c) for c in deal.hands[seat]],
                                 "schweinchen": schweinchen_in_play(position)}
    if deal.game in ("wedding", "wedding_solo"):
        clarified = clarification_trick(info["groom"], deal.winners)
        shown = 3 if clarified is None else clarified
        position_.update(groom=info["groom"], leader=deal.leaders[0],
                         tricks=[[card_id(c) for c in deal.tricks[t]] for t in range(shown)])
    elif deal.game == "poverty":
        position_.update(poor=info["poor"], acceptor=info["acceptor"])
    elif "soloist" in info:
        position_.update(soloist=info["soloist"])
    elif deal.game == "silent_wedding":
        position_.update(groom=info["groom"])
    return replace(ask(position_, rules), level=level)


def ask(position: Mapping[str, Any], rules: RuleSet) -> Question:
    """Which party ``seat`` is in. By ``game``: "normal" needs ``hand`` (that player's
    cards); "wedding" ``groom``, ``tricks`` (the tricks so far, each four cards in play
    order) and ``leader`` (of the first trick); "poverty" ``poor`` and ``acceptor``; a solo
    ``soloist``; "silent_wedding" ``groom`` (or ``soloist``). A ``hand`` may be given in every game; the
    engine refuses one that does not fit (a Q♣ where the game has none) and tricks that
    break the rules."""
    keys(position, KEYS)
    game = game_id(position.get("game", "normal"), rules)
    seat = given_seat(position.get("seat"), "seat")
    hand: list[str] | None = None
    if "hand" in position or game == "normal":
        hand = card_ids(position.get("hand"), rules, "hand", rules.tricks, rules.tricks)
    queens = hand.count("QC") if hand else 0
    extra: dict[str, Any] = {}
    facts: dict[str, Any] = {"seat": seat}
    declared = flag(position.get("schweinchen", rules.schweinchen and is_normal_type(game)), "schweinchen")
    played = rules if declared or not rules.schweinchen else rules.with_options(schweinchen=False)
    if hand is not None:
        table = game_table("wedding" if game == "wedding_solo" else game, played)
        facts["hand"] = [card_id(c) for c in display_order([parse_card(c) for c in hand], table)]
    if game == "normal":
        if queens == 2:
            raise RulesError("hand_does_not_fit", "hand", game=game, card="QC")  # a wedding, silent or declared
        parties = tuple(("re" if queens else "kontra") if s == seat else "kontra" for s in range(SEATS))
    elif game in ("wedding", "wedding_solo"):
        groom = given_seat(position.get("groom"), "groom")
        if hand is not None and queens != (2 if seat == groom else 0):
            raise RulesError("hand_does_not_fit", "hand", game=game, card="QC")
        leader = given_seat(position.get("leader", 0), "leader")
        tricks, winners = _tricks(position.get("tricks"), leader, played, seat, hand)
        for t, trick in enumerate(tricks):
            for i, card in enumerate(trick):
                if card == "QC" and (leader_of(t, leader, winners) + i) % SEATS != groom:
                    raise RulesError("hand_does_not_fit", f"tricks.{t}.{i}", game=game, card="QC")
        clarified = clarification_trick(groom, winners)
        if clarified is None and len(tricks) < CLARIFICATION_TRICKS:
            raise RulesError("wrong_count", "tricks", expected=CLARIFICATION_TRICKS, got=len(tricks))
        if clarified is not None and len(tricks) != clarified:
            raise RulesError("wrong_count", "tricks", expected=clarified, got=len(tricks))
        game, parties = wedding_parties(groom, winners)
        extra = {"groom": groom, "clarification": clarified,
                 "partner": None if clarified is None else winners[clarified - 1]}
        facts["tricks"] = [
            ([((leader_of(t, leader, winners) + i) % SEATS, c) for i, c in enumerate(trick)], winners[t])
            for t, trick in enumerate(tricks)
        ]
    elif game == "poverty":
        poor, acceptor = given_seat(position.get("poor"), "poor"), given_seat(position.get("acceptor"), "acceptor")
        if poor == acceptor:
            raise RulesError("same_seat", "acceptor", seat=poor)
        parties = poverty_parties(poor, acceptor)
        extra = {"poor": poor, "acceptor": acceptor}
    elif game == "silent_wedding":
        # A silent wedding is a solo: its groom may be named as the soloist too.
        groom = given_seat(position.get("groom", position.get("soloist")), "groom")
        if hand is not None and queens != (2 if seat == groom else 0):
            raise RulesError("hand_does_not_fit", "hand", game=game, card="QC")
        parties = tuple("re" if s == groom else "kontra" for s in range(SEATS))
        extra = {"groom": groom}
    else:
        soloist = given_seat(position.get("soloist"), "soloist")
        parties = tuple("re" if s == soloist else "kontra" for s in range(SEATS))
        extra = {"soloist": soloist}
    facts.update(extra)
    reason = party_reason(game, parties, seat, queens, **extra)
    choices = (Choice("re", label="re"), Choice("kontra", label="kontra"))
    return Question(
        kind=KIND, seed=0, level=0, rules=rules, game=game, prompt="party", params={"seat": seat},
        fields=(Field("party", "one", choices),), answer=(parties[seat],),
        reasons=(reason,), section=SECTION, facts=facts,
    )


def leader_of(trick: int, first: int, winners: Sequence[int]) -> int:
    """The seat that leads trick ``trick`` (0-based): the first leader, then each winner."""
    return first if trick == 0 else winners[trick - 1]


def _tricks(value: Any, leader: int, rules: RuleSet, seat: int,
            hand: list[str] | None) -> tuple[list[list[str]], list[int]]:
    """A wedding's first tricks, checked (RULES.md §3: a player who did not follow a suit
    holds none of it, so may not play it later), with each trick's winner."""
    if not isinstance(value, (list, tuple)) or not 1 <= len(value) <= CLARIFICATION_TRICKS:
        raise RulesError("wrong_count", "tricks", low=1, high=CLARIFICATION_TRICKS)
    tricks = [card_ids(t, rules, f"tricks.{i}", SEATS, SEATS) for i, t in enumerate(value)]
    copies(tricks, "tricks")
    table = game_table("wedding", rules)
    winners: list[int] = []
    void: list[set[int]] = [set() for _ in range(SEATS)]
    played: list[list[str]] = [[] for _ in range(SEATS)]
    lead_seat = leader
    for t, trick in enumerate(tricks):
        cards = [parse_card(c) for c in trick]
        lead = table.suit_class[cards[0]]
        for i, card in enumerate(cards):
            player = (lead_seat + i) % SEATS
            cls = table.suit_class[card]
            if cls in void[player]:
                raise RulesError("illegal_card", f"tricks.{t}.{i}", card=trick[i], trick=t + 1, seat=player)
            if i and cls != lead:
                void[player].add(lead)
            played[player].append(trick[i])
        lead_seat = (lead_seat + table.winner(cards, False)) % SEATS
        winners.append(lead_seat)
    if hand is not None:
        if Counter(played[seat]) - Counter(hand):
            raise RulesError("card_not_in_hand", "tricks", seat=seat)
        # The player's cards left after these tricks may not hold a suit he showed void in.
        rest = list((Counter(hand) - Counter(played[seat])).elements())
        copies([*tricks, rest], "hand")
        for kept in rest:
            if table.suit_class[parse_card(kept)] in void[seat]:
                raise RulesError("illegal_card", "tricks", card=kept, seat=seat)
    return tricks, winners
