"""Lessons offline, in Chromium at phone size: one online visit of Learn keeps every lesson of
its language (and only that language); with the network cut, a step never opened opens, and
its check answered is judged on the phone (one choice, many, a number), with the server's own
words; the fresh cards of "try again" and a check whose answer cannot reach the server say
what they need; once the connection is back, the answers given offline are sent and count;
after a change of the rules the lessons kept follow the new ones.
axe on each new state; screenshots of an offline check go to SCREENSHOTS."""
from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import SCREENSHOTS, phone_page
from tests.browser.test_axe import violations
from tests.browser.test_learn import answer
from tests.browser.test_offline import ready
from tests.web.test_learn import _right, _wrong
from tutor import learn as L
from tutor.quiz import Question
from tutor.rules.rulesets import RuleSet

pytestmark = pytest.mark.service_worker

DDV = RuleSet.named("ddv")
SCREEN = {"width": 360, "height": 740}
KEPT = "All lessons are saved on this device."
OFFLINE_RIGHT = "Checked on this phone: you are offline. It counts for the lesson once you are back online."
OFFLINE_WRONG = "Checked on this phone: you are offline. New cards to try again need a connection."


@pytest.fixture
def lie_fi(browser: Browser, server: str) -> Iterator[Page]:
    """A phone page whose answers may fail to reach the server on purpose (htmx says so in
    the console)."""
    with phone_page(browser, server, allow=("net::ERR_FAILED", "htmx:sendError", "htmx:afterRequest")) as page:
        yield page


def check_of(slug: str, shape: tuple[str, ...], after: int = 0) -> tuple[int, Question]:
    """The first step of a lesson (after step ``after``) whose check has fields of these modes."""
    item = L.lesson(slug)
    for n, step in enumerate(item.steps_for(DDV), 1):
        question = L.build_check(item, step, DDV)
        if n <= after:
            continue
        if question is not None and tuple(f.mode for f in question.fields) == shape and question.kind != "recall":
            return n, question
    raise AssertionError((slug, shape))


def until(page: Page, script: str, seconds: float = 60) -> None:
    """Wait until a function of the page is true (polled from here: the page's CSP allows no
    eval, which Playwright's own polling needs)."""
    deadline = time.monotonic() + seconds
    while not page.evaluate(script):
        assert time.monotonic() < deadline, script
        page.wait_for_timeout(100)


def shoot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#lesson-check").scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENSHOTS / name))


def test_one_visit_of_learn_keeps_the_lessons_and_checks_are_judged_offline(lie_fi, axe_source):
    page, context = lie_fi, lie_fi.context
    page.set_viewport_size(SCREEN)
    page.goto("/en/learn/")
    ready(page)
    expect(page.locator("[data-keep-status]")).to_have_text(KEPT, timeout=60_000)
    assert violations(page, axe_source) == []
    context.set_offline(True)

    # One choice, never opened online: judged here, the learner's card marked, why not it.
    n, question = check_of("trumps", ("one",))
    page.goto(f"/en/learn/trumps/{n}")
    expect(page.locator("h1")).to_have_text(L.lesson("trumps").text("en").title)
    expect(page.locator("[data-seen-url]")).to_have_count(1)
    answer(page, question, _wrong(question))
    verdict = page.locator("#lesson-check .quiz-verdict")
    expect(verdict).to_have_count(1)
    expect(verdict.locator(".quiz-verdict__title")).to_have_text("Not quite.")
    expect(verdict).to_contain_text(OFFLINE_WRONG)
    expect(page.locator("#quiz-result")).to_be_focused()
    expect(page.locator("#lesson-check form")).to_have_count(0)
    marks = page.locator("#lesson-check .quiz__marked .quiz-mark")
    expect(marks).to_have_count(len(question.fields[0].choices))
    expect(page.locator("#lesson-check .quiz-mark--wrong")).to_contain_text("✗ your answer")
    expect(page.locator("#lesson-check .quiz-mark--right")).to_contain_text("✓ right")
    expect(page.locator("#lesson-check .quiz-reasons--misses li")).to_have_count(1)
    expect(page.locator("#lesson-check h3.quiz__why").last).to_have_text("Why")
    assert violations(page, axe_source) == []
    shoot(page, "learn-offline-en-one-wrong.png")

    # Many choices: the right set is right, and counts once there is a connection again.
    n, question = check_of("following-suit", ("many",))
    page.goto(f"/en/learn/following-suit/{n}")
    answer(page, question, _right(question))
    expect(page.locator("#lesson-check .quiz-verdict__title")).to_have_text("Right!")
    expect(page.locator("#lesson-check .quiz-verdict")).to_contain_text(OFFLINE_RIGHT)
    expect(page.locator("#lesson-check .quiz-mark--right")).to_have_count(len(question.answer[0].split(",")))
    assert violations(page, axe_source) == []
    shoot(page, "learn-offline-en-many-right.png")

    # A choice and a number: the number typed is shown beside the right one.
    n, question = check_of("scoring", ("one", "number"))
    page.goto(f"/de/learn/scoring/{n}")  # German was never visited: not kept, the offline page kept
    expect(page.locator("h1")).to_have_text("You are offline")
    page.goto(f"/en/learn/scoring/{n}")
    wrong = _wrong(question)
    wrong["result"] = [str(int(question.answer[1]) + 1)]
    answer(page, question, wrong)
    expect(page.locator("#lesson-check .quiz-verdict__title")).to_have_text("Not quite.")
    number = page.locator("#lesson-check .quiz-marks--number")
    expect(number).to_contain_text("right answer:")
    expect(number).to_contain_text(f"your answer: {wrong['result'][0]}")
    assert violations(page, axe_source) == []
    shoot(page, "learn-offline-en-number-wrong.png")

    # New cards come from the server: the offline page says so and leads back to the step.
    page.goto(f"/en/learn/trumps/{check_of('trumps', ('one',))[0]}?v=5")
    again = page.locator("[data-offline-again]")
    expect(again).to_be_visible()
    expect(page.locator("[data-offline-general]")).to_be_hidden()
    assert violations(page, axe_source) == []
    again.locator("a").click()
    expect(page.locator("#lesson-check form")).to_have_count(1)
    context.set_offline(False)

    # Online, but the answer cannot reach the server: judged here all the same. (Another check
    # than the one missed above: a position missed does not count when answered right again.)
    page.route("**/en/learn/**", lambda route: route.abort() if route.request.method == "POST" else route.fallback())
    n, question = check_of("trumps", ("one",), after=check_of("trumps", ("one",))[0])
    page.goto(f"/en/learn/trumps/{n}")
    answer(page, question, _right(question))
    expect(page.locator("#lesson-check .quiz-verdict__title")).to_have_text("Right!")
    page.unroute("**/en/learn/**")

    # Back online: the answers given offline go to the server, and the right ones count.
    page.goto("/en/")
    until(page, "() => !localStorage.getItem('doko-lesson-answers')")
    page.goto("/en/learn/")
    for slug in ("trumps", "following-suit"):
        expect(page.locator(f".lesson-path__item:has(a[href='/en/learn/{slug}']) .lesson-path__state")) \
            .to_contain_text("Started: 1 of")


def test_offline_the_lessons_kept_follow_the_rules_are_listed_and_the_quiz_pack_says_missed_needs_a_connection(
        page, context):
    page.goto("/en/offline")
    ready(page)
    page.goto("/en/learn/cards/2")
    expect(page.locator("[data-seen-url]")).to_have_count(1)
    until(page, "() => caches.match('/en/learn/pack').then((r) => !!r)")
    page.goto("/en/quiz/pack")
    expect(page.locator("[data-pack-missed]")).to_be_hidden()
    # Other rules, other steps: the lessons kept are fetched again under the new ones.
    page.goto("/en/settings")
    page.check("input[type=radio][name=ruleset][value=pagat]")
    page.click("text=Use this rule set")
    expect(page.locator(".notice")).to_be_visible()
    until(page, """() => caches.match('/en/learn/tournament/2', {ignoreVary: true})
                   .then((r) => r.text()).then((html) => html.includes('data-rules="pagat"'))""")
    context.set_offline(True)
    page.goto("/en/learn/tournament/2")  # never opened, kept all the same, under the rules chosen
    expect(page.locator("h1")).to_have_text(L.lesson("tournament").text("en").title)
    expect(page.locator("main")).to_have_attribute("data-rules", "pagat")
    page.goto("/en/offline")
    expect(page.locator("[data-lesson-url]:visible")).to_have_count(len(L.load_lessons()))
    expect(page.locator("[data-saved-none]")).to_be_hidden()
    page.goto("/en/quiz/daily?missed=0")
    expect(page.locator("[data-pack-missed]")).to_be_visible()
    context.set_offline(False)


def first_of_each_kind() -> list[tuple[str, int, Question]]:
    """The first check of every kind and shape of answer the lessons ask (English, DDV)."""
    found: dict[tuple[str, tuple[str, ...]], tuple[str, int, Question]] = {}
    for item in L.path():
        for n, step in enumerate(item.steps_for(DDV), 1):
            question = L.build_check(item, step, DDV)
            if question is not None:
                found.setdefault((question.kind, tuple(f.mode for f in question.fields)), (item.slug, n, question))
    return list(found.values())


def test_offline_every_kind_of_check_is_judged_as_the_server_judges_it(page, context):
    """The phone compares answers as the server does, for every kind of check and shape of
    answer: the engine's answer is right, another is wrong."""
    page.goto("/en/learn/")
    ready(page)
    expect(page.locator("[data-keep-status]")).to_have_text(KEPT, timeout=60_000)
    context.set_offline(True)
    checks = first_of_each_kind()
    assert len(checks) >= 15
    for slug, n, question in checks:
        for given, verdict in ((_right(question), "Right!"), (_wrong(question), "Not quite.")):
            page.goto(f"/en/learn/{slug}/{n}")
            answer(page, question, given)
            expect(page.locator("#lesson-check .quiz-verdict__title")).to_have_text(verdict)
            # Every right choice marked (none for "no extra point at all"), and each right number.
            right = sum(len([v for v in value.split(",") if v]) if field.mode == "many" else 1
                        for field, value in zip(question.fields, question.answer, strict=True))
            expect(page.locator("#lesson-check .quiz-mark--right")).to_have_count(right)
    context.set_offline(False)
