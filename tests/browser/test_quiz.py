"""The quiz in real Chromium on a phone: tap or tick an answer, see why at once (htmx swap,
and a plain post without JavaScript), by keyboard too; no accessibility violations; the
daily challenge ends with a result to share; offline, the pack answers on the device."""
from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import PHONE, SCREENSHOTS, phone_page
from tests.browser.test_axe import violations
from tests.browser.test_offline import ready
from tutor.quiz import make
from tutor.rules.rulesets import RuleSet
from tutor.web.quiz.pack import _pack_seed
from tutor.web.quiz.progress import daily_plan, today

DDV = RuleSet.named("ddv")


@pytest.fixture
def quiz(browser: Browser, server: str) -> Iterator[Page]:
    """A phone page without a service worker: its background precaching is not what these
    tests look at (the offline test has its own)."""
    with phone_page(browser, server, service_workers="block") as page:
        yield page


def shot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"quiz-{name}.png"), full_page=True)


def answer(page, question, right: bool = True, form=None) -> None:
    """Answer in the page (or in one ``form`` of it) as a player would: tap, tick, choose and type."""
    form = form or page.locator("form.quiz__form")
    values = question.answer if right else wrong(question)
    for field, value in zip(question.fields, values):
        if field.mode == "one" and len(question.fields) == 1:
            form.locator(f"button[name='{field.name}'][value='{value}']").click()
            return
        if field.mode == "one":
            form.locator(f"input[name='{field.name}'][value='{value}']").check()
        elif field.mode == "many":
            for box in form.locator(f"input[name='{field.name}']").all():
                box.set_checked(box.get_attribute("value") in value.split(","))
        else:
            form.locator(f"input[name='{field.name}']").fill(value)
    form.get_by_role("button", name="Check").click()


def wrong(question):
    field = question.fields[0]
    if field.mode == "number":
        return (str(int(question.answer[0]) + 1), *question.answer[1:])
    if field.mode == "many":
        right = set(question.answer[0].split(",")) - {""}
        return (",".join(sorted(right ^ {field.choices[0].value})), *question.answer[1:])
    return (next(c.value for c in field.choices if c.value != question.answer[0]), *question.answer[1:])


@pytest.mark.parametrize("kind", ["winner", "legal", "score", "game", "best_card"])
def test_right_and_wrong_answers_swap_in_the_feedback(quiz, kind):
    page = quiz
    for seed, right in ((101, True), (202, False)):
        question = make(kind, seed, DDV, 1)
        page.goto(f"/en/quiz/{kind}?q={seed}&l=1")
        answer(page, question, right)
        result = page.locator("#quiz-result")
        expect(result).to_contain_text("Right!" if right else "Not quite.")
        expect(result).to_be_focused()  # keyboard and screen readers land on the verdict
        assert page.url.endswith(f"/en/quiz/{kind}?q={seed}&l=1")  # swapped in place, no navigation
        expect(page.locator(".quiz-reasons li").first).to_be_visible()
        if not right:
            shot(page, f"{kind}-wrong")
    page.get_by_role("link", name="Next question").click()
    expect(page.locator("form.quiz__form")).to_be_visible()


def test_the_quiz_works_without_javascript(browser, server):
    context = browser.new_context(viewport=PHONE, base_url=server, java_script_enabled=False, service_workers="block")
    page = context.new_page()
    question = make("points", 7, DDV, 2)
    page.goto("/en/quiz/points?q=7&l=2")
    answer(page, question)
    expect(page.locator("#quiz-result")).to_contain_text("Right!")
    assert page.url.endswith("/en/quiz/points")  # a plain form post
    context.close()


def test_answering_by_keyboard(quiz):
    page = quiz
    question = make("trumps", 11, DDV, 0)
    page.goto("/en/quiz/trumps?q=11&l=0")
    page.locator("form.quiz__form button").first.focus()
    for _ in range(int(question.answer[0]) if question.fields[0].choices[0].card else 0):
        page.keyboard.press("Tab")
    if not question.fields[0].choices[0].card:  # yes / no
        page.locator(f"button[value='{question.answer[0]}']").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#quiz-result")).to_contain_text("Right!")


def test_every_card_to_tap_has_a_name(quiz):
    page = quiz
    page.goto("/en/quiz/legal?q=5&l=0")
    for box in page.locator("label.quiz-tick").all():
        assert box.locator("[role=img]").get_attribute("aria-label")
    page.goto("/en/quiz/winner?q=5&l=0")
    for button in page.locator("button.quiz-pick").all():
        name = button.evaluate("(b) => b.innerText + ' ' + b.querySelector('[role=img]').getAttribute('aria-label')")
        assert " of " in name


def test_no_accessibility_violations_on_quiz_pages(quiz, axe_source):
    page = quiz
    for path in ("quiz/", "quiz/winner?q=3&l=0", "quiz/announce?q=3&l=1", "quiz/score?q=3&l=2", "quiz/daily"):
        page.goto(f"/en/{path}")
        assert violations(page, axe_source) == [], path
    question = make("legal", 9, DDV, 0)
    page.goto("/en/quiz/legal?q=9&l=0")
    answer(page, question, right=False)
    expect(page.locator("#quiz-result")).to_be_visible()
    assert violations(page, axe_source) == [], "feedback"


def test_no_accessibility_violations_in_dark_mode(browser, server, axe_source):
    context = browser.new_context(viewport=PHONE, base_url=server, color_scheme="dark", service_workers="block")
    page = context.new_page()
    question = make("party", 4, DDV, 1)
    page.goto("/en/quiz/party?q=4&l=1")
    answer(page, question, right=False)
    expect(page.locator("#quiz-result")).to_be_visible()
    assert violations(page, axe_source) == []
    shot(page, "dark-party-wrong")
    context.close()


def test_a_best_card_position_reads_on_a_phone_and_the_pack_checks_it(quiz, axe_source):
    """The tricks so far open in a compact table, nothing is wider than the phone, no
    accessibility violations before or after an answer; the pack's copy is checked by quiz.js."""
    page = quiz
    seed = next(s for s in range(100) if len(make("best_card", s, DDV, 1).facts["earlier"]) >= 6)
    question = make("best_card", seed, DDV, 1)
    page.goto(f"/en/quiz/best_card?q={seed}&l=1")
    page.get_by_text("tricks so far").click()
    expect(page.locator(".quiz-tricks__table tbody tr")).to_have_count(len(question.facts["earlier"]))
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert violations(page, axe_source) == [], "question"
    shot(page, "best-card")
    answer(page, question, right=False)
    expect(page.locator("#quiz-result")).to_contain_text("Not quite.")
    expect(page.locator(".quiz-reasons--misses li").first).to_contain_text("you picked")
    assert violations(page, axe_source) == [], "feedback"
    shot(page, "best-card-wrong")
    page.goto("/en/quiz/pack")
    article = page.locator("#pack-best_card .pack-q").first
    pack_question = make("best_card", _pack_seed("best_card", 0), DDV, 0)  # the pack's first, at level 0
    answer(page, pack_question, form=article.locator("form"))
    expect(article.locator("[data-verdict='right']")).to_be_visible()
    expect(article.locator("details.pack-answer")).to_have_attribute("open", "")
    for tricks in article.locator("details.quiz-tricks").all():  # the question's own stays as it was
        expect(tricks).not_to_have_attribute("open", "")


def test_the_daily_challenge_ends_with_a_result_to_share(quiz):
    page = quiz
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto("/en/quiz/daily")
    for i, (kind, seed, level) in enumerate(daily_plan(today())):
        expect(page.locator(".quiz__meta")).to_contain_text(f"Question {i + 1} of 10")
        answer(page, make(kind, seed, DDV, level), right=i != 3)
        expect(page.locator("#quiz-result")).to_be_visible()
        if i < 9:
            page.get_by_role("link", name="Next question").click()
    expect(page.locator(".quiz-share__score")).to_have_text("9 of 10 right today.")
    assert "🟩🟩🟩🟥" in page.locator("#share-text").input_value()
    shot(page, "daily-done")
    page.get_by_role("button", name="Share").click()
    expect(page.locator("[data-share-done]")).to_be_visible()


@pytest.mark.service_worker
def test_offline_the_pack_asks_and_checks_on_the_device(page, context):
    page.goto("/en/quiz/")
    ready(page)
    page.get_by_role("link", name="Open the quiz pack").click()
    expect(page.locator("h1")).to_have_text("Quiz pack")
    context.set_offline(True)
    page.goto("/en/quiz/daily")  # never visited: the pack stands in
    expect(page.locator("h1")).to_have_text("Quiz pack")
    day = page.locator(".pack-day:not([hidden])")
    expect(day).to_have_count(1)
    kind, seed, level = daily_plan(today())[0]
    question = make(kind, seed, DDV, level)
    first = day.locator(".pack-q").first
    answer(page, question, form=first)
    expect(first.locator("[data-verdict='right']")).to_be_visible()
    expect(first.locator("details.pack-answer")).to_have_attribute("open", "")
    shot(page, "pack-offline")
    context.set_offline(False)


def _box(locator) -> tuple[float, float, float, float]:
    box = locator.bounding_box()
    return (round(box["x"]), round(box["y"]), round(box["width"]), round(box["height"]))


@pytest.mark.parametrize(("kind", "seed", "level"), [("winner", 21, 0), ("trumps", 11, 0), ("party", 4, 1)])
def test_the_tiles_keep_their_size_and_place_after_an_answer(quiz, kind, seed, level):
    """No layout jump: every tile to tap is where it was, as large as it was, once marked."""
    page = quiz
    question = make(kind, seed, DDV, level)
    page.goto(f"/en/quiz/{kind}?q={seed}&l={level}")
    before = [_box(b) for b in page.locator("form.quiz__form .quiz-pick").all()]
    answer(page, question, right=False)
    expect(page.locator("#quiz-result")).to_be_focused()
    page.evaluate("window.scrollTo(0, 0)")
    after = [_box(m) for m in page.locator(".quiz-marks .quiz-mark").all()]
    assert before and after == before
    shot(page, f"{kind}-marked")


def test_the_wrong_verdict_wears_a_focus_ring_of_its_own_colour(quiz):
    page = quiz
    question = make("winner", 21, DDV, 0)
    page.goto("/en/quiz/winner?q=21&l=0")
    answer(page, question, right=False)
    verdict = page.locator("#quiz-result")
    expect(verdict).to_be_focused()
    ring, edge = verdict.evaluate("(v) => [getComputedStyle(v).outlineColor, getComputedStyle(v).borderLeftColor]")
    assert ring == edge
    expect(verdict).to_have_attribute("role", "status")  # announced to screen readers
    expect(page.locator(".quiz-reasons--misses li").first).to_contain_text("you picked")


def test_next_question_takes_focus_to_the_new_question(quiz):
    page = quiz
    question = make("legal", 9, DDV, 0)
    page.goto("/en/quiz/legal?q=9&l=0")
    answer(page, question, right=False)
    expect(page.locator(".quiz-reasons--misses li").first).to_be_visible()
    shot(page, "legal-why-not")
    page.get_by_role("link", name="Next question").click()
    expect(page.locator("form.quiz__form")).to_be_visible()
    expect(page.locator("#quiz-prompt")).to_be_focused()
    page.keyboard.press("Tab")  # the next stop is in the new question, not the page's top
    inside = page.evaluate("() => document.getElementById('quiz').contains(document.activeElement)")
    assert inside


@pytest.mark.parametrize(("kind", "seed"), [("legal", 9), ("legal", 4), ("winner", 21)])
def test_the_marks_under_cards_never_run_into_each_other(quiz, kind, seed):
    """"✗ your answer" and "you missed it" stand under their own card, whole: no tag wider
    than its tile, none over another, none cut off."""
    page = quiz
    question = make(kind, seed, DDV, 0)
    page.goto(f"/en/quiz/{kind}?q={seed}&l=0")
    answer(page, question, right=False)
    expect(page.locator("#quiz-result")).to_be_focused()
    boxes = []
    for mark in page.locator(".quiz__marked.quiz-marks--cards .quiz-mark").all():
        tile = mark.bounding_box()
        for tag in mark.locator(".quiz-mark__tag").all():
            box = tag.bounding_box()
            inside = tile["x"] - 3 <= box["x"] and box["x"] + box["width"] <= tile["x"] + tile["width"] + 3
            assert inside, tag.inner_text()
            assert tag.evaluate("(t) => t.scrollWidth <= t.clientWidth + 1"), tag.inner_text()
            boxes.append(box)
    assert boxes
    for i, a in enumerate(boxes):
        for b in boxes[:i]:
            apart = (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                     or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])
            assert apart, (a, b)
