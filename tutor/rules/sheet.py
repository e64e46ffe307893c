"""The score sheet of an evening: who deals and who sits out, compulsory solos, Bock rounds,
each player's entry per deal, running totals and the two checks of the TSR (RULES.md §10).

Every number on the sheet is computed from the list of deals, so editing or deleting a deal
recomputes everything after it: totals, Bock, compulsory solos and every later dealer, who
follows the rotation again unless his deal's dealer was typed by hand (``dealer_by_hand``).

>>> ddv = RuleSet.named("ddv")
>>> deal = Deal("normal", 156, 8, dealer=0, re_players=(1, 3), extras={"re": {"fox": 1}, "kontra": {"doppelkopf": 1}})
>>> sheet = evening(ddv, 4, [deal])
>>> sheet.rows[0].entries, sheet.totals
((-2, 2, -2, 2), (-2, 2, -2, 2))
>>> sheet.next_dealer
1

A table that does not count card points enters a deal as on paper, "Re won, 3": the sheet
treats it like any other deal (checks, Bock, compulsory solos, totals).

>>> quick = Deal.quick_entry("solo_hearts", dealer=1, re_players=(3,), winner="kontra", value=2)
>>> evening(ddv, 4, [deal, quick]).rows[1].entries
(2, 2, 2, -6)
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Final

from tutor.rules.announcements import level_of
from tutor.rules.errors import RulesError
from tutor.rules.games import GAMES, is_solo
from tutor.rules.reservations import ANNOUNCED_SOLOS
from tutor.rules.rulesets import RuleSet
from tutor.rules.scoring import SOLO_FACTOR, DealSummary, Score, check_summary, quick_score
from tutor.rules.terms import PARTY_IDS, SEATS, AnnouncementId, Game, Party  # SEATS: four play, the others sit out

MIN_PLAYERS: Final = 4
MAX_PLAYERS: Final = 7

# Seed 002: a DDV round is 24 deals at a four-table and 30 at a five-table: six deals for
# every player at the table.
DEALS_PER_PLAYER: Final = 6
# A quick deal's value before Bock: a winner never scores 0 under the TSR, and no real deal
# comes near 100.
QUICK_MAX: Final = 99


@dataclass(frozen=True, slots=True)
class QuickResult:
    """A deal entered as on paper ("Re won, 3") by a table that does not count card points:
    the party whose players write the plus, the value each of them writes before Bock (the
    soloist three times it), and whether the deal starts a Bock round (without card points
    or announcements the sheet cannot tell by itself)."""

    winner: Party
    value: int
    bock: bool = False


@dataclass(frozen=True, slots=True)
class Deal:
    """One deal as the sheet stores it: the calculator's summary, who dealt, and which
    players were Re (the soloist alone in a solo). Players are indices into the sheet's list.

    ``dealer`` is who dealt as entered; unless ``dealer_by_hand``, the sheet puts the
    rotation's dealer in its place (so a correction earlier on moves every later dealer).

    A quick deal (``quick`` set) has no card points, tricks, announcements or extra points:
    its score is the winners and the value (``Deal.quick_entry``)."""

    game: Game
    re_points: int
    re_tricks: int
    dealer: int
    re_players: tuple[int, ...]
    re_announced: AnnouncementId | None = None
    kontra_announced: AnnouncementId | None = None
    extras: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    dealer_by_hand: bool = False
    quick: QuickResult | None = None

    @classmethod
    def quick_entry(cls, game: Game, dealer: int, re_players: Sequence[int], winner: Party, value: int,
                    bock: bool = False, dealer_by_hand: bool = False) -> Deal:
        """A deal entered as the winners and the value, without card points."""
        return cls(game, 0, 0, dealer, tuple(re_players), dealer_by_hand=dealer_by_hand,
                   quick=QuickResult(winner, value, bock))

    @property
    def summary(self) -> DealSummary:
        """The deal as scoring sees it, without who dealt and who was Re."""
        return DealSummary(self.game, self.re_points, self.re_tricks, self.re_announced, self.kontra_announced,
                           self.extras)


@dataclass(frozen=True, slots=True)
class Row:
    """One line of the sheet: the deal, what it scored, and what each player writes."""

    number: int  # 1-based, over the whole evening
    deal: Deal  # with the dealer the sheet counts: the rotation's, or the one typed by hand
    rotation_dealer: int  # who deals here by the rotation (a hand-typed dealer may differ)
    seats_fit: bool  # every Re player plays at this dealer (False: a correction moved the seats)
    score: Score
    playing: tuple[int, ...]  # the four players of this deal, in turn from the dealer's left
    sitting_out: tuple[int, ...]
    multiplier: int  # Bock: 2 for one Bock round, 4 for two at once
    entries: tuple[int | None, ...]  # per player; None for a player who sat out
    totals: tuple[int, ...]  # running totals after this deal
    compulsory: bool  # ddv: this solo was the soloist's compulsory solo
    vorgefuehrt: bool  # ddv: the soloist had to play it (RULES.md §10)
    bock_trigger: bool  # this deal starts a Bock round
    sums_to_zero: bool
    same_parity: bool | None  # None where the check does not apply (not four entries)


@dataclass(frozen=True, slots=True)
class Evening:
    """The whole sheet and what comes next."""

    players: int
    rows: tuple[Row, ...]
    totals: tuple[int, ...]
    next_dealer: int
    next_sitting_out: tuple[int, ...]
    next_multiplier: int
    round_number: int  # 1-based; ddv rounds of 24 deals at four players
    deals_left_in_round: int
    solos_owed: tuple[int, ...]  # players who still owe this round's compulsory solo (ddv)
    vorgefuehrt: int | None  # ddv: the player who must play a solo in the next deal


def round_length(players: int) -> int:
    """Deals in one round: 24 at four players, 30 at five (seed 002), six per player."""
    return DEALS_PER_PLAYER * players


@lru_cache(maxsize=64)  # at most seven dealers for each of four table sizes; asked for every deal
def seating(players: int, dealer: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Who plays and who sits out when ``dealer`` deals: the four to his left play; at five
    to seven the dealer and then the players after those four sit out (RULES.md §10)."""
    playing = tuple((dealer + i) % players for i in range(1, SEATS + 1))
    if players == SEATS:
        return playing, ()
    out = (dealer, *((dealer + i) % players for i in range(SEATS + 1, players)))
    return playing, tuple(sorted(out))


def re_players_wanted(game: Game) -> int:
    """How many players are Re in this game: the soloist alone in a solo, two otherwise."""
    return 1 if is_solo(game) else 2


def check_players(players: int) -> None:
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise RulesError("out_of_range", "players", low=MIN_PLAYERS, high=MAX_PLAYERS)


def check_deal(rules: RuleSet, players: int, deal: Deal) -> None:
    """RulesError unless the deal can stand on a sheet of ``players``: a game of these rules,
    a summary that could happen, and as many Re players as the game has, all at the table."""
    if deal.game not in GAMES:
        raise RulesError("unknown_game", "game", value=deal.game)
    if deal.game == "poverty" and not rules.poverty:
        raise RulesError("poverty_not_played", "game")
    if not 0 <= deal.dealer < players:
        raise RulesError("out_of_range", "dealer", low=1, high=players)
    if deal.quick is not None:
        check_quick(players, deal, deal.quick)
        return
    level_of(deal.re_announced, "re", "re_announced")
    level_of(deal.kontra_announced, "kontra", "kontra_announced")
    check_summary(rules, deal.game, deal.re_points, deal.re_tricks, deal.extras)
    wanted = re_players_wanted(deal.game)
    if len(set(deal.re_players)) != len(deal.re_players) or len(deal.re_players) != wanted:
        raise RulesError("wrong_re_count", "re_players", expected=wanted)
    playing, _ = seating(players, deal.dealer)
    for player in deal.re_players:
        if player not in playing:
            raise RulesError("player_sat_out", "re_players", player=player)


def check_quick(players: int, deal: Deal, quick: QuickResult) -> None:
    """A quick deal: a winning party, a value from 1 to QUICK_MAX, nothing counted, the Re
    players at the table; then its row must pass the sheet's checks, so ticking one or three
    Re players in a normal game is refused as the row that does not sum to zero it makes."""
    if quick.winner not in PARTY_IDS:
        raise RulesError("unknown_party", "winner")
    if isinstance(quick.value, bool) or not isinstance(quick.value, int) or not 1 <= quick.value <= QUICK_MAX:
        raise RulesError("out_of_range", "value", low=1, high=QUICK_MAX)
    if deal.re_points or deal.re_tricks or deal.re_announced or deal.kontra_announced or any(deal.extras.values()):
        raise RulesError("quick_with_summary", "quick")
    if len(set(deal.re_players)) != len(deal.re_players):
        raise RulesError("wrong_re_count", "re_players", expected=re_players_wanted(deal.game))
    playing, _ = seating(players, deal.dealer)
    for player in deal.re_players:
        if player not in playing:
            raise RulesError("player_sat_out", "re_players", player=player)
    score = quick_score(deal.game, quick.winner, quick.value)
    check_row(deal.game, deal.re_players, entries_for(players, deal, score, 1))


def check_row(game: Game, re_players: Sequence[int], entries: Sequence[int | None]) -> None:
    """RulesError for the first of the sheet's checks a row fails: its entries sum to zero,
    four entries are all even or all odd, and in a solo the soloist writes three times what
    each opponent writes, with the other sign."""
    zero, parity = checks(entries)
    written = [e for e in entries if e is not None]
    if not zero:
        raise RulesError("row_not_zero_sum", "re_players", total=sum(written), expected=re_players_wanted(game))
    if parity is False:
        raise RulesError("row_mixed_parity", "re_players")
    if is_solo(game) and len(re_players) == 1:
        soloist = entries[re_players[0]]
        others = [e for p, e in enumerate(entries) if e is not None and p != re_players[0]]
        if soloist is None or any(soloist != -SOLO_FACTOR * e for e in others):
            raise RulesError("solo_not_triple", "re_players")


def deal_score(rules: RuleSet, deal: Deal) -> Score:
    if deal.quick is not None:
        return quick_score(deal.game, deal.quick.winner, deal.quick.value)
    return deal.summary.score(rules)


def triggers_bock(deal: Deal, result: Score) -> bool:
    """Seed 002's house rule: a 120 : 120 tie, or a "Re" or "Kontra" announced and lost.
    One deal starts at most one Bock round, however many of these it shows. A quick deal
    starts one when the table says so."""
    if deal.quick is not None:
        return deal.quick.bock
    if deal.re_points == 120:
        return True
    for party, announced in (("re", deal.re_announced), ("kontra", deal.kontra_announced)):
        if announced is not None and result.winner != party:
            return True
    return False


def entries_for(players: int, deal: Deal, result: Score, multiplier: int) -> tuple[int | None, ...]:
    """What each player writes: Re's score for Re (the soloist's is three times the value),
    Kontra's for the others at the table, nothing for those who sat out."""
    playing, _ = seating(players, deal.dealer)
    row: list[int | None] = [None] * players
    for player in playing:
        party: Party = "re" if player in deal.re_players else "kontra"
        row[player] = result.scores[party] * multiplier
    return tuple(row)


def checks(entries: Sequence[int | None]) -> tuple[bool, bool | None]:
    """The two checks the TSR recommend: the deal sums to zero, and four entries are all
    even or all odd (at more players, the three who sit out write nothing)."""
    written = [e for e in entries if e is not None]
    parity = len({e % 2 for e in written}) == 1 if len(written) == SEATS else None
    return sum(written) == 0, parity


@dataclass(frozen=True, slots=True)
class Course:
    """Where an evening stands before its next deal: the deals behind it, who deals next by the
    rotation, who still owes the round's compulsory solo (ddv; everyone again when a round
    ends), and the deals still to go of each running Bock round."""

    count: int
    dealer: int
    owed: frozenset[int]
    bock_rounds: tuple[int, ...]


def first_course(players: int, first_dealer: int = 0) -> Course:
    """The course of a sheet before its first deal."""
    return Course(0, first_dealer % players, frozenset(range(players)), ())


def bock_multiplier(bock_rounds: Sequence[int]) -> int:
    """What a deal counts while these Bock rounds run: each one doubles it."""
    return int(2 ** len(bock_rounds))


def next_bock_rounds(bock_rounds: Sequence[int], trigger: bool, players: int) -> tuple[int, ...]:
    """The Bock rounds after a deal: each has one deal less to go; a deal that starts one adds
    a round of one deal per player at the table."""
    after = tuple(left - 1 for left in bock_rounds if left > 1)
    return (*after, players) if trigger else after


def play(rules: RuleSet, players: int, bock: bool, course: Course, typed: Deal,
         totals: Sequence[int]) -> tuple[Row, Course]:
    """One deal on the sheet (already checked with check_deal): its row after ``totals``, and
    the course after it."""
    length = round_length(players)
    owed = set(range(players)) if course.count % length == 0 else set(course.owed)  # a new round
    dealer = course.dealer
    deal = typed if typed.dealer_by_hand or typed.dealer == dealer else replace(typed, dealer=dealer)
    ddv = rules.has_compulsory_solos
    forced = vorgefuehrt_player(players, deal.dealer, owed, length - course.count % length) if ddv else None
    result = deal_score(rules, deal)
    multiplier = bock_multiplier(course.bock_rounds)
    soloist = deal.re_players[0] if is_solo(deal.game) else None
    # TSR: a player who still owes his compulsory solo plays any announced solo as it.
    compulsory = ddv and deal.game in ANNOUNCED_SOLOS and soloist is not None and soloist in owed
    if compulsory and soloist is not None:
        owed.discard(soloist)
    entries = entries_for(players, deal, result, multiplier)
    after = tuple(total + (entry or 0) for total, entry in zip(totals, entries, strict=True))
    trigger = bock and triggers_bock(deal, result)
    zero, parity = checks(entries)
    playing, sitting_out = seating(players, deal.dealer)
    seats_fit = all(p in playing for p in deal.re_players)
    row = Row(course.count + 1, deal, dealer, seats_fit, result, playing, sitting_out, multiplier, entries, after,
              compulsory, compulsory and forced == soloist, trigger, zero, parity)
    # After a compulsory solo the same dealer deals again, unless it was vorgeführt.
    same_again = compulsory and forced != soloist
    next_dealer = deal.dealer if same_again else (deal.dealer + 1) % players
    return row, Course(course.count + 1, next_dealer, frozenset(owed), next_bock_rounds(course.bock_rounds, trigger,
                                                                                        players))


@dataclass(frozen=True, slots=True)
class Ahead:
    """What the sheet says of its next deal at a course: who deals and who sits out, what
    the deal counts, the round, who still owes a compulsory solo, who must play one now."""

    dealer: int
    sitting_out: tuple[int, ...]
    multiplier: int
    round_number: int
    deals_left_in_round: int
    solos_owed: tuple[int, ...]
    vorgefuehrt: int | None


def ahead(rules: RuleSet, players: int, course: Course) -> Ahead:
    length = round_length(players)
    owed = set(range(players)) if course.count % length == 0 else set(course.owed)
    left = length - course.count % length
    ddv = rules.has_compulsory_solos
    return Ahead(course.dealer, seating(players, course.dealer)[1], bock_multiplier(course.bock_rounds),
                 course.count // length + 1, left, tuple(sorted(owed)) if ddv else (),
                 vorgefuehrt_player(players, course.dealer, owed, left) if ddv else None)


def course_of(rules: RuleSet, players: int, deals: Sequence[Deal], bock: bool = False,
              first_dealer: int = 0) -> tuple[tuple[Row, ...], Course]:
    """Every row of the sheet and the course after its last deal."""
    check_players(players)
    course = first_course(players, first_dealer)
    totals: Sequence[int] = (0,) * players
    rows: list[Row] = []
    for typed in deals:
        row, course = play(rules, players, bock, course, typed, totals)
        rows.append(row)
        totals = row.totals
    return tuple(rows), course


def evening(rules: RuleSet, players: int, deals: Sequence[Deal], bock: bool = False,
            first_dealer: int = 0) -> Evening:
    """The sheet after these deals (each already checked with check_deal)."""
    rows, course = course_of(rules, players, deals, bock, first_dealer)
    next_deal = ahead(rules, players, course)
    return Evening(
        players=players,
        rows=rows,
        totals=rows[-1].totals if rows else (0,) * players,
        next_dealer=next_deal.dealer,
        next_sitting_out=next_deal.sitting_out,
        next_multiplier=next_deal.multiplier,
        round_number=next_deal.round_number,
        deals_left_in_round=next_deal.deals_left_in_round,
        solos_owed=next_deal.solos_owed,
        vorgefuehrt=next_deal.vorgefuehrt,
    )


@lru_cache(maxsize=4096)
def deals_played(players: int, dealer: int, player: int, deals_left: int) -> int:
    """In how many of the next ``deals_left`` deals (this one first) ``player`` plays, if the
    dealer moves on by one each deal (as he does once solos are forced)."""
    return sum(player in seating(players, (dealer + k) % players)[0] for k in range(deals_left))


def vorgefuehrt_player(players: int, dealer: int, owed: set[int], deals_left: int) -> int | None:
    """RULES.md §10: when only as many deals remain as compulsory solos are owed, the first
    player in turn from the dealer's left who still owes one must play a solo now.

    At five to seven players RULES.md is silent on the deals an owing player sits out. Counting
    them would let his last chance pass while he sits out (his solo could never be forced), so
    here only the deals he plays in count: he is vorgeführt once no more of the round's deals
    he takes part in remain than solos are owed. At four players everyone plays every deal and
    this is the rule word for word."""
    if not owed:
        return None
    playing, _ = seating(players, dealer)
    return next((p for p in playing if p in owed and deals_played(players, dealer, p, deals_left) <= len(owed)), None)


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """One player's evening: deals played and won (his entry above 0), solos played and won,
    deals on Re's and on Kontra's side, and his best entry."""

    played: int
    won: int
    solos: int
    solos_won: int
    re_games: int
    kontra_games: int
    best: int | None


def player_stats(sheet: Evening) -> tuple[PlayerStats, ...]:
    """Each player's figures over the sheet's rows."""
    stats = []
    for player in range(sheet.players):
        entries = [(row, row.entries[player]) for row in sheet.rows if row.entries[player] is not None]
        solos = [(row, e) for row, e in entries if is_solo(row.deal.game) and player in row.deal.re_players]
        stats.append(PlayerStats(
            played=len(entries),
            won=sum(1 for _, e in entries if e is not None and e > 0),
            solos=len(solos),
            solos_won=sum(1 for _, e in solos if e is not None and e > 0),
            re_games=sum(1 for row, _ in entries if player in row.deal.re_players),
            kontra_games=sum(1 for row, _ in entries if player not in row.deal.re_players),
            best=max((e for _, e in entries if e is not None), default=None),
        ))
    return tuple(stats)


# --- settle-up ---------------------------------------------------------------------------
# Money at the end of the evening: each point is worth some cents, who is behind pays who is
# ahead. Integers only (cents), so the payments settle every balance exactly.
MIN_CENTS: Final = 1
MAX_CENTS: Final = 100


@dataclass(frozen=True, slots=True)
class Payment:
    """``payer`` gives ``cents`` to ``payee`` (players are indices into the sheet's list)."""

    payer: int
    payee: int
    cents: int


@dataclass(frozen=True, slots=True)
class Settlement:
    """Each player's balance in cents (above 0: he receives) and who pays whom."""

    cents_per_point: int
    balances: tuple[int, ...]
    payments: tuple[Payment, ...]


def settle_up(totals: Sequence[int], cents_per_point: int) -> Settlement:
    """The fewest payments, found greedily: the player furthest behind pays the one furthest
    ahead as much as one of them needs, until every balance is 0. Each payment settles at
    least one player and the last settles two, so there are at most players − 1 of them.
    Ties go to the player listed first. A sheet's totals always sum to 0; anything else is
    a RulesError.

    >>> s = settle_up((30, -12, -20, 2), 5)
    >>> s.balances
    (150, -60, -100, 10)
    >>> [(p.payer, p.payee, p.cents) for p in s.payments]
    [(2, 0, 100), (1, 0, 50), (1, 3, 10)]
    >>> settle_up((0, 0, 0, 0), 10).payments
    ()
    """
    if not MIN_CENTS <= cents_per_point <= MAX_CENTS:
        raise RulesError("out_of_range", "cents", low=MIN_CENTS, high=MAX_CENTS)
    if sum(totals) != 0:
        raise RulesError("not_zero_sum", "totals")
    balances = tuple(total * cents_per_point for total in totals)
    left = list(balances)
    payments: list[Payment] = []
    while any(left):
        # Largest debt and largest credit; min() on (value, index) keeps ties to the first listed.
        payer = min(range(len(left)), key=lambda p: (left[p], p))
        payee = min(range(len(left)), key=lambda p: (-left[p], p))
        amount = min(-left[payer], left[payee])
        payments.append(Payment(payer, payee, amount))
        left[payer] += amount
        left[payee] -= amount
    return Settlement(cents_per_point, balances, tuple(payments))
