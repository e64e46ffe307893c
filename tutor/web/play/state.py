"""A deal to play as its URL: the position a URL names and the URL of a position, a fresh
deal, the move a form's button sent, the tricks the learner is asked about, and the finished
deal counted once in the stats on the device."""

from __future__ import annotations

import random
from typing import Any, Final

from flask import current_app, g, request, url_for
from werkzeug.datastructures import MultiDict
from werkzeug.wrappers import Response

from tutor.play import HUMAN, Move, Position, TrickView, decode_moves, new_seed, parse_level, parse_seed, position
from tutor.rules.errors import RulesError
from tutor.rules.rulesets import RuleSet
from tutor.web.base import security
from tutor.web.base.rules import current_rules, rules_from_key, rules_key
from tutor.web.play import stats as play_stats

DEFAULT_LEVEL: Final = 0
CHECKS: Final = 3  # tricks a deal asks "who takes this trick?" about
MOVE_FIELDS: Final = ("card", "announce", "reserve", "poverty")
GUESSES: Final = ("re", "kontra", "nobody", "skip")


def current_stats() -> play_stats.Stats:
    if "play_stats" not in g:
        g.play_stats = play_stats.read(current_app.config["SECRET_KEY"], security.cookie(request, play_stats.COOKIE))
    found: play_stats.Stats = g.play_stats
    return found



def read_position(args: MultiDict[str, str]) -> Position:
    """The position a URL names; RulesError for anything tampered or impossible."""
    seed = parse_seed(args.get("s", ""))
    level = parse_level(args.get("l", str(DEFAULT_LEVEL)))
    rules = rules_from_key(args["r"]) if "r" in args else current_rules()
    return position(rules, seed, args.get("m", ""), level)


def state_args(p: Position, moves: str | None = None) -> dict[str, Any]:
    moves = p.moves if moves is None else moves
    args: dict[str, Any] = {"s": p.seed, "l": p.level, "r": rules_key(p.rules)}
    if moves:
        args["m"] = moves
    return args


def state_url(p: Position, moves: str | None = None, **more: Any) -> str:
    return url_for("play.show", **state_args(p, moves), **more)


def fresh(level: int, rules: RuleSet | None = None) -> Position:
    """A new deal, drawn at random: the answer that shows it must not be kept by any cache."""
    g.drawn = True
    return position(rules or current_rules(), new_seed(), "", level)


def count_finished(p: Position, response: Response) -> Response:
    """The move that finishes a deal counts it in the stats on the device (once a deal, by its
    seed, level, rules and moves); showing the end again counts nothing."""
    result = p.result
    if result is not None:
        score = result.score
        mine = p.parties[HUMAN] or "kontra"
        key = play_stats.deal_key(p.seed, p.level, rules_key(p.rules), p.moves)
        if current_stats().record(key, score.winner == mine, score.scores[mine]):
            value = play_stats.write(current_app.config["SECRET_KEY"], current_stats())
            security.set_cookie(response, request, play_stats.COOKIE, value, play_stats.MAX_AGE)
    return response


def asked_move(args: MultiDict[str, str]) -> Move | None:
    """The move a form's button sent, if any; RulesError for more than one or a bad one."""
    given = [(name, args.getlist(name)) for name in MOVE_FIELDS if name in args]
    if not given:
        return None
    if len(given) > 1 or len(given[0][1]) > 1:
        raise RulesError("bad_move", "m")
    name, (value,) = given[0]
    return Move(name, value)  # Move checks the value against the moves there are (solo_diamonds has 13 letters)


def check_tricks(seed: int, tricks: int) -> frozenset[int]:
    """The tricks of this deal the learner is asked about before the winner is shown."""
    return frozenset(random.Random(f"play-check-{seed}").sample(range(1, tricks + 1), CHECKS))


def just_finished(p: Position) -> TrickView | None:
    """The trick the learner's last card finished, while nothing else has been chosen since."""
    if not p.moves or not p.tricks or p.game is None:
        return None
    last = decode_moves(p.moves[-1])[0]
    if last.kind != "card" or any(pc.seat == HUMAN for pc in p.trick):
        return None
    return p.tricks[-1]
