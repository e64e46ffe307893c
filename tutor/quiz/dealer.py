"""Who deals next, and who must play a solo now: the dealer's turn, the same dealer again
after a compulsory solo, sitting out at five to seven, and "vorgeführt" (RULES.md §10).

Asked only about a position a lesson gives: the deals of an evening so far, or the state of a
DDV round (who still owes a compulsory solo, how many deals are left).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from tutor.quiz.base import Choice, Field, Question, check, flag, game_id, keys, number
from tutor.rules.errors import RulesError
from tutor.rules.explain import Reason
from tutor.rules.games import is_solo
from tutor.rules.rulesets import RuleSet
from tutor.rules.scoring import default_re_tricks
from tutor.rules.sheet import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    Deal,
    Evening,
    check_deal,
    evening,
    round_length,
    seating,
    vorgefuehrt_player,
)

KIND: Final = "dealer"
SECTION: Final = "sheet"
KEYS: Final = frozenset({"ask", "players", "deals", "dealer", "owed", "deals_left"})
DEAL_KEYS: Final = frozenset({"dealer", "game", "compulsory", "soloist"})

__all__ = ["ask", "check"]


def _player_choices(players: int) -> tuple[Choice, ...]:
    return tuple(Choice(str(p), label="player", params={"player": p}) for p in range(players))


def ask(position: Mapping[str, Any], rules: RuleSet) -> Question:
    """Who deals next: ``players`` (4-7) and ``deals`` so far (each ``dealer``, ``game``,
    ``compulsory``, and for a solo optionally ``soloist``, by default the player on the
    dealer's left). With ``ask = "solo"``: who must play a solo in the next deal (DDV), from
    ``dealer`` (of that deal; by default the one whose turn it is after ``deals``), ``owed``
    (players who still owe their compulsory solo) and ``deals_left`` (in the round, that deal
    included)."""
    keys(position, KEYS)
    players = number(position.get("players", MIN_PLAYERS), "players", MIN_PLAYERS, MAX_PLAYERS)
    question = position.get("ask", "next")
    if question not in ("next", "solo"):
        raise RulesError("unknown_value", "ask", value=str(question)[:12])
    sheet = _evening(position, rules, players) if question == "next" or "deals" in position else None
    if question == "solo":
        return _solo(position, rules, players, sheet)
    assert sheet is not None
    last = sheet.rows[-1]
    previous, following = last.deal.dealer, sheet.next_dealer
    soloist = last.deal.re_players[0]
    if last.compulsory and not last.vorgefuehrt:
        reasons = [Reason("same_dealer_after_compulsory", {"dealer": previous, "soloist": soloist})]
    elif last.compulsory:
        reasons = [Reason("dealer_moves_after_vorgefuehrt",
                          {"dealer": previous, "next": following, "soloist": soloist})]
    else:
        reasons = [Reason("dealer_moves_left", {"dealer": previous, "next": following})]
    if sheet.next_sitting_out:
        reasons.append(Reason("sitting_out", {"dealer": following, "seats": list(sheet.next_sitting_out)}))
    return Question(
        kind=KIND, seed=0, level=0, rules=rules, game="normal", prompt="dealer_next", params={"players": players},
        fields=(Field("dealer", "one", _player_choices(players)),),
        answer=(str(following),), reasons=tuple(reasons), section=SECTION,
        facts={"players": players,
               "deals": [(row.deal.dealer, row.deal.game, row.deal.re_players[0] if is_solo(row.deal.game) else None,
                          row.compulsory) for row in sheet.rows],
               "sitting_out": list(sheet.next_sitting_out), "owed": list(sheet.solos_owed)},
    )


def _evening(position: Mapping[str, Any], rules: RuleSet, players: int) -> Evening:
    """The sheet of the given deals, each checked against the engine: its dealer is the one
    whose turn it was, its ``compulsory`` what the engine makes of it."""
    raw = position.get("deals")
    if not isinstance(raw, (list, tuple)) or not 1 <= len(raw) <= 2 * round_length(players):
        raise RulesError("wrong_count", "deals", low=1, high=2 * round_length(players))
    deals: list[Deal] = []
    said_compulsory: list[bool] = []
    for i, entry in enumerate(raw):
        if not isinstance(entry, Mapping):
            raise RulesError("bad_type", f"deals.{i}", expected="table")
        keys(entry, DEAL_KEYS)
        dealer = number(entry.get("dealer"), f"deals.{i}.dealer", 0, players - 1)
        game = game_id(entry.get("game", "normal"), rules, f"deals.{i}.game")
        compulsory = flag(entry.get("compulsory", False), f"deals.{i}.compulsory")
        playing, _out = seating(players, dealer)
        if is_solo(game):
            soloist = number(entry.get("soloist", playing[0]), f"deals.{i}.soloist", 0, players - 1)
            re_players: tuple[int, ...] = (soloist,)
        elif compulsory or "soloist" in entry:
            raise RulesError("not_a_solo", f"deals.{i}.compulsory", game=game)
        else:
            re_players = playing[:2]
        deal = Deal(game, 121, default_re_tricks(rules, 121), dealer, re_players)
        check_deal(rules, players, deal)
        expected = evening(rules, players, deals, first_dealer=deals[0].dealer).next_dealer if deals else dealer
        if dealer != expected:
            raise RulesError("wrong_dealer", f"deals.{i}.dealer", expected=expected, got=dealer)
        deals.append(deal)
        said_compulsory.append(compulsory)
    sheet = evening(rules, players, deals, first_dealer=deals[0].dealer)
    for i, row in enumerate(sheet.rows):
        if row.compulsory != said_compulsory[i]:
            raise RulesError("compulsory_mismatch", f"deals.{i}.compulsory", engine=row.compulsory)
    return sheet


def _solo(position: Mapping[str, Any], rules: RuleSet, players: int, sheet: Evening | None) -> Question:
    if not rules.has_compulsory_solos:
        raise RulesError("no_compulsory_solos", "ask", ruleset=rules.ruleset)  # only the DDV's rounds know them
    # The next deal's dealer: given, or the one whose turn it is after the given deals.
    dealer = number(position.get("dealer", sheet.next_dealer if sheet else 0), "dealer", 0, players - 1)
    raw = position.get("owed")
    if not isinstance(raw, (list, tuple)):
        raise RulesError("bad_type", "owed", expected="list of players")
    owed = sorted({number(p, "owed", 0, players - 1) for p in raw})
    if sheet is not None and set(owed) - set(sheet.solos_owed):
        # A player who played his compulsory solo in the given deals owes none any more.
        raise RulesError("compulsory_mismatch", "owed", players=sorted(set(owed) - set(sheet.solos_owed)))
    left = number(position.get("deals_left"), "deals_left", 1, round_length(players))
    forced = vorgefuehrt_player(players, dealer, set(owed), left)
    params = {"owed": owed, "deals_left": left, "dealer": dealer}
    reason = Reason("vorgefuehrt", {**params, "player": forced}) if forced is not None else \
        Reason("no_solo_due", params)
    choices = (*_player_choices(players), Choice("nobody", label="nobody"))
    return Question(
        kind=KIND, seed=0, level=0, rules=rules, game="normal", prompt="dealer_solo",
        params={"players": players},
        fields=(Field("player", "one", choices),),
        answer=("nobody" if forced is None else str(forced),), reasons=(reason,), section=SECTION,
        facts={"players": players, "dealer": dealer, "owed": owed, "deals_left": left,
               "playing": list(seating(players, dealer)[0])},
    )
