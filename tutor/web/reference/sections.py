"""The parts of the reference that show the engine at work: small positions (a lead and a
hand, a trick) with the engine's answer and the rule it names, the facts of parties and
reservations, the house options that are on, and which lesson teaches each section.

The positions are data, like a lesson's: which cards may follow, who takes a trick and why
is always the engine's answer (tutor.rules.games, tutor.rules.explain), never written here.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from tutor import learn
from tutor.rules import scoring
from tutor.rules.announcements import deadline
from tutor.rules.cards import (
    ACE_OF_DIAMONDS,
    JACK_OF_CLUBS,
    QUEEN_OF_CLUBS,
    TEN_OF_HEARTS,
    card_id,
    card_points,
    deck,
)
from tutor.rules.deals import normal_parties, wedding_parties
from tutor.rules.explain import Reason, legal_reason, poverty_parties, trick_reason
from tutor.rules.games import CLARIFICATION_TRICKS, NORMAL_TYPE, SUIT_SOLOS, game_table, played_games, trump_order
from tutor.rules.reservations import (
    HEALTHY,
    POVERTY_CARDS,
    POVERTY_MAX_TRUMPS,
    Reservation,
    asking_order,
    decide,
    poverty_acceptor,
)
from tutor.rules.rulesets import RuleSet
from tutor.rules.terms import GAME_IDS, SEATS, Game, Party, narrow

# Which anchors are pages and which are parts of one: the addresses every feature links to.
from tutor.web.base.reference import PAGES as PAGES
from tutor.web.base.reference import PARTS as PARTS
from tutor.web.base.reference import page_of as page_of

# Each anchor of the reference (a page, /<lang>/rules/<anchor>, or a part of one; the slugs
# are stable) and the rule of lessons/rules.toml it is about; its lesson is the first on the
# path that teaches that rule (tutor.learn.coverage).
SECTION_RULES: Final[dict[str, str]] = {
    "cards": "1.deck",
    "trumps": "2.normal",
    "following-suit": "3.follow",
    "tricks": "3.winner",
    "equal-cards": "3.equal",
    "parties": "4.normal",
    "reservations": "5.asking",
    "announcements": "6.deadlines",
    "winning": "7.basic",
    "scoring": "8.won",
    "house-options": "10.house",
}
# Where the rule sets differ, the section is about the rule set's own rule.
RULESET_RULES: Final[dict[str, dict[str, str]]] = {"pagat": {"scoring": "9.scoring"}}
ANCHORS: Final = tuple(SECTION_RULES)

# A lead and a hand each: a plain lead with a trump of the led suit's letter in the hand, a
# trump lead, and a hand with none of the led suit (its only heart is a trump). No nines,
# so that every position is in the 40-card deck too.
FOLLOW_POSITIONS: Final = (
    (("AS",), ("10S", "KS", "QS", "KH", "AC", "JD")),
    (("JD",), ("AD", "QH", "AC", "10S", "KH", "KC")),
    (("KH",), ("10H", "QD", "AC", "10C", "KS", "KD")),
)
# Whole tricks: a plain suit won by its highest card past a card of another suit, a plain
# lead trumped, a trump lead.
TRICK_POSITIONS: Final = (
    ("10S", "KS", "AS", "AC"),
    ("AC", "KC", "JD", "10C"),
    ("QD", "JC", "QS", "AD"),
)
EQUAL_POSITION: Final = ("QH", "KD", "QH", "JC")
DULLEN_POSITION: Final = (card_id(TEN_OF_HEARTS), "QC", card_id(TEN_OF_HEARTS), "KD")


@dataclass(frozen=True)
class FollowExample:
    """A lead, a hand, the cards of it that may be played and the rule that says so."""

    trick: tuple[str, ...]
    hand: tuple[str, ...]
    legal: list[str]
    reason: Reason


@dataclass(frozen=True)
class TrickExample:
    """A trick in play order, the index of the card that takes it and the rule why."""

    cards: tuple[str, ...]
    winner: int
    reason: Reason
    last: bool = False

    @property
    def plays(self) -> list[tuple[str, str]]:
        """The trick as the trick partial takes it; the reference names no players."""
        return [("", card) for card in self.cards]


def follow_examples(rules: RuleSet) -> list[FollowExample]:
    examples = []
    for trick, hand in FOLLOW_POSITIONS:
        legal, reason = legal_reason(hand, trick, "normal", rules)
        examples.append(FollowExample(trick, hand, legal, reason))
    return examples


def trick_example(cards: tuple[str, ...], rules: RuleSet, last: bool = False) -> TrickExample:
    reason = trick_reason(cards, "normal", rules, last)
    return TrickExample(cards, int(reason.params["winner"]), reason, last)


def dullen_examples(rules: RuleSet) -> list[TrickExample]:
    """Two Dullen in one trick, and again in the last trick where the engine answers otherwise."""
    examples = [trick_example(DULLEN_POSITION, rules)]
    last = trick_example(DULLEN_POSITION, rules, last=True)
    if last.winner != examples[0].winner:
        examples.append(last)
    return examples


def equal_examples(rules: RuleSet) -> list[TrickExample]:
    """Two equal cards in one trick: the Dullen, and where a house option has the Dullen go
    their own way, two other equal cards as well."""
    dullen = dullen_examples(rules)
    if dullen[0].reason.code == "first_of_equal" and len(dullen) == 1:
        return dullen
    return [trick_example(EQUAL_POSITION, rules), *dullen]


# --- Parties and reservations -----------------------------------------------------------


@dataclass(frozen=True)
class PartyFacts:
    """The facts the "Parties and reservations" section words, each asked of the engine."""

    old_ones: str  # the card whose holders are Re in a normal game
    holders: Party  # the party of its holders, and of the others
    others: Party
    clarification_tricks: int
    wedding_alone_like: Game  # the solo a groom who wins the first tricks himself plays
    poverty_party: Party  # the party of the poor player and his partner
    soloist: Party
    opponents: int  # how many play against a soloist
    solo_factor: int  # how many times the soloist writes the value
    first_asked: int  # seats after the dealer, in play order, of the first player asked
    earlier_wins: bool  # of two equal reservations, the one asked first wins


def party_facts() -> PartyFacts:
    # Seats 0 and 1 hold one Q♣ each; a groom at seat 0 who wins the first tricks himself.
    parties = normal_parties([[QUEEN_OF_CLUBS], [QUEEN_OF_CLUBS], [], []])
    alone, solo_parties = wedding_parties(0, [0] * CLARIFICATION_TRICKS)
    like = next(g for g in SUIT_SOLOS if game_table(g, RuleSet()).same_play(game_table(alone, RuleSet())))
    first = asking_order(0)[0]
    wedding = Reservation("wedding")
    asked = [HEALTHY] * SEATS
    asked[first] = asked[(first + 1) % SEATS] = wedding
    acceptor = poverty_acceptor(0, [False] + [True] * (SEATS - 1))
    assert acceptor is not None
    return PartyFacts(
        old_ones=card_id(QUEEN_OF_CLUBS),
        holders=narrow_party(parties[0]),
        others=narrow_party(parties[2]),
        clarification_tricks=CLARIFICATION_TRICKS,
        wedding_alone_like=narrow(like, GAME_IDS),
        poverty_party=poverty_parties(0, acceptor)[0],
        soloist=solo_parties[0],
        opponents=solo_parties.count(solo_parties[1]),
        solo_factor=scoring.SOLO_FACTOR,
        first_asked=first,
        earlier_wins=decide(RuleSet(), 0, asked).declarer == first,
    )


def narrow_party(party: str) -> Party:
    return "re" if party == "re" else "kontra"


# --- House options ----------------------------------------------------------------------


@dataclass
class HouseOption:
    """A house option that is on: its id and value, whether the DDV tournament rules play
    it so too, and the engine's facts that show what it changes."""

    name: str
    value: Any
    in_ddv: bool
    facts: dict[str, Any] = field(default_factory=dict)
    tricks: list[TrickExample] = field(default_factory=list)


def changed_options(rules: RuleSet) -> list[tuple[str, Any]]:
    """The house options that differ from the rule set's own, as (option, value)."""
    base = RuleSet.named(rules.ruleset).options()
    return [(name, value) for name, value in rules.options().items() if base[name] != value]


def house_options(rules: RuleSet, solo_rows: list[Any]) -> list[HouseOption]:
    """Each house option that is on, with what the engine answers differently for it."""
    ddv = RuleSet.named("ddv").options()
    plain = RuleSet.named(rules.ruleset)
    on = []
    for name, value in changed_options(rules):
        option = HouseOption(name, value, ddv[name] == value)
        if name == "dullen":
            option.tricks = dullen_examples(rules)
        elif name == "deck":
            option.facts = {
                "cards": len(deck(rules.deck)),
                "tricks": rules.tricks,
                "points": sum(card_points(c) for c in deck(rules.deck)),
                "later": deadline(0, plain, None) - deadline(0, rules, None),
                "first": deadline(0, rules, None),
            }
        elif name == "schweinchen":
            option.facts = {
                "card": trump_order("normal", rules)[0],
                "above": trump_order("normal", plain)[0],
                "games": [g for g in NORMAL_TYPE if g in played_games(rules)],
                "is_fox": trump_order("normal", rules)[0] == card_id(ACE_OF_DIAMONDS),
            }
        elif name == "karlchen":
            lines = {line.id: line for line in scoring.scored_lines(rules)}
            option.facts = {
                "card": card_id(JACK_OF_CLUBS),
                "caught": lines["karlchen_caught"].points if "karlchen_caught" in lines else None,
                "won": lines["karlchen"].points,
                "most": scoring.extra_max("karlchen_caught", rules),
            }
        elif name == "poverty":
            option.facts = {"trumps": POVERTY_MAX_TRUMPS, "cards": POVERTY_CARDS}
        elif name == "solo_lead":
            option.facts = {"rows": solo_rows}
        on.append(option)
    return on


# --- Lessons ----------------------------------------------------------------------------


def section_lessons(rules: RuleSet) -> dict[str, learn.Lesson]:
    """Anchor -> the lesson that teaches the section's rule: the first on the path with a
    step that teaches it under these rules (or at all)."""
    path = learn.load_lessons()
    by_slug = {item.slug: item for item in path}
    table = learn.coverage(path)
    own = RULESET_RULES.get(rules.ruleset, {})
    found = {}
    for anchor, rule in SECTION_RULES.items():
        taught = table.get(own.get(anchor, rule), [])
        fitting = [slug for slug, step in taught if by_slug[slug].step(step).applies(rules)]
        slugs = fitting or [slug for slug, _ in taught]
        if slugs:
            found[anchor] = by_slug[slugs[0]]
    return found
