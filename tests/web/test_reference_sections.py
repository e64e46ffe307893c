"""The reference's sections on following suit, tricks, equal cards and house options: every
fact is the engine's, every section links to the lesson that teaches it, anchors stay (each
section at /<lang>/rules/<anchor>, its parts at /<lang>/rules/<section>#<anchor>)."""
from __future__ import annotations

import html as html_lib
import re
from pathlib import Path

import pytest

from tutor import learn
from tutor.rules import scoring
from tutor.rules.announcements import deadline
from tutor.rules.games import legal_cards, trick_winner
from tutor.rules.reservations import asking_order
from tutor.rules.rulesets import RuleSet
from tutor.web.base import i18n
from tutor.web.base.rules import COOKIE, to_cookie
from tutor.web.reference import sections

# Pages link to /<lang>/rules/<anchor> (and bookmarks to /<lang>/rules/#<anchor>): these never change.
ANCHORS = ("cards", "trumps", "following-suit", "tricks", "equal-cards", "parties", "reservations",
           "announcements", "winning", "scoring", "house-options")
TEMPLATES = Path(__file__).resolve().parents[2] / "templates" / "reference"
ALL_ON = RuleSet.named("ddv").with_options(
    dullen="second_wins_except_last", deck=40, schweinchen=True, karlchen="win_or_catch", poverty=True,
    solo_lead="soloist")
RULES = {
    "ddv": RuleSet.named("ddv"),
    "pagat": RuleSet.named("pagat"),
    "ddv+options": ALL_ON,
    "pagat+options": RuleSet.named("pagat").with_options(dullen="second_wins", karlchen="win", solo_lead="soloist"),
}


def page(client, rules: RuleSet, slug: str, lang: str = "en") -> str:
    """One page of the reference (/<lang>/rules/<slug>) under these rules."""
    client.set_cookie(COOKIE, to_cookie(rules))
    response = client.get(f"/{lang}/rules/{slug}")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def section(html: str, anchor: str) -> str:
    return html.split(f'<section id="{anchor}"')[1].split("</section>")[0]


def part(client, rules: RuleSet, anchor: str, lang: str = "en") -> str:
    """A section's content from its own page (for a part, from the page it is on)."""
    slug = sections.page_of(anchor)
    return section(page(client, rules, slug, lang), slug)


def tricks_in(html: str) -> list[tuple[list[str], int]]:
    """(cards in play order, index of the card marked as taking it) for each trick drawn."""
    found = []
    for body in re.findall(r'<ol class="trick"[^>]*>(.*?)</ol>', html, re.S):
        plays = re.findall(r'<li class="trick__play( trick__play--winner)?">.*?data-card="([^"]+)"', body, re.S)
        found.append(([card for _w, card in plays], [bool(w) for w, _c in plays].index(True)))
    return found


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
@pytest.mark.parametrize("name", RULES)
def test_every_section_renders_in_every_language_under_every_rule_set(client, lang, name):
    for slug in sections.PAGES:
        html = page(client, RULES[name], slug, lang)
        assert f'<section id="{slug}"' in html, slug
        for anchor, on in sections.PARTS.items():
            assert (f'id="{anchor}"' in html) == (on == slug), (slug, anchor)
        assert '<aside class="rules-note"' in html  # which rules, and a way to change them
    assert len(tricks_in(part(client, RULES[name], "tricks", lang))) >= len(sections.TRICK_POSITIONS) + 1


def test_the_anchors_are_the_ones_lessons_link_to():
    assert sections.ANCHORS == ANCHORS
    assert set(sections.PAGES) | set(sections.PARTS) == set(ANCHORS)
    assert not set(sections.PAGES) & set(sections.PARTS)


@pytest.mark.parametrize("name", RULES)
def test_the_cards_that_may_follow_are_the_engines(client, name):
    rules = RULES[name]
    html = part(client, rules, "following-suit")
    hands = re.findall(r'<ul class="hand hand--small" aria-label="Hand">(.*?)</ul>', html, re.S)
    assert len(hands) == len(sections.FOLLOW_POSITIONS)
    for (trick, hand), shown in zip(sections.FOLLOW_POSITIONS, hands, strict=True):
        marked = re.findall(r'<li class="ref-hand__card( ref-hand__card--legal)?">.*?data-card="([^"]+)"', shown, re.S)
        assert [card for _m, card in marked] == list(hand)
        legal = legal_cards(list(hand), list(trick), "normal", rules)
        assert [card for m, card in marked if m] == [card for card in hand if card in legal]


def test_a_trump_of_the_led_suits_letter_does_not_follow(client):
    html = part(client, RULES["ddv"], "following-suit")
    assert "Q♠ is a trump, not spades, so it does not follow." in html
    assert "any card may be played, a trump or not" in html


@pytest.mark.parametrize("name", RULES)
def test_who_takes_each_trick_is_the_engines(client, name):
    rules = RULES[name]
    html = part(client, rules, "tricks")
    shown = tricks_in(html)
    examples = [*(sections.trick_example(t, rules) for t in sections.TRICK_POSITIONS), *sections.equal_examples(rules)]
    assert len(shown) == len(examples)
    for (cards, winner), example in zip(shown, examples, strict=True):
        assert cards == list(example.cards)
        assert winner == trick_winner(cards, "normal", rules, example.last)


def test_the_first_of_two_equal_cards_wins_under_the_tournament_rules(client):
    html = part(client, RULES["ddv"], "tricks").split('id="equal-cards"')[1]
    assert tricks_in(html) == [(["10H", "QC", "10H", "KD"], 0)]
    assert "Two 10♥ in one trick: the first one played wins." in html


def test_with_the_dullen_option_the_second_dulle_wins_but_not_in_the_last_trick(client):
    html = part(client, ALL_ON, "tricks").split('id="equal-cards"')[1]
    assert tricks_in(html) == [(["QH", "KD", "QH", "JC"], 0), (["10H", "QC", "10H", "KD"], 2),
                               (["10H", "QC", "10H", "KD"], 0)]
    assert "In the last trick:" in html


def test_no_house_option_is_named_when_none_is_on(client):
    for name in ("ddv", "pagat"):
        html = part(client, RULES[name], "house-options")
        assert "No house option is on" in html and "ref-example" not in html


def test_each_house_option_that_is_on_says_what_it_changes(client):
    html = part(client, ALL_ON, "house-options")
    assert "6 house options are on:" in html
    for label in ("Dullen:", "Deck:", "Schweinchen:", "Karlchen:", "Poverty (Armut):", "Who leads a solo:"):
        assert f"<h2>{label}" in html  # under the page's own heading
    assert html.count("Under your house rules the second Dulle") == 2
    first = deadline(0, ALL_ON, None)
    facts = (ALL_ON.tricks, deadline(0, RuleSet.named("ddv"), None) - first, first)
    assert facts == (10, 2, 9)
    assert f"40 cards, {facts[0]} tricks each deal, still 240 card points." in html
    assert f"Every announcement comes due {facts[1]} cards later: Re or Kontra with {facts[2]} cards in hand." in html
    assert "Whoever holds both A♦ declares them: they become the highest trumps, above the 10♥." in html
    assert "Catching an opponent’s J♣ in the last trick scores 1 extra point, up to 2 a deal." in html
    assert "Voluntary solo (Lustsolo): the soloist leads." in html
    assert "The DDV tournament rules play none of them." in html
    assert "play it this way too" not in html


def test_a_house_option_the_tournament_rules_share_is_said_so(client):
    html = part(client, RULES["pagat+options"], "house-options")
    assert html.count("The DDV tournament rules play it this way too.") == 1  # karlchen: win
    assert "The DDV tournament rules play none of the others." in html
    assert "Only winning the last trick with the J♣ scores: 1 extra point." in html


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
@pytest.mark.parametrize("name", ["ddv", "pagat"])
def test_every_section_links_to_the_lesson_that_teaches_it(client, lang, name):
    rules = RULES[name]
    table = learn.coverage(learn.load_lessons())
    for anchor in ANCHORS:
        content = part(client, rules, anchor, lang)
        rule = sections.RULESET_RULES.get(rules.ruleset, {}).get(anchor, sections.SECTION_RULES[anchor])
        first = next(slug for slug, _step in table[rule])
        item = learn.lesson(first)
        assert item is not None
        link = f'<a href="/{lang}/learn/{first}">'
        assert link in content, (anchor, first)
        title = re.search(re.escape(link) + r"(.*?)</a>", content).group(1)
        assert html_lib.unescape(title).endswith(item.text(lang).title)


def test_a_section_links_the_first_lesson_on_the_path_that_teaches_its_rule():
    found = sections.section_lessons(RuleSet.named("ddv"))
    assert {a: item.slug for a, item in found.items()} == {
        "cards": "cards", "trumps": "trumps", "following-suit": "following-suit", "tricks": "following-suit",
        "equal-cards": "following-suit", "parties": "re-and-kontra", "reservations": "reservations",
        "announcements": "announcements", "winning": "winning", "scoring": "scoring", "house-options": "house-rules",
    }


def test_party_and_reservation_facts_are_the_engines(client):
    facts = sections.party_facts()
    assert facts.solo_factor == scoring.SOLO_FACTOR and facts.first_asked == asking_order(0)[0]
    assert facts.wedding_alone_like == "solo_diamonds" and facts.earlier_wins
    html = part(client, RULES["pagat"], "parties")
    assert f"writes the deal’s value {scoring.SOLO_FACTOR} times" in html
    assert "if the groom wins them all, he plays alone: Diamonds solo." in html
    assert "Players are asked in turn, first the dealer’s left neighbour." in html
    assert "becomes his partner (Re)" in html


def test_the_reference_writes_no_number_of_the_game():
    """Counts and numbers are the engine's (SOLO_FACTOR, CLARIFICATION_TRICKS, …): no message
    of the reference's templates may write one."""
    names = sorted(TEMPLATES.rglob("*.html"))
    assert len(names) >= len(sections.PAGES) + 3
    text = "".join(name.read_text() for name in names)
    messages = re.findall(r'(?:_|ngettext)\(\s*"([^"]*)"(?:,\s*"([^"]*)")?', text)
    words = re.compile(r"\d|\b(two|three|four|five|six|ten|twelve|twice|thrice)\b", re.I)
    offending = [m for pair in messages for m in pair if m and words.search(re.sub(r"%\(\w+\)[ds]", "", m))]
    assert offending == []


def test_the_page_is_kept_per_rules_and_language(client):
    de, en = page(client, RULES["ddv"], "following-suit", "de"), page(client, RULES["ddv"], "following-suit", "en")
    assert 'lang="de"' in de and "<h1 id=\"following-suit-h\">Bedienen</h1>" in de
    assert "<h1 id=\"following-suit-h\">Following suit</h1>" in en
    assert "6 house options are on" in page(client, ALL_ON, "house-options", "en")
    assert "No house option is on" in page(client, RULES["ddv"], "house-options", "en")
    assert page(client, RULES["ddv"], "following-suit", "en") == en


@pytest.mark.parametrize("name", ["ddv", "pagat"])
def test_only_the_lines_a_solo_never_scores_are_tagged_so(client, name):
    """The tag once read an attribute the engine's lines do not have, and tagged every line."""
    html = part(client, RULES[name], "scoring").split("Worked examples")[0]
    lines = scoring.scored_lines(RULES[name])
    assert html.count("not in solos") == sum(not line.in_solo for line in lines) > 0
