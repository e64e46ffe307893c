"""Why the engine answered as it did: which rule decided a trick, which cards may be played,
what a party may still announce, what it needs to win, which game the reservations make
and which party a player is in.

Every function here asks the engine for its answer first and then names the rule that made
it, so a reason can never disagree with the answer. Reasons are codes with parameters; the
web layer words them in the page's language.

>>> ddv = RuleSet.named("ddv")
>>> trick_reason(["10H", "QC", "10H"], "normal", ddv)
Reason(code='first_of_equal', params={'card': '10H', 'winner': 0, 'equal': 2})
>>> needs("re", NONE, 0, 12)
Need(points=120, tricks=None, nobody_possible=False)
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Literal

from tutor.rules.announcements import (
    NONE,
    SCHWARZ,
    announcement_id,
    deadline,
    level_of,
    may_announce_level,
    other,
    reply_deadline,
)
from tutor.rules.cards import ACE_OF_DIAMONDS, DECK_POINTS, SUITS, TEN_OF_HEARTS, card_id, parse_card, suit_of
from tutor.rules.games import TRUMP, game_table, is_normal_type, is_solo
from tutor.rules.reservations import Decision, Reservation, decide
from tutor.rules.rulesets import RuleSet
from tutor.rules.scoring import who_wins
from tutor.rules.terms import SEATS, AnnouncementId, Party


@dataclass(frozen=True, slots=True)
class Reason:
    """One rule that decided an answer: a stable code and what fills its sentence."""

    code: str
    params: dict[str, Any] = field(default_factory=dict)


# --- Tricks -------------------------------------------------------------------------------


def trick_reason(cards: Sequence[str], game: str, rules: RuleSet, last_trick: bool = False) -> Reason:
    """The rule that makes the engine's winner take this trick (cards in play order)."""
    table = game_table(game, rules)
    trick = [parse_card(c) for c in cards]
    win = table.winner(trick, last_trick)
    card = trick[win]
    params: dict[str, Any] = {"card": cards[win], "winner": win}
    if len(trick) == 1:
        return Reason("only_card", params)
    equal = [i for i, c in enumerate(trick) if c == card and i != win]
    if card == TEN_OF_HEARTS and table.is_trump(card) and equal:
        if win > equal[0]:
            return Reason("second_dulle", {**params, "equal": equal[0]})
        if table.dulle_second_wins and last_trick and table.dulle_except_last:
            return Reason("first_dulle_in_last_trick", {**params, "equal": equal[0]})
    if equal and win < equal[0]:
        # TSR: the first of two equal cards wins.
        return Reason("first_of_equal", {**params, "equal": equal[0]})
    lead = table.suit_class[trick[0]]
    if table.is_trump(card):
        if card == ACE_OF_DIAMONDS and table.trumps[0] == ACE_OF_DIAMONDS:
            return Reason("schweinchen", params)
        # How many trumps are in this trick: "the highest trump" of one trump is only the
        # only one (a 9♦ is the lowest trump of all, PLAY-REVIEW.md §4.2.2).
        params["trumps"] = sum(table.is_trump(c) for c in trick)
        if lead != TRUMP:
            return Reason("trump_on_plain", {**params, "suit": SUITS[lead]})
        return Reason("highest_trump", params)
    # Whether the game has trumps at all: in an aces solo nobody *could* play one (§4.2.3).
    params["trumpless"] = not table.trumps
    discards = [cards[i] for i, c in enumerate(trick) if table.suit_class[c] != lead]
    if discards:
        return Reason("off_suit_cannot_win", {**params, "suit": SUITS[lead], "discards": discards})
    return Reason("highest_of_suit", {**params, "suit": SUITS[lead]})


def compare_reason(first: str, second: str, game: str, rules: RuleSet) -> tuple[int, Reason]:
    """Which of two different cards beats the other when the first is led (0 or 1), and why."""
    table = game_table(game, rules)
    win = table.winner([parse_card(first), parse_card(second)])
    a, b = parse_card(first), parse_card(second)
    winner, loser = (a, b) if win == 0 else (b, a)
    params = {"card": card_id(winner), "other": card_id(loser)}
    if table.is_trump(winner) and not table.is_trump(loser):
        return win, Reason("trump_beats_plain", params)
    if table.is_trump(winner):
        order = table.trumps
        return win, Reason(
            "higher_trump",
            {**params, "rank": order.index(winner) + 1, "other_rank": order.index(loser) + 1, "count": len(order)},
        )
    if table.suit_class[winner] == table.suit_class[loser]:
        return win, Reason("higher_in_suit", {**params, "suit": suit_of(winner)})
    return win, Reason("led_suit_wins", {**params, "suit": suit_of(winner)})


def trump_reason(card: str, game: str, rules: RuleSet) -> tuple[bool, Reason]:
    """Whether a card is a trump in the game, and where it stands."""
    table = game_table(game, rules)
    c = parse_card(card)
    if table.is_trump(c):
        return True, Reason("is_trump", {"card": card, "rank": table.trumps.index(c) + 1, "count": len(table.trumps)})
    if not table.trumps:
        return False, Reason("no_trumps", {"card": card})
    return False, Reason("plain_card", {"card": card, "suit": suit_of(c)})


def legal_reason(hand: Sequence[str], trick: Sequence[str], game: str, rules: RuleSet) -> tuple[list[str], Reason]:
    """The legal cards of the hand (each id once, hand order) and the rule that makes them."""
    table = game_table(game, rules)
    cards = [parse_card(c) for c in hand]
    legal = set(table.legal(cards, [parse_card(c) for c in trick]))
    ids = list(dict.fromkeys(card_id(c) for c in cards if c in legal))
    if not trick:
        return ids, Reason("leading", {})
    lead = table.suit_class[parse_card(trick[0])]
    follows = any(table.suit_class[c] == lead for c in cards)
    # Cards of the led suit's letter that are trumps do not follow a plain lead (RULES.md §2).
    disguised = list(dict.fromkeys(
        card_id(c) for c in cards if lead != TRUMP and table.is_trump(c) and suit_of(c) == SUITS[lead]
    ))
    if lead == TRUMP:
        code = "must_follow_trump" if follows else "no_trump_any_card"
        return ids, Reason(code, {"lead": trick[0]})
    code = "must_follow_suit" if follows else "void_any_card"
    return ids, Reason(code, {"lead": trick[0], "suit": SUITS[lead], "trumps_of_suit": disguised})


# --- Announcements ------------------------------------------------------------------------


def announcement_reasons(
    rules: RuleSet,
    party: str,
    cards_in_hand: int,
    own: str | None,
    opponent: str | None,
    wedding_clarified_in_trick: int | None = None,
) -> list[tuple[AnnouncementId, bool, Reason]]:
    """For each announcement a party could make (level 0 to schwarz): its id, whether the
    engine allows it now, and the rule that decides."""
    own_level = level_of(own, party, "own")
    opp_level = level_of(opponent, other(party), "opponent")
    wedding = wedding_clarified_in_trick
    result = []
    for target in range(SCHWARZ + 1):
        allowed = may_announce_level(target, own_level, opp_level, cards_in_hand, rules, wedding)
        result.append((announcement_id(target, party), allowed,
                       _announcement_reason(rules, target, own_level, opp_level, cards_in_hand, wedding, allowed)))
    return result


def announcement_reason(
    rules: RuleSet,
    party: str,
    target: int,
    cards_in_hand: int,
    own: str | None,
    opponent: str | None,
    wedding_clarified_in_trick: int | None = None,
) -> Reason:
    """The rule that decides whether ``party`` may announce up to level ``target`` now (one
    row of ``announcement_reasons``)."""
    own_level = level_of(own, party, "own")
    opp_level = level_of(opponent, other(party), "opponent")
    wedding = wedding_clarified_in_trick
    allowed = may_announce_level(target, own_level, opp_level, cards_in_hand, rules, wedding)
    return _announcement_reason(rules, target, own_level, opp_level, cards_in_hand, wedding, allowed)


def _announcement_reason(
    rules: RuleSet, target: int, own: int, opponent: int, cards: int, wedding: int | None, allowed: bool
) -> Reason:
    params: dict[str, Any] = {"cards": cards, "level": target}
    if wedding == 0:
        return Reason("wedding_unclarified", params)
    if target <= own:
        return Reason("already_made", params)
    if wedding:
        params["trick"] = wedding
    for level in range(max(own + 1, 1), target + 1):
        needed = deadline(level, rules, wedding)
        if cards < needed:
            code = "too_late" if level == target else "skipped_level_too_late"
            return Reason(code, {**params, "needed": needed, "missed": level})
    reply = reply_deadline(opponent, rules, wedding)
    own_deadline = deadline(0, rules, wedding)
    if own == NONE and (target == 0 or rules.ruleset == "pagat") and cards < own_deadline:
        if reply is not None and cards >= reply:
            return Reason("reply_in_time", {**params, "needed": reply, "opponent": opponent})
        if reply is None:
            return Reason("too_late", {**params, "needed": own_deadline, "missed": 0})
        return Reason("reply_too_late", {**params, "needed": reply, "opponent": opponent})
    if own == NONE and target > 0 and cards < own_deadline:
        return Reason("rides_along", {**params, "needed": deadline(target, rules, wedding)})
    assert allowed
    return Reason("in_time", {**params, "needed": deadline(target, rules, wedding)})


# --- What a party needs -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Need:
    """What a party needs to win: the fewest card points (with both parties taking tricks),
    or, where winning hangs on tricks (schwarz), ``tricks`` as "all" or "one". And whether
    the deal can end with nobody winning."""

    points: int | None
    tricks: Literal["all", "one"] | None
    nobody_possible: bool


@cache
def needs(party: str, re_level: int, kontra_level: int, tricks: int) -> Need:
    """What ``party`` needs to win, found by asking the engine's ``who_wins``."""

    def wins(points: int, won: int) -> bool:
        if party == "re":
            return who_wins(points, won, tricks, re_level, kontra_level) == "re"
        return who_wins(DECK_POINTS - points, tricks - won, tricks, re_level, kontra_level) == "kontra"

    nobody = any(who_wins(p, tricks // 2, tricks, re_level, kontra_level) is None for p in range(DECK_POINTS + 1))
    middle = range(1, tricks)
    fewest = next((p for p in range(DECK_POINTS + 1) if all(wins(p, t) for t in middle)), None)
    if fewest is None:
        return Need(None, "all", nobody)  # only all tricks win: schwarz announced
    if fewest == 0 and not wins(0, 0):
        return Need(None, "one", nobody)  # the opponents announced schwarz: one trick breaks it
    return Need(fewest, None, nobody)


def needs_reason(party: str, re_level: int, kontra_level: int) -> Reason:
    """The rule of RULES.md §7/§10 that sets what ``party`` needs."""
    own, opp = (re_level, kontra_level) if party == "re" else (kontra_level, re_level)
    params = {"party": party, "own": own, "opponent": opp}
    if own > 0:
        return Reason("meet_own_announcement", params)
    if opp > 0:
        return Reason("opponent_misses", params)
    if re_level == NONE and kontra_level == 0:
        return Reason("kontra_alone_moves_line", params)
    return Reason("plain_majority", params)


# --- Reservations and parties -------------------------------------------------------------


def reservation_reasons(
    rules: RuleSet, dealer: int, reservations: Sequence[Reservation]
) -> tuple[Decision, list[Reason]]:
    """The engine's decision and the rules behind it: which reservation wins, who leads."""
    decision = decide(rules, dealer, reservations)
    reasons: list[Reason] = []
    said = [s for s in range(SEATS) if reservations[s].kind != "healthy"]
    if decision.declarer is None:
        reasons.append(Reason("all_healthy", {}))
    else:
        chosen = reservations[decision.declarer]
        rivals = [s for s in said if s != decision.declarer]
        same_kind = [s for s in rivals if _rank(reservations[s], rules) == _rank(chosen, rules)]
        if same_kind:
            reasons.append(Reason("earlier_in_turn", {"seat": decision.declarer, "others": same_kind}))
        elif rivals:
            reasons.append(Reason(f"priority_{rules.ruleset}", {"seat": decision.declarer, "others": rivals}))
        else:
            reasons.append(Reason("only_reservation", {"seat": decision.declarer}))
    # The same choice as decide() makes, named: the soloist may be the left neighbour too.
    if not is_solo(decision.game):
        code = "left_of_dealer_leads"
    elif rules.solo_lead == "soloist":
        code = "soloist_leads"
    elif rules.solo_lead == "by_solo_kind" and decision.compulsory:
        code = "compulsory_soloist_leads"
    else:
        code = f"solo_lead_left_{rules.solo_lead}"
    reasons.append(Reason(code, {"seat": decision.leader, "dealer": dealer}))
    return decision, reasons


def _rank(reservation: Reservation, rules: RuleSet) -> tuple[str, bool]:
    compulsory = reservation.kind == "solo" and reservation.compulsory and rules.has_compulsory_solos
    return reservation.kind, compulsory


def poverty_parties(poor: int, acceptor: int) -> tuple[Party, ...]:
    """RULES.md §10: the poor player and the acceptor are Re, whoever holds the Q♣."""
    return tuple("re" if s in (poor, acceptor) else "kontra" for s in range(SEATS))


def party_reason(game: str, parties: Sequence[str], seat: int, holds_old_ones: int, **facts: Any) -> Reason:
    """Why ``seat`` is in its party: the Q♣ in a normal game, the wedding's clarification,
    a poverty, a solo. ``facts`` carries the game's own: groom, clarification trick, poor
    player and acceptor."""
    params = {"seat": seat, "party": parties[seat], "queens": holds_old_ones, **facts}
    if game == "normal":
        return Reason("holds_old_one" if holds_old_ones else "no_old_one", params)
    if game in ("wedding", "wedding_solo"):
        if seat == facts.get("groom"):
            return Reason("wedding_groom" if game == "wedding" else "wedding_became_solo", params)
        if parties[seat] == "re":
            return Reason("wedding_partner", params)
        return Reason("wedding_opponent" if game == "wedding" else "wedding_solo_opponent", params)
    if game == "poverty":
        if seat == facts.get("poor"):
            return Reason("poverty_poor", params)
        if seat == facts.get("acceptor"):
            return Reason("poverty_acceptor", params)
        return Reason("poverty_other", params)
    if is_solo(game):
        return Reason("soloist" if parties[seat] == "re" else "solo_opponent", params)
    assert is_normal_type(game)
    return Reason("holds_old_one" if holds_old_ones else "no_old_one", params)


# --- Why not that one: the rule against a choice the engine did not make ------------------


def loser_reason(cards: Sequence[str], index: int, game: str, rules: RuleSet, last_trick: bool = False) -> Reason:
    """Why the card at ``index`` of this trick (play order) does not take it; the winner's own
    reason when it does."""
    table = game_table(game, rules)
    trick = [parse_card(c) for c in cards]
    win = table.winner(trick, last_trick)
    if index == win:
        return trick_reason(cards, game, rules, last_trick)
    mine, best = trick[index], trick[win]
    params: dict[str, Any] = {"card": cards[index], "index": index, "winner": win, "winning": cards[win]}
    lead = table.suit_class[trick[0]]
    if mine == best:
        if mine == TEN_OF_HEARTS and table.is_trump(mine) and index < win:
            return Reason("first_dulle_beaten", params)  # the house rule: the second Dulle wins
        if mine == TEN_OF_HEARTS and table.is_trump(mine) and table.dulle_second_wins:
            return Reason("second_dulle_in_last_trick", params)
        return Reason("second_of_equal", params)
    if table.is_trump(mine):
        order = table.trumps
        return Reason("lower_trump", {**params, "rank": order.index(mine) + 1,
                                      "winning_rank": order.index(best) + 1, "count": len(order)})
    if table.is_trump(best):
        return Reason("plain_under_trump", params)
    if table.suit_class[mine] != lead:
        return Reason("discard_cannot_win", {**params, "suit": SUITS[lead]})
    return Reason("lower_of_suit", {**params, "suit": SUITS[lead]})


def card_legal_reason(hand: Sequence[str], trick: Sequence[str], card: str, game: str, rules: RuleSet) -> Reason:
    """Why one card of the hand may, or may not, be played to this trick."""
    legal, reason = legal_reason(hand, trick, game, rules)
    table = game_table(game, rules)
    params: dict[str, Any] = {"card": card, "lead": trick[0] if trick else None}
    if not trick:
        return Reason("may_lead_any", params)
    lead = table.suit_class[parse_card(trick[0])]
    if lead != TRUMP:
        params["suit"] = SUITS[lead]
    if card in legal:
        code = {"must_follow_suit": "follows_suit", "must_follow_trump": "follows_trump",
                "void_any_card": "void_card_free", "no_trump_any_card": "no_trump_card_free"}[reason.code]
        return Reason(code, params)
    c = parse_card(card)
    if lead == TRUMP:
        return Reason("not_a_trump_must_follow", params)
    if table.is_trump(c) and suit_of(c) == SUITS[lead]:
        return Reason("trump_not_the_suit", params)  # a Q♥ does not follow hearts
    return Reason("must_follow_suit_not_this", params)


def compare_loser_reason(first: str, second: str, game: str, rules: RuleSet) -> Reason:
    """Why the lower of two different cards (the first led) is the lower one."""
    win, reason = compare_reason(first, second, game, rules)
    loser, winner = (second, first) if win == 0 else (first, second)
    params = {"card": loser, "other": winner}
    code = {"trump_beats_plain": "plain_below_trump", "higher_trump": "lower_trump_of_two",
            "higher_in_suit": "lower_in_suit", "led_suit_wins": "not_the_led_suit"}[reason.code]
    if code == "lower_trump_of_two":
        params |= {"rank": reason.params["other_rank"], "other_rank": reason.params["rank"],
                   "count": reason.params["count"]}
    if code in ("lower_in_suit", "not_the_led_suit"):
        params["suit"] = suit_of(parse_card(loser))
    return Reason(code, params)
