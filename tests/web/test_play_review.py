"""The review of a finished deal, the note after a trick, the hint, and the decision to solve
again (tutor/web/play/review.py): what the pages say is what the analysis found, a verdict
above "good" only with the tip that explains it, the same address the same review."""
from __future__ import annotations

import random
import re
from datetime import UTC, datetime, timedelta
from html import unescape
from urllib.parse import urlencode

import pytest

from app import create_app
from tutor.analysis import pool
from tutor.analysis.judge import analyse
from tutor.analysis.review import review
from tutor.analysis.tips import SIMULATIONS_PREFER
from tutor.analysis.worlds import NoWorld
from tutor.play import HUMAN, position
from tutor.rules.cards import card_id
from tutor.rules.rulesets import RuleSet
from tutor.web.base import practice
from tutor.web.play import review as page

from .test_play import play_through, query, start_url

DDV = RuleSet.named("ddv")
SAMPLES = 20  # worlds per decision in these tests: the pages' logic, not the analysis's precision


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    return create_app({"TESTING": True}, instance_path=str(tmp_path_factory.mktemp("review") / "instance"))


@pytest.fixture(autouse=True)
def few_samples(monkeypatch):
    monkeypatch.setattr(page, "SAMPLES", SAMPLES)


@pytest.fixture(scope="module")
def deals(app):
    """Finished deals played through the page by random taps (a learner who makes mistakes)."""
    client = app.test_client()
    found = []
    for seed in (221, 227, 235):  # each has an explained mistake of the learner and a judged computer card
        _html, url = play_through(client, start_url(DDV, seed, 0), random.Random(seed))
        found.append({k: v for k, v in query(url).items() if k in ("s", "l", "r", "m")})
    return found


def judged(state):
    p = position(DDV, int(state["s"]), state["m"], int(state["l"]))
    return p, review(p.deal, HUMAN, SAMPLES, p.seed)


def test_the_review_shows_each_verdict_only_with_its_reason(app, deals):
    client = app.test_client()
    shown_any = 0
    for state in deals:
        html = client.get("/en/play/review?" + urlencode(state)).get_data(as_text=True)
        _p, judgements = judged(state)
        for j in judgements:
            tip = j.reason
            explained = tip is not None and tip.code != SIMULATIONS_PREFER
            if j.verdict in ("mistake", "blunder") and j.analysis.silent is None and explained:
                assert f"review-badge--{j.verdict}" in html
                shown_any += 1
        # a verdict above good never stands alone: each trick with one has its sentence
        for trick in html.split('<li class="review-trick">')[1:]:
            if re.search(r'review-play--(inaccuracy|mistake|blunder)', trick):
                assert 'class="review-why review-why--' in trick
    assert shown_any, "these deals were chosen for the mistakes in them"


def test_the_same_address_gives_the_same_review(tmp_path, deals):
    url = "/en/play/review?" + urlencode(deals[0])
    first = create_app({"TESTING": True}, instance_path=str(tmp_path / "a")).test_client().get(url).data
    again = create_app({"TESTING": True}, instance_path=str(tmp_path / "b")).test_client().get(url).data
    assert first == again


def test_an_unfinished_deal_cannot_be_reviewed(app):
    response = app.test_client().get("/en/play/review?" + urlencode({"s": 7, "l": 0, "r": "ddv"}))
    assert response.status_code == 400 and "play it to its end first" in response.get_data(as_text=True)
    assert app.test_client().get("/en/play/review?s=7&l=0&r=ddv&m=%%%").status_code == 400


def test_the_computers_cards_can_be_judged_too(app, deals):
    client = app.test_client()
    mine = client.get("/en/play/review?" + urlencode(deals[0])).get_data(as_text=True)
    everyone = client.get("/en/play/review?" + urlencode({**deals[0], "all": 1})).get_data(as_text=True)
    assert mine.count("review-badge--") < everyone.count("review-badge--")
    fragment = client.get("/en/play/review?" + urlencode(deals[0]), headers={"HX-Request": "true"})
    assert fragment.get_data(as_text=True).lstrip().startswith('<section id="review"')


def test_a_note_after_the_trick_of_a_mistake_and_none_after_a_good_card(app, deals):
    client = app.test_client()
    noted = silent = 0
    for state in deals:
        p, judgements = judged(state)
        for j in judgements:
            moves = state["m"]
            body = client.get("/en/play/note?" + urlencode({**state, "t": j.trick})).get_data(as_text=True)
            # the note judges the decision alone, seeded as the review seeds it: the same verdict
            worth = (j.verdict in ("mistake", "blunder") and j.analysis.silent is None and j.reason
                     and j.reason.code != SIMULATIONS_PREFER)
            assert ('class="play-note' in body) == bool(worth), (moves, j.trick, j.verdict)
            noted += bool(worth)
            silent += not worth
    assert noted and silent
    assert client.get("/en/play/note?" + urlencode({**deals[0], "t": 13})).status_code == 400


def test_the_hint_names_the_best_card(app, deals):
    client = app.test_client()
    p = position(DDV, 211, "", 0)
    while p.turn is not None and p.turn.kind != "play":
        p = position(DDV, 211, p.then(p.turn.moves()[0]), 0)
    state = {"s": 211, "l": 0, "r": "ddv", "m": p.moves}
    body = client.get("/en/play/hint?" + urlencode(state), headers={"HX-Request": "true"}).get_data(as_text=True)
    best = re.search(r"<strong>Play (.*?)\.</strong>", body)
    assert best
    full = client.get("/en/play/hint?" + urlencode(state))
    assert full.status_code == 200 and "Back to the deal" in full.get_data(as_text=True)
    assert client.get("/en/play/hint?" + urlencode(deals[0])).status_code == 400  # the deal is over


def test_a_mistake_can_be_solved_again(app, deals):
    client = app.test_client()
    html = client.get("/en/play/review?" + urlencode(deals[1])).get_data(as_text=True)
    link = unescape(re.search(r'href="(/en/play/retry[^"]+)"', html).group(1))
    page_html = client.get(link).get_data(as_text=True)
    legal = re.findall(r'name="card" value="(\w+)"', page_html)
    results = {card: client.post(link, data={"card": card}).get_data(as_text=True) for card in legal}
    rights = [c for c, body in results.items() if "play-verdict--right" in body]
    wrongs = [c for c, body in results.items() if "play-verdict--wrong" in body]
    assert rights and wrongs, results.keys()
    p, judgements = judged(deals[1])
    k = int(query(link)["k"])
    with app.test_request_context("/en/"):
        mistake = next(j for j in judgements if query(page.retry_url(p, j, HUMAN) or "?k=-1")["k"] == str(k))
    assert card_id(mistake.card) in wrongs and card_id(mistake.better) in rights
    assert client.post(link, data={"card": "XX"}).status_code == 400
    foreign = client.post(link, data={"card": legal[0]}, headers={"Origin": "https://evil.example"})
    assert foreign.status_code == 400


def test_the_play_page_offers_the_hint_the_note_and_the_review(app, deals):
    client = app.test_client()
    state = deals[0]
    end = client.get("/en/play/?" + urlencode({**state, "w": 0, "g": "skip", "v": "skip"})).get_data(as_text=True)
    assert "/en/play/review?" in end and "How good were my cards?" in end
    p = position(DDV, int(state["s"]), "", int(state["l"]))
    while p.turn is not None and p.turn.kind != "play":
        p = position(DDV, p.seed, p.then(p.turn.moves()[0]), p.level)
    playing = client.get("/en/play/?" + urlencode({"s": p.seed, "l": p.level, "r": "ddv", "m": p.moves}))
    assert "/en/play/hint?" in playing.get_data(as_text=True)
    card = next(m for m in p.turn.moves() if m.kind == "card")
    after = position(DDV, p.seed, p.then(card), p.level)
    shown = client.get("/en/play/?" + urlencode({"s": p.seed, "l": p.level, "r": "ddv", "m": after.moves}))
    body = shown.get_data(as_text=True)
    if after.tricks:  # the learner's card finished the trick: its note is loaded after the page
        assert 'hx-get="/en/play/note?' in body


class Recording:
    """A pool that runs each analysis here and notes what it was asked; busy on demand."""

    def __init__(self, busy: bool = False, no_world: bool = False) -> None:
        self.asked: list[str] = []
        self.busy, self.no_world = busy, no_world

    def analyse(self, view, samples, seed):
        self.asked.append("analyse")
        if self.busy:
            raise pool.Busy
        if self.no_world:
            raise NoWorld("no_world", "view")
        return analyse(view, samples, seed)

    def review(self, deal, seat, samples, seed):
        self.asked.append("review")
        if self.busy:
            raise pool.Busy
        return review(deal, seat, samples, seed)


def a_turn_to_play(seed: int):
    p = position(DDV, seed, "", 0)
    while p.turn is not None and p.turn.kind != "play":
        p = position(DDV, seed, p.then(p.turn.moves()[0]), 0)
    return {"s": seed, "l": 0, "r": "ddv", "m": p.moves}


def test_the_pages_judge_in_the_analysis_pool(tmp_path, monkeypatch, deals):
    recording = Recording()
    monkeypatch.setattr(pool, "shared", lambda: recording)
    client = create_app({"TESTING": True}, instance_path=str(tmp_path / "i")).test_client()
    assert client.get("/en/play/review?" + urlencode({**deals[0], "all": 1})).status_code == 200
    assert recording.asked == ["review"] * 4  # every seat's cards, none judged on the request's thread
    assert client.get("/en/play/hint?" + urlencode(a_turn_to_play(212))).status_code == 200
    assert recording.asked[-1] == "analyse"


@pytest.mark.parametrize("lang, words", [("en", "Try again in a moment"), ("de", "gleich")])
def test_a_busy_pool_says_so_with_a_503(tmp_path, monkeypatch, deals, lang, words):
    monkeypatch.setattr(pool, "shared", lambda: Recording(busy=True))
    client = create_app({"TESTING": True}, instance_path=str(tmp_path / "i")).test_client()
    for url in (f"/{lang}/play/review?" + urlencode(deals[2]), f"/{lang}/play/hint?" + urlencode(a_turn_to_play(213))):
        response = client.get(url)
        assert response.status_code == 503 and response.headers["Retry-After"] == "2"
        assert "no-store" in response.headers["Cache-Control"]  # a busy moment is never kept
        assert words in response.get_data(as_text=True)
    fragment = client.get(f"/{lang}/play/hint?" + urlencode(a_turn_to_play(213)), headers={"HX-Request": "true"})
    assert fragment.status_code == 503 and "<html" not in fragment.get_data(as_text=True)


def test_a_decision_no_world_can_make_is_not_judged(tmp_path, monkeypatch, deals):
    monkeypatch.setattr(pool, "shared", lambda: Recording(no_world=True))
    client = create_app({"TESTING": True}, instance_path=str(tmp_path / "i")).test_client()
    hint = client.get("/en/play/hint?" + urlencode(a_turn_to_play(214)))
    assert hint.status_code == 200 and "cannot name a card here" in hint.get_data(as_text=True)
    trick = {**deals[0], "t": 1}
    assert client.get("/en/play/note?" + urlencode(trick)).status_code == 200  # no note, no failure
    deal = position(DDV, int(deals[0]["s"]), deals[0]["m"], 0).deal
    k = next(i for i in range(48) if page.replay_to(deal, i).turn == HUMAN)  # the learner's first card
    retry = client.get("/en/play/retry?" + urlencode({**deals[0], "k": k}))
    assert retry.status_code == 400 and "cannot judge this decision" in retry.get_data(as_text=True)


def test_a_retried_mistake_goes_into_the_spaced_review_as_a_best_card_question(tmp_path, deals):
    secret = "a secret both apps share"
    served = create_app({"TESTING": True, "SECRET_KEY": secret}, instance_path=str(tmp_path / "i"))
    client = served.test_client()
    html = client.get("/en/play/review?" + urlencode(deals[1])).get_data(as_text=True)
    link = unescape(re.search(r'href="(/en/play/retry[^"]+)"', html).group(1))
    p, judgements = judged(deals[1])
    k = int(query(link)["k"])
    with served.test_request_context("/en/"):
        mistake = next(j for j in judgements if query(page.retry_url(p, j, HUMAN) or "?k=-1")["k"] == str(k))
    answer = client.post(link, data={"card": card_id(mistake.card)})  # the same card again: still wrong
    assert "practice=" in answer.headers.get("Set-Cookie", "")
    with served.test_request_context("/en/", headers={"Cookie": answer.headers["Set-Cookie"].split(";")[0]}):
        entries = practice.current().deck.entries
    code = mistake.reason.code
    assert entries[code].kind == "best_card" and entries[code].level == page.best_card.level_for(code, "ddv")
    tomorrow = datetime.now(UTC) + timedelta(days=1)
    later = create_app({"TESTING": True, "SECRET_KEY": secret, "PRACTICE_NOW": tomorrow},
                       instance_path=str(tmp_path / "j")).test_client()
    later.set_cookie("practice", answer.headers["Set-Cookie"].split(";")[0].split("=", 1)[1])
    review_page = later.get("/en/quiz/review").get_data(as_text=True)
    assert "Which card is best?" in review_page  # asked again as a best_card question


def test_a_tip_no_quiz_position_has_is_not_scheduled(monkeypatch, tmp_path, deals):
    monkeypatch.setattr(page.best_card, "level_for", lambda code, ruleset="ddv": None)
    client = create_app({"TESTING": True}, instance_path=str(tmp_path / "i")).test_client()
    html = client.get("/en/play/review?" + urlencode(deals[1])).get_data(as_text=True)
    link = unescape(re.search(r'href="(/en/play/retry[^"]+)"', html).group(1))
    legal = re.findall(r'name="card" value="(\w+)"', client.get(link).get_data(as_text=True))
    assert all("practice=" not in client.post(link, data={"card": c}).headers.get("Set-Cookie", "") for c in legal)


def test_a_busy_pool_gives_no_note_rather_than_an_error(tmp_path, monkeypatch, deals):
    monkeypatch.setattr(pool, "shared", lambda: Recording(busy=True))
    client = create_app({"TESTING": True}, instance_path=str(tmp_path / "i")).test_client()
    response = client.get("/en/play/note?" + urlencode({**deals[0], "t": 1}), headers={"HX-Request": "true"})
    assert response.status_code == 200 and "no-store" in response.headers["Cache-Control"]
    assert 'class="play-note' not in response.get_data(as_text=True)


def test_a_wrong_retry_is_told_its_own_reason_never_another_cards(app, deals):
    from tutor.web.words.analysis import tip_text

    client = app.test_client()
    html = client.get("/en/play/review?" + urlencode(deals[1])).get_data(as_text=True)
    link = unescape(re.search(r'href="(/en/play/retry[^"]+)"', html).group(1))
    legal = re.findall(r'name="card" value="(\w+)"', client.get(link).get_data(as_text=True))
    p = position(DDV, int(deals[1]["s"]), deals[1]["m"], int(deals[1]["l"]))
    k = int(query(link)["k"])
    with app.test_request_context(link):
        _again, analysis = page.decision(p, k)
        own = {}
        for value in analysis.cards:
            tip = value.reason
            said = tip_text(tip, seat=page.text.seat) if tip and tip.code != SIMULATIONS_PREFER else None
            for c in (value.card, *value.same_as):
                own[card_id(c)] = (value.verdict, said)
    for c in legal:
        body = unescape(client.post(link, data={"card": c}).get_data(as_text=True))
        verdict, said = own[c]
        if verdict in ("best", "good"):
            assert "play-verdict--right" in body and "Try another card" not in body
            continue
        assert "Try another card" in body
        if said:
            assert said in body, c
        else:
            assert "slightly prefer" in body, c


@pytest.mark.parametrize("value", ["abc", "1e9", "--2", "-+2", "²", "12345"])
def test_a_deal_value_no_form_sends_is_asked_again_with_a_400(app, deals, value):
    response = app.test_client().get("/en/play/?" + urlencode({**deals[0], "w": 0, "g": "re", "v": value}))
    body = response.get_data(as_text=True)
    assert response.status_code == 400 and "as a whole number" in body and 'name="v"' in body
    assert "Not quite: the deal is worth" not in body


def test_the_review_is_offered_right_after_the_score(app, deals):
    body = app.test_client().get("/en/play/?" + urlencode({**deals[0], "w": 0, "g": "skip", "v": "skip"})).get_data(
        as_text=True)
    first = body.index("How good were my cards?")
    assert first < body.index("The tricks in order")  # not only at the end of the page
    assert body.count("/en/play/review?") >= 2
