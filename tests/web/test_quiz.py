"""The quiz over HTTP: questions in every language, right and wrong answers as a plain form
post and as an htmx swap, tampered, replayed and malformed posts, progress, the daily
challenge and the offline pack."""
from __future__ import annotations

import gzip
import re
from html import unescape

import pytest
from itsdangerous import URLSafeSerializer

from tutor.quiz import KINDS, make
from tutor.web.base.rules import from_cookie
from tutor.web.quiz import progress as quiz_progress

LANGUAGES = ("de", "en", "it", "es", "fr", "pt")


def token_of(html: str) -> str:
    return unescape(re.search(r'name="token" value="([^"]+)"', html).group(1))


def question_of(app, html: str):
    data = URLSafeSerializer(app.config["SECRET_KEY"], salt="quiz-question").loads(token_of(html))
    return make(data["k"], data["s"], from_cookie(data["r"]), data["l"]), data


def form_for(question, answer=None):
    answer = answer or question.answer
    form = {}
    for field, value in zip(question.fields, answer):
        form[field.name] = (value.split(",") if value else []) if field.mode == "many" else [value]
    return form


def wrong_for(question):
    field = question.fields[0]
    if field.mode == "number":
        wrong = str(int(question.answer[0]) + 1)
    elif field.mode == "many":
        right = set(question.answer[0].split(",")) - {""}
        wrong = ",".join(sorted(right ^ {field.choices[0].value}))
    else:
        wrong = next(c.value for c in field.choices if c.value != question.answer[0])
    return (wrong, *question.answer[1:])


def post_answer(client, url, html, form, **headers):
    return client.post(url, data={"token": token_of(html), **form}, headers=headers)


def progress_of(app, client):
    cookie = client.get_cookie(quiz_progress.COOKIE)
    return quiz_progress.read(app.config["SECRET_KEY"], cookie.value if cookie else None)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_quiz_page_answers_in_every_language(client, lang):
    for path in ("", *KINDS, "mixed", "daily"):
        response = client.get(f"/{lang}/quiz/{path}")
        assert response.status_code == 200, path
        html = response.get_data(as_text=True)
        assert f'<html lang="{lang}"' in html
        if path:
            assert 'name="token"' in html and f'action="/{lang}/quiz/{path}"' in html


@pytest.mark.parametrize("kind", KINDS)
def test_a_right_answer_is_right_and_counts(app, client, kind):
    html = client.get(f"/en/quiz/{kind}").get_data(as_text=True)
    question, _ = question_of(app, html)
    response = post_answer(client, f"/en/quiz/{kind}", html, form_for(question))
    body = response.get_data(as_text=True)
    assert response.status_code == 200 and "Right!" in body
    assert "The answer:" in body and ("quiz-mark--right" in body or "right answer" in body or question.answer == ("",))
    assert 'href="/en/rules/' in body  # the rule's section of the reference
    stats = progress_of(app, client).kinds[kind]
    assert (stats.answered, stats.right, stats.streak) == (1, 1, 1)


@pytest.mark.parametrize("kind", KINDS)
def test_a_wrong_answer_shows_the_right_one_and_why(app, client, kind):
    html = client.get(f"/en/quiz/{kind}").get_data(as_text=True)
    question, _ = question_of(app, html)
    body = post_answer(client, f"/en/quiz/{kind}", html, form_for(question, wrong_for(question))).get_data(as_text=True)
    assert "Not quite." in body and "The answer:" in body and 'class="quiz-reasons"' in body
    assert progress_of(app, client).kinds[kind].streak == 0


def test_htmx_gets_just_the_fragment(app, client):
    html = client.get("/en/quiz/winner").get_data(as_text=True)
    question, _ = question_of(app, html)
    response = post_answer(client, "/en/quiz/winner", html, form_for(question), **{"HX-Request": "true"})
    body = response.get_data(as_text=True)
    assert response.status_code == 200 and body.lstrip().startswith('<section id="quiz"') and "<html" not in body
    assert "HX-Request" in response.headers["Vary"]


def test_the_form_works_without_javascript(client):
    html = client.get("/en/quiz/legal").get_data(as_text=True)
    assert re.search(r'<form class="quiz__form" method="post" action="/en/quiz/legal"', html)
    assert '<input type="checkbox" name="cards"' in html


def test_a_tampered_token_gets_a_message_and_a_fresh_question(app, client):
    html = client.get("/en/quiz/winner").get_data(as_text=True)
    question, _ = question_of(app, html)
    token = token_of(html)
    tampered = token[:-3] + ("AAA" if token[-3:] != "AAA" else "BBB")
    response = client.post("/en/quiz/winner", data={"token": tampered, **form_for(question)})
    body = response.get_data(as_text=True)
    assert response.status_code == 400 and "could not be checked" in body and 'name="token"' in body
    assert "winner" not in progress_of(app, client).kinds


def test_a_token_forged_with_another_key_is_refused(client):
    data = {"k": "winner", "s": 1, "l": 0, "r": "ddv", "m": "kind"}
    forged = URLSafeSerializer("not the key", salt="quiz-question").dumps(data)
    response = client.post("/en/quiz/winner", data={"token": forged, "card": "0"})
    assert response.status_code == 400 and "could not be checked" in response.get_data(as_text=True)


def test_a_token_of_another_kind_is_refused(app, client):
    html = client.get("/en/quiz/points").get_data(as_text=True)
    response = client.post("/en/quiz/winner", data={"token": token_of(html), "card": "0"})
    assert response.status_code == 400


def test_a_replayed_answer_counts_once(app, client):
    html = client.get("/en/quiz/trumps").get_data(as_text=True)
    question, _ = question_of(app, html)
    post_answer(client, "/en/quiz/trumps", html, form_for(question))
    response = post_answer(client, "/en/quiz/trumps", html, form_for(question))
    body = response.get_data(as_text=True)
    assert response.status_code == 400 and "answered that question already" in body and 'name="token"' in body
    stats = progress_of(app, client).kinds["trumps"]
    assert (stats.answered, stats.streak) == (1, 1)


@pytest.mark.parametrize("form", [
    {},
    {"card": "9"},
    {"card": ["0", "1"]},
    {"card": "x" * 5000},
    {"token": ""},
    {"token": "garbage"},
    {"token": "a.b"},
])
def test_malformed_posts_get_a_message_never_a_500(client, form):
    html = client.get("/en/quiz/winner").get_data(as_text=True)
    data = {"token": token_of(html), **form}
    response = client.post("/en/quiz/winner", data=data)
    assert response.status_code == 400
    body = response.get_data(as_text=True)
    assert 'role="alert"' in body and 'name="token"' in body


@pytest.mark.parametrize("kind", ["points", "score"])
def test_numbers_that_are_not_numbers_are_refused(client, kind):
    html = client.get(f"/en/quiz/{kind}").get_data(as_text=True)
    for value in ("", "abc", "1e5", "12345678901234567890", "-", "½"):
        data = {"token": token_of(html), "points": value, "winner": "re", "result": value}
        assert client.post(f"/en/quiz/{kind}", data=data).status_code == 400


def test_messages_are_translated_through_gettext(client):
    response = client.post("/de/quiz/winner", data={"token": "nonsense"})
    assert response.status_code == 400 and '<html lang="de"' in response.get_data(as_text=True)


def test_a_link_reproduces_its_question(client):
    first = client.get("/en/quiz/announce?q=12345&l=2").get_data(as_text=True)
    again = client.get("/en/quiz/announce?q=12345&l=2").get_data(as_text=True)
    assert token_of(first) == token_of(again)
    assert re.search(r'<h2 id="quiz-prompt"[^>]*>(.*?)</h2>', first).group(1) == \
        re.search(r'<h2 id="quiz-prompt"[^>]*>(.*?)</h2>', again).group(1)
    assert client.get("/en/quiz/announce?q=abc").status_code == 400
    assert client.get("/en/quiz/announce?q=1&l=9").status_code == 400
    assert client.get("/en/quiz/elvis").status_code == 404


def test_a_damaged_progress_cookie_means_a_fresh_start(client):
    client.set_cookie(quiz_progress.COOKIE, "eyJrIjp7fX0.forged")
    assert client.get("/en/quiz/").status_code == 200


def answer_kind(app, client, kind, right=True):
    html = client.get(f"/en/quiz/{kind}").get_data(as_text=True)
    question, _ = question_of(app, html)
    return post_answer(client, f"/en/quiz/{kind}", html, form_for(question, None if right else wrong_for(question)))


def test_three_right_in_a_row_bring_the_next_level(app, client):
    for _ in range(3):
        answer_kind(app, client, "party")
    assert progress_of(app, client).kinds["party"].level == 1
    assert "normal games and weddings" in client.get("/en/quiz/").get_data(as_text=True)
    answer_kind(app, client, "party", right=False)
    assert progress_of(app, client).kinds["party"].level == 0


def test_a_missed_kind_is_due_and_mixed_practice_asks_it_next(app, client):
    answer_kind(app, client, "needs", right=False)
    answer_kind(app, client, "points", right=True)
    landing = client.get("/en/quiz/").get_data(as_text=True)
    assert progress_of(app, client).due(quiz_progress.today()) == ["needs"]
    # One count of what is due on the landing page: the review's (issue 24), not a list of kinds too.
    assert "Due for review:" not in landing and landing.count("Review: ") == 1
    question, data = question_of(app, client.get("/en/quiz/mixed").get_data(as_text=True))
    assert question.kind == "needs" and data["m"] == "mixed"


def test_a_kind_answered_right_comes_back_the_next_day(app, client, monkeypatch):
    answer_kind(app, client, "game")
    day = quiz_progress.today()
    assert progress_of(app, client).due(day) == []
    assert progress_of(app, client).due(day + 1) == ["game"]


def test_mixed_practice_interleaves_the_kinds_met(app, client):
    kinds = []
    for _ in range(8):
        html = client.get("/en/quiz/mixed").get_data(as_text=True)
        question, _ = question_of(app, html)
        post_answer(client, "/en/quiz/mixed", html, form_for(question))
        kinds.append(question.kind)
    assert len(set(kinds)) >= 3
    assert all(a != b for a, b in zip(kinds, kinds[1:]))


def test_the_daily_challenge_is_the_same_for_everyone_and_ends_with_a_result(app):
    first, second = app.test_client(), app.test_client()
    plan = quiz_progress.daily_plan(quiz_progress.today())
    assert len(plan) == 10 and set(k for k, _s, _l in plan) == set(KINDS)
    for i in range(10):
        html = first.get("/en/quiz/daily").get_data(as_text=True)
        question, data = question_of(app, html)
        assert (question.kind, question.seed) == plan[i][:2] and data["i"] == i
        assert token_of(second.get("/en/quiz/daily").get_data(as_text=True)) == token_of(html) if i == 0 else True
        form = form_for(question, None if i % 3 else wrong_for(question))
        body = post_answer(first, "/en/quiz/daily", html, form).get_data(as_text=True)
        if i < 9:
            assert "Next question" in body
    assert "of 10 right today" in body and "Doko Tutor daily challenge" in body and "🟩" in body
    done = first.get("/en/quiz/daily").get_data(as_text=True)
    assert "Today’s challenge is done" in done and 'name="token"' not in done
    # Answering an old question of today's challenge again counts nothing.
    response = post_answer(first, "/en/quiz/daily", html, form)
    assert response.status_code == 400
    assert progress_of(app, first).daily_today(quiz_progress.today()).count("0") == 4


def test_a_daily_question_of_another_day_is_refused(app, client):
    token = URLSafeSerializer(app.config["SECRET_KEY"], salt="quiz-question").dumps(
        {"k": "winner", "s": 1, "l": 0, "r": "ddv", "m": "daily", "d": quiz_progress.today() - 1, "i": 0})
    response = client.post("/en/quiz/daily", data={"token": token, "card": "0"})
    assert response.status_code == 400 and "another day" in response.get_data(as_text=True)


def test_questions_follow_the_visitors_rules(app, client):
    client.set_cookie("rules", "pagat")
    html = client.get("/en/quiz/score").get_data(as_text=True)
    question, data = question_of(app, html)
    assert data["r"] == "pagat" and question.rules.ruleset == "pagat"


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_pack_holds_thirty_questions_of_every_kind_with_the_engines_answers(app, client, lang):
    client.set_cookie("rules", "ddv|deck=40")
    html = client.get(f"/{lang}/quiz/pack").get_data(as_text=True)
    assert f'<html lang="{lang}"' in html
    for kind in KINDS:
        articles = re.findall(rf'<article class="pack-q" id="pack-{kind}-\d+" data-answer="([^"]*)"', html)
        assert len(articles) >= 30, kind
    daily = re.findall(r'<article class="pack-q" id="pack-daily-(\d{4}-\d\d-\d\d)-(\d+)" data-answer="([^"]*)"', html)
    today = quiz_progress.day_text(quiz_progress.today())
    plan = quiz_progress.daily_plan(quiz_progress.today())
    todays = [answer for day, _i, answer in daily if day == today]
    rules = from_cookie("ddv|deck=40")
    assert todays == ["|".join(make(k, s, rules, lvl).answer) for k, s, lvl in plan]


def _count_renders(monkeypatch, module) -> dict[str, int]:
    made: dict[str, int] = {}
    real = module.render_template

    def counting(template, **context):
        made[template] = made.get(template, 0) + 1
        return real(template, **context)
    monkeypatch.setattr(module, "render_template", counting)
    return made


def test_the_pack_is_made_once_per_language_and_rules_and_sent_compressed(client, monkeypatch):
    import brotli

    from tutor.web.quiz import pack

    made = _count_renders(monkeypatch, pack)
    plain = client.get("/en/quiz/pack").get_data()
    for encoding, unpack in (("br", brotli.decompress), ("gzip", gzip.decompress)):
        response = client.get("/en/quiz/pack", headers={"Accept-Encoding": encoding})
        assert response.headers["Content-Encoding"] == encoding and "Accept-Encoding" in response.vary
        assert unpack(response.get_data()) == plain
    assert made == {"quiz/pack.html": 1, "quiz/_pack_days.html": 1}
    tomorrow = quiz_progress.today() + 1
    monkeypatch.setattr(pack, "today", lambda: tomorrow)  # a new day: only the daily challenges anew
    other = client.get("/en/quiz/pack").get_data()
    assert other != plain and made == {"quiz/pack.html": 1, "quiz/_pack_days.html": 2}
    assert quiz_progress.day_text(tomorrow + pack.PACK_DAYS - 1).encode() in other


def test_the_pack_is_made_anew_for_another_scheme_or_prefix(client, monkeypatch):
    """Its links are built from the address: a pack made for http://… is not the one for
    https://…, nor the one for the app under /doko."""
    from tutor.web.quiz import pack

    made = _count_renders(monkeypatch, pack)
    plain = client.get("/en/quiz/pack").get_data(as_text=True)
    secure = client.get("/en/quiz/pack", base_url="https://localhost").get_data(as_text=True)
    prefixed = client.get("/en/quiz/pack", environ_overrides={"SCRIPT_NAME": "/doko"}).get_data(as_text=True)
    assert made["quiz/pack.html"] == 3
    assert 'href="/en/' in plain and 'href="/doko/en/' in prefixed and 'href="/en/' not in prefixed
    assert "/doko/" not in plain and "/doko/" not in secure


def test_cycling_the_rules_cookie_keeps_the_pack_caches_bounded(client):
    from tutor.web.quiz import pack

    for deck in ("48", "40"):
        for pagat in ("pagat", "ddv"):
            client.set_cookie("rules", f"{pagat}|deck={deck}")
            assert client.get("/en/quiz/pack", headers={"Accept-Encoding": "br"}).status_code == 200
    app = client.application
    for name, size in (("quiz_pack_kinds", pack.PACK_KINDS_KEPT), ("quiz_pack_bodies", pack.PACK_BODIES_KEPT)):
        store = app.extensions[name]
        assert store.maxsize == size and 0 < store.currsize <= size


def test_the_service_worker_precaches_the_quiz_assets_and_serves_the_pack_offline(client):
    body = client.get("/sw.js").get_data(as_text=True)
    assert "css/quiz.css" in body and "js/quiz.js" in body
    assert "/quiz/pack" in body


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_every_prompt_choice_and_reason_has_words(app, lang):
    from tutor.quiz import MAX_LEVEL
    from tutor.rules.rulesets import RuleSet
    from tutor.web.words import questions as quiz_text

    rules = (RuleSet.named("ddv").with_options(poverty=True, dullen="second_wins", schweinchen=True),
             RuleSet.named("pagat").with_options(dullen="second_wins_except_last", deck=40))
    codes = set()
    with app.test_request_context(f"/{lang}/quiz/"):
        from flask import g
        g.lang = lang
        for kind in KINDS:
            for seed in range(150):
                q = make(kind, seed, rules[seed % 2], seed % (MAX_LEVEL + 1))
                texts = [quiz_text.prompt(q), quiz_text.answer_text(q)]
                texts += [quiz_text.reason_text(r, q) for r in q.reasons]
                texts += [quiz_text.choice_label(c) for f in q.fields for c in f.choices if not c.card]
                for text in texts:
                    assert text.strip() and "%(" not in text, (kind, seed, text)
                codes.update(r.code for r in q.reasons)
    assert len(codes) >= 45, sorted(codes)


def test_an_answer_posted_from_another_site_does_not_count(app, client):
    html = client.get("/en/quiz/winner").get_data(as_text=True)
    question, _ = question_of(app, html)
    response = post_answer(client, "/en/quiz/winner", html, form_for(question), **{"Sec-Fetch-Site": "cross-site"})
    assert response.status_code == 400 and "winner" not in progress_of(app, client).kinds


def test_asking_sends_no_cookie_and_answering_sends_what_changed(app, client):
    """A question changes nothing of the learner's, so it writes nothing. An answer writes
    the quiz's progress; the practice the lessons share only when it changed: a miss puts
    its rule up for review, a right answer to a rule not in review leaves it as it was."""
    def cookies(response):
        return sorted(c.split("=", 1)[0] for c in response.headers.getlist("Set-Cookie"))

    page = client.get("/en/quiz/winner")
    assert cookies(page) == ["lang"]  # the page's language, nothing of the quiz
    question, _ = question_of(app, page.get_data(as_text=True))
    right = post_answer(client, "/en/quiz/winner", page.get_data(as_text=True), form_for(question))
    assert cookies(right) == [quiz_progress.COOKIE]
    assert progress_of(app, client).of("winner").streak == 1
    page = client.get("/en/quiz/winner").get_data(as_text=True)
    question, _ = question_of(app, page)
    wrong = post_answer(client, "/en/quiz/winner", page, form_for(question, wrong_for(question)))
    assert cookies(wrong) == ["practice", quiz_progress.COOKIE]
    assert client.get_cookie("practice") is not None
