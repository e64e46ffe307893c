"""What each answer tells caches, against what its body really depends on: every GET route of
the app is asked without cookies, twice, and with each cookie the app knows; an answer whose
body changes with a cookie says `Vary: Cookie` (or is private), one that changes by itself
(a random question) is `no-store`, and a strong ETag only goes with a body that is the same
for everyone. The response cache's check that a shared view reads only the cookies it named
(UndeclaredCookie) runs on every one of these requests."""
from __future__ import annotations

import re
from html import unescape

import pytest
from flask import Flask

from app import create_app
from tutor.web.base import i18n
from tutor.web.base import rules as base_rules
from tutor.web.learn import progress as learn_progress
from tutor.web.play import stats as play_stats
from tutor.web.quiz import progress as quiz_progress
from tutor.web.score import offline
from tutor.web.score.sheet_devices import MY_SHEETS

from .test_quiz import form_for, question_of, token_of, wrong_for

SECRET = "test-secret-for-what-caches-are-told"
PLAY = "/en/play/?s=113138500&l=0&r=ddv&m=C"


@pytest.fixture(scope="module")
def app(tmp_path_factory) -> Flask:
    folder = tmp_path_factory.mktemp("caching")
    return create_app({"TESTING": True, "SECRET_KEY": SECRET, "DATABASE_URL": f"sqlite:///{folder}/s.db"},
                      instance_path=str(folder / "instance"))


@pytest.fixture(scope="module")
def walk(app) -> tuple[list[str], dict[str, str]]:
    """The URLs to ask (every GET route, with real arguments) and a real value of every cookie
    the app writes, each made the way a visitor gets it."""
    client = app.test_client()
    sheet = client.post("/en/sheet/", data={"player": ["Anna", "Bert", "Carl", "Dora"], "ruleset": "ddv"})
    sheet_url = sheet.headers["Location"]
    client.post(sheet_url + "/deal", data={"dealer": "0", "re": ["1", "2"], "re_points": "130",
                                           **hidden_fields(client.get(sheet_url + "/deal").get_data(as_text=True))})
    html = client.get(sheet_url).get_data(as_text=True)
    deal_id = re.search(r"/deal/([A-Za-z0-9_-]{12})", html)
    page = client.get("/en/quiz/winner?q=1&l=0").get_data(as_text=True)
    question, _data = question_of(app, page)
    client.post("/en/quiz/winner", data={"token": token_of(page), **form_for(question, wrong_for(question))})
    client.post("/en/learn/cards/1/seen")
    cookies = {cookie.key: cookie.value for cookie in client._cookies.values()}
    cookies[play_stats.COOKIE] = play_stats.write(SECRET, play_stats.Stats(played=7, won=4, points=9))
    cookies[base_rules.COOKIE] = "pagat"
    cookies[i18n.COOKIE] = "de"
    assert {quiz_progress.COOKIE, "practice", learn_progress.COOKIE, MY_SHEETS} <= set(cookies), cookies
    urls = ["/", "/en/", "/en/learn/", "/en/learn/cards", "/en/learn/cards/1", "/en/learn/words", "/en/learn/pack",
            "/en/offline",
            PLAY, PLAY.replace("/?", "/deal.json?") + "TRTKQ", "/en/play/",
            "/en/quiz/", "/en/quiz/winner", "/en/quiz/winner?q=1&l=0", "/en/quiz/party?q=3",
            "/en/quiz/daily", "/en/quiz/mixed", "/en/quiz/review", "/en/quiz/pack",
            "/en/rules/", "/en/rules/trumps", "/en/rules/all", "/en/score/", "/en/score/?rules=ddv&re_points=156",
            f"/en/score/table/{offline.variant_key(base_rules.from_cookie('ddv'))}.json",
            "/en/settings", "/en/settings?saved=1", "/en/sheet/", sheet_url, sheet_url + "/deal",
            sheet_url + "/quick", sheet_url + "/sheet.csv", sheet_url + "/sheet.json", sheet_url + "/offline.json",
            "/api/v1/openapi.json", "/favicon.ico", "/manifest.webmanifest", "/sw.js"]
    if deal_id:
        urls.append(f"{sheet_url}/deal/{deal_id.group(1)}")
    finished = "s=211&l=0&r=ddv&m=RQJUTSFBNVJN"  # a deal played to its end (tests/web/test_play_review.py)
    urls += [f"/en/play/review?{finished}", f"/en/play/note?{finished}&t=3", f"/en/play/retry?{finished}&k=23",
             "/en/play/hint?s=211&l=0&r=ddv"]
    routes = {rule.endpoint for rule in app.url_map.iter_rules() if "GET" in (rule.methods or ())}
    asked = {app.url_map.bind("localhost").match(url.split("?")[0], "GET")[0] for url in urls}
    assert routes - asked <= {"static", "pages.learn", "sheet.undo_deal", "sheet.edit_quick"}, routes - asked
    return urls, cookies


def hidden_fields(html: str) -> dict[str, str]:
    return {name: unescape(value) for name, value in re.findall(r'type="hidden" name="(\w+)" value="([^"]*)"', html)}


def ask(app, url: str, cookies: dict[str, str]):
    client = app.test_client()
    for name, value in cookies.items():
        client.set_cookie(name, value)
    response = client.get(url)
    return response.status_code, response.headers.get("Location"), response.get_data(), response.headers


def personal(headers) -> bool:
    """Whether shared caches are told to keep this answer apart per visitor (or not at all)."""
    vary = {part.strip().lower() for part in headers.get("Vary", "").split(",")}
    control = headers.get("Cache-Control", "")
    return "cookie" in vary or "*" in vary or "private" in control or "no-store" in control


def test_every_answer_tells_caches_what_its_body_depends_on(app, walk):
    urls, cookies = walk
    for url in urls:
        first, again = ask(app, url, {}), ask(app, url, {})
        if first[:3] != again[:3]:  # drawn at random: nothing may keep it, or use it without asking
            control = first[3].get("Cache-Control", "")
            # (a sheet's deal form, new one-time id each time, is kept by the phone's own
            # worker for offline entry: private and asked for again every time, its tag that
            # of its own body, so no other copy is ever confirmed as this one)
            tag = first[3].get("ETag")
            asked_again = "private" in control and "no-cache" in control and tag != again[3].get("ETag")
            assert "no-store" in control or asked_again, url
            continue
        etag = first[3].get("ETag")
        for name, value in cookies.items():
            other = ask(app, url, {name: value})
            if other[:3] != first[:3]:
                assert personal(first[3]) and personal(other[3]), (url, name)
                assert not (etag and not etag.startswith("W/")), (url, name, etag)


def test_a_random_question_is_never_stored(app):
    client = app.test_client()
    for url in ("/en/quiz/winner", "/en/quiz/mixed"):
        assert client.get(url).headers["Cache-Control"] == "no-store", url
    # The review's question is no longer drawn at random: it follows from the learner's cookie.
    review = client.get("/en/quiz/review")
    assert review.headers["Cache-Control"] == "private, no-cache" and "Cookie" in review.headers["Vary"]
    assert "no-store" not in client.get("/en/quiz/winner?q=1&l=0").headers.get("Cache-Control", "")
