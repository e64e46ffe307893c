"""The rules reference as pages: a short contents page at /<lang>/rules/, a page per section at
/<lang>/rules/<section>, each rendered once; every link of the app to the reference lands on a
page that exists and on an element that has the fragment's id."""
from __future__ import annotations

import re
from urllib.parse import urlsplit

import flask
import pytest

from tests.web.test_quiz import form_for, post_answer, question_of
from tutor import learn
from tutor.quiz import KINDS
from tutor.rules.rulesets import RuleSet
from tutor.web.base import i18n
from tutor.web.base.rules import COOKIE, to_cookie
from tutor.web.reference import sections, views
from tutor.web.reference.views import ENTRIES

# A link to the reference (not the language menu's: the same page in another language).
LINK = re.compile(r'href="(/[a-z]{2}/rules/[^"]*)"(?! hreflang)')


def get(client, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200, path
    return response.get_data(as_text=True)


def ids(html: str) -> set[str]:
    return set(re.findall(r'\bid="([^"]+)"', html))


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_each_section_has_its_own_page_in_each_language(client, lang):
    contents = get(client, f"/{lang}/rules/")
    for entry in ENTRIES:
        html = get(client, f"/{lang}/rules/{entry.slug}")
        assert f'<html lang="{lang}"' in html
        heading = re.search(rf'<h1 id="{entry.slug}-h">(.*?)</h1>', html).group(1)
        assert heading and f'<section id="{entry.slug}"' in html
        assert f'<a href="/{lang}/rules/">' in html  # back to the contents
        assert 'class="rules-note"' in html and f"next=/{lang}/rules/{entry.slug}" in html
        assert html.count("<h1") == 1
        assert f'href="/{lang}/rules/{entry.slug}"' in contents


def test_the_pages_follow_one_another_in_the_contents_order(client):
    order = [entry.slug for entry in ENTRIES]
    assert tuple(order) == sections.PAGES
    for number, slug in enumerate(order):
        html = get(client, f"/en/rules/{slug}")
        prev = re.search(r'<a rel="prev" href="/en/rules/([a-z-]+)">', html)
        following = re.search(r'<a rel="next" href="/en/rules/([a-z-]+)">', html)
        assert (prev.group(1) if prev else None) == (order[number - 1] if number else None)
        assert (following.group(1) if following else None) == (order[number + 1] if number + 1 < len(order) else None)


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_the_contents_lists_every_section_with_its_summary_and_keeps_every_old_anchor(client, lang):
    html = get(client, f"/{lang}/rules/")
    entries = re.findall(r'<li id="([a-z-]+)">\s*<a class="ref-contents__link" href="([^"]+)">(.*?)</a>\s*'
                         r'<p class="ref-contents__summary">(.*?)</p>', html, re.S)
    assert [(slug, href) for slug, href, _t, _s in entries] == [(e.slug, f"/{lang}/rules/{e.slug}") for e in ENTRIES]
    assert all(title.strip() and summary.strip() for _slug, _href, title, summary in entries)
    assert len({summary for *_rest, summary in entries}) == len(ENTRIES)
    assert set(sections.ANCHORS) <= ids(html)  # /<lang>/rules/#<anchor> still lands on its entry
    for anchor, on in sections.PARTS.items():
        assert f'<li id="{anchor}"><a href="/{lang}/rules/{on}#{anchor}">' in html
    assert 'src="/static/js/reference.js?v=' in html  # sends such an address on to the section
    assert "<script>" not in html  # nothing inline: the CSP allows none
    # short: no drawn card and a fraction of one section's page
    assert 'class="card ' not in html and len(html) < len(get(client, f"/{lang}/rules/cards"))


@pytest.mark.parametrize("path", ["/en/rules/nowhere", "/fr/rules/Trumps", "/de/rules/trumps/", "/es/rules/cards.html",
                                  "/pt/rules/" + "x" * 300])
def test_an_unknown_section_is_the_translated_not_found_page(client, path):
    response = client.get(path)
    assert response.status_code == 404
    html = response.get_data(as_text=True)
    lang = path.split("/")[1]
    assert f'<html lang="{lang}"' in html and 'id="error-message"' in html
    if lang == "fr":
        assert "Il n’y a pas de page à cette adresse." in html


def test_a_part_of_a_section_sends_on_to_its_place(client):
    for anchor, on in sections.PARTS.items():
        response = client.get(f"/it/rules/{anchor}")
        assert response.status_code == 301
        assert response.headers["Location"] == f"/it/rules/{on}#{anchor}"
        assert f'id="{anchor}"' in get(client, f"/it/rules/{on}")


def test_every_section_is_rendered_once_per_language_and_rules(client, monkeypatch):
    made: list[str] = []
    real = flask.render_template

    def render(template, **context):
        made.append(template)
        return real(template, **context)

    monkeypatch.setattr(views, "render_template", render)
    for _ in range(2):
        for slug in sections.PAGES:
            get(client, f"/en/rules/{slug}")
        get(client, "/en/rules/")
    assert made == ["reference/section.html"] * len(sections.PAGES) + ["reference/contents.html"]
    get(client, "/de/rules/trumps")
    client.set_cookie(COOKIE, to_cookie(RuleSet.named("pagat")))
    pagat = get(client, "/en/rules/trumps")
    assert len(made) == len(sections.PAGES) + 3
    assert "Poverty (Armut)" in pagat


def test_every_section_on_one_page_to_print(client):
    html = get(client, "/en/rules/all")
    for slug in sections.PAGES:
        assert f'<section id="{slug}"' in html and f'<a href="/en/rules/{slug}">' in html
    assert set(sections.ANCHORS) <= ids(html)
    assert 'href="/en/rules/all"' in get(client, "/en/rules/")


def app_pages(app, client, lang: str) -> list[tuple[str, str]]:
    """(address, HTML) of the pages that link to the reference: home, learn, every lesson step,
    the quiz (its index, a question answered of each kind, the offline pack), the calculator,
    the offline page, and the reference's own pages."""
    paths = [f"/{lang}/", f"/{lang}/learn/", f"/{lang}/quiz/", f"/{lang}/quiz/pack", f"/{lang}/score/",
             f"/{lang}/score/?rules=ddv&re_points=156&re_fox=1", f"/{lang}/offline", f"/{lang}/rules/",
             f"/{lang}/rules/all", *(f"/{lang}/rules/{slug}" for slug in sections.PAGES)]
    found = [(path, get(client, path)) for path in paths]
    for item in learn.load_lessons():  # every step of every lesson, as its links lead on
        queue, seen = [f"/{lang}/learn/{item.slug}"], set()
        while queue:
            path = queue.pop()
            seen.add(path)
            html = get(client, path)
            found.append((path, html))
            queue += {step for step in re.findall(rf'href="(/{lang}/learn/{item.slug}/\d+)"', html)} - seen - set(queue)
        assert len(seen) > 1 or len(item.steps) == 1, item.slug
    for kind in KINDS:
        url = f"/{lang}/quiz/{kind}"
        html = get(client, url)
        question, _ = question_of(app, html)
        answered = post_answer(client, url, html, form_for(question))
        assert answered.status_code == 200
        found.append((url + " (answered)", answered.get_data(as_text=True)))
    return found


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_link_of_the_app_to_the_reference_lands_on_what_it_names(app, client, lang):
    targets: dict[str, set[str]] = {}
    links: set[tuple[str, str]] = set()
    for path, html in app_pages(app, client, lang):
        html = re.sub(r'<link rel="alternate"[^>]*>', "", html)  # the page in other languages
        links |= {(path, href.replace("&amp;", "&")) for href in LINK.findall(html)}
    assert len({href for _path, href in links}) >= len(sections.PAGES) + 2
    for path, href in sorted(links):
        address = urlsplit(href)
        assert address.path.startswith(f"/{lang}/rules/"), (path, href)
        if address.path not in targets:
            response = client.get(address.path)
            assert response.status_code == 200, (path, href)  # straight to the page: no redirect
            targets[address.path] = ids(response.get_data(as_text=True))
        if address.fragment:
            assert address.fragment in targets[address.path], (path, href)
    # the quiz's links name the section of its questions, the calculator's the scoring section
    assert any(href == f"/{lang}/rules/scoring" and "/score/" in path for path, href in links)
    assert any(href == f"/{lang}/rules/parties#reservations" for _path, href in links)
    # which card may follow is the following-suit page's rule, who takes a trick the tricks page's
    assert (f"/{lang}/quiz/legal (answered)", f"/{lang}/rules/following-suit") in links
    assert (f"/{lang}/quiz/winner (answered)", f"/{lang}/rules/tricks") in links


def test_no_link_of_the_app_uses_an_old_anchor_of_the_one_page_reference(app, client):
    for path, html in app_pages(app, client, "en"):
        assert not re.search(r'href="/en/rules/#', html), path
        assert not re.search(r'href="#(' + "|".join(sections.ANCHORS) + ')"', html), path
