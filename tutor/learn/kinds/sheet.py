"""``sheet``: an evening's score sheet (its rows, Bock rounds, sitting out), asked as a
player's entry in a deal or total after the deals."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from tutor.quiz.base import Field, Question, flag, game_id, keys, number
from tutor.rules.errors import RulesError
from tutor.rules.explain import Reason
from tutor.rules.rulesets import RuleSet
from tutor.rules.sheet import MAX_PLAYERS, MIN_PLAYERS, Deal, check_deal, evening

SHEET_KEYS: Final = frozenset({"players", "deals", "bock", "ask", "player", "deal", "first"})
SHEET_DEAL_KEYS: Final = frozenset({"game", "re", "winner", "value", "bock", "why"})
BOCK_WHY: Final = ("tie", "lost_re", "lost_kontra")


def _sheet_deals(position: Mapping[str, Any], rules: RuleSet, players: int) -> tuple[list[Deal], list[str | None]]:
    raw = position.get("deals")
    if not isinstance(raw, (list, tuple)) or not 1 <= len(raw) <= 12:
        raise RulesError("wrong_count", "deals", low=1, high=12)
    first = number(position.get("first", 0), "first", 0, players - 1)
    deals: list[Deal] = []
    why: list[str | None] = []
    for i, entry in enumerate(raw):
        if not isinstance(entry, Mapping):
            raise RulesError("bad_type", f"deals.{i}", expected="table")
        keys(entry, SHEET_DEAL_KEYS)
        game = game_id(entry.get("game", "normal"), rules, f"deals.{i}.game")
        dealer = (first + i) % players  # no compulsory solo here: the deal moves on every time
        re_players = tuple(number(p, f"deals.{i}.re", 0, players - 1) for p in entry.get("re", []))
        winner = entry.get("winner")
        if winner not in ("re", "kontra"):
            raise RulesError("unknown_party", f"deals.{i}.winner", value=str(winner)[:12])
        value = number(entry.get("value"), f"deals.{i}.value", 1, 12)
        reason = entry.get("why")
        if reason is not None and reason not in BOCK_WHY:
            raise RulesError("unknown_value", f"deals.{i}.why", value=str(reason)[:12])
        bock = flag(entry.get("bock", reason is not None), f"deals.{i}.bock")
        deal = Deal.quick_entry(game, dealer, re_players, winner, value, bock=bock)
        check_deal(rules, players, deal)
        deals.append(deal)
        why.append(reason if bock else None)
    return deals, why


def ask_sheet(position: Mapping[str, Any], rules: RuleSet) -> Question:
    """A few deals of an evening as a table writes them ("Re won, 2"), with Bock rounds
    (``bock``: the house option on) and players sitting out: ``players`` (4-7),
    ``deals`` (each ``re`` players, ``winner``, ``value``, ``bock``/``why`` when it starts a
    Bock round), ``first`` (who deals the first), and ``ask``: "total" (``player``'s total
    after all deals) or "entry" (what ``player`` writes in ``deal``, 1-based)."""
    keys(position, SHEET_KEYS)
    players = number(position.get("players", MIN_PLAYERS), "players", MIN_PLAYERS, MAX_PLAYERS)
    bock = flag(position.get("bock", False), "bock")
    deals, why = _sheet_deals(position, rules, players)
    sheet = evening(rules, players, deals, bock=bock, first_dealer=deals[0].dealer)
    asked = position.get("ask", "total")
    player = number(position.get("player"), "player", 0, players - 1)
    rows = sheet.rows
    if asked == "total":
        answer = sheet.totals[player]
        index = len(rows) - 1
    elif asked == "entry":
        index = number(position.get("deal"), "deal", 1, len(rows)) - 1
        entry = rows[index].entries[player]
        answer = 0 if entry is None else entry
    else:
        raise RulesError("unknown_value", "ask", value=str(asked)[:12])
    shown = [{"number": r.number, "dealer": r.deal.dealer, "game": r.deal.game, "re": list(r.deal.re_players),
              "winner": r.deal.quick.winner if r.deal.quick else None,
              "value": r.deal.quick.value if r.deal.quick else None, "bock": why[i],
              "out": list(r.sitting_out)} for i, r in enumerate(rows[: index + 1] if asked == "entry" else rows)]
    reasons = tuple(Reason("sheet_row", {"number": r.number, "entries": list(r.entries), "multiplier": r.multiplier,
                                         "player": player, "total": r.totals[player], "out": list(r.sitting_out)})
                    for r in (rows[: index + 1]))
    return Question(
        kind="sheet", seed=0, level=0, rules=rules, game="normal",
        prompt="sheet_total" if asked == "total" else "sheet_entry",
        params={"player": player, "deal": index + 1, "players": players},
        fields=(Field("points", "number", low=-999, high=999, label="sheet"),), answer=(str(answer),),
        reasons=reasons, section="sheet",
        facts={"players": players, "deals": shown, "bock": bock, "player": player},
    )
