"""Which game is played and who leads, from the four players' reservations (RULES.md §5)."""
from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Final

from tutor.quiz.base import SEATS, Choice, Field, Question, check, given_seat, keys, seat_choices
from tutor.quiz.positions import SOLO_GAMES
from tutor.rules.errors import RulesError
from tutor.rules.explain import reservation_reasons
from tutor.rules.reservations import Reservation, decide
from tutor.rules.rulesets import RuleSet

KIND: Final = "game"
SECTION: Final = "reservations"

KEYS: Final = frozenset({"dealer", "reservations", "compulsory"})

__all__ = ["ask", "build", "check", "game_value"]


def game_value(game: str, declarer: int | None) -> str:
    """The choice value of a game: ``normal``, or the game and its declarer: ``solo_queens@2``."""
    return "normal" if declarer is None else f"{game}@{declarer}"


def _reservation(rng: random.Random, level: int, rules: RuleSet, taken: set[str]) -> Reservation:
    kinds = ["wedding"]
    if level >= 1:
        kinds += ["solo", "solo"]
    if level >= 3 and rules.poverty:
        kinds.append("poverty")
    kinds = [k for k in kinds if k not in taken or k == "solo"]  # one wedding, one poverty a deal
    if not kinds:
        return Reservation()
    kind = rng.choice(kinds)
    taken.add(kind)
    if kind != "solo":
        return Reservation(kind)
    compulsory = level >= 2 and rules.has_compulsory_solos and rng.random() < 0.5
    return Reservation("solo", rng.choice(SOLO_GAMES), compulsory)


def build(rng: random.Random, rules: RuleSet, level: int = 0) -> Question:
    """Four reservations in turn from the dealer's left, the game they make and the leader."""
    while True:
        dealer = int(rng.random() * SEATS)
        taken: set[str] = set()
        reservations = [
            _reservation(rng, level, rules, taken) if rng.random() < 0.45 else Reservation() for _ in range(SEATS)
        ]
        said = sum(r.kind != "healthy" for r in reservations)
        if said == 0 and rng.random() < 0.85:
            continue
        break
    position = {"dealer": dealer, "reservations": [r.solo or r.kind for r in reservations],
                "compulsory": [s for s, r in enumerate(reservations) if r.compulsory]}
    return replace(ask(position, rules), level=level)


def ask(position: Mapping[str, Any], rules: RuleSet) -> Question:
    """Which game the reservations make and who leads: ``dealer`` (seat), ``reservations``
    (4 by seat: "healthy", "wedding", "poverty" or a solo game id), ``compulsory`` (the seats
    whose solo is their compulsory one, DDV)."""
    keys(position, KEYS)
    dealer = given_seat(position.get("dealer", 0), "dealer")
    said = position.get("reservations", ["healthy"] * SEATS)
    if not isinstance(said, (list, tuple)) or len(said) != SEATS:
        raise RulesError("wrong_count", "reservations", expected=SEATS)
    compulsory = position.get("compulsory", [])
    if not isinstance(compulsory, (list, tuple)):
        raise RulesError("bad_type", "compulsory", expected="list of seats")
    compulsory_seats = {given_seat(s, "compulsory") for s in compulsory}
    reservations = []
    for seat, value in enumerate(said):
        if value in ("healthy", "wedding", "poverty"):
            reservations.append(Reservation(value))
        else:
            reservations.append(Reservation("solo", str(value), seat in compulsory_seats))
        if seat in compulsory_seats and reservations[-1].kind != "solo":
            raise RulesError("not_a_solo", "compulsory", seat=seat)
    if [r.kind for r in reservations].count("wedding") > 1:
        raise RulesError("hand_does_not_fit", "reservations", reservation="wedding")  # two Q♣ in a deck
    decision, reasons = reservation_reasons(rules, dealer, reservations)
    choices = [Choice("normal", label="normal")] + [
        Choice(game_value(r.solo or r.kind, s), label="declared",
               params={"game": r.solo or r.kind, "seat": s, "compulsory": r.compulsory})
        for s, r in enumerate(reservations) if r.kind != "healthy"
    ]
    other = rules.other(deck=rules.deck, poverty=True)
    try:
        elsewhere = decide(other, dealer, reservations)
        decides = (elsewhere.game, elsewhere.declarer, elsewhere.leader) != \
            (decision.game, decision.declarer, decision.leader)
    except RulesError:
        decides = True
    fields: tuple[Field, ...] = (Field("leader", "one", seat_choices(), label="leader"),)
    answer: tuple[str, ...] = (str(decision.leader),)
    if len(choices) > 1:  # with everybody healthy there is no game to choose, only the leader
        fields = (Field("game", "one", tuple(choices), label="game"), *fields)
        answer = (game_value(decision.game, decision.declarer), *answer)
    return Question(
        kind=KIND, seed=0, level=0, rules=rules, game=decision.game, prompt="game" if len(fields) > 1 else "leader",
        params={"dealer": dealer},
        fields=fields,
        answer=answer,
        reasons=tuple(reasons), section=SECTION,
        facts={"dealer": dealer,
               "reservations": [(s, r.kind, r.solo, r.compulsory) for s, r in enumerate(reservations)],
               "order": [(dealer + 1 + i) % SEATS for i in range(SEATS)]},
        rules_decide=decides,
    )
