"""Who may still announce what, now: a moment of a played deal with the cards left in each
hand, what each party has announced so far, and a wedding's clarification."""
from __future__ import annotations

import random
from typing import Any, Final

from tutor.quiz.base import SEATS, Choice, Field, Question, check, seat_choices
from tutor.quiz.positions import pick_game, play
from tutor.rules.announcements import SCHWARZ, announcement_id, level_of, may_announce, other
from tutor.rules.cards import card_id
from tutor.rules.deals import clarification_trick
from tutor.rules.explain import Reason, announcement_reasons
from tutor.rules.rulesets import RuleSet

KIND: Final = "announce"
SECTION: Final = "announcements"

__all__ = ["build", "check"]


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

        def allowed_for(seat: int, under: RuleSet) -> list[str]:
            party = deal.parties[seat]
            return may_announce(under, deal.game, party, cards[seat], said[party], said[other(party)], wedding)

        answers = [allowed_for(s, rules) for s in range(SEATS)]
        other_rules = RuleSet.named("pagat" if rules.ruleset == "ddv" else "ddv").with_options(deck=rules.deck)
        facts: dict[str, Any] = {
            "parties": deal.parties, "cards": cards, "said": said, "history": history,
            "plays": [(deal.seat_of(t, i), card_id(deal.tricks[t][i])) for i in range(p)],
            "clarified": clarified if wedding else None, "groom": position.info.get("groom"),
            "unclarified": wedding == 0,
        }
        params = {"trick": t + 1}
        if rng.random() < 0.35:
            # Which players may announce anything at all?
            answer = [str(s) for s in range(SEATS) if answers[s]]
            if len(answer) in (0, 4) and rng.random() < 0.7:
                continue
            reasons = tuple(_seat_reason(rules, deal.parties[s], cards[s], said, wedding, s, answers[s])
                            for s in range(SEATS))
            decide = any(bool(allowed_for(s, other_rules)) != bool(answers[s]) for s in range(SEATS))
            return Question(
                kind=KIND, seed=0, level=level, rules=rules, game=deal.game, prompt="announce_who",
                params=params, fields=(Field("seats", "many", seat_choices()),),
                answer=(",".join(answer),), reasons=reasons, section=SECTION, facts=facts, rules_decide=decide,
            )
        seat = int(rng.random() * SEATS)
        allowed = answers[seat]
        if (not allowed or len(allowed) == SCHWARZ + 1) and rng.random() < 0.75:
            continue  # nothing at all, or everything: keep the moments near a deadline
        party = deal.parties[seat]
        rows = announcement_reasons(rules, party, cards[seat], said[party], said[other(party)], wedding)
        own = level_of(said[party], party)
        choices = tuple(
            Choice(announcement_id(level, party), label=announcement_id(level, party))
            for level in range(own + 1, SCHWARZ + 1)
        )
        if not choices:
            continue
        return Question(
            kind=KIND, seed=0, level=level, rules=rules, game=deal.game, prompt="announce_what",
            params={**params, "seat": seat, "party": party, "cards": cards[seat]},
            fields=(Field("announce", "many", choices),),
            answer=(",".join(sorted(allowed)),),
            reasons=tuple(reason for aid, _ok, reason in rows if aid in {c.value for c in choices}),
            section=SECTION, facts={**facts, "seat": seat},
            rules_decide=allowed_for(seat, other_rules) != allowed,
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
