"""The lessons in a real Chromium: two lessons walked end to end in English and German,
with JavaScript (answers swapped in by htmx) and without (plain form posts), checks answered
wrong and then right; axe on a step and on its feedback; offline lessons; phone screenshots."""
from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import PHONE, SCREENSHOTS
from tests.browser.test_axe import violations
from tests.web.test_learn import _right, _wrong
from tutor import learn as L
from tutor.quiz import KINDS, Question
from tutor.rules.rulesets import RuleSet

DDV = RuleSet.named("ddv")
WALKS = ("following-suit", "extra-points")
VERDICT = {"en": ("Right!", "Not quite."), "de": ("Richtig!", "Leider falsch.")}
WHY_NOT = {"en": "Why not your answer", "de": "Warum deine Antwort nicht stimmt"}


@pytest.fixture
def no_js_page(browser: Browser, server: str) -> Iterator[Page]:
    context = browser.new_context(viewport=PHONE, base_url=server, java_script_enabled=False,
                                  service_workers="block")
    yield context.new_page()
    context.close()


def answer(page: Page, question: Question, form: dict[str, list[str]]) -> None:
    """Give an answer the way a learner does: tap a button, or tick and type, then Check."""
    check = page.locator("#lesson-check form")
    if len(question.fields) == 1 and question.fields[0].mode == "one":
        name = question.fields[0].name
        check.locator(f"button[name='{name}'][value='{form[name][0]}']").click()
        return
    for field in question.fields:
        values = form.get(field.name, [])
        if field.mode == "many":
            for choice in field.choices:
                box = check.locator(f"input[name='{field.name}'][value='{choice.value}']")
                box.set_checked(choice.value in values)
        elif field.mode == "one":
            check.locator(f"input[name='{field.name}'][value='{values[0]}']").check()
        else:
            check.locator(f"input[name='{field.name}']").fill(values[0])
    check.locator("button[type=submit]").last.click()


def walk(page: Page, lang: str, slug: str, js: bool) -> int:
    """Every step of a lesson: each check answered wrong, tried again, answered right."""
    item = L.lesson(slug)
    steps = item.steps_for(DDV)
    right_text, wrong_text = VERDICT[lang]
    page.goto(f"/{lang}/learn/{slug}/1")
    checks = 0
    for n, step in enumerate(steps, 1):
        expect(page).to_have_url(re.compile(f"/{lang}/learn/{slug}/{n}$"))
        expect(page.locator("h1")).to_have_text(item.text(lang).title)
        question = L.build_check(item, step, DDV)
        if question is not None:
            checks += 1
            expect(page.locator(".quiz-verdict")).to_have_count(0)
            if js:
                page.evaluate("window.__stayed = true")
            answer(page, question, _wrong(question))
            expect(page.locator(".quiz-verdict__title")).to_have_text(wrong_text)
            expect(page.locator(".quiz-reasons li").first).to_be_visible()
            why_not = page.locator("#lesson-check .quiz-reasons--misses li")
            if question.kind in KINDS:  # the rule against the learner's own choice, as the quiz gives it
                expect(why_not.first).to_be_visible()
                expect(page.locator("#lesson-check h3.quiz__why").first).to_have_text(WHY_NOT[lang])
            else:  # the kinds only lessons ask: their reasons alone
                expect(why_not).to_have_count(0)
            if js:
                assert page.evaluate("window.__stayed === true"), "the answer was not swapped in place"
            page.locator(".lesson-check__again").click()
            # The retry asks about new cards: the right answer is the fresh position's.
            page.wait_for_url(re.compile(r"[?&]v=\d+"))
            seeds = dict(re.findall(r"[?&](v|a)=(\d+)", page.url))
            fresh = L.build_check(item, step, DDV, int(seeds["v"]), int(seeds["a"]) if "a" in seeds else None)
            assert (fresh.facts, fresh.params) != (question.facts, question.params)
            # A recall asked again is another question of its own prose: no "new cards" note.
            expect(page.locator(".lesson-check__fresh")).to_have_count(0 if fresh.kind == "recall" else 1)
            answer(page, fresh, _right(fresh))
            expect(page.locator(".quiz-verdict__title")).to_have_text(right_text)
        if n < len(steps):
            page.locator(".lesson__steps a[rel=next]").click()
    return checks


@pytest.mark.parametrize("lang", ["en", "de"])
def test_two_lessons_end_to_end_with_javascript(page, lang):
    for slug in WALKS:
        assert walk(page, lang, slug, js=True) >= 3
    page.goto(f"/{lang}/learn/")
    expect(page.locator(".lesson-path__item--done")).to_have_count(2)


def test_a_step_shown_in_the_browser_is_where_the_path_continues(page):
    """The step page writes nothing itself; learn.js tells the server it was seen."""
    slug = WALKS[0]
    page.goto(f"/en/learn/{slug}/2")
    expect(page.locator("[data-seen-sent]")).to_have_count(1)
    page.wait_for_timeout(300)  # the beacon goes out on its own
    page.goto("/en/learn/")
    expect(page.locator(f'a[href="/en/learn/{slug}/2"]', has_text="Continue")).to_have_count(1)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_two_lessons_end_to_end_without_javascript(no_js_page, lang):
    for slug in WALKS:
        assert walk(no_js_page, lang, slug, js=False) >= 3
    no_js_page.goto(f"/{lang}/learn/")
    expect(no_js_page.locator(".lesson-path__item--done")).to_have_count(2)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_axe_finds_nothing_on_steps_their_feedback_the_path_and_the_glossary(page, axe_source, lang):
    for path in ("learn/", "learn/words", "learn/cards/1", "learn/following-suit/2", "learn/extra-points/3",
                 "learn/tournament/2", "learn/history/1"):
        page.goto(f"/{lang}/{path}")
        assert violations(page, axe_source) == [], path
    item = L.lesson("extra-points")
    n, step = next((i, s) for i, s in enumerate(item.steps_for(DDV), 1) if s.check)
    page.goto(f"/{lang}/learn/extra-points/{n}")
    question = L.build_check(item, step, DDV)
    answer(page, question, _wrong(question))
    expect(page.locator(".quiz-verdict")).to_be_visible()
    assert violations(page, axe_source) == []


# The first step of every lesson, and the steps that show something of their own: a trick to
# read parties off, a deal scored line by line, a sheet, a decision, a checkpoint.
SHOWN = (("whole-deal", 2), ("whole-deal", 4), ("re-and-kontra", 7), ("score-sheet", 3), ("tips", 1), ("tips", 3),
         ("tips", 5), ("reservations", 3), ("tournament", 6), ("checkpoint-1", 1), ("checkpoint-2", 5))


def fits_the_phone(page, path: str) -> None:
    """The page came (200) and nothing on it is wider than the phone."""
    response = page.goto(path)
    assert response is not None and response.status == 200, path
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"], path


@pytest.mark.parametrize("lang", ["en", "de"])
def test_phone_screenshots_of_steps(page, lang):
    # Screenshots to look at (SCREENSHOTS), and what they would show wrong held by asserts:
    # every page answers 200 and fits the phone's width.
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    fits_the_phone(page, f"/{lang}/learn/")
    page.screenshot(path=str(SCREENSHOTS / f"learn-{lang}-path.png"))
    for item in L.load_lessons():
        fits_the_phone(page, f"/{lang}/learn/{item.slug}/1")
        expect(page.locator("h1")).to_have_text(item.text(lang).title)
        page.screenshot(path=str(SCREENSHOTS / f"learn-{lang}-{item.number:02d}-1.png"))
    for slug, n in SHOWN:
        fits_the_phone(page, f"/{lang}/learn/{slug}/{n}")
        page.screenshot(path=str(SCREENSHOTS / f"learn-{lang}-{slug}-{n}.png"), full_page=True)
    fits_the_phone(page, f"/{lang}/learn/words")
    page.screenshot(path=str(SCREENSHOTS / f"learn-{lang}-words.png"))


@pytest.mark.parametrize("lang", ["en", "de"])
def test_phone_screenshots_of_feedback(page, lang):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for slug in ("following-suit", "extra-points", "tournament", "tips", "scoring"):
        item = L.lesson(slug)
        n, step = next((i, s) for i, s in enumerate(item.steps_for(DDV), 1) if s.check)
        fits_the_phone(page, f"/{lang}/learn/{slug}/{n}")
        question = L.build_check(item, step, DDV)
        answer(page, question, _wrong(question))
        expect(page.locator(".quiz-verdict")).to_be_visible()
        expect(page.locator(".quiz-reasons li").first).to_be_visible()  # the wrong answer is explained
        assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"], slug
        page.locator("#quiz-result").scroll_into_view_if_needed()
        page.screenshot(path=str(SCREENSHOTS / f"learn-{lang}-{slug}-feedback.png"))


@pytest.mark.parametrize("lang", ["en", "it"])
def test_phone_screenshot_of_a_wrong_answer_s_why_not(page, axe_source, lang):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    item = L.lesson("following-suit")
    n, step = next((i, s) for i, s in enumerate(item.steps_for(DDV), 1) if s.check and s.check["kind"] == "legal")
    page.goto(f"/{lang}/learn/{item.slug}/{n}")
    question = L.build_check(item, step, DDV)
    answer(page, question, _wrong(question))
    misses = page.locator("#lesson-check .quiz-reasons--misses")
    expect(misses).to_be_visible()
    misses.scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENSHOTS / f"learn-{lang}-why-not.png"))
    page.screenshot(path=str(SCREENSHOTS / f"learn-{lang}-why-not-full.png"), full_page=True)
    assert violations(page, axe_source) == []


def test_an_answer_given_while_the_visit_is_told_waits_for_it_and_counts(page):
    """learn.js tells the server that a step was seen; that answer writes the whole progress
    cookie as it was sent. An answer sent before it came back would be undone by it, so the
    answer waits: here the visit is held back until the test lets it go."""
    item = L.lesson(WALKS[0])
    n, step = next((n, s) for n, s in enumerate(item.steps_for(DDV), 1) if L.build_check(item, s, DDV))
    question = L.build_check(item, step, DDV)
    held = []
    page.route("**/seen", lambda route: held.append(route))
    answers = []
    page.on("request", lambda request: answers.append(request.url) if request.method == "POST"
            and not request.url.endswith("/seen") else None)
    page.goto(f"/en/learn/{WALKS[0]}/{n}")
    expect(page.locator("[data-seen-sent]")).to_have_count(1)
    answer(page, question, _right(question))
    page.wait_for_timeout(400)
    assert held and answers == []  # the answer waits for the visit
    held[0].continue_()
    expect(page.locator(".quiz-verdict__title")).to_have_text("Right!")
    page.wait_for_timeout(300)
    page.goto("/en/learn/")  # what the cookie says now: the check answered right, and the step seen
    expect(page.get_by_text(re.compile(r"Started: 1 of \d+ checks? right"))).to_have_count(1)
    expect(page.locator(f'a[href="/en/learn/{WALKS[0]}/{n}"]', has_text="Continue")).to_have_count(1)
