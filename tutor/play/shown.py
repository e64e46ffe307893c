"""What a page shows of a deal played with the tutor: plain frozen values, ready to render
(card ids, seats 0-3, reason codes for the web layer to word)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tutor.play.moves import Move
from tutor.rules.cards import parse_card
from tutor.rules.deal import Announcement, Reveal
from tutor.rules.deals import READ_FROM_TRICKS, replay
from tutor.rules.explain import Reason
from tutor.rules.rulesets import parse_rules
from tutor.rules.scoring import Score


@dataclass(frozen=True, slots=True)
class PlayedCard:
    seat: int
    card: str


# What revealed a party and an announcement at the table are the engine's own values.
AnnouncementMade = Announcement
__all__ = ["AnnouncementMade", "AnnounceOption", "PlayedCard", "PovertyView", "Result", "Reveal", "TrickView", "Turn"]


@dataclass(frozen=True, slots=True)
class TrickView:
    """A finished trick with the facts the tutor explains: the engine's reason for the
    winner (``tutor.rules.explain.trick_reason``), card points, what revealed a party in
    it, the announcements made during it, and each party's points so far once the human
    knows every party (else None)."""

    number: int
    leader: int
    cards: tuple[PlayedCard, ...]
    winner: int
    reason: Reason
    points: int
    reveals: tuple[Reveal, ...]
    announcements: tuple[AnnouncementMade, ...]
    running: dict[str, int] | None
    game: str


@dataclass(frozen=True, slots=True)
class AnnounceOption:
    """An announcement the human may make now, and ``until``: the fewest cards he may hold
    and still make it (with nothing else said meanwhile). ``reason``: why it is allowed now
    (``in_time``, or ``rides_along`` for a level 0 that comes late with a higher level, or
    ``reply_in_time``); ``until_reason``: the rule that closes it after ``until`` (its own
    deadline, a skipped lower level's, the reply window's)."""

    id: str
    until: int
    reason: Reason | None = None
    until_reason: Reason | None = None


@dataclass(frozen=True, slots=True)
class Turn:
    """What the human must decide now. ``kind``: ``reserve`` (``options``: reservation ids,
    "healthy" first), ``poverty_pass`` / ``poverty_return`` (choose ``count`` more cards of
    ``options``; ``must``: cards that have to be among them; ``chosen``: picked so far),
    ``poverty_accept`` (accept or decline), or ``play`` (``options``: the legal card ids,
    ``reason`` the rule that makes them legal, ``announce`` what he may announce first and
    ``deadlines_passed``: announcements that were open at his last turn and are not any
    more, with ``passed_reasons`` the rule that closed each: its own deadline, or a
    skipped lower level's)."""

    kind: str
    options: tuple[str, ...]
    hand: tuple[str, ...]
    cards_in_hand: int
    reason: Reason | None = None
    announce: tuple[AnnounceOption, ...] = ()
    deadlines_passed: tuple[str, ...] = ()
    must: tuple[str, ...] = ()
    chosen: tuple[str, ...] = ()
    count: int = 0
    passed_reasons: tuple[Reason, ...] = ()

    def moves(self) -> list[Move]:
        """Every move that is possible now (announcements before cards)."""
        if self.kind == "reserve":
            return [Move("reserve", o) for o in self.options]
        if self.kind == "poverty_accept":
            return [Move("poverty", o) for o in self.options]
        return [Move("announce", a.id) for a in self.announce] + [Move("card", o) for o in self.options]


@dataclass(frozen=True, slots=True)
class PovertyView:
    poor: int
    acceptor: int | None
    trumps_passed: int
    passed: tuple[str, ...]  # shown only to a human who passed or took them, else ()
    returned: tuple[str, ...]  # the same


@dataclass(frozen=True, slots=True)
class Result:
    """The end of the deal: the engine's score of it, the trick winners, and the deal as
    the API's deal-form request (``POST /api/v1/score`` scores it the same)."""

    score: Score
    winners: tuple[int, ...]
    deal_form: dict[str, Any]

    def as_json(self) -> dict[str, Any]:
        """What the page offers as JSON: the deal-form request under ``deal`` and the
        engine's result under ``score``, shaped as the API's answer to that request."""
        return {"deal": self.deal_form, "score": {**self.score.as_dict(), "trick_winners": list(self.winners)}}

    def reads_back(self) -> bool:
        """Whether the engine's replay of ``deal_form`` (what ``POST /api/v1/score`` does)
        takes the same tricks; the form names who declared Schweinchen, so it always does."""
        form = self.deal_form
        rules = parse_rules(form["rules"])
        tricks = [[parse_card(c) for c in trick] for trick in form["tricks"]]  # our own ids: valid
        deal = replay(rules, form["game"], form["first_leader"], tricks, form["parties"],
                      form.get("schweinchen", READ_FROM_TRICKS))
        return deal.winners == self.winners
