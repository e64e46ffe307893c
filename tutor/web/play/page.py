"""What the play page shows of a position: each trick explained, the game and the
announcements in words, the moves on offer, the seats, the end of the deal with its checks;
rendered as the page or the table htmx swaps in."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from flask import g, make_response, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.datastructures import MultiDict
from werkzeug.wrappers import Response

from tutor.play import HUMAN, Position, TrickView, decode_moves
from tutor.rules.announcements import level_of
from tutor.rules.cards import DECK_POINTS
from tutor.rules.explain import needs
from tutor.rules.games import is_solo
from tutor.rules.reservations import ANNOUNCED_SOLOS
from tutor.rules.terms import SEATS
from tutor.web import words
from tutor.web.base import htmx
from tutor.web.base.rules import current_rules, rules_key
from tutor.web.play import words as text
from tutor.web.play.state import GUESSES, check_tricks, current_stats, just_finished, state_args, state_url
from tutor.web.words.questions.reasons import trick_reason_text


@dataclass
class Shown:
    """A finished trick as the page explains it."""

    view: TrickView
    plays: list[tuple[str, str]]
    winner_index: int
    winner: str
    reason: str
    reveals: list[str]
    announced: list[str]
    takes: str
    heading: str


def explain(p: Position, t: TrickView) -> Shown:
    you = t.winner == HUMAN
    return Shown(
        t,
        [(text.seat(pc.seat), pc.card) for pc in t.cards],
        [pc.seat for pc in t.cards].index(t.winner),
        text.seat(t.winner),
        trick_reason_text(t.reason),
        text.reveal_texts(t.reveals, t.winner, p.declarer),
        [announced(a.seat, a.id) for a in t.announcements],
        _("You take the trick.") if you else _("%(seat)s takes the trick.", seat=text.seat(t.winner)),
        _("Trick %(num)d: you take it", num=t.number) if you
        else _("Trick %(num)d: %(seat)s takes it", num=t.number, seat=text.seat(t.winner)),
    )


def announced(seat: int, ident: str) -> str:
    return _("%(seat)s: %(announcement)s", seat=text.seat(seat), announcement=words.ANNOUNCEMENTS[ident])  # type: ignore[index]


def shown_game(p: Position) -> str | None:
    """The game as the learner knows it: a silent wedding looks like a normal game until
    its groom plays the second Q♣ (or the deal ends)."""
    game = p.game
    if game == "silent_wedding" and p.declarer != HUMAN and not p.over:
        if not any(r.cause == "silent_wedding" for t in p.tricks for r in t.reveals):
            return "normal"
    return game


def game_line(p: Position, game: str | None) -> str:
    """Who plays what, in a sentence (None while reservations are open)."""
    if game is None:
        return ""
    name = words.GAMES[game]  # type: ignore[index]
    declarer = p.declarer
    if game == "poverty" and p.poverty:
        pv = p.poverty
        if pv.acceptor is None:
            return _("Poor player: %(poor)s.", poor=text.seat(pv.poor))
        return _("Poor player: %(poor)s. Took the cards: %(acceptor)s. Trumps passed: %(num)d.",
                 poor=text.seat(pv.poor), acceptor=text.seat(pv.acceptor or 0), num=pv.trumps_passed)
    if game == "wedding" and declarer is not None:
        if declarer == HUMAN:
            return _("You declared a wedding.")
        return _("%(seat)s declared a wedding.", seat=text.seat(declarer))
    if declarer is not None and (is_solo(game) or game == "wedding_solo"):
        return _("Plays alone: %(seat)s (%(game)s).", seat=text.seat(declarer), game=name)
    return str(name)


def context(p: Position, w: str | None, g_guess: str | None, v_guess: str | None,
            why: str | None = None) -> dict[str, Any]:
    game = shown_game(p)
    turn = p.turn
    finished = just_finished(p)
    checking = finished is not None and finished.number in check_tricks(p.seed, p.rules.tricks)
    guess = int(w) if w in ("0", "1", "2", "3") and checking else None
    ask = checking and guess is None
    last = p.tricks[-1] if p.tricks else None
    hidden = state_args(p)
    # What this state's URL says beyond the moves: the quick check answered, the end's answers.
    kept: dict[str, Any] = {**hidden, **({"w": guess} if guess is not None else {})}
    if p.result and not ask and g_guess in GUESSES:
        kept |= {"g": g_guess, **({"v": v_guess} if v_guess is not None else {})}
    ctx: dict[str, Any] = {
        "p": p,
        "turn": turn,
        "text": text,
        "seats": [text.seat(s) for s in range(SEATS)],
        "hidden": hidden,  # the moves' forms carry the state and nothing else
        "kept": kept,
        "action": url_for("play.show"),
        "game": game,
        "game_line": game_line(p, game),
        "poverty_line": text.poverty_line(p.poverty),
        "said": [text.said_text(s) for s in p.said],
        "announcements": [announced(a.seat, a.id) for a in p.announcements],
        "party": p.known[HUMAN],
        "ask": ask,
        "check": explain(p, finished) if checking and finished else None,
        "guess": guess,
        "last": explain(p, last) if last and not ask else None,
        "seat_cells": seat_cells(p),
        "history": [explain(p, t) for t in p.tricks],
        "levels": text.level_names(current_rules()),
        "stats": current_stats(),
        # The note on the learner's card in the trick just shown (loaded after the page: the
        # analysis takes a moment), and the hint that names a card (tutor/web/play/review.py).
        "note_url": url_for("play.note", **hidden, t=last.number)
        if last and not ask and any(pc.seat == HUMAN for pc in last.cards) else None,
        "hint_url": url_for("play.hint", **hidden) if turn and turn.kind == "play" else None,
        "signed": words.signed,
        "both_queens": p.hand.count("QC") == 2,
        "end": None,
        "offers": [],
        "take_back": None,
        "why": None,
    }
    if turn and turn.kind == "reserve":
        ctx["solos"] = [o for o in turn.options if o in ANNOUNCED_SOLOS]
        ctx["reservations"] = [o for o in turn.options if o not in ANNOUNCED_SOLOS]
    if turn and turn.kind == "play":
        ctx["legal_text"] = text.legal_text(turn.reason)
        ctx["forbidden"] = text.forbidden_text(turn.reason)
        ctx["has_illegal"] = any(c not in turn.options for c in turn.hand)
        ctx["offers"] = offers(p)
        ctx["passed"] = text.passed_text(turn.deadlines_passed, turn.passed_reasons) if turn.deadlines_passed else None
        ctx["waiting"] = p.deal is not None and p.deal.wedding_column() == 0
        if why in turn.hand and why not in turn.options:
            ctx["why"] = text.why_not_text(why, turn.reason)
        made = decode_moves(p.moves[-1])[0] if p.moves else None
        if made is not None and made.kind == "announce":
            # Until the next card an announcement of the learner's may be taken back: the
            # state before it is its own URL, and nobody has played since.
            ctx["take_back"] = state_url(p, p.moves[:-1])
            ctx["made"] = words.ANNOUNCEMENTS[made.value]  # type: ignore[index]
    if p.result and not ask:
        ctx["end"] = end_context(p, g_guess, v_guess)
        ctx["end"]["state"] = kept
    return ctx


@dataclass(frozen=True)
class Offer:
    """An announcement the learner may make now, as the announce control offers it."""

    id: str
    name: str
    deadline: str
    reason: str
    commits: str


def offers(p: Position) -> list[Offer]:
    """Each announcement open to the learner: its deadline, why it is open (or closes when it
    does), and what it commits the party to (the engine's `needs`)."""
    turn, deal, party = p.turn, p.deal, p.known[HUMAN]
    if turn is None or deal is None or party is None:
        return []
    found = []
    for option in turn.announce:
        level = level_of(option.id, party)
        levels = {**deal.levels, party: level}
        need = needs(party, levels["re"], levels["kontra"], p.rules.tricks)
        found.append(Offer(option.id, str(words.ANNOUNCEMENTS[option.id]),  # type: ignore[index]
                           text.deadline_text(option, turn.cards_in_hand, p.rules.tricks),
                           text.option_reason(option, party), text.commitment(need, level, party)))
    return found


def seat_cells(p: Position) -> list[dict[str, Any]]:
    """The trick on the table as the four seats around it, from the learner's left (West,
    North, East) to the learner: each seat's card, its place in the order of play, and
    whose turn it is."""
    played = {pc.seat: (i + 1, pc.card) for i, pc in enumerate(p.trick)}
    turn_seat = HUMAN if p.turn and p.turn.kind == "play" else None
    cells = []
    for s in (1, 2, 3, HUMAN):
        order, card = played.get(s, (None, None))
        cells.append({"seat": s, "name": text.seat(s), "card": card, "order": order, "turn": s == turn_seat})
    return cells


def end_context(p: Position, g_guess: str | None, v_guess: str | None) -> dict[str, Any]:
    result = p.result
    assert result is not None
    score = result.score
    mine = p.parties[HUMAN] or "kontra"
    winner = score.winner or "nobody"
    mine_score = score.scores[mine]
    value: int | None = None
    if v_guess is not None:
        cleaned = v_guess.strip().replace("\u2212", "-")
        if re.fullmatch(r"[+-]?[0-9]{1,3}", cleaned):  # "--2" and "²" are no numbers (they were a 500)
            value = int(cleaned)
    winner_guess = g_guess if g_guess in GUESSES else None
    lines = [(str(words.LINES[line.id]), line.points if line.party == "re" else None,
              line.points if line.party == "kontra" else None) for line in score.lines]
    arranged = {
        "lines": lines,
        "re_total": sum(line.points for line in score.lines if line.party == "re"),
        "kontra_total": sum(line.points for line in score.lines if line.party == "kontra"),
        "value": score.value,
    }
    re_points = score.re_points
    won = score.winner == mine
    return {
        "score": score,
        "mine": mine,
        "winner": winner,
        "winner_name": text.party(score.winner) if score.winner else _("nobody"),
        "winner_guess": winner_guess,
        "value_guess": value if winner_guess else None,
        "value_asked": winner_guess is not None and v_guess is not None and (value is not None or v_guess == "skip"),
        "value_bad": winner_guess not in (None, "skip") and v_guess not in (None, "skip") and value is None,
        # What the learner writes on the sheet (a soloist three times the value) is not the
        # deal's value, but it is no slip either: the page says which is which.
        "sheet_entry": winner_guess is not None and value is not None and value == mine_score != score.value,
        "mine_signed": words.signed(mine_score),
        "skipped": winner_guess == "skip" or (v_guess == "skip"),
        "result": arranged,
        "re_points": re_points,
        "kontra_points": DECK_POINTS - re_points,
        "mine_score": words.signed(mine_score),
        "won": won,
        "solo": is_solo(p.game or ""),
        "again": url_for("play.show", s=p.seed, l=p.level, r=rules_key(p.rules)),
        "json": url_for("play.deal_json", **state_args(p)),
        "review": url_for("play.show_review", **state_args(p)),
        "state": state_args(p),
    }


def render(p: Position, message: str | None = None, status: int = 200, answers: bool = True) -> Response:
    """The page (or the htmx fragment) of this state; ``answers``: the request's quick-check
    and scoring answers belong to this state (False for the state a move has just made)."""
    args = request.args if answers else MultiDict()
    ctx = context(p, args.get("w"), args.get("g"), args.get("v"), args.get("why"))
    end = ctx.get("end")
    if end and end["value_bad"] and message is None:  # a value no form sends: asked again, with why
        message, status = _("Write the deal’s value as a whole number, like 2 or −3."), 400
    ctx["message"] = message
    # The language links name this very state (tutor/web/shell/context.py: alternate_url).
    g.alternate_args = {**ctx["kept"]}
    ctx["partial"] = htmx.is_partial(request)
    template = "play/_table.html" if htmx.is_partial(request) else "play/show.html"
    return no_store(make_response(render_template(template, **ctx), status))


def no_store(response: Response) -> Response:
    """A deal drawn at random for this request (`fresh`) is not the answer to the next one."""
    if g.get("drawn"):
        response.headers["Cache-Control"] = "no-store"
    return response
