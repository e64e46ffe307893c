"""Lessons that stick: after a miss the learner tries again on new cards (seeded, never the
position just asked), a lesson is done once each of its checks was answered right, the
checkpoints mix earlier checks, a wrong answer that ticks several cards gets one sentence
per misconception, a missed score names the forgotten line, and every old step URL still
shows its step (or redirects to where it moved)."""
from __future__ import annotations

import re
import tomllib
from html import unescape
from pathlib import Path

import pytest

from tests.web.test_learn import _right, _wrong, text_of, use
from tutor import learn as L
from tutor.rules.rulesets import OPTION_CHOICES, RuleSet
from tutor.web.base.rules import COOKIE as RULES_COOKIE
from tutor.web.base.rules import to_cookie
from tutor.web.learn import progress as learn_progress

DDV = RuleSet.named("ddv")
OLD_STEPS = tomllib.loads((Path(__file__).parent.parent / "lessons_fixture" / "old_steps.toml").read_text("utf-8"))
AGAIN = re.compile(r'class="button lesson-check__again" href="([^"]+)"')
MISSES = re.compile(r'<ul class="quiz-reasons quiz-reasons--misses">(.*?)</ul>', re.S)


def state_of(html: str, slug: str) -> str:
    """A lesson's state on the path page: new, started or done."""
    found = re.search(r'<li class="lesson-path__item lesson-path__item--(\w+)[^"]*">\s*<a class="lesson-path__link" '
                      rf'href="/en/learn/{slug}"', html)
    assert found, slug
    return found.group(1)


def number_of(item: L.Lesson, step_id: str, rules: RuleSet = DDV) -> int:
    return [s.id for s in item.steps_for(rules)].index(step_id) + 1


def seeds(url: str) -> dict[str, int]:
    return {k: int(v) for k, v in re.findall(r"[?&](v|a)=(\d+)", unescape(url))}


def test_a_miss_offers_new_cards_and_each_retry_is_a_new_position(client):
    item = L.lesson("following-suit")
    step = item.step("void")
    n = number_of(item, "void")
    url = f"/en/learn/{item.slug}/{n}"
    own = L.build_check(item, step, DDV)
    html = client.post(url, data={"step": step.id, **_wrong(own)}).get_data(as_text=True)
    asked = [own]
    for _ in range(3):
        again = unescape(AGAIN.search(html).group(1))
        page = client.get(again).get_data(as_text=True)
        assert "New cards, the same kind of question" in page
        given = seeds(again)
        fresh = L.build_check(item, step, DDV, given["v"], given.get("a"))
        assert (fresh.facts, fresh.params) != (asked[-1].facts, asked[-1].params)  # never the one just asked
        assert fresh.kind == own.kind and fresh.reasons[0].code == own.reasons[0].code  # the same rule decides
        for card in fresh.facts["hand"]:
            assert f'name="cards" value="{card}"' in page  # the page asks about these very cards
        data = {"step": step.id, **_wrong(fresh), "v": str(given["v"])}
        if "a" in given:
            data["a"] = str(given["a"])
        html = client.post(url, data=data).get_data(as_text=True)
        assert "quiz-verdict--wrong" in html
        asked.append(fresh)
    assert len({str(q.facts) for q in asked}) == len(asked)


def test_a_fresh_position_answered_right_counts_for_its_step(client):
    item = L.lesson("trumps")
    step = item.step("order")
    n = number_of(item, "order")
    fresh = L.build_check(item, step, DDV, seed=77)
    right = client.post(f"/en/learn/{item.slug}/{n}", data={"step": step.id, **_right(fresh), "v": "77"})
    assert "quiz-verdict--right" in right.get_data(as_text=True)
    assert "1 of 7 checks of this lesson answered right." in right.get_data(as_text=True)
    # The same answer to the step's own position is wrong: the page checked the fresh cards.
    own = L.build_check(item, step, DDV)
    assert own.answer != fresh.answer or own.facts != fresh.facts


@pytest.mark.parametrize("query", ["v=abc", "v=0", "v=99999999999", "a=5", "v=5&a=x"])
def test_bad_seeds_are_a_400_with_a_message(client, query):
    response = client.get(f"/en/learn/trumps/2?{query}")
    assert response.status_code == 400 and 'role="alert"' in response.get_data(as_text=True)
    item = L.lesson("trumps")
    post = client.post("/en/learn/trumps/2", data={"step": item.step("order").id, "card": "0",
                                                   **dict(p.split("=") for p in query.split("&"))})
    assert post.status_code == 400


def test_done_needs_every_check_right_once(client):
    item = L.lesson("cards")
    checks = [(n, s) for n, s in enumerate(item.steps_for(DDV), 1) if s.check is not None]
    for n, step in checks[:-1]:
        client.post(f"/en/learn/{item.slug}/{n}", data={"step": step.id, **_right(L.build_check(item, step, DDV))})
    path = client.get("/en/learn/").get_data(as_text=True)
    assert f"Started: {len(checks) - 1} of {len(checks)} checks right" in path
    last_n, last = checks[-1]
    client.post(f"/en/learn/{item.slug}/{last_n}", data={"step": last.id, **_wrong(L.build_check(item, last, DDV))})
    page = client.get(f"/en/learn/{item.slug}/{len(item.steps_for(DDV))}").get_data(as_text=True)
    assert "Still to answer:" in page and f'href="/en/learn/{item.slug}/{last_n}">step {last_n}</a>' in page
    assert state_of(client.get("/en/learn/").get_data(as_text=True), "cards") == "started"
    fresh = L.build_check(item, last, DDV, seed=5)
    client.post(f"/en/learn/{item.slug}/{last_n}", data={"step": last.id, "v": "5", **_right(fresh)})
    assert state_of(client.get("/en/learn/").get_data(as_text=True), "cards") == "done"


def test_a_position_whose_answer_was_shown_does_not_count_when_answered_again(client):
    """The loophole: miss a check, reload the step (or go back to the fresh cards missed) and
    answer what the page has just shown. Right, but it does not count; new cards do."""
    item = L.lesson("trumps")
    step = item.step("order")
    n = number_of(item, "order")
    url = f"/en/learn/{item.slug}/{n}"
    own = L.build_check(item, step, DDV)
    client.post(url, data={"step": step.id, **_wrong(own)})
    again = client.post(url, data={"step": step.id, **_right(own)}).get_data(as_text=True)
    assert "quiz-verdict--right" in again and "does not count yet" in again
    assert AGAIN.search(again)  # new cards are offered
    given = seeds(unescape(AGAIN.search(again).group(1)))
    fresh = L.build_check(item, step, DDV, given["v"], given.get("a"))
    data = {"step": step.id, "v": str(given["v"]), **({"a": str(given["a"])} if "a" in given else {}), **_wrong(fresh)}
    client.post(url, data=data)  # this one missed too: going back to it does not count either
    back = client.post(url, data={**data, **_right(fresh)}).get_data(as_text=True)
    assert "does not count yet" in back
    other = L.build_check(item, step, DDV, seed=991)
    counted = client.post(url, data={"step": step.id, "v": "991", **_right(other)}).get_data(as_text=True)
    assert "1 of 7 checks of this lesson answered right." in counted


def test_the_progress_cookie_keeps_missed_positions_within_bounds():
    progress = learn_progress.Progress()
    for position in range(20):
        progress.miss(3, "order", position)
    for check in range(20):
        progress.miss(4, f"c{check}", 1)
    again = learn_progress.Progress.load(progress.dump())
    assert len(again.missed) == learn_progress.MISSED_CHECKS
    assert not again.counts(4, "c19", 1) and again.counts(4, "c19", 2)
    progress.answered(4, "c19")
    assert progress.counts(4, "c19", 1)
    assert learn_progress.Progress.load({"s": [], "m": [["x"], [3, "zz", -1], [200, "ab", 1]]}).missed == {}


def test_an_old_cookie_keeps_its_lessons_started_not_done():
    old = learn_progress.Progress.load({"s": [3], "d": [1, 2], "l": [2, 4]})
    assert old.started == {1, 2, 3} and not old.right and old.last == (2, 4)
    assert old.state(1, ["deck"]) == "started"
    assert learn_progress.Progress.load(old.dump()) == old


def test_checkpoints_ask_earlier_checks_about_new_cards(client):
    html = client.get("/en/learn/").get_data(as_text=True)
    order = re.findall(r'href="/en/learn/([a-z0-9-]+)"', html)
    assert order.index("checkpoint-1") == order.index("following-suit") + 1
    checkpoint = L.lesson("checkpoint-1")
    page = client.get("/en/learn/checkpoint-1/1").get_data(as_text=True)
    assert "Checkpoint 1" in page and "From lesson 1, “Tricks and the goal”" in unescape(page)
    step = checkpoint.steps[0]
    source_item, source_step = L.source_of(step)
    fresh = L.build_check(checkpoint, step, DDV)
    assert (fresh.facts, fresh.params) != (L.build_check(source_item, source_step, DDV).facts,
                                           L.build_check(source_item, source_step, DDV).params)
    right = client.post("/en/learn/checkpoint-1/1", data={"step": step.id, **_right(fresh)})
    assert "quiz-verdict--right" in right.get_data(as_text=True)
    wrong = client.post("/en/learn/checkpoint-1/1", data={"step": step.id, **_wrong(fresh)}).get_data(as_text=True)
    again = seeds(AGAIN.search(wrong).group(1))
    assert again["a"] == L.default_seed(checkpoint, step) and again["v"] != again["a"]


def test_ticking_several_trumps_as_hearts_gets_one_sentence_naming_the_misconception(client):
    item = L.lesson("following-suit")
    step = item.step("void")
    n = number_of(item, "void")
    question = L.build_check(item, step, DDV)
    # Hearts led; the learner thinks the 10♥ and the queen of hearts are hearts and ticks... nothing
    # but them: everything else is left out, two rules, two sentences.
    html = client.post(f"/en/learn/{item.slug}/{n}", data={"step": step.id, "cards": ["10H"]}).get_data(as_text=True)
    assert question.answer[0] != "10H" and "quiz-verdict--wrong" in html
    misses = text_of(MISSES.search(html).group(1))
    assert misses.count("You left out") == 1  # one sentence for every card left out
    trick = L.lesson("following-suit").step("not-a-spade")
    tn = number_of(item, "not-a-spade")
    html = client.post(f"/en/learn/{item.slug}/{tn}", data={"step": trick.id, "cards": ["QS", "JS", "9S"]})
    misses = text_of(MISSES.search(html.get_data(as_text=True)).group(1))
    assert misses.count("you ticked") == 1 and "are trumps, not plain spades" in misses


def test_a_dulle_ticked_on_a_heart_lead_is_named_a_trump(client):
    position = {"kind": "legal", "hand": ["10H", "QH", "AH", "KS", "9C", "AC"], "trick": ["KH"]}
    item = L.lesson("following-suit")
    step = L.Step("dulle-heart", check=position)
    from tutor.web.words import questions as words

    with client.application.test_request_context("/en/learn/x"):
        question = L.build_check(item, step, DDV)
        groups = words.miss_groups(question, ("10H,AH,QH",))
        assert len(groups) == 1 and groups[0].text.startswith("The 10♥ is a trump (the Dulle), not a heart.")
        assert "10♥" in groups[0].text and "Q♥" in groups[0].text


def test_a_missed_score_names_the_forgotten_line(client):
    item = L.lesson("scoring")
    step = item.step("old-ones")
    n = number_of(item, "old-ones")
    question = L.build_check(item, step, DDV)
    assert question.answer == ("kontra", "-2")
    html = client.post(f"/en/learn/{item.slug}/{n}", data={"step": step.id, "winner": "kontra", "result": "-1"})
    misses = text_of(MISSES.search(html.get_data(as_text=True)).group(1))
    assert "you left out the line “against the old ones (die Alten)” (1 for Kontra)" in misses


def test_a_wrong_card_in_a_decision_says_what_it_would_have_done(client):
    item = L.lesson("tips")
    n = number_of(item, "schmieren")
    html = client.post(f"/en/learn/{item.slug}/{n}", data={"step": "schmieren", "card": "KC"}).get_data(as_text=True)
    misses = text_of(MISSES.search(html).group(1))
    assert "With the K♣ the trick stays with your partner, North: 11 card points" in misses


@pytest.mark.parametrize("name", sorted(OLD_STEPS))
def test_every_old_step_url_still_shows_its_step(client, name):
    old = OLD_STEPS[name]
    use(client, old["rules"])
    rules = RuleSet.named(old["rules"])
    item = L.lesson(old["slug"])
    for n, step_id in enumerate(old["steps"], 1):
        response = client.get(f"/en/learn/{old['slug']}/{n}")
        if response.status_code == 301:  # the step moved: the redirect leads to that very step
            assert L.moved_steps()[(old["slug"], n)][1] == step_id
            continue
        assert response.status_code == 200, (old["slug"], n)
        assert f'name="step" value="{step_id}"' in response.get_data(as_text=True) or \
            L.step_at(item, n, rules).check is None, (old["slug"], n)
        assert L.step_at(item, n, rules).id == step_id


def test_a_step_that_moved_redirects_permanently_to_its_new_place(client, monkeypatch):
    monkeypatch.setattr(L, "moved_steps", lambda: {("cards", 40): ("tricks", "goal"), ("gone", 2): ("trumps", "order")})
    response = client.get("/en/learn/cards/40")
    assert response.status_code == 301 and response.headers["Location"].endswith("/en/learn/tricks/4")
    assert "Cookie" in response.headers["Vary"]
    assert client.get("/de/learn/gone/2").headers["Location"].endswith("/de/learn/trumps/2")
    assert client.get("/en/learn/cards/41").status_code == 404


def house_learners() -> list[RuleSet]:
    """Every learner the settings page can make with one house option away from his rule
    set's own (each value of each option), and one with every option changed at once."""
    learners = []
    for ruleset in ("ddv", "pagat"):
        base = RuleSet.named(ruleset)
        for name, choices in OPTION_CHOICES.items():
            learners += [base.with_options(**{name: c}) for c in choices if c != getattr(base, name)]
        learners.append(base.with_options(**{n: next(c for c in cs if c != getattr(base, n))
                                             for n, cs in OPTION_CHOICES.items()}))
    return learners


HOUSE_LEARNERS = house_learners()


@pytest.mark.parametrize("learner", range(len(HOUSE_LEARNERS)))
def test_every_step_answers_under_every_house_option(client, learner):
    rules = HOUSE_LEARNERS[learner]
    client.set_cookie(RULES_COOKIE, to_cookie(rules))
    for item in L.path():
        for n, step in enumerate(item.steps_for(rules), 1):
            response = client.get(f"/en/learn/{item.slug}/{n}")
            assert response.status_code == 200, (to_cookie(rules), item.slug, n, step.id)


def test_reservations_poverty_step_plays_poverty_for_a_pagat_learner_without_it(client):
    rules = RuleSet.named("pagat").with_options(poverty=False)
    client.set_cookie(RULES_COOKIE, to_cookie(rules))
    item = L.lesson("reservations")
    n = number_of(item, "poverty", rules)
    page = client.get(f"/en/learn/reservations/{n}").get_data(as_text=True)
    assert "Your house rule leaves poverty out" in page


def test_a_score_with_the_sign_flipped_by_forgotten_extras_names_them(client):
    """Re 130, Kontra a fox and a Doppelkopf: −1. A learner who writes +1 left out Kontra's
    two extras; that is what he is told, not "the right number with the wrong sign"."""
    item = L.lesson("extra-points")
    step = item.step("netted")
    n = number_of(item, "netted")
    question = L.build_check(item, step, DDV)
    assert question.answer[1] == "-1"
    html = client.post(f"/en/learn/{item.slug}/{n}", data={"step": step.id, "winner": question.answer[0],
                                                            "result": "1"}).get_data(as_text=True)
    misses = text_of(MISSES.search(html).group(1))
    assert "you left out the lines" in misses and "wrong sign" not in misses, misses


CHECK = re.compile(r'<section id="lesson-check".*?</section>', re.S)
SEED_INPUTS = re.compile(r'<input type="hidden" name="[va]" value="\d+">')


def check_of(html: str) -> str:
    """The check a page asks, without the seeds that name it."""
    return SEED_INPUTS.sub("", CHECK.search(html).group(0))


@pytest.mark.parametrize(("slug", "step_id"), [("tips", "announce"), ("history", "family-check"),
                                               ("winning", "both-said")])
def test_following_try_again_five_times_never_shows_the_same_check_twice_running(client, slug, step_id):
    """Through the pages themselves: each "Try again with new cards" asks something other
    than the check just shown (these steps have few positions; they repeated from the third)."""
    item = L.lesson(slug)
    step = item.step(step_id)
    n = number_of(item, step_id)
    url = f"/en/learn/{slug}/{n}"
    question = L.build_check(item, step, DDV)
    shown = check_of(client.get(url).get_data(as_text=True))
    html = client.post(url, data={"step": step.id, **_wrong(question)}).get_data(as_text=True)
    for retry in range(5):
        again = unescape(AGAIN.search(html).group(1))
        page = check_of(client.get(again).get_data(as_text=True))
        assert page != shown, (slug, step_id, retry)
        given = seeds(again)
        question = L.build_check(item, step, DDV, given["v"], given.get("a"))
        data = {"step": step.id, "v": str(given["v"]), **({"a": str(given["a"])} if "a" in given else {}),
                **_wrong(question)}
        html = client.post(url, data=data).get_data(as_text=True)
        shown = page
