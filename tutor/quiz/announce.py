"""Who may still announce what, now: a moment of a played deal with the cards left in each
hand, what each party has announced so far, and a wedding's clarification."""
from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Final

from tutor.quiz.base import (
    SEATS,
    Choice,
    Field,
    Question,
    check,
    game_id,
    given_seat,
    keys,
    number,
    party_of,
    said_of,
    seat_choices,
)
from tutor.quiz.positions import pick_game, play
from tutor.rules.announcements import SCHWARZ, announcement_id, level_of, may_announce, other
from tutor.rules.cards import card_id
from tutor.rules.deals import check_parties, clarification_trick
from tutor.rules.errors import RulesError
from tutor.rules.explain import Reason, announcement_reasons
from tutor.rules.games import is_solo
from tutor.rules.rulesets import RuleSet

KIND: Final = "announce"
SECTION: Final = "announcements"

KEYS: Final = frozenset({"ask", "party", "parties", "cards", "said", "clarified", "game", "seat", "history", "plays",
                         "groom", "number"})

__all__ = ["ask", "build", "check"]


def _wedding(clarified: int | None, trick: int) -> int | None:
    """The wedding argument of the engine at the start of trick ``trick`` (0-based)."""
    if clarified is None:
        return None
    return clarified if trick >= clarified else 0


def build(rng: random.Random, rules: RuleSet, level: int = 0) -> Question:
    """A moment near the deadlines, and who may say what now."""
    while True:
        game = pick_game(rng, level, rules)
        position = play(rng, rules, game)
        deal = position.deal
        if deal.game == "wedding_solo":
            continue  # the groom played alone: no partner to announce with
        clarified = clarification_trick(position.info["groom"], deal.winners) if deal.game == "wedding" else None
        tricks = rules.tricks
        t = int(rng.random() * min(7, tricks - 1)) + (1 if clarified else 0)
        p = int(rng.random() * 4)
        said: dict[str, str | None] = {"re": None, "kontra": None}
        history: list[tuple[int, str, int]] = []
        # Announcements so far: now and then a player says what he may, in play order.
        for k in range(t + 1):
            for i in range(4 if k < t else p):
                seat = deal.seat_of(k, i)
                if rng.random() < 0.06:
                    party = deal.parties[seat]
                    allowed = may_announce(rules, deal.game, party, tricks - k, said[party], said[other(party)],
                                           _wedding(clarified, k))
                    if allowed:
                        said[party] = allowed[0] if rng.random() < 0.85 else rng.choice(allowed)
                        history.append((seat, said[party] or "", k + 1))
        played_now = {deal.seat_of(t, i) for i in range(p)}
        cards = [tricks - t - (1 if s in played_now else 0) for s in range(SEATS)]
        wedding = _wedding(clarified, t)

        answers = [may_announce(rules, deal.game, deal.parties[s], cards[s], said[deal.parties[s]],
                                said[other(deal.parties[s])], wedding) for s in range(SEATS)]
        moment: dict[str, Any] = {
            "game": deal.game, "parties": list(deal.parties), "cards": cards, "said": said, "clarified": wedding,
            "history": history, "plays": [(deal.seat_of(t, i), card_id(deal.tricks[t][i])) for i in range(p)],
            "groom": position.info.get("groom"), "number": t + 1,
        }
        if rng.random() < 0.35:
            # Which players may announce anything at all?
            # Nobody or everybody: rarely worth asking, and never of a newcomer (trick 6 with
            # nothing said is long past every deadline).
            if sum(bool(a) for a in answers) in (0, 4) and (level == 0 or rng.random() < 0.7):
                continue
            return replace(ask({**moment, "ask": "who"}, rules), level=level)
        seat = int(rng.random() * SEATS)
        allowed = answers[seat]

        # Levels said already by the seat's party are no choice: all the rest is everything.
        own_level = 0 if level else level_of(said[deal.parties[seat]], deal.parties[seat]) + 1
        if (not allowed or len(allowed) == SCHWARZ + 1 - own_level) and (level == 0 or rng.random() < 0.75):
            continue  # nothing at all, or everything: keep the moments near a deadline
        if level_of(said[deal.parties[seat]], deal.parties[seat]) == SCHWARZ:
            continue  # everything said already: nothing to ask
        return replace(ask({**moment, "seat": seat}, rules), level=level)


def _moment(position: Mapping[str, Any], rules: RuleSet) -> dict[str, Any]:
    """The parts of a given moment, checked: game, parties, cards in each hand, what each
    party said, the engine's wedding argument."""
    game = game_id(position.get("game", "wedding" if "clarified" in position else "normal"), rules)
    if game == "wedding_solo":
        raise RulesError("no_partner", "game", game=game)  # the groom plays alone: nobody to announce with
    who = position.get("ask", "what")
    if who not in ("what", "who"):
        raise RulesError("unknown_value", "ask", value=str(who)[:12])
    tricks = rules.tricks
    if who == "who" or "parties" in position:
        parties = list(check_parties(position.get("parties"), game))
        raw_cards = position.get("cards")
        if not isinstance(raw_cards, (list, tuple)) or len(raw_cards) != SEATS:
            raise RulesError("wrong_count", "cards", expected=SEATS)
        cards = [number(n, f"cards.{s}", 0, tricks) for s, n in enumerate(raw_cards)]
        seat_ = given_seat(position.get("seat", 0), "seat")
    else:
        # One player (the learner, seat 0) of ``party`` with ``cards`` in hand.
        party = party_of(position.get("party"), "party")
        seat_ = 0
        parties = [party, other(party), other(party), other(party)] if is_solo(game) and party == "re" else \
            [party, "re", "kontra", "kontra"] if is_solo(game) else [party, other(party), party, other(party)]
        cards = [number(position.get("cards"), "cards", 0, tricks)] * SEATS
    if max(cards) - min(cards) > 1:
        raise RulesError("cards_do_not_fit", "cards", low=min(cards), high=max(cards))
    clarified = position.get("clarified")
    if game == "wedding":
        wedding: int | None = number(0 if clarified is None else clarified, "clarified", 0, 3)
        if wedding and max(cards) > tricks - wedding:
            raise RulesError("cards_do_not_fit", "cards", trick=wedding, high=tricks - wedding)
    elif clarified is not None:
        raise RulesError("not_a_wedding", "clarified", game=game)
    else:
        wedding = None
    return {"game": game, "ask": who, "parties": parties, "cards": cards, "seat": seat_,
            "said": said_of(position.get("said")), "wedding": wedding}


def ask(position: Mapping[str, Any], rules: RuleSet) -> Question:
    """Who may announce what now. One player: ``party``, ``cards`` (cards still in hand),
    ``said`` (each party's highest announcement so far), ``clarified`` (a wedding's
    clarification trick, 1-3; 0 or absent in a wedding: not yet). Every player (``ask =
    "who"``): ``parties`` and ``cards`` (4 each, by seat) instead. ``game`` is optional;
    ``seat``, ``history``, ``plays``, ``groom`` and ``number`` carry what the quiz shows."""
    keys(position, KEYS)
    m = _moment(position, rules)
    game, parties, cards, said, wedding = m["game"], m["parties"], m["cards"], m["said"], m["wedding"]

    def allowed_for(seat_: int, under: RuleSet) -> list[str]:
        party = parties[seat_]
        return may_announce(under, game, party, cards[seat_], said[party], said[other(party)], wedding)

    answers = [allowed_for(s, rules) for s in range(SEATS)]
    other_rules = rules.other(deck=rules.deck)
    facts: dict[str, Any] = {
        "parties": tuple(parties), "cards": cards, "said": said, "history": list(position.get("history", [])),
        "plays": list(position.get("plays", [])),
        "clarified": wedding or None, "groom": position.get("groom"),
        "unclarified": wedding == 0,
    }
    params: dict[str, Any] = {"trick": position.get("number", rules.tricks - max(cards) + 1)}
    if m["ask"] == "who":
        answer = [str(s) for s in range(SEATS) if answers[s]]
        reasons = tuple(_seat_reason(rules, parties[s], cards[s], said, wedding, s, answers[s]) for s in range(SEATS))
        decide = any(bool(allowed_for(s, other_rules)) != bool(answers[s]) for s in range(SEATS))
        return Question(
            kind=KIND, seed=0, level=0, rules=rules, game=game, prompt="announce_who",
            params=params, fields=(Field("seats", "many", seat_choices()),),
            answer=(",".join(answer),), reasons=reasons, section=SECTION, facts=facts, rules_decide=decide,
        )
    seat_ = m["seat"]
    allowed = answers[seat_]
    party = parties[seat_]
    rows = announcement_reasons(rules, party, cards[seat_], said[party], said[other(party)], wedding)
    own = level_of(said[party], party)
    choices = tuple(
        Choice(announcement_id(level, party), label=announcement_id(level, party))
        for level in range(own + 1, SCHWARZ + 1)
    )
    if not choices:
        raise RulesError("all_made", "said", party=party)
    return Question(
        kind=KIND, seed=0, level=0, rules=rules, game=game, prompt="announce_what",
        params={**params, "seat": seat_, "party": party, "cards": cards[seat_]},
        fields=(Field("announce", "many", choices),),
        answer=(",".join(sorted(allowed)),),
        reasons=tuple(reason for aid, _ok, reason in rows if aid in {c.value for c in choices}),
        section=SECTION, facts={**facts, "seat": seat_},
        rules_decide=allowed_for(seat_, other_rules) != allowed,
    )


def _seat_reason(rules: RuleSet, party: str, cards: int, said: dict[str, str | None], wedding: int | None,
                 seat: int, allowed: list[str]) -> Reason:
    """Why one seat may (the lowest it may say) or may not (its next level) announce."""
    rows = announcement_reasons(rules, party, cards, said[party], said[other(party)], wedding)
    pending = [(aid, ok, reason) for aid, ok, reason in rows if reason.code != "already_made"]
    if not pending:
        return Reason("all_made", {"seat": seat, "party": party})
    aid, ok, reason = next((row for row in pending if row[1]), pending[0])
    return Reason(reason.code, {**reason.params, "seat": seat, "party": party, "announcement": aid,
                                "allowed": allowed})
