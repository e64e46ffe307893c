"""A deal played with the tutor over HTTP: whole deals played to the end through the forms
the page offers (normal, wedding, solo, poverty), each final score equal to the API's score
of the exported deal form; the quick checks, the end's questions, stats on the device,
htmx swaps, and hostile URLs that never give a 500."""
from __future__ import annotations

import random
from html import unescape
from html.parser import HTMLParser
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tutor.play import position
from tutor.play.moves import MAX_MOVES, Move
from tutor.rules.rulesets import RuleSet
from tutor.web.base.rules import rules_key
from tutor.web.play.state import check_tricks

DDV, PAGAT = RuleSet.named("ddv"), RuleSet.named("pagat")
POVERTY = DDV.with_options(poverty=True)
MOVE_NAMES = ("card", "announce", "reserve", "poverty")


class Forms(HTMLParser):
    """The GET forms of a page: their hidden fields and their submit buttons."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict] = []
        self.links: list[str] = []
        self._form: dict | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self._form = {"action": a.get("action"), "hidden": {}, "buttons": [], "inputs": [], "class": a.get("class")}
            self.forms.append(self._form)
        elif tag == "input" and self._form is not None:
            if a.get("type") == "hidden":
                self._form["hidden"][a["name"]] = a.get("value", "")
            elif a.get("type") != "radio":
                self._form["inputs"].append(a.get("name"))
        elif tag == "button" and self._form is not None and a.get("name") and "disabled" not in a:
            self._form["buttons"].append((a["name"], a.get("value", "")))
        elif tag == "a" and a.get("href"):
            self.links.append(unescape(a["href"]))

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None


def parse(html: str) -> Forms:
    forms = Forms()
    forms.feed(html)
    return forms


def choices(html: str) -> list[tuple[str, dict]]:
    """Every button of the page's play forms, as (name, query) for the next request."""
    found = []
    for form in parse(html).forms:
        if form["class"] == "play-new":
            continue
        for name, value in form["buttons"]:
            found.append((name, {**form["hidden"], name: value}))
    return found


def query(url: str) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlsplit(url).query).items()}


def play_through(client, url: str, rng: random.Random, prefer: str | None = None, lang: str = "en") -> tuple[str, str]:
    """Tap random buttons the page offers until the deal is over and scored; the final
    page and its URL. ``prefer``: a reservation to choose when it is offered."""
    response = client.get(url)
    for _step in range(200):
        while response.status_code == 303:
            url = response.headers["Location"]
            response = client.get(url)
        assert response.status_code == 200, (url, response.get_data(as_text=True)[:2000])
        html = response.get_data(as_text=True)
        offered = choices(html)
        if "Download the deal (JSON)" in html or "deal.json" in html and not offered:
            return html, url
        moves = [c for c in offered if c[0] in MOVE_NAMES]
        checks = [c for c in offered if c[0] == "w"]
        guesses = [c for c in offered if c[0] == "g"]
        if checks:
            name, q = rng.choice(checks)
        elif guesses:
            name, q = rng.choice(guesses)
        elif "deal.json" not in html and 'name="v"' in html:
            form = next(f for f in parse(html).forms if "v" in f["inputs"])
            name, q = "v", {**form["hidden"], "v": str(rng.randint(-6, 6))}
        else:
            preferred = [c for c in moves if c[0] == "reserve" and c[1]["reserve"] == prefer]
            cards = [c for c in moves if c[0] != "announce"]
            announce = [c for c in moves if c[0] == "announce"]
            if preferred:
                name, q = preferred[0]
            elif announce and rng.random() < 0.15:
                name, q = rng.choice(announce)
            else:
                assert cards, html[:3000]
                name, q = rng.choice(cards)
        url = f"/{lang}/play/?" + urlencode(q)
        response = client.get(url)
    raise AssertionError("the deal did not end")


def finish(client, html: str, url: str) -> dict:
    """The end page's deal as JSON, checked against the API's score of its deal form."""
    link = next(href for href in parse(html).links if "deal.json" in href)
    exported = client.get(link)
    assert exported.status_code == 200 and "attachment" in exported.headers["Content-Disposition"]
    data = exported.get_json()
    assert set(data) == {"deal", "score"}
    q = query(url)
    p = position(RuleSet.named("ddv") if "r" not in q else _rules(q["r"]), int(q["s"]), q.get("m", ""), int(q["l"]))
    assert p.result is not None and data == p.result.as_json()
    assert p.result.reads_back()  # the form says who declared Schweinchen: it always reads back
    api = client.post("/api/v1/score", json=data["deal"])
    assert api.status_code == 200, api.get_json()
    assert api.get_json() == data["score"]
    return data


def _rules(key: str) -> RuleSet:
    from tutor.web.base.rules import rules_from_key

    return rules_from_key(key)


def seed_where(rules: RuleSet, level: int, wanted, start: int = 0, healthy: bool = False) -> int:
    """A seed whose deal fits; ``healthy``: looked at after the learner said "healthy"."""
    for seed in range(start, start + 5000):
        p = position(rules, seed, "", level)
        if healthy and p.turn is not None and p.turn.kind == "reserve":
            p = position(rules, seed, "g", level)
        if wanted(p):
            return seed
    raise AssertionError("no such seed")


def start_url(rules: RuleSet, seed: int, level: int, lang: str = "en") -> str:
    return f"/{lang}/play/?" + urlencode({"s": seed, "l": level, "r": rules_key(rules)})


def offers(reservation: str):
    return lambda p: p.turn is not None and p.turn.kind == "reserve" and reservation in p.turn.options


# --- Whole deals ------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", [DDV, PAGAT, DDV.with_options(schweinchen=True, dullen="second_wins"),
                                   PAGAT.with_options(deck=40)], ids=["ddv", "pagat", "ddv-house", "pagat-40"])
@pytest.mark.parametrize("n", range(3))
def test_normal_deals_played_to_the_end_score_as_the_api(client, rules, n):
    rng = random.Random(n)
    seed = rng.randint(0, 2**31 - 1)
    html, url = play_through(client, start_url(rules, seed, 0), rng)
    data = finish(client, html, url)
    assert data["deal"]["game"] == "normal"


@pytest.mark.parametrize("n", range(3))
def test_a_wedding_declared_by_the_learner(client, n):
    seed = seed_where(DDV, 1, offers("wedding"), 1000 * n)
    html, url = play_through(client, start_url(DDV, seed, 1), random.Random(n), prefer="wedding")
    data = finish(client, html, url)
    assert data["deal"]["game"] in ("wedding", "wedding_solo")


def test_a_wedding_declared_by_a_computer_player(client):
    seed = seed_where(DDV, 1, lambda p: p.game == "wedding" and p.declarer != 0)
    html, url = play_through(client, start_url(DDV, seed, 1), random.Random(5))
    assert finish(client, html, url)["deal"]["game"] in ("wedding", "wedding_solo")


@pytest.mark.parametrize("solo", ["solo_queens", "solo_hearts", "solo_aces"])
def test_a_solo_chosen_by_the_learner(client, solo):
    seed = seed_where(PAGAT, 2, offers(solo), 77)
    html, url = play_through(client, start_url(PAGAT, seed, 2), random.Random(solo), prefer=solo)
    data = finish(client, html, url)
    assert data["deal"]["game"] == solo and data["deal"]["parties"][0] == "re"


def test_a_solo_of_a_computer_player(client):
    seed = seed_where(DDV, 2, lambda p: p.game is not None and p.game.startswith("solo_") and p.declarer != 0,
                      healthy=True)
    html, url = play_through(client, start_url(DDV, seed, 2), random.Random(9), prefer="healthy")
    assert "Plays alone" in client.get(start_url(DDV, seed, 2) + "&m=g").get_data(as_text=True)
    assert finish(client, html, url)["deal"]["game"].startswith("solo_")


def test_a_poverty_of_the_learner(client):
    seed = seed_where(POVERTY, 2, offers("poverty"))
    html, url = play_through(client, start_url(POVERTY, seed, 2), random.Random(3), prefer="poverty")
    q = query(url)
    assert "p" in q["m"]
    data = finish(client, html, url)
    assert data["deal"]["game"] in ("poverty", "normal")  # nobody took it: dealt again


def test_a_poverty_offered_to_the_learner(client):
    seed = seed_where(POVERTY, 2, lambda p: p.turn is not None and p.turn.kind == "poverty_accept",
                      healthy=True)
    html, url = play_through(client, start_url(POVERTY, seed, 2), random.Random(4), prefer="healthy")
    finish(client, html, url)


@pytest.mark.parametrize("lang", ["de", "it", "es", "fr", "pt"])
def test_a_whole_deal_in_every_language(client, lang):
    rng = random.Random(lang)
    html, url = play_through(client, start_url(DDV, rng.randint(0, 9999), 1, lang), rng, lang=lang)
    finish(client, html, url)


# --- The pages ------------------------------------------------------------------------------


def test_a_fresh_deal_redirects_to_its_own_url(client):
    response = client.get("/en/play/?l=2")
    assert response.status_code == 303
    q = query(response.headers["Location"])
    assert q["l"] == "2" and q["r"] == "ddv" and q["s"].isdigit()
    assert client.get(response.headers["Location"]).status_code == 200


def test_the_hand_offers_legal_cards_and_shows_the_rest_disabled_with_the_rule(client):
    for seed in range(200):
        p = position(DDV, seed, "", 0)
        if p.turn.kind == "play" and len(set(p.turn.options)) < len(set(p.hand)):
            break
    html = client.get(start_url(DDV, seed, 0)).get_data(as_text=True)
    offered = sorted(c[1]["card"] for c in choices(html) if c[0] == "card")
    assert offered == sorted(p.turn.options)
    illegal = [c for c in p.turn.hand if c not in p.turn.options]
    assert sorted(c[1]["why"] for c in choices(html) if c[0] == "why") == sorted(illegal)
    assert html.count("play-card--off") == len(illegal)
    assert "you must" in html and 'aria-describedby="play-why"' in html
    assert "which card would you play here?" in html and 'href="/en/play/hint?' in html
    # A tap on a dimmed card is no move: the same state, with the rule for that card.
    answer = client.get(start_url(DDV, seed, 0) + "&why=" + illegal[0])
    assert answer.status_code == 200 and "may not be played now." in answer.get_data(as_text=True)
    assert sorted(c[1]["card"] for c in choices(answer.get_data(as_text=True)) if c[0] == "card") == offered


def test_a_quick_check_asks_before_the_winner_is_shown_and_explains_a_wrong_answer(client):
    rules, seed = DDV, 11
    checked = min(check_tricks(seed, rules.tricks))
    moves = ""
    while True:
        p = position(rules, seed, moves, 0)
        if len(p.tricks) == checked:
            break
        move = next(m for m in p.turn.moves() if m.kind == "card")
        moves = p.then(move)
    url = start_url(rules, seed, 0) + "&m=" + moves
    html = client.get(url).get_data(as_text=True)
    assert "who takes this trick?" in html
    assert "takes the trick" not in html  # the winner is not shown yet
    assert not [c for c in choices(html) if c[0] == "card"]  # nor the next turn
    winner = p.tricks[-1].winner
    wrong = (winner + 1) % 4
    html = client.get(f"{url}&w={wrong}").get_data(as_text=True)
    assert "Not quite" in html and "takes the trick" in html
    html = client.get(f"{url}&w={winner}").get_data(as_text=True)
    assert "Right!" in html


def test_the_end_asks_for_the_winner_then_the_value_then_shows_the_lines(client):
    html, url = play_through(client, start_url(DDV, 4242, 0), random.Random(1))
    base = {k: v for k, v in query(url).items() if k in ("s", "l", "r", "m")}
    p = position(DDV, int(base["s"]), base["m"], 0)
    score = p.result.score
    first = client.get("/en/play/?" + urlencode(base)).get_data(as_text=True)
    assert "who won?" in first and "Scoring lines" not in first
    right = score.winner or "nobody"
    second = client.get("/en/play/?" + urlencode({**base, "g": right})).get_data(as_text=True)
    assert "Right:" in second and 'name="v"' in second and "Scoring lines" not in second
    third = client.get("/en/play/?" + urlencode({**base, "g": right, "v": str(score.value)})).get_data(as_text=True)
    assert "Right: the deal is worth" in third and "Scoring lines" in third
    assert "Play this deal again" in third and "New deal" in third
    wrong = client.get("/en/play/?" + urlencode({**base, "g": right, "v": str(score.value + 1)}))
    assert "Not quite: the deal is worth" in wrong.get_data(as_text=True)


def test_stats_count_each_finished_deal_once(client):
    html, url = play_through(client, start_url(DDV, 99, 0), random.Random(2))
    assert "1 deal played" in client.get(url).get_data(as_text=True)  # a reload counts nothing
    play_through(client, start_url(DDV, 100, 0), random.Random(2))
    assert "2 deals played" in client.get(start_url(DDV, 5, 0)).get_data(as_text=True)


def test_a_deal_is_counted_on_the_move_that_finishes_it_and_its_end_page_writes_nothing(client):
    """The end page is a state like any other: shown again and again (and kept by the response
    cache) it sets no cookie; the last card's move counted the deal."""
    html, url = play_through(client, start_url(DDV, 99, 0), random.Random(2))
    assert client.get_cookie("play") is not None
    for _ in range(2):
        assert not client.get(url).headers.getlist("Set-Cookie")


def test_a_tampered_stats_cookie_starts_afresh(client):
    client.set_cookie("play", "garbage")
    assert "0 deals played" in client.get(start_url(DDV, 5, 0)).get_data(as_text=True)


def test_htmx_swaps_the_table_and_pushes_the_next_url(client):
    p = position(DDV, 7, "", 0)
    move = next(m for m in p.turn.moves() if m.kind == "card")
    response = client.get(start_url(DDV, 7, 0) + "&card=" + move.value, headers={"HX-Request": "true"})
    assert response.status_code == 200
    body = response.get_data(as_text=True)
    assert body.lstrip().startswith('<section id="play"') and "<html" not in body
    assert query(response.headers["HX-Push-Url"])["m"] == p.then(move)


def test_every_language_has_the_page(client):
    for lang in ("de", "en", "it", "es", "fr", "pt"):
        response = client.get(start_url(DDV, 3, 0, lang))
        assert response.status_code == 200
        assert f'lang="{lang}"' in response.get_data(as_text=True)


# --- Hostile URLs ------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", [
    {"s": "abc"}, {"s": "-1"}, {"s": "99999999999"}, {"s": "1", "l": "7"}, {"s": "1", "m": "!!"},
    {"s": "1", "m": "Q" * (MAX_MOVES + 1)}, {"s": "1", "m": "AAAA"}, {"s": "1", "r": "nope"},
    {"s": "1", "r": "ddv|deck=41"}, {"s": "1", "l": ""},
])
def test_a_damaged_url_gets_a_message_and_a_fresh_deal(client, bad):
    response = client.get("/en/play/?" + urlencode(bad))
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert "Here is a fresh deal" in html and 'name="s"' in html


@pytest.mark.parametrize("move", ["card=XX", "card=QC&card=QS", "announce=schwarz&card=QC", "reserve=wedding",
                                  "poverty=accept", "announce=nope", "card="])
def test_an_impossible_move_keeps_the_deal_with_a_message(client, move):
    response = client.get(start_url(DDV, 7, 0) + "&" + move)
    assert response.status_code == 400
    assert 'value="7"' in response.get_data(as_text=True)


def test_only_a_finished_deal_downloads(client):
    assert client.get("/en/play/deal.json?" + urlencode({"s": 7, "l": 0})).status_code == 400
    assert client.get("/en/play/deal.json?s=x").status_code == 400


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(s=st.one_of(st.text(max_size=12), st.integers(-5, 2**32).map(str)), m=st.text(max_size=40),
       level=st.text(max_size=3), extra=st.sampled_from(["", "card", "w", "g", "v", "announce", "reserve"]),
       value=st.text(max_size=6))
def test_random_urls_never_fail(client, s, m, level, extra, value):
    args = {"s": s, "m": m, "l": level}
    if extra:
        args[extra] = value
    for path in ("/en/play/", "/en/play/deal.json"):
        response = client.get(path + "?" + urlencode(args))
        assert response.status_code in (200, 303, 400), (args, response.status_code)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31 - 1), moves=st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWX012345gwpdhscqjayx",
                                                      max_size=30), level=st.sampled_from("012"))
def test_random_moves_never_fail(client, seed, moves, level):
    response = client.get("/en/play/?" + urlencode({"s": seed, "m": moves, "l": level, "w": "1", "g": "re", "v": "3"}))
    assert response.status_code in (200, 400)


def test_a_check_on_the_last_trick_stays_answered_while_the_deal_is_scored(client):
    seed = next(s for s in range(500) if DDV.tricks in check_tricks(s, DDV.tricks))
    moves = ""
    while (p := position(DDV, seed, moves, 0)).turn is not None:
        moves = p.then(next(m for m in p.turn.moves() if m.kind == "card"))
    base = start_url(DDV, seed, 0) + "&m=" + moves
    assert "who takes this trick?" in client.get(base).get_data(as_text=True)
    html = client.get(f"{base}&w={p.tricks[-1].winner}").get_data(as_text=True)
    form = next(f for f in parse(html).forms if any(b[0] == "g" for b in f["buttons"]))
    html = client.get("/en/play/?" + urlencode({**form["hidden"], "g": "re"})).get_data(as_text=True)
    assert 'name="v"' in html and "who takes this trick?" not in html


def test_a_passed_deadline_is_said_once_and_the_offer_names_its_deadline(client):
    for seed in range(300):
        moves, said = "", None
        while (p := position(DDV, seed, moves, 0)).turn is not None:
            if p.turn.announce and said is None:
                said = p.turn.announce[0]
                html = client.get(start_url(DDV, seed, 0) + "&m=" + moves).get_data(as_text=True)
                assert "Last chance: before you play card" in html or "Now or never: before your next card" in html
            if p.turn.deadlines_passed:
                html = client.get(start_url(DDV, seed, 0) + "&m=" + moves).get_data(as_text=True)
                assert "Too late now for" in html
                nxt = p.then(next(m for m in p.turn.moves() if m.kind == "card"))
                later = position(DDV, seed, nxt, 0)
                if later.turn and not later.turn.deadlines_passed:
                    assert "Too late now" not in client.get(start_url(DDV, seed, 0) + "&m=" + nxt).get_data(
                        as_text=True)
                return
            moves = p.then(next(m for m in p.turn.moves() if m.kind == "card"))
    raise AssertionError("no deal with a passed deadline")


def test_the_computer_players_announcements_are_shown(client):
    for seed in range(300):
        p = position(DDV, seed, "", 0)
        if p.announcements:
            html = client.get(start_url(DDV, seed, 0)).get_data(as_text=True)
            a = p.announcements[0]
            assert "Announcements:" in html and ["You", "West", "North", "East"][a.seat] + ":" in html
            return
    raise AssertionError("no computer announcement")


def test_the_wedding_partner_named_is_the_one_who_took_the_clarifying_trick(client):
    """PLAY-REVIEW.md §4.2.1: the page named the next trick's winner as the partner."""
    checked = 0
    for seed in range(400):
        p = position(DDV, seed, "", 1)
        if p.game != "wedding" or p.declarer == 0 or p.turn.kind != "play":
            continue
        moves = ""
        while p.game == "wedding" and not any(r.cause == "clarification" for t in p.tricks for r in t.reveals):
            if p.turn is None:
                break
            moves = p.then(Move("card", p.turn.options[0]))
            p = position(DDV, seed, moves, 1)
        if p.game != "wedding":
            continue  # the groom took the first three tricks
        partner = next(s for s in range(4) if p.parties[s] == "re" and s != p.declarer)
        html = client.get(start_url(DDV, seed, 1) + "&" + urlencode({"m": moves})).get_data(as_text=True)
        names = ["You", "West", "North", "East"]
        if partner == 0:
            assert "You took this trick: you are the wedding’s partner" in html
        else:
            assert f"{names[partner]} took this trick: {names[partner]} is the wedding’s partner" in html
        for wrong in set(range(1, 4)) - {partner}:
            assert f"{names[wrong]} took this trick: {names[wrong]} is the wedding’s partner" not in html
        checked += 1
        if checked == 4:
            break
    assert checked == 4
