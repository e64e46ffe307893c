"""The rules reference shows what the engine answers for the visitor's rules."""
from __future__ import annotations

import re

import pytest

from tests.web.test_reference_sections import page, part
from tutor.rules import scoring
from tutor.rules.announcements import SCHWARZ, deadline
from tutor.rules.cards import DECK_POINTS, in_deck, parse_card
from tutor.rules.explain import needs
from tutor.rules.games import trump_order
from tutor.rules.rulesets import RuleSet
from tutor.web.reference.views import reference_for, win_rows


def trump_rows(html: str) -> list[list[str]]:
    return [re.findall(r'data-card="([^"]+)"', row) for row in re.findall(
        r'<ul class="hand hand--small" aria-label="Trumps, highest first">(.*?)</ul>', html, re.S)]


@pytest.mark.parametrize(
    "rules",
    [RuleSet.named("ddv"), RuleSet.named("pagat"), RuleSet.named("ddv").with_options(schweinchen=True),
     RuleSet.named("ddv").with_options(deck=40)],
)
def test_trump_orders_are_the_engines(client, rules):
    rows = trump_rows(part(client, rules, "trumps"))
    expected = [c for c in trump_order("normal", rules) if in_deck(parse_card(c), rules.deck)]
    assert rows[0] == expected
    assert [c for c in trump_order("solo_jacks", rules)] in rows
    assert "Aces solo (Fleischloser)" in part(client, rules, "trumps")


def test_schweinchen_puts_the_foxes_on_top(client):
    rows = trump_rows(part(client, RuleSet.named("ddv").with_options(schweinchen=True), "trumps"))
    assert rows[0][0] == "AD"
    assert trump_rows(part(client, RuleSet.named("ddv"), "trumps"))[0][0] == "10H"


def test_no_nines_without_the_nines(client):
    rules = RuleSet.named("ddv").with_options(deck=40)
    assert "40 cards in the deck, 240 card points in all." in part(client, rules, "cards")
    assert not re.search(r'data-card="9[CSHD]"', part(client, rules, "trumps"))


def test_poverty_is_listed_only_where_it_is_played(client):
    assert "Poverty (Armut)</" not in part(client, RuleSet.named("ddv"), "trumps")
    assert "Poverty (Armut)" in part(client, RuleSet.named("pagat"), "trumps")


@pytest.mark.parametrize(
    "rules", [RuleSet.named("ddv"), RuleSet.named("pagat"), RuleSet.named("ddv").with_options(deck=40)]
)
def test_deadlines_are_the_engines(client, rules):
    tables = reference_for(rules)["deadlines"]
    assert tables[0].deck == rules.deck and tables[1].deck != rules.deck
    assert tables[0].columns == (None, 1, 2, 3)
    for level, row in enumerate(tables[0].levels):
        assert row == [deadline(level, rules, t) for t in (None, 1, 2, 3)]
    html = part(client, rules, "announcements")
    first = html.split("</table>")[0]
    cells = [int(n) for n in re.findall(r'<td class="num">(\d+)</td>', first)]
    assert cells[:8] == [deadline(level, rules, t) for level in (0, 1) for t in (None, 1, 2, 3)]


def test_wedding_deadlines_differ_between_rule_sets(client):
    ddv, pagat = reference_for(RuleSet.named("ddv")), reference_for(RuleSet.named("pagat"))
    assert ddv["deadlines"][0].levels != pagat["deadlines"][0].levels


def test_what_each_party_needs_without_announcements():
    rows = {(r.re_level, r.kontra_level): r for r in win_rows(RuleSet.named("ddv"))}
    assert rows[-1, -1].needs["re"].points == 121 and rows[-1, -1].needs["kontra"].points == 120
    assert rows[-1, 0].needs["re"].points == 120 and rows[-1, 0].needs["kontra"].points == 121
    assert rows[4, -1].needs["re"].tricks == "all" and rows[4, -1].needs["kontra"].tricks == "one"
    assert rows[1, 1].nobody_possible and not rows[-1, -1].nobody_possible


@pytest.mark.parametrize("rules", [RuleSet.named("ddv"), RuleSet.named("pagat").with_options(deck=40)])
def test_the_reference_says_what_the_quiz_says_a_party_needs(rules):
    """One answer to "what does a party need": the engine's, for every row of the table."""
    for row in win_rows(rules):
        for party in ("re", "kontra"):
            assert row.needs[party] == needs(party, row.re_level, row.kontra_level, rules.tricks)


@pytest.mark.parametrize("deck", [48, 40])
@pytest.mark.parametrize("re_level", [1, 2, 3])
def test_against_a_lower_announcement_kontra_needs_every_trick_for_its_schwarz(re_level, deck):
    """Re announced no 90/60/30, Kontra schwarz: Kontra wins only by taking every trick (a
    Re without a trick has no card points, so Re misses its own announcement too). The
    reference once worked this out by itself and showed "–" here."""
    rules = RuleSet.named("ddv").with_options(deck=deck)
    assert needs("kontra", re_level, SCHWARZ, rules.tricks).tricks == "all"
    assert scoring.who_wins(0, 0, rules.tricks, re_level, SCHWARZ) == "kontra"
    assert all(scoring.who_wins(p, 1, rules.tricks, re_level, SCHWARZ) != "kontra" for p in range(DECK_POINTS + 1))


def test_scoring_lines_follow_the_rule_set(client):
    ddv = {line.id: line for line in reference_for(RuleSet.named("ddv"))["lines"]}
    pagat = {line.id: line for line in reference_for(RuleSet.named("pagat"))["lines"]}
    assert ddv["re_announced"].points == 2 and ddv["won"].points == 1
    assert "reached_120_against_no_90" in ddv and "reached_120_against_no_90" not in pagat
    assert "failed_announcement" in pagat and pagat["failed_announcement"].points == 2
    assert "karlchen_caught" in pagat and "karlchen_caught" not in ddv
    assert not ddv["fox"].in_solo and ddv["won"].in_solo
    html = part(client, RuleSet.named("ddv"), "scoring")
    assert "“Re” announced" in html


def test_worked_examples_are_scored_by_the_engine(client):
    examples = reference_for(RuleSet.named("ddv"))["examples"]
    assert len(examples) == 6
    html = part(client, RuleSet.named("ddv"), "scoring")
    assert html.count('<article class="example">') == 6
    assert "Soloist +15, each opponent −5." in html
    assert "Each Re player +2, each Kontra player −2." in html


def test_the_reference_is_translated(client):
    html = page(client, RuleSet.named("ddv"), "trumps", "de")
    assert "Trümpfe" in html and "Kreuz-Dame" in html


def test_parties_and_reservations_follow_the_rules(client):
    page(client, RuleSet.named("ddv"), "parties", "de")  # the page is kept per rules and language
    ddv = part(client, RuleSet.named("ddv"), "parties")
    assert "Compulsory solo (Pflichtsolo)" in ddv
    assert "the same dealer deals again" in ddv
    assert "Poverty:" not in ddv  # not played under the DDV rules without the option
    pagat = part(client, RuleSet.named("pagat"), "parties")
    assert "Pflichtsolo" not in pagat
    assert "Poverty: a player with 3 trumps or fewer passes 3 cards" in pagat
    assert "the soloist leads" not in pagat  # pagat: the dealer's left neighbour always leads
