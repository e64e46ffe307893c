"""How good were your cards: a finished deal judged card by card (`/<lang>/play/review`), a
note after a trick whose card was a mistake (`/<lang>/play/note`), the hint that names a card
(`/<lang>/play/hint`), and a decision to solve again (`/<lang>/play/retry`).

The judging is tutor.analysis's: every card the learner chose is played out in sampled worlds
consistent with what the learner could see, against every other legal card, by the computer
players. A verdict above "good" is shown only with the table tip that explains it; where no
tip applies the page says at most that the simulations slightly prefer another card. The
same address always gives the same review (the analysis is seeded from the deal).
"""
from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Final

from flask import abort, after_this_request, make_response, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from tutor.analysis import pool
from tutor.analysis.judge import Analysis, CardValue
from tutor.analysis.review import Judgement, decision_seed, played_cards, replay_to
from tutor.analysis.tips import SIMULATIONS_PREFER, Tip
from tutor.analysis.view import SeatView
from tutor.analysis.worlds import NoWorld
from tutor.play import HUMAN, Position
from tutor.quiz import best_card
from tutor.rules.cards import Card, card_id, parse_card
from tutor.rules.deal import Deal
from tutor.rules.errors import RulesError
from tutor.rules.games import hand_order
from tutor.rules.terms import SEATS
from tutor.web.base import htmx, practice, shared
from tutor.web.base.rules import COOKIE as RULES_COOKIE
from tutor.web.play import words as text
from tutor.web.play.state import read_position, state_args
from tutor.web.play.views import bp
from tutor.web.words.analysis import tip_text, verdict_name
from tutor.web.words.questions.names import short

SAMPLES: Final = 100  # worlds a decision is judged in (PLAY-REVIEW.md §7.1)
REVIEWS_KEPT: Final = 64  # whole reviews kept (the same deal asked again, in another language)
NOTES_KEPT: Final = 512  # single decisions kept (notes, hints, retries)
SHOWN: Final = ("inaccuracy", "mistake", "blunder")  # verdicts a tip must explain to be shown
NOTED: Final = ("mistake", "blunder")  # verdicts worth a note during play


@dataclass(frozen=True, slots=True)
class Shown:
    """One judged card as the page shows it: its verdict (None: nothing to say), the better
    card, the sentence, and where to try the decision again."""

    seat: str
    card: str
    verdict: str | None  # "good", "inaccuracy", "mistake", "blunder", "prefer" or None
    label: str | None
    better: str | None
    sentence: str | None
    retry: str | None


@dataclass(frozen=True, slots=True)
class ShownTrick:
    number: int
    heading: str
    plays: tuple[tuple[str, str], ...]
    winner_index: int
    judged: tuple[Shown | None, ...]  # by position in the trick


def trick_heading(number: int, winner: int) -> str:
    if winner == HUMAN:
        return _("Trick %(num)d: you take it", num=number)
    return _("Trick %(num)d: %(seat)s takes it", num=number, seat=text.seat(winner))


def shown_tricks(deal: Deal, judged: dict[tuple[int, int], Shown] | None = None) -> list[ShownTrick]:
    """The finished tricks of ``deal`` in rows, with what was said of each judged card."""
    out = []
    for number, (cards, leader, winner) in enumerate(zip(deal.tricks, deal.leaders, deal.winners, strict=True), 1):
        seats = [(leader + i) % SEATS for i in range(len(cards))]
        out.append(ShownTrick(number, trick_heading(number, winner),
                              tuple((text.seat(s), card_id(c)) for s, c in zip(seats, cards, strict=True)),
                              seats.index(winner), tuple((judged or {}).get((number, s)) for s in seats)))
    return out


def shown(judgement: Judgement, seat: int, retry: str | None) -> Shown:
    """What the page says of one judged card (PLAY-REVIEW.md §7.2-§7.4)."""
    name, card = text.seat(seat), card_id(judgement.card)
    analysis, verdict = judgement.analysis, judgement.verdict
    if verdict is None or analysis.silent is not None or verdict == "unclear":
        return Shown(name, card, None, None, None, None, None)
    if verdict in ("best", "good"):  # said only where a tip applies (PLAY-REVIEW.md §7.2): here none does
        return Shown(name, card, "good", None, None, None, None)
    better = card_id(judgement.better) if judgement.better is not None else None
    tip = judgement.reason
    if tip is None or tip.code == SIMULATIONS_PREFER:
        sentence = _("The computer’s simulations slightly prefer %(better)s.", better=short(better or card))
        return Shown(name, card, "prefer", None, better, sentence, None)
    return Shown(name, card, verdict, verdict_name(verdict), better, tip_text(tip, seat=text.seat),
                 retry if verdict in NOTED else None)


def _decision_index(deal: Deal, trick: int, seat: int) -> int:
    """The number of cards played before ``seat``'s card in ``trick`` (1-based)."""
    before = sum(len(t) for t in deal.tricks[:trick - 1])
    leader = deal.leaders[trick - 1]
    return before + (seat - leader) % SEATS


def judged_deal(p: Position, seats: tuple[int, ...]) -> dict[int, tuple[Judgement, ...]]:
    """Every card of these seats in the finished deal, judged (kept: the same deal is judged
    once whatever the language)."""
    deal = p.deal
    assert deal is not None and deal.over
    kept = shared.store("play_reviews", REVIEWS_KEPT, lambda _v: 1)
    key = (state_key(p), seats, SAMPLES)
    found: dict[int, tuple[Judgement, ...]] | None = shared.look(kept, key)
    if found is None:
        analyses = pool.shared()
        found = {seat: analyses.review(deal, seat, SAMPLES, p.seed) for seat in seats}
        shared.keep(kept, key, found)
    return found


def state_key(p: Position) -> Hashable:
    return (p.seed, p.level, state_args(p)["r"], p.moves)


def retry_url(p: Position, judgement: Judgement, seat: int) -> str | None:
    if seat != HUMAN:
        return None
    return url_for("play.retry", **state_args(p), k=_decision_index(p.deal, judgement.trick, seat))  # type: ignore[arg-type]


def reviewed_tricks(p: Position, judged: dict[int, tuple[Judgement, ...]]) -> list[ShownTrick]:
    deal = p.deal
    assert deal is not None
    by_place = {(j.trick, seat): shown(j, seat, retry_url(p, j, seat)) for seat, js in judged.items() for j in js}
    return shown_tricks(deal, by_place)


def finished_or_400(p: Position) -> Position:
    if not p.over or p.deal is None or not p.deal.over:
        abort(400, description=_("Only a finished deal can be reviewed: play it to its end first."))
    return p


def position_or_400() -> Position:
    try:
        return read_position(request.args)
    except RulesError:
        abort(400, description=_("This deal’s address was damaged or describes moves that cannot be made."))


@bp.get("/review")
@shared.shared(RULES_COOKIE)
def show_review() -> Response:
    """Every card of the learner (and with `all=1` the computer's too) in a finished deal."""
    p = finished_or_400(position_or_400())
    everyone = request.args.get("all") == "1"
    seats = tuple(range(SEATS)) if everyone else (HUMAN,)
    judged = judged_deal(p, seats)
    tricks = reviewed_tricks(p, judged)
    mine = [shown(j, HUMAN, None).verdict for j in judged[HUMAN]]
    counts = {verdict: mine.count(verdict) for verdict in SHOWN}
    template = "play/_review.html" if htmx.is_partial(request) else "play/review.html"
    return make_response(render_template(
        template, p=p, tricks=tricks, counts=counts, everyone=everyone, samples=SAMPLES, card_name=short,
        back=url_for("play.show", **state_args(p)),
        all_url=url_for("play.show_review", **state_args(p), all=1),
        mine_url=url_for("play.show_review", **state_args(p)),
    ))


# --- One decision: the note after a trick, the hint, the retry ------------------------------


def decision(p: Position, before: int) -> tuple[Deal, Analysis]:
    """The learner's decision after ``before`` cards of the deal, as the learner saw it, and
    its analysis, seeded as the review seeds it (kept)."""
    deal = p.deal
    assert deal is not None
    again = replay_to(deal, before)
    if again.turn != HUMAN:
        raise RulesError("not_your_turn", "k")
    kept = shared.store("play_decisions", NOTES_KEPT, lambda _v: 1)
    key = (state_key(p), before, SAMPLES)
    analysis: Analysis | None = shared.look(kept, key)
    if analysis is None:
        view = SeatView.of(again, HUMAN)
        try:
            analysis = pool.shared().analyse(view, SAMPLES, decision_seed(p.seed, before))
        except NoWorld:  # as the review says of it: no world makes this view, nothing is judged
            analysis = Analysis(HUMAN, 0, view.party_known, (), (), "no_world")
        shared.keep(kept, key, analysis)
    return again, analysis


def judged_card(analysis: Analysis, card: Card) -> CardValue | None:
    """What the analysis found of ``card``; None where it judged no card."""
    return next((c for c in analysis.cards if c.card == card or card in c.same_as), None)


@bp.errorhandler(pool.Busy)
def busy(_error: pool.Busy) -> Response:
    """Every worker of the analysis has its work: say so, and when to try again."""
    message = _("The computer is judging other deals just now. Try again in a moment.")
    template = "errors/_message.html" if htmx.is_partial(request) else "errors/error.html"
    response = make_response(render_template(template, code=503, message=message), 503)
    response.headers["Retry-After"] = "2"
    response.cache_control.no_store = True
    return response


@bp.get("/note")
@shared.shared(RULES_COOKIE)
def note() -> Response:
    """After a trick: one sentence when the learner's card in it was a mistake or a blunder
    that a table tip explains; nothing otherwise (a fragment for the play page)."""
    p = position_or_400()
    deal = p.deal
    try:
        trick = int(request.args.get("t", ""))
    except ValueError:
        abort(400)
    if deal is None or not 1 <= trick <= len(deal.tricks):
        abort(400)
    cards, leader = deal.tricks[trick - 1], deal.leaders[trick - 1]
    mine = cards[(HUMAN - leader) % SEATS]
    try:
        _deal, analysis = decision(p, _decision_index(deal, trick, HUMAN))
    except pool.Busy:  # a note is a bonus: when every worker is busy, none this time (and none kept)
        response = make_response(render_template("play/_note.html", said=None, trick=trick, card_name=short))
        response.cache_control.no_store = True
        return response
    value = judged_card(analysis, mine)
    said = None
    tip = value.reason if value is not None else None
    if value is not None and analysis.silent is None and value.verdict in NOTED \
            and tip and tip.code != SIMULATIONS_PREFER:
        said = {"label": verdict_name(value.verdict), "verdict": value.verdict,
                "sentence": tip_text(tip, seat=text.seat),
                "better": card_id(analysis.best[0]) if analysis.best else None}
    return make_response(render_template("play/_note.html", said=said, trick=trick, card_name=short))


def best_with_tip(analysis: Analysis) -> tuple[Card, Tip | None]:
    """The card to play, and the tip that says why, against the worst card a tip explains."""
    best = analysis.best[0]
    explained = [c for c in analysis.cards if c.reason is not None and c.reason.code != SIMULATIONS_PREFER]
    worst = max(explained, key=lambda c: c.loss, default=None)
    return best, worst.reason if worst else None


@bp.get("/hint")
@shared.shared(RULES_COOKIE)
def hint() -> Response:
    """Which card to play now, and why (the analysis of the learner's decision)."""
    p = position_or_400()
    deal = p.deal
    if deal is None or deal.turn != HUMAN or p.turn is None or p.turn.kind != "play":
        abort(400, description=_("There is no card of yours to choose now."))
    _deal, analysis = decision(p, len(played_cards(deal)))
    template = "play/_hint.html" if htmx.is_partial(request) else "play/hint.html"
    back = url_for("play.show", **state_args(p))
    if not analysis.best:  # no world fits what you have seen: no card can be named
        return make_response(render_template(template, best=None, card_name=short, sentence=None, only=False,
                                             back=back))
    best, tip = best_with_tip(analysis)
    return make_response(render_template(
        template, best=card_id(best), card_name=short, sentence=tip_text(tip, seat=text.seat) if tip else None,
        only=len(analysis.cards) < 2, back=back))


@bp.get("/retry")
@shared.shared(RULES_COOKIE)
def retry() -> Response:
    """A decision of the learner's finished deal to solve again: which card is better here?
    `k` counts the cards played before it."""
    return _retry(None)


@bp.post("/retry")
def answer_retry() -> Response:
    """The learner's new choice at that decision, judged by the same analysis."""
    return _retry(request.form.get("card", ""))


def _retry(chosen: str | None) -> Response:
    p = finished_or_400(position_or_400())
    try:
        before = int(request.args.get("k", ""))
        again, analysis = decision(p, before)
    except (ValueError, RulesError):
        abort(400, description=_("This decision’s address was damaged."))
    if not analysis.best:
        abort(400, description=_("The computer cannot judge this decision: no deal of the unseen cards fits "
                                 "everything that was played."))
    legal = [card_id(c) for c in again.legal()]
    feedback = None
    if chosen is not None:
        try:
            card: Card | None = parse_card(chosen)
        except ValueError:
            card = None
        if card is None or card_id(card) not in legal:
            abort(400, description=_("That card is not one you may play here."))
        value = judged_card(analysis, card)
        assert value is not None  # a legal card, and the analysis judged every legal card
        right = value.verdict in ("best", "good")
        best = analysis.best[0]
        played = played_cards(p.deal)[before]  # type: ignore[arg-type]
        feedback = {"right": right, "best": card_id(best), "chosen": card_id(card),
                    "sentence": retry_sentence(analysis, card, played, right),
                    "again": url_for("play.retry", **state_args(p), k=before)}
        remember(p, analysis, played, right)
    view = SeatView.of(again, HUMAN)
    party = view.party_known
    template = "play/_retry.html" if htmx.is_partial(request) else "play/retry.html"
    return make_response(render_template(
        template, p=p, hand=sorted_hand(again), legal=legal, feedback=feedback, card_name=short,
        table=[(text.seat((again.leader + i) % SEATS), card_id(c)) for i, c in enumerate(again.trick)],
        trick_number=len(again.tricks) + 1, earlier=shown_tricks(again),
        party=party, party_name=text.party(party) if party else None,
        known_line=text.known_line(again.known(HUMAN)),
        action=url_for("play.answer_retry", **state_args(p), k=before),
        review_url=url_for("play.show_review", **state_args(p))), 200 if chosen is None or feedback else 400)


def retry_sentence(analysis: Analysis, chosen: Card, played: Card, right: bool) -> str | None:
    """Why, in one sentence: for a right answer, the tip against the card played in the deal;
    for a wrong one, the tip against the card chosen now, or, where none explains it, only that
    the simulations prefer the better card (never another card's tip)."""
    value = judged_card(analysis, played if right else chosen)
    tip = value.reason if value is not None else None
    if tip is not None and tip.code != SIMULATIONS_PREFER:
        return tip_text(tip, seat=text.seat)
    if right:
        return None
    return _("The computer’s simulations slightly prefer %(better)s.", better=short(card_id(analysis.best[0])))


def remember(p: Position, analysis: Analysis, played: Card, right: bool) -> None:
    """The tip that explained the learner's card in the deal goes into her spaced review, as a
    missed quiz rule does: a wrong answer here schedules it (again), a right one moves it on.
    The review asks it as a "find the best card" question of the quiz (tutor/quiz/best_card.py)
    at the first level that has positions of that tip; a tip none has is not scheduled."""
    value = judged_card(analysis, played)
    tip = value.reason if value is not None else None
    if tip is None or tip.code == SIMULATIONS_PREFER:
        return
    level = best_card.level_for(tip.code, p.rules.ruleset)
    if level is None:
        return
    practice.current().deck.record(best_card.KIND, level, tip.code, right, practice.now())
    after_this_request(practice.save)


def sorted_hand(deal: Deal) -> list[str]:
    table = deal.table
    hand = deal.hands[HUMAN]
    return [card_id(c) for c in hand_order(hand, table)]

