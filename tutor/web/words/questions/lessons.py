"""The kinds only lessons ask in words (extras, sheet_row, dealer, poverty, recall, name) and
the lessons' own kinds (tutor/learn/kinds/: infer, decide, sheet): prompts, choices, reasons."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from babel.lists import format_list
from flask_babel import get_locale, ngettext
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from tutor.quiz.base import Question
from tutor.rules.terms import ANNOUNCEMENT_IDS, narrow
from tutor.web import words
from tutor.web.words import signed
from tutor.web.words.cards import suit_name
from tutor.web.words.questions.names import cards_text, game_name, listing, party_name, player, players, seat, short

# --- The kinds only lessons ask (extras, sheet_row, dealer, poverty, recall) -----------------

# Prompts about the learner's own seat, in the second person (lessons).
LEARNER_PROMPTS: Final[dict[str, Callable[[dict[str, Any]], str]]] = {
    "legal": lambda p: _("Your turn. Tick every card you may play."),
    "party": lambda p: _("Which party are you in?"),
    "announce_what": lambda p: ngettext(
        "You are %(party)s with %(num)d card in hand. What may you announce now? Tick everything allowed, or nothing.",
        "You are %(party)s with %(num)d cards in hand. What may you announce now? Tick everything allowed, or "
        "nothing.",
        p["cards"], party=party_name(p["party"])),
}
LESSON_PROMPTS: Final[dict[str, Callable[[dict[str, Any]], str]]] = {
    "extras": lambda p: (
        _("This is the last trick. Which extra points does its winner’s party earn? Tick each one, or none.")
        if p.get("last")
        else _("Which extra points does the winner’s party earn with this trick? Tick each one, or none.")
    ),
    "sheet_row": lambda p: _("Could this row be on a score sheet?"),
    "dealer_next": lambda p: ngettext(
        "%(num)d player at the table. Who deals next?", "%(num)d players at the table. Who deals next?", p["players"]
    ),
    "dealer_solo": lambda p: _("Who must play a solo in the next deal?"),
    "poverty": lambda p: _("You were dealt this hand. May you declare poverty?"),
    "recall": lambda p: _("Which one is right?"),
    "infer": lambda p: _("Which party is %(seat)s in, as far as you can tell?", seat=seat(p["seat"])),
    "name": lambda p: {
        "dulle": lambda: _("Which of these cards is the Dulle?"),
        "alten": lambda: _("Which of these cards is one of die Alten, the old ones?"),
        "fuchs": lambda: _("Which of these cards is the Fuchs, the fox?"),
        "karlchen": lambda: _("Which of these cards is Karlchen?"),
    }[p["name"]](),
    "decide_card": lambda p: _("Your turn. Which card do you play?"),
    "decide_lead": lambda p: _("You lead. Which card do you play?"),
    "decide_announce": lambda p: ngettext(
        "You hold %(num)d card. Do you say “%(announcement)s” now?",
        "You hold %(num)d cards. Do you say “%(announcement)s” now?",
        p["cards"], announcement=str(words.ANNOUNCEMENTS[narrow(p["announcement"], ANNOUNCEMENT_IDS)])),
    "sheet_total": lambda p: _("What is %(player)s’s total after these deals?", player=player(p["player"])),
    "sheet_entry": lambda p: _("What does %(player)s write in deal %(num)d?", player=player(p["player"]),
                               num=p["deal"]),
}
EXTRA_CHOICES: Final = {
    "fox": _l("Fox caught (Fuchs)"),
    "doppelkopf": _l("Doppelkopf (40 or more)"),
    "karlchen": _l("Karlchen takes the last trick"),
    "karlchen_caught": _l("Karlchen caught"),
}


def lesson_reason(p: dict[str, Any], code: str, q: Question) -> str:
    def who(key: str) -> str:
        return seat(p[key])

    texts: dict[str, Callable[[], str]] = {
        "no_extras_in_solo": lambda: _(
            "%(game)s is a solo: no extra points count in a solo.", game=game_name(p["game"])),
        "doppelkopf_trick": lambda: _(
            "The trick holds %(points)d card points, 40 or more: a Doppelkopf.", points=p["points"]),
        "no_doppelkopf": lambda: _(
            "The trick holds %(points)d card points, fewer than 40: no Doppelkopf.", points=p["points"]),
        "fox_caught": lambda: _(
            "%(seat)s played a fox (A♦) and the other party took it: a fox caught for %(party)s.",
            seat=who("seat"), party=party_name(p["party"])),
        "fox_own": lambda: _(
            "The fox (A♦) of %(seat)s stays with its own party, %(party)s: nothing is caught.",
            seat=who("seat"), party=party_name(p["party"])),
        "karlchen_wins_last": lambda: _(
            "The J♣ of %(seat)s (Karlchen) takes the last trick: an extra point for %(party)s.",
            seat=who("seat"), party=party_name(p["party"])),
        "karlchen_caught": lambda: _(
            "%(winner)s beat the other party’s Karlchen (J♣ of %(seat)s) in the last trick: under your rules "
            "that earns %(party)s a point.", winner=who("winner"), seat=who("seat"), party=party_name(p["party"])),
        "karlchen_caught_not_counted": lambda: _(
            "%(winner)s beat the other party’s Karlchen (J♣ of %(seat)s) in the last trick, but these rules count "
            "only a Karlchen that takes the last trick itself.", winner=who("winner"), seat=who("seat")),
        "karlchen_not_last": lambda: _(
            "The J♣ of %(seat)s counts as Karlchen only in the last trick; this is not the last one.",
            seat=who("seat")),
        "karlchen_beaten_by_partner": lambda: _(
            "%(winner)s beat the J♣ of %(seat)s, but both are %(party)s: a partner’s Karlchen earns nothing.",
            winner=who("winner"), seat=who("seat"), party=party_name(p["party"])),
        "row_sums_to_zero": lambda: _("%(entries)s add up to 0, as every row must.", entries=listing(p["entries"])),
        "row_sum_not_zero": lambda: _(
            "%(entries)s add up to %(sum)s, not 0: what one party wins the other loses, so every row sums to zero.",
            entries=listing(p["entries"]), sum=signed(p["sum"])),
        "row_same_parity": lambda: (
            _("All four entries are even, as they may be.") if all(p["even"])
            else _("All four entries are odd, as they may be.")),
        "row_mixed_parity": lambda: _(
            "Some entries are even (%(even)s) and some odd (%(odd)s): in one row they are all even or all odd.",
            even=listing([e for e, even in zip(p["entries"], p["even"], strict=True) if even]),
            odd=listing([e for e, even in zip(p["entries"], p["even"], strict=True) if not even])),
        "dealer_moves_left": lambda: _(
            "%(dealer)s dealt; the deal passes to the left, to %(next)s.",
            dealer=player(p["dealer"]), next=player(p["next"])),
        "same_dealer_after_compulsory": lambda: _(
            "%(soloist)s played a compulsory solo, so the same dealer, %(dealer)s, deals again.",
            soloist=player(p["soloist"]), dealer=player(p["dealer"])),
        "dealer_moves_after_vorgefuehrt": lambda: _(
            "%(soloist)s had to play the compulsory solo at the end of the round (vorgeführt): then nobody deals "
            "again, and the deal passes from %(dealer)s to %(next)s.",
            soloist=player(p["soloist"]), dealer=player(p["dealer"]), next=player(p["next"])),
        "sitting_out": lambda: ngettext(
            "%(seats)s sits out while %(dealer)s deals.", "%(seats)s sit out while %(dealer)s deals.",
            len(p["seats"]), seats=players(p["seats"]), dealer=player(p["dealer"])),
        "vorgefuehrt": lambda: ngettext(
            "Still owing a compulsory solo: %(owed)s; only %(num)d deal is left. The first of them in turn, "
            "%(player)s, must play a solo now (vorgeführt).",
            "Still owing a compulsory solo: %(owed)s; only %(num)d deals are left. The first of them in turn, "
            "%(player)s, must play a solo now (vorgeführt).",
            p["deals_left"], owed=players(p["owed"]), player=player(p["player"])),
        "no_solo_due": lambda: (
            ngettext(
                "Still owing a compulsory solo: %(owed)s; %(num)d deal is left, enough for each: nobody must play "
                "one now.",
                "Still owing a compulsory solo: %(owed)s; %(num)d deals are left, enough for each: nobody must play "
                "one now.",
                p["deals_left"], owed=players(p["owed"]))
            if p["owed"] else _("Nobody owes a compulsory solo any more: nobody must play one now.")),
        "poverty_allowed": lambda: ngettext(
            "The hand holds %(num)d trump (%(cards)s; the A♦ counts), no more than %(most)d: poverty may be declared.",
            "The hand holds %(num)d trumps (%(cards)s; the A♦ counts), no more than %(most)d: poverty may be declared.",
            p["count"], cards=cards_text(p["trumps"]) or _("none"), most=p["most"]),
        "poverty_too_many_trumps": lambda: ngettext(
            "The hand holds %(num)d trump (%(cards)s; the A♦ counts), more than %(most)d: no poverty.",
            "The hand holds %(num)d trumps (%(cards)s; the A♦ counts), more than %(most)d: no poverty.",
            p["count"], cards=cards_text(p["trumps"]), most=p["most"]),
        "recall": lambda: _("Answer %(num)d is right.", num=p["answer"]),
        **_own_kind_texts(p),
    }
    return texts[code]()


LESSON_REASONS: Final = (
    "no_extras_in_solo", "doppelkopf_trick", "no_doppelkopf", "fox_caught", "fox_own", "karlchen_wins_last",
    "karlchen_caught", "karlchen_caught_not_counted", "karlchen_not_last", "karlchen_beaten_by_partner",
    "row_sums_to_zero", "row_sum_not_zero", "row_same_parity", "row_mixed_parity", "dealer_moves_left",
    "same_dealer_after_compulsory", "dealer_moves_after_vorgefuehrt", "sitting_out", "vorgefuehrt", "no_solo_due",
    "poverty_allowed", "poverty_too_many_trumps", "recall",
    "infer_own_hand", "infer_played_old_one", "infer_announced", "infer_no_trump", "infer_by_count", "infer_unknown",
    "decide_outcome", "decide_can_be_beaten", "decide_cannot_be_beaten", "decide_partner_gets_most",
    "decide_fox_home", "decide_cheapest_winner", "decide_duck_cheap", "decide_sure_winner", "decide_fresh_ace",
    "decide_re_leads_trump", "decide_plain_lead", "decide_limit_half", "decide_limit_outcome", "decide_limit_risk",
    "sheet_row", "infer_silent_wedding", "name_card",
)


# --- The lessons' own kinds (tutor/learn/kinds/): infer, decide, sheet ----------------






def _suit_of_card(card: str) -> str:
    return suit_name(card[-1])


def _own_kind_texts(p: dict[str, Any]) -> dict[str, Callable[[], str]]:
    """The sentences of the reasons the lessons' own kinds give (each a function of ``p``)."""
    def who(key: str = "seat") -> str:
        return seat(p[key])

    def card(key: str = "card") -> str:
        return short(p[key])

    return {
        "infer_own_hand": lambda: (_("You hold a Q♣, so you are Re.") if p["party"] == "re"
                                   else _("You hold no Q♣, so you are Kontra.")),
        "infer_played_old_one": lambda: _(
            "%(seat)s played a Q♣ in trick %(num)d: whoever holds a Q♣ is Re.", seat=who(), num=p["trick"]),
        "infer_announced": lambda: _("%(seat)s announced “%(party)s”.", seat=who(), party=party_name(p["party"])),
        "infer_no_trump": lambda: _(
            "%(seat)s did not follow the trump lead in trick %(num)d, so holds no trump any more, and so no Q♣: "
            "Kontra.", seat=who(), num=p["trick"]),
        "infer_by_count": lambda: _(
            "Both %(other)s players are known (%(others)s), so %(seat)s is %(party)s.", seat=who(),
            party=party_name(p["party"]), other=party_name("kontra" if p["party"] == "re" else "re"),
            others=format_list([seat(s) for s in p["others"]], locale=str(get_locale()))),
        "infer_unknown": lambda: _(
            "Nothing %(seat)s has played yet shows whether %(seat)s holds a Q♣: you can’t tell yet.", seat=who()),
        "decide_outcome": lambda: {
            "you": lambda: _("With the %(card)s you take the trick yourself: %(points)d card points.",
                             card=card(), points=p["points"]),
            "partner": lambda: _("With the %(card)s the trick stays with your partner, %(seat)s: %(points)d card "
                                 "points for your side.", card=card(), seat=who(), points=p["points"]),
            "opponent": lambda: _("With the %(card)s the trick goes to %(seat)s, of the other party: %(points)d card "
                                  "points for them.", card=card(), seat=who(), points=p["points"]),
            "unknown": lambda: _("With the %(card)s the trick goes to %(seat)s, whose party you don’t know yet: "
                                 "%(points)d card points.", card=card(), seat=who(), points=p["points"]),
        }[p["side"]](),
        "decide_can_be_beaten": lambda: ngettext(
            "The %(card)s can still be beaten: %(num)d card you have not seen beats it (%(cards)s).",
            "The %(card)s can still be beaten: %(num)d cards you have not seen beat it (%(cards)s, …).",
            p["count"], card=card(), cards=", ".join(short(c) for c in p["cards"])),
        "decide_cannot_be_beaten": lambda: _(
            "No card you have not seen can beat the %(card)s: it takes the trick for sure.", card=card()),
        "decide_partner_gets_most": lambda: _(
            "Your partner has the trick: the %(card)s leaves it to him and adds the most card points you can give "
            "(schmieren).", card=card()),
        "decide_fox_home": lambda: _(
            "Your side takes this trick, so your fox (A♦) comes home: its 11 card points are yours, and the other "
            "party catches nothing."),
        "decide_cheapest_winner": lambda: _(
            "The %(card)s takes the trick just as well as a higher trump: keep the higher ones for the tricks that "
            "need them.", card=card()),
        "decide_duck_cheap": lambda: _(
            "The trick holds only %(points)d card points: not worth your Dulle. The %(card)s gives the other party "
            "as little as you can.", points=p["points"], card=card()),
        "decide_sure_winner": lambda: _(
            "No card still out can beat the %(card)s: it takes the trick whatever the others play.", card=card()),
        "decide_fresh_ace": lambda: ngettext(
            "Nobody has led %(suit)s yet, and %(num)d other card of that suit is still out: the %(card)s will most "
            "likely be followed, not trumped.",
            "Nobody has led %(suit)s yet, and %(num)d other cards of that suit are still out: the %(card)s will most "
            "likely be followed, not trumped.",
            p["left"], suit=_suit_of_card(p["card"]), card=card()),
        "decide_re_leads_trump": lambda: ngettext(
            "You are Re with %(num)d trump: lead trumps, so that Kontra’s trumps fall and your partner sees where "
            "you stand.",
            "You are Re with %(num)d trumps: lead trumps, so that Kontra’s trumps fall and your partner sees where "
            "you stand.", p["trumps"]),
        "decide_plain_lead": lambda: (
            ngettext(
                "Someone has led %(suit)s before: only %(num)d card of that suit is left for the others, so the "
                "%(card)s may well be trumped.",
                "Someone has led %(suit)s before: only %(num)d cards of that suit are left for the others, so the "
                "%(card)s may well be trumped.", p["left"], suit=_suit_of_card(p["card"]), card=card())
            if p["led"] else
            _("The %(card)s is a plain card below the ace: leading it hands the trick to a higher card or a trump.",
              card=card()) if not p["ace"] else
            _("The %(card)s is a plain ace: a fine lead for Kontra, but as Re your trumps come first.", card=card())),
        "decide_limit_half": lambda: ngettext(
            "%(party)s already holds %(points)d card points and needs %(need)d against “%(announcement)s”, with "
            "%(num)d trick still to play.",
            "%(party)s already holds %(points)d card points and needs %(need)d against “%(announcement)s”, with "
            "%(num)d tricks still to play.", p["cards"], party=party_name(p["party"]), points=p["points"],
            need=p["need"], announcement=str(words.ANNOUNCEMENTS[narrow(p["announcement"], ANNOUNCEMENT_IDS)])),
        "decide_limit_outcome": lambda: _(
            "Say Re ends with %(points)d card points: without “%(announcement)s” your side wins and each of you "
            "writes %(without)s; with it your side loses the deal and each of you writes %(lost)s.",
            points=p["re_points"], without=signed(p["without"]), lost=signed(p["with"]),
            announcement=str(words.ANNOUNCEMENTS[narrow(p["announcement"], ANNOUNCEMENT_IDS)])),
        "decide_limit_risk": lambda: _(
            "“%(announcement)s” stakes the whole deal: if the other party gets there, you lose everything, your "
            "“%(party)s” too.", announcement=str(words.ANNOUNCEMENTS[narrow(p["announcement"], ANNOUNCEMENT_IDS)]),
            party=party_name(p["party"])),
        "sheet_row": lambda: _sheet_row_text(p),
        "infer_silent_wedding": lambda: _(
            "%(groom)s played both Q♣: a silent wedding, %(groom)s alone against the other three, who are all "
            "Kontra.", groom=seat(p["groom"])),
        "name_card": lambda: {
            "dulle": lambda: _("The Dulle is the 10♥."),
            "alten": lambda: _("Die Alten, the old ones, are the two Q♣."),
            "fuchs": lambda: _("The Fuchs, the fox, is the A♦."),
            "karlchen": lambda: _("Karlchen is the J♣."),
        }[p["name"]](),
    }


def deal_runs(deals: list[tuple[int, str, int | None, bool]]) -> list[tuple[int, int, int, str, int | None, bool]]:
    """The deals of an evening as a list shows them: (first, last, dealer, game, soloist,
    compulsory), four or more normal games in a row folded into one line (first < last)."""
    runs: list[tuple[int, int, int, str, int | None, bool]] = []
    i = 0
    while i < len(deals):
        j = i
        while j < len(deals) and deals[j][1] == "normal":
            j += 1
        if j - i >= 4:
            runs.append((i + 1, j, deals[i][0], "normal", None, False))
            i = j
            continue
        dealer, game, soloist, compulsory = deals[i]
        runs.append((i + 1, i + 1, dealer, game, soloist, compulsory))
        i += 1
    return runs


def bock_reason(code: str) -> str:
    """Why a deal starts a Bock round (the house option): a tie, or a "Re" or "Kontra" lost."""
    return {
        "tie": _("120 : 120, so a Bock round follows."),
        "lost_re": _("“Re” was announced and lost, so a Bock round follows."),
        "lost_kontra": _("“Kontra” was announced and lost, so a Bock round follows."),
    }[code]


def _sheet_row_text(p: dict[str, Any]) -> str:
    entry = p["entries"][p["player"]]
    if entry is None:
        text = _("Deal %(num)d: %(player)s sits out and writes nothing; total %(total)s.", num=p["number"],
                 player=player(p["player"]), total=signed(p["total"]))
    else:
        text = _("Deal %(num)d: %(player)s writes %(entry)s; total %(total)s.", num=p["number"],
                 player=player(p["player"]), entry=signed(entry), total=signed(p["total"]))
    if p["multiplier"] > 1:
        text += " " + _("(Bock: this deal counts %(num)d times.)", num=p["multiplier"])
    return text
