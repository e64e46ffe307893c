"""Which extra points a trick earns its winner: fox, Doppelkopf, Karlchen (RULES.md §8, §10).

Asked only about a position a lesson gives: a trick of four cards, who led it, the parties
and whether it is the last trick. The engine takes the trick and counts its extras.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from tutor.quiz.base import SEATS, Choice, Field, Question, card_ids, check, flag, game_id, given_seat, keys
from tutor.quiz.positions import game_of
from tutor.rules.cards import ACE_OF_DIAMONDS, JACK_OF_CLUBS, card_points, parse_card
from tutor.rules.deals import check_parties, trick_extras
from tutor.rules.explain import Reason, trick_reason
from tutor.rules.games import game_table, is_normal_type
from tutor.rules.rulesets import RuleSet

KIND: Final = "extras"
SECTION: Final = "scoring"
KEYS: Final = frozenset({"trick", "leader", "parties", "last", "game", "schweinchen"})
CHOICES: Final = ("fox", "doppelkopf", "karlchen", "karlchen_caught")

__all__ = ["ask", "check"]


def ask(position: Mapping[str, Any], rules: RuleSet) -> Question:
    """Tick every extra point this trick earns its winner's party: ``trick`` (four cards in
    play order), ``leader`` (seat of the first card), ``parties`` (4 by seat), ``last``
    (whether it is the last trick), ``game`` ("normal"). Karlchen caught is a choice only
    where the rules count it; in a solo no extra point counts."""
    keys(position, KEYS)
    game = game_id(position.get("game", "normal"), rules)
    ids = card_ids(position.get("trick"), rules, "trick", SEATS, SEATS)
    leader = given_seat(position.get("leader", 0), "leader")
    parties = check_parties(position.get("parties"), game)
    last = flag(position.get("last", False), "last")
    declared = flag(position.get("schweinchen", rules.schweinchen and is_normal_type(game)), "schweinchen")
    played = rules if declared or not rules.schweinchen else rules.with_options(schweinchen=False)
    cards = [parse_card(c) for c in ids]
    table = game_table(game_of(game), played)
    index = table.winner(cards, last)
    winner = (leader + index) % SEATS
    party = parties[winner]
    earned = trick_extras(cards, leader, winner, parties, last)
    counted = [e for e in earned
               if is_normal_type(game) and (e != "karlchen_caught" or rules.karlchen == "win_or_catch")]
    offered = [c for c in CHOICES if c != "karlchen_caught" or rules.karlchen == "win_or_catch"]
    taken = trick_reason(ids, game_of(game), played, last)
    reasons = [Reason(taken.code, {**taken.params, "seat": winner, "party": party})]
    reasons += _why(ids, leader, winner, parties, last, rules, game)
    plays = [((leader + i) % SEATS, c) for i, c in enumerate(ids)]
    return Question(
        kind=KIND, seed=0, level=0, rules=rules, game=game, prompt="extras",
        params={"last": last, "seat": winner, "party": party},
        fields=(Field("extras", "many", tuple(Choice(e, label=e) for e in offered)),),
        answer=(",".join(sorted(set(counted))),),
        reasons=tuple(reasons), section=SECTION,
        facts={"plays": plays, "parties": parties, "winner": winner, "earned": counted,
               "points": sum(card_points(c) for c in ids), "schweinchen": declared and played.schweinchen},
    )


def _why(ids: list[str], leader: int, winner: int, parties: tuple[str, ...], last: bool, rules: RuleSet,
         game: str) -> list[Reason]:
    """One reason per extra point this trick could be about, earned or not."""
    party = parties[winner]
    if not is_normal_type(game):
        return [Reason("no_extras_in_solo", {"game": game})]
    points = sum(card_points(c) for c in ids)
    reasons = [Reason("doppelkopf_trick" if points >= 40 else "no_doppelkopf", {"points": points})]
    for i, card in enumerate(ids):
        seat = (leader + i) % SEATS
        params = {"seat": seat, "winner": winner, "party": party}
        if parse_card(card) == ACE_OF_DIAMONDS:
            reasons.append(Reason("fox_caught" if parties[seat] != party else "fox_own", params))
        if parse_card(card) == JACK_OF_CLUBS:
            if not last:
                reasons.append(Reason("karlchen_not_last", params))
            elif seat == winner:
                reasons.append(Reason("karlchen_wins_last", params))
            elif parties[seat] != party:
                code = "karlchen_caught" if rules.karlchen == "win_or_catch" else "karlchen_caught_not_counted"
                reasons.append(Reason(code, params))
            else:
                reasons.append(Reason("karlchen_beaten_by_partner", params))
    return reasons


