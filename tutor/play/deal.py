"""A deal played with the tutor: the whole position follows from the rules, a seed and the
human's moves, so a URL (``?s=<seed>&m=<moves>``) reproduces it exactly.

The human sits at seat 0, the computer players at seats 1-3, play goes clockwise (to the
next higher seat), and the dealer is ``seed % 4``. ``position()`` plays the deal forward:
it deals from the seed, asks for reservations in turn from the dealer's left, runs a
poverty's exchange, and plays the cards, asking the computer players (``tutor.play.bots``)
for theirs and taking the human's from the moves, until the human has to choose again or
the deal is over. A move that cannot be made there raises RulesError, never anything else.

>>> ddv = RuleSet.named("ddv")
>>> p = position(ddv, 7, "")
>>> p.turn.kind, p.game, len(p.hand)
('play', 'normal', 12)
>>> done = play_bots(ddv, 7)
>>> len(done.tricks), sum(done.result.score.scores[p] for p in done.parties)
(12, 0)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cached_property
from typing import Any, Final

from tutor.play.moves import Move, decode_moves, encode_moves
from tutor.play.players import Player
from tutor.play.run import HUMAN, LEVELS, SEATS, Run, sort_hand, wedding_allowed
from tutor.play.shown import AnnouncementMade, AnnounceOption, PlayedCard, PovertyView, Result, Reveal, TrickView, Turn
from tutor.rules.cards import POINTS, card_id
from tutor.rules.deal import Deal as EngineDeal
from tutor.rules.errors import RulesError
from tutor.rules.reservations import poverty_trumps
from tutor.rules.rulesets import RuleSet

SEED_MAX: Final = 2**31 - 1

__all__ = [
    "HUMAN",
    "LEVELS",
    "SEED_MAX",
    "AnnouncementMade",
    "AnnounceOption",
    "PlayedCard",
    "Position",
    "PovertyView",
    "Result",
    "Reveal",
    "TrickView",
    "Turn",
    "new_seed",
    "parse_level",
    "parse_seed",
    "play_bots",
    "position",
    "sort_hand",
    "wedding_allowed",
]


# --- Input --------------------------------------------------------------------------------


def parse_seed(value: object) -> int:
    """A seed from a URL: digits, 0 to SEED_MAX; RulesError otherwise."""
    if isinstance(value, int) and not isinstance(value, bool):
        seed = value
    elif isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 10:
        seed = int(value)
    else:
        raise RulesError("bad_seed", "s")
    if not 0 <= seed <= SEED_MAX:
        raise RulesError("bad_seed", "s")
    return seed


def parse_level(value: object) -> int:
    """A level from a URL: 0, 1 or 2; RulesError otherwise."""
    if isinstance(value, str) and value in ("0", "1", "2"):
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool) and value in LEVELS:
        return value
    raise RulesError("bad_level", "level")


def new_seed(rng: random.Random | None = None) -> int:
    """A fresh seed for a new deal."""
    return (rng or random.SystemRandom()).randint(0, SEED_MAX)


class Position:
    """The deal as far as it has gone, for a page to render. Attributes:

    ``rules``, ``seed``, ``level``, ``moves`` (the encoded moves), ``human`` (seat or None),
    ``dealer``, ``redeals`` (poverties nobody took), ``said`` (each seat's reservation id:
    healthy, wedding, poverty or a solo id; None while not yet asked), ``game`` (None while
    reservations are open; "wedding" until a declared wedding is clarified, then "wedding"
    or "wedding_solo"), ``declarer``, ``first_leader``, ``hand`` (the human's cards, sorted
    for showing), ``hands`` (every seat's cards left, by seat), ``dealt`` (the hands the
    cards were played from, after a poverty's exchange), ``parties`` (by seat, None where
    not decided yet), ``known`` (the parties as the human knows them), ``trick`` (the
    trick on the table), ``tricks`` (finished, TrickView), ``announcements``,
    ``levels`` (each party's highest announcement id or None), ``poverty``, ``turn``
    (what the human decides now; None at the end) and ``result`` (None until the end).
    """

    def __init__(self, run: Run, moves: str) -> None:
        self._run = run
        self.rules, self.seed, self.level, self.human = run.rules, run.seed, run.level, run.human
        self.moves = moves
        self.dealer, self.redeals = run.dealer, run.redeals
        self.said = tuple(run.said)
        self.game = run.deal.game if run.deal else run.game
        self.declarer = run.declarer if self.game else None
        self.first_leader = run.first_leader if self.game else None
        self.turn = run.turn
        seat = run.viewer
        hands = run.hands
        self.hand = tuple(card_id(c) for c in sort_hand(hands[seat], run.table)) if hands else ()
        self.hands = tuple(tuple(card_id(c) for c in h) for h in hands)
        self.dealt = tuple(tuple(card_id(c) for c in h) for h in run.dealt)
        self.parties = tuple(run.parties)
        self.known = run.known()
        deal = run.deal
        on_table = enumerate(deal.trick) if deal else enumerate(())
        self.trick = tuple(PlayedCard((deal.leader + i) % SEATS, card_id(c)) for i, c in on_table) if deal else ()
        self.announcements = tuple(run.announced)
        self.levels = deal.announced() if deal else {"re": None, "kontra": None}

    @property
    def over(self) -> bool:
        return self.turn is None

    @property
    def deal(self) -> EngineDeal | None:
        """The engine's deal as far as it has gone (None while the reservations are open):
        what the analysis reviews."""
        return self._run.deal

    @cached_property
    def poverty(self) -> PovertyView | None:
        run = self._run
        if run.poor is None or self.game != "poverty":
            return None
        shown = self.human in (run.poor, run.acceptor)
        return PovertyView(
            run.poor,
            run.acceptor,
            len(poverty_trumps(run.passed)),
            tuple(card_id(c) for c in run.passed) if shown else (),
            tuple(card_id(c) for c in run.returned) if shown else (),
        )

    @cached_property
    def tricks(self) -> tuple[TrickView, ...]:
        run, deal = self._run, self._run.deal
        if deal is None:
            return ()
        viewer = run.viewer
        reveals: dict[int, list[Reveal]] = {}
        for reveal in deal.reveals(viewer):
            reveals.setdefault(reveal.trick, []).append(reveal)
        views = []
        for t, trick in enumerate(deal.tricks):
            known = deal.known_after(viewer, t)
            running: dict[str, int] | None = None
            if None not in known:  # every party known: what each has taken so far
                running = {"re": 0, "kontra": 0}
                for k in range(t + 1):
                    running[known[deal.winners[k]] or "kontra"] += sum(POINTS[c] for c in deal.tricks[k])
            views.append(
                TrickView(
                    t + 1,
                    deal.leaders[t],
                    tuple(PlayedCard((deal.leaders[t] + i) % SEATS, card_id(c)) for i, c in enumerate(trick)),
                    deal.winners[t],
                    deal.trick_reason(t),
                    sum(POINTS[c] for c in trick),
                    tuple(reveals.get(t, ())),
                    tuple(a for a in deal.announcements if a.trick == t + 1),
                    running,
                    deal.trick_games[t],
                )
            )
        return tuple(views)

    @cached_property
    def result(self) -> Result | None:
        run, deal = self._run, self._run.deal
        if run.turn is not None or deal is None or not deal.over:
            return None
        return Result(deal.outcome(), tuple(deal.winners), run.deal_form())

    def deal_form(self) -> dict[str, Any] | None:
        """The deal as the API's deal-form request, at the end (None before)."""
        return self.result.deal_form if self.result else None

    def then(self, move: Move) -> str:
        """The moves string after one more move (for a link or a form's target)."""
        return self.moves + encode_moves([move])


def _run(rules: RuleSet, seed: int, level: int, human: int | None, moves: Sequence[Move],
         players: Sequence[Player] | None = None) -> Run:
    run = Run(rules, seed, level, human, players)
    game = run.play()
    try:
        turn: Turn | None = next(game)
    except StopIteration:
        turn = None
    for i, move in enumerate(moves):
        if turn is None:
            raise RulesError("moves_past_end", f"m.{i}")
        try:
            turn = game.send(move)
        except StopIteration:
            turn = None
        except RulesError as error:
            raise RulesError(error.code, f"m.{i}", **error.params) from None
    run.turn = turn
    return run


def position(rules: RuleSet, seed: int, moves: str | Sequence[Move] = "", level: int = 1) -> Position:
    """The position after the human's moves (a moves string from a URL, or a list). Every
    move must be possible where it is made; RulesError names the first that is not
    (``field`` ``m.<index>``)."""
    if level not in LEVELS:
        raise RulesError("bad_level", "level")
    parse_seed(seed)
    listed = decode_moves(moves) if isinstance(moves, str) else list(moves)
    run = _run(rules, seed, level, HUMAN, listed)
    return Position(run, encode_moves(listed))


def play_bots(rules: RuleSet, seed: int, level: int = 1, players: Sequence[Player] | None = None) -> Position:
    """A whole deal with the computer at every seat (for tests and benchmarks); ``players``:
    the kind of player at each seat, the heuristic bots by default."""
    return Position(_run(rules, seed, level, None, (), players), "")
