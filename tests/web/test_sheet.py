"""The score sheet over HTTP, on SQLite and on a real PostgreSQL: a whole evening, edits and
deletes that recompute everything, two links, CSV, and bad input that stores nothing."""
from __future__ import annotations

import csv
import io
import re
from datetime import UTC, datetime
from html import unescape

import pytest

from app import create_app
from tests.postgres import postgres_url
from tutor.rules.rulesets import RuleSet
from tutor.rules.sheet import Deal, evening
from tutor.web.score.store import Store

PLAYERS = ["Anna", "Bert", "Carl", "Dora"]


@pytest.fixture(params=["sqlite", "postgres"])
def app(request, tmp_path):
    url = f"sqlite:///{tmp_path}/sheets.sqlite3" if request.param == "sqlite" else postgres_url()
    return create_app({"TESTING": True, "DATABASE_URL": url})


@pytest.fixture
def store(app) -> Store:
    return app.extensions["doko_store"]


def new_sheet(client, players=PLAYERS, lang="en", **form) -> str:
    response = client.post(f"/{lang}/sheet/", data={"player": players, "ruleset": "ddv", **form})
    assert response.status_code == 303, response.get_data(as_text=True)[-3000:]
    return response.headers["Location"]


def version(client, url: str) -> str:
    return re.search(r'name="version" value="(\d+)"', client.get(url + "/deal").get_data(as_text=True)).group(1)


def add(client, url: str, **fields) -> None:
    form = {"version": version(client, url), **fields}
    response = client.post(url + "/deal", data=form)
    assert response.status_code == 303, unescape(response.get_data(as_text=True))[-3000:]


def totals(client, url: str) -> list[str]:
    foot = client.get(url).get_data(as_text=True).split('<tfoot id="totals">', 1)[1].split("</tfoot>", 1)[0]
    return [unescape(t).replace("\u2212", "-") for t in re.findall(r"<strong>(.*?)</strong>", foot)]


def deal_ids(client, url: str) -> list[str]:
    return re.findall(r'/deal/([\w-]{12})"', client.get(url).get_data(as_text=True))


def test_start_page_offers_the_visitors_rules(client):
    client.set_cookie("rules", "pagat|deck=40")
    html = client.get("/en/sheet/").get_data(as_text=True)
    assert 'value="pagat" checked' in html and '<option value="40" selected>' in html


def test_an_evening_of_deals_with_totals_dealer_and_checks(client):
    url = new_sheet(client, bock="on")
    add(client, url, dealer="0", re=["1", "3"], game="normal", re_points="156", re_fox="1", kontra_doppelkopf="1")
    add(client, url, dealer="1", re=["2"], game="solo_queens", re_points="190", re_announced="re")
    add(client, url, dealer="1", re=["0", "2"], game="normal", re_points="120")
    html = client.get(url).get_data(as_text=True)
    # Worked example 1, the queens solo (compulsory: Bert deals again) at ×1, then a tie.
    assert totals(client, url) == ["-9", "-1", "11", "-1"]
    assert html.count("both checks pass") == 3
    assert "Queens solo · compulsory" in html
    assert "Deals: <strong>Bert</strong>" not in html  # the tie moved the dealer on to Carl
    assert "Deals: <strong>Carl</strong>" in html
    assert "Bock ×2" in html  # the tie started a Bock round


def test_editing_and_deleting_recompute_everything_after(client):
    url = new_sheet(client, bock="on")
    add(client, url, dealer="0", re=["1", "2"], game="normal", re_points="120")  # tie: Bock
    add(client, url, dealer="1", re=["2", "3"], game="normal", re_points="130")  # ×2
    assert totals(client, url) == ["0", "-4", "0", "4"]
    first, second = deal_ids(client, url)
    form = {"version": version(client, url), "dealer": "0", "re": ["1", "2"], "game": "normal", "re_points": "130"}
    assert client.post(f"{url}/deal/{first}", data=form).status_code == 303
    assert totals(client, url) == ["-2", "0", "2", "0"]  # no tie, no Bock: the second deal counts once
    assert client.post(f"{url}/deal/{first}/delete", data={"version": version(client, url)}).status_code == 303
    assert totals(client, url) == ["-1", "-1", "1", "1"]
    assert deal_ids(client, url) == [second]


def test_an_edit_shows_only_the_tricks_that_were_typed_and_lets_the_points_change(client):
    """A deal saved with its points alone: its edit form leaves Re's tricks empty (the form
    works them out, as it did when the deal was saved), so a correction of the points is not
    refused for a trick count nobody entered. Tricks that were typed are shown again."""
    url = new_sheet(client)
    add(client, url, dealer="0", re=["1", "2"], game="normal", re_points="130")
    add(client, url, dealer="1", re=["2", "3"], game="normal", re_points="130", re_tricks="9")
    guessed, typed = deal_ids(client, url)
    assert re.search(r'name="re_tricks"[^>]*value=""', client.get(f"{url}/deal/{guessed}").get_data(as_text=True))
    assert re.search(r'name="re_tricks"[^>]*value="9"', client.get(f"{url}/deal/{typed}").get_data(as_text=True))
    form = {"version": version(client, url), "dealer": "0", "re": ["1", "2"], "game": "normal", "re_points": "230"}
    response = client.post(f"{url}/deal/{guessed}", data=form)
    assert response.status_code == 303, unescape(response.get_data(as_text=True))[-2000:]


def test_five_players_the_dealer_sits_out(client):
    url = new_sheet(client, players=PLAYERS + ["Emil"], first_dealer="4")
    html = client.get(url).get_data(as_text=True)
    assert "Deals: <strong>Emil</strong>" in html and "Sits out: <strong>Emil</strong>" in html
    add(client, url, dealer="4", re=["0", "1"], game="normal", re_points="100")
    assert totals(client, url) == ["-2", "-2", "2", "2", "0"]
    assert "Sits out: <strong>Anna</strong>" in client.get(url).get_data(as_text=True)


def test_a_field_left_empty_does_not_move_the_first_dealer(client):
    """"Player 4" was chosen to deal first with the third field empty: the fourth field's
    player deals, who is third on the sheet."""
    url = new_sheet(client, players=["Anna", "Ben", "", "Dora", "Emil"], first_dealer="3")
    assert "Deals: <strong>Dora</strong>" in client.get(url).get_data(as_text=True)


def test_vorgefuehrt_warning_near_the_end_of_the_round(client):
    url = new_sheet(client)
    for number in range(19):
        add(client, url, dealer=str(number % 4), re=[str((number + 1) % 4), str((number + 2) % 4)], re_points="130")
    html = unescape(client.get(url).get_data(as_text=True))
    assert "Round 1: 5 deals left" in html
    assert "Vorgeführt:" not in html
    add(client, url, dealer="3", re=["0", "1"], re_points="130")
    assert "Vorgeführt: Bert" in unescape(client.get(url).get_data(as_text=True))


def test_read_only_link_shows_the_sheet_and_changes_nothing(client, store):
    url = new_sheet(client)
    add(client, url, dealer="0", re=["1", "2"], re_points="130")
    edit_key = url.rsplit("/", 1)[1]
    sheet, _ = store.find(edit_key)
    view = f"/en/sheet/{sheet.view_key}"
    html = client.get(view).get_data(as_text=True)
    assert totals(client, view) == totals(client, url)
    assert edit_key not in html and "/deal" not in html
    assert f"/en/sheet/{sheet.view_key}" in client.get(url).get_data(as_text=True)
    deal_id = deal_ids(client, url)[0]
    for path, data in [(view + "/deal", {"version": "2", "dealer": "1", "re": ["2", "3"], "re_points": "130"}),
                       (f"{view}/deal/{deal_id}", {"version": "2", "dealer": "0", "re": ["1", "2"], "re_points": "99"}),
                       (f"{view}/deal/{deal_id}/delete", {"version": "2"})]:
        response = client.post(path, data=data)
        assert response.status_code == 403
        assert "read-only link" in response.get_data(as_text=True)
    assert client.get(view + "/deal").status_code == 403
    assert len(store.load(edit_key)[2]) == 1


def test_unknown_keys_are_404(client):
    assert client.get("/en/sheet/" + "A" * 22).status_code == 404
    assert client.get("/en/sheet/short").status_code == 404


def test_csv_export(client):
    url = new_sheet(client, players=["=cmd()", "Bert", "Carl", "Dora"])
    add(client, url, dealer="0", re=["1", "3"], game="normal", re_points="156", re_fox="1", kontra_doppelkopf="1")
    response = client.get(url + "/sheet.csv")
    assert response.mimetype == "text/csv" and "attachment" in response.headers["Content-Disposition"]
    # named like the JSON file: the day and the players, so two evenings do not overwrite each other
    disposition = response.headers["Content-Disposition"]
    assert re.search(r"filename=doko-sheet-\d{4}-\d\d-\d\d-cmd-bert-carl-dora\.csv$", disposition), disposition
    rows = list(csv.reader(io.StringIO(response.get_data(as_text=True))))
    assert rows[0][-4:] == ["'=cmd()", "Bert", "Carl", "Dora"]
    assert rows[1][:3] == ["1", "'=cmd()", "Normal game"] and rows[1][-4:] == ["-2", "2", "-2", "2"]
    assert rows[-1][0] == "Total" and rows[-1][-4:] == ["-2", "2", "-2", "2"]


def test_two_phones_the_second_gets_a_conflict_and_nothing_is_lost(client, store):
    url = new_sheet(client)
    stale = version(client, url)
    add(client, url, dealer="0", re=["1", "2"], re_points="130")
    response = client.post(url + "/deal", data={"version": stale, "dealer": "0", "re": ["1", "3"], "re_points": "100"})
    assert response.status_code == 409
    html = unescape(response.get_data(as_text=True))
    assert "changed on another phone" in html
    assert 'value="100"' in html  # the typed deal is still in the form, with the new version
    assert len(store.load(url.rsplit("/", 1)[1])[2]) == 1
    deal_id = deal_ids(client, url)[0]
    assert client.post(f"{url}/deal/{deal_id}/delete", data={"version": stale}).status_code == 409
    assert len(store.load(url.rsplit("/", 1)[1])[2]) == 1


def test_the_deal_form_previews_the_score_with_bock(client):
    url = new_sheet(client, bock="on")
    add(client, url, dealer="0", re=["1", "2"], re_points="120")
    response = client.get(url + "/deal?dealer=1&re=2&re=3&re_points=130", headers={"HX-Request": "true"})
    html = response.get_data(as_text=True)
    assert "<html" not in html and "Each Re player <strong>+2</strong>" in html
    assert 'id="sitting-out" hx-swap-oob="true"' in html


def count_sheets(store: Store) -> int:
    with store._transaction() as cur:  # the test looks behind the store's back on purpose
        cur.execute("SELECT COUNT(*) FROM sheets")
        return int(cur.fetchone()[0])


@pytest.mark.parametrize(
    ("form", "field", "message"),
    [
        ({"player": ["A", "B", "C"], "ruleset": "ddv"}, "player", None),
        ({"player": list("ABCDEFGH"), "ruleset": "ddv"}, "player", None),
        ({"player": ["A", "B", "C", "a"], "ruleset": "ddv"}, "player", None),
        ({"player": ["A", "B", "C", "D" * 25], "ruleset": "ddv"}, "player", None),
        ({"player": ["A", "B", "C", "D\x00"], "ruleset": "ddv"}, "player", None),
        ({"player": PLAYERS, "ruleset": "skat"}, "ruleset", "Bitte wähle eines der angebotenen Regelwerke."),
        ({"player": PLAYERS, "ruleset": "ddv", "deck": "52"}, "deck",
         "„Blatt“ kann nicht auf diesen Wert gesetzt werden."),
        ({"player": PLAYERS, "ruleset": "ddv", "first_dealer": "4"}, "first_dealer", None),
        ({"player": PLAYERS, "ruleset": "ddv", "first_dealer": "-1"}, "first_dealer", None),
        ({"player": ["Anna", "Ben", "", "Dora", "Emil"], "ruleset": "ddv", "first_dealer": "2"}, "first_dealer",
         "Spieler 3 hat keinen Namen: Wähle jemanden, der mitspielt."),
        ({"player": PLAYERS, "ruleset": "ddv", "admin": "1"}, None, None),
    ],
)
def test_bad_new_sheet_forms_are_a_400_and_store_nothing(client, store, form, field, message):
    before = count_sheets(store) if store._ready else 0
    response = client.post("/de/sheet/", data=form)
    assert response.status_code == 400
    html = unescape(response.get_data(as_text=True))
    assert '<html lang="de"' in html
    if field:
        assert re.search(rf'id="error-{field}">[^<]+</p>', html)
    if message:
        assert message in html
    assert (count_sheets(store) if store._ready else 0) == before


def test_a_cross_site_post_is_refused(client, store):
    data = {"player": PLAYERS, "ruleset": "ddv"}
    response = client.post("/en/sheet/", data=data, headers={"Sec-Fetch-Site": "cross-site"})
    assert response.status_code == 400
    url = new_sheet(client)
    response = client.post(url + "/deal", data={"version": "1", "dealer": "0", "re": ["1", "2"], "re_points": "130"},
                           headers={"Sec-Fetch-Site": "cross-site"})
    assert response.status_code == 400
    assert store.load(url.rsplit("/", 1)[1])[2] == []


@pytest.mark.parametrize(
    ("fields", "field", "code"),
    [
        ({"re": ["1"]}, "re_players", "wrong_re_count"),
        ({"re": ["1", "2", "3"]}, "re_players", "wrong_re_count"),
        ({"re": ["1", "9"]}, "re_players", None),
        ({"re": ["1", "x"]}, "re_players", None),
        ({"game": "solo_hearts", "re": ["1", "2"]}, "re_players", "wrong_re_count"),
        ({"re_points": "250"}, "re_points", "out_of_range"),
        ({"re_points": ""}, "re_points", None),
        ({"re_points": "abc"}, "re_points", None),
        ({"re_fox": "2", "kontra_fox": "1"}, "kontra_fox", "too_many_extras"),
        ({"dealer": "7"}, "dealer", None),
        ({"dealer": "-1"}, "dealer", None),
        ({"game": "poverty"}, "game", "poverty_not_played"),
        ({"game": "<script>"}, "game", None),
    ],
)
def test_bad_deals_are_a_400_next_to_the_field_and_store_nothing(client, store, fields, field, code):
    url = new_sheet(client, lang="de")
    form = {"version": version(client, url), "dealer": "0", "re": ["1", "2"], "game": "normal", "re_points": "130",
            **fields}
    response = client.post(url + "/deal", data=form)
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert '<html lang="de"' in html and "<script>" not in html.split("<main", 1)[1]
    error = re.search(rf'id="error-{field}">([^<]+)</p>', html)
    assert error, field
    if code:
        from tests.web.test_score import _message

        params = {"expected": 1 if "solo" in form["game"] else 2} if code == "wrong_re_count" else {}
        if code == "out_of_range":
            params = {"low": 0, "high": 240}
        assert unescape(error.group(1)) == _message("de", code, **params)
    assert store.load(url.rsplit("/", 1)[1])[2] == []


def test_a_player_who_sat_out_cannot_be_re(client, store):
    url = new_sheet(client, players=PLAYERS + ["Emil"])
    response = client.post(url + "/deal", data={"version": "1", "dealer": "0", "re": ["0", "1"], "re_points": "130"})
    assert response.status_code == 400
    assert "This player sat out this deal." in response.get_data(as_text=True)


@pytest.mark.parametrize("value", ["", "x", "1.0", "99999999999"])
def test_a_damaged_version_is_a_400_on_every_form(client, store, value):
    url = new_sheet(client, lang="de")
    add(client, url, dealer="0", re=["1", "2"], re_points="130")
    deal_id = deal_ids(client, url)[0]
    form = {"version": value, "dealer": "0", "re": ["1", "2"], "re_points": "99"}
    for path, data in [(url + "/deal", form), (f"{url}/deal/{deal_id}", form), (f"{url}/deal/{deal_id}/delete", form)]:
        response = client.post(path, data=data)
        assert response.status_code == 400
        assert '<html lang="de"' in response.get_data(as_text=True)
    deals = store.load(url.rsplit("/", 1)[1])[2]
    assert [d.data["re_points"] for d in deals] == [130]


def test_a_deal_that_is_gone_leads_to_its_sheet_and_a_write_to_it_is_a_404(client):
    url = new_sheet(client)
    for path in ("deal", "quick"):
        for tail in ("", "/undo"):
            response = client.get(f"{url}/{path}/000000000000{tail}")
            if path == "quick" and tail:
                assert response.status_code == 404  # no such address: undo is the deal's
                continue
            assert response.status_code == 303 and response.headers["Location"] == url, (path, tail)
    response = client.post(f"{url}/deal/000000000000/delete", data={"version": "1"})
    assert response.status_code == 404


def test_after_undo_the_address_is_the_sheet_and_a_reload_or_back_finds_it(client):
    url = new_sheet(client)
    add(client, url, dealer="0", re=["1", "2"], game="normal", re_points="130")
    undo = unescape(re.search(r'href="([^"]+/undo)"', client.get(url).get_data(as_text=True)).group(1))
    confirm = client.get(undo).get_data(as_text=True)
    action = unescape(re.search(r'<form method="post" action="([^"]+/delete)"', confirm).group(1))
    response = client.post(action, data={"version": version(client, url)})
    assert response.status_code == 303 and response.headers["Location"] == url
    again = client.get(undo)  # the undo page again (back, or a reload of an old address)
    assert again.status_code == 303 and again.headers["Location"] == url
    assert client.get(undo.rsplit("/undo", 1)[0]).headers["Location"] == url


def test_a_sheet_not_found_offers_my_sheets(client):
    for path in ("/de/sheet/" + "A" * 22, "/de/sheet/short", "/de/sheet/" + "A" * 22 + "/deal"):
        response = client.get(path)
        assert response.status_code == 404
        html = unescape(response.get_data(as_text=True))
        assert '<a class="button" href="/de/sheet/">Meine Zettel</a>' in html, path
    assert 'class="button" href="/de/sheet/"' not in client.get("/de/nowhere").get_data(as_text=True)


def test_the_edit_form_says_which_deal_it_changes_and_offers_delete_near_the_top(client):
    url = new_sheet(client)
    add(client, url, dealer="0", re=["1", "2"], game="normal", re_points="130")
    add(client, url, dealer="1", re=["2", "3"], game="normal", re_points="100")
    for path in ("deal", "quick"):
        html = client.get(f"{url}/{path}/{deal_ids(client, url)[1]}").get_data(as_text=True)
        assert re.search(r"<h1[^>]*>Change deal 2</h1>", html), path
        assert "<title>Change deal 2" in html
        assert html.index('id="delete"') < html.index('class="calc"'), path  # above the form
        assert 'id="delete" open' not in html  # closed until asked for
    new = client.get(url + "/deal").get_data(as_text=True)
    assert re.search(r"<h1[^>]*>Deal 3</h1>", new) and 'id="delete"' not in new


def test_the_sheet_matches_the_engine(client):
    """The page shows what tutor.rules.sheet computes, deal by deal."""
    plays = [("0", ["1", "3"], "normal", "156"), ("1", ["2"], "solo_jacks", "110"), ("2", ["0", "3"], "normal", "200")]
    url = new_sheet(client)
    for dealer, re_players, game, points in plays:
        add(client, url, dealer=dealer, re=re_players, game=game, re_points=points)
    deals = [Deal(g, int(p), 6, int(d), tuple(int(r) for r in rp)) for d, rp, g, p in plays]
    expected = evening(RuleSet.named("ddv"), 4, deals).totals
    assert totals(client, url) == [str(t) for t in expected]


@pytest.mark.parametrize(
    "query",
    ["dealer=99&re=1", "dealer=-1", "re=" + "&re=".join("0" * 50), "re_points=%00", "game=solo_aces&re=0&re=1",
     "schwarz=kontra&re_tricks=5", "re_fox=9", "dealer=%F0%9F%83%8F"],
)
def test_the_preview_never_breaks(client, query):
    url = new_sheet(client)
    response = client.get(f"{url}/deal?{query}", headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert 'id="result"' in response.get_data(as_text=True)


def test_other_phones_poll_just_the_live_part(client, store):
    url = new_sheet(client)
    view = "/en/sheet/" + store.find(url.rsplit("/", 1)[1])[0].view_key
    assert 'hx-trigger="every 10s"' in client.get(view).get_data(as_text=True)
    assert 'hx-trigger="every 10s"' not in client.get(url).get_data(as_text=True)
    add(client, url, dealer="0", re=["1", "2"], re_points="130")
    fragment = client.get(view, headers={"HX-Request": "true"}).get_data(as_text=True)
    assert fragment.lstrip().startswith('<div id="sheet-live"') and "<html" not in fragment
    assert "both checks pass" in fragment


def test_a_phone_that_follows_the_sheet_gets_a_304_until_it_changes(client, store):
    """The read-only link's poll is a conditional GET: the sheet's tag (from its last change)
    comes back as a 304 with no body while nothing changed, and a new deal changes it."""
    url = new_sheet(client)
    view = "/en/sheet/" + store.find(url.rsplit("/", 1)[1])[0].view_key
    poll = {"HX-Request": "true"}
    first = client.get(view, headers=poll)
    tag = first.headers["ETag"]
    assert first.status_code == 200 and tag.startswith('W/"')
    again = client.get(view, headers={**poll, "If-None-Match": tag})
    assert again.status_code == 304 and again.get_data() == b"" and again.headers["ETag"] == tag
    assert again.headers["Cache-Control"] == "private, no-cache"
    # The page, the editor's link, another language and the settle-up box are answers of their own.
    others = [client.get(view), client.get(url, headers=poll), client.get(view.replace("/en/", "/de/"), headers=poll),
              client.get(view + "?cents=5", headers={**poll, "HX-Target": "settle-up"})]
    assert all(o.status_code == 200 and o.headers["ETag"] != tag for o in others)
    assert len({o.headers["ETag"] for o in others}) == 4
    add(client, url, dealer="0", re=["1", "2"], re_points="130")
    changed = client.get(view, headers={**poll, "If-None-Match": tag})
    assert changed.status_code == 200 and changed.headers["ETag"] != tag and "both checks pass" in changed.text
    assert client.get(view, headers={**poll, "If-None-Match": changed.headers["ETag"]}).status_code == 304
    client.set_cookie("rules", "pagat")  # the whole page names the visitor's rules: a new answer
    page_tag = client.get(view).headers["ETag"]
    client.set_cookie("rules", "ddv")
    assert client.get(view, headers={"If-None-Match": page_tag}).status_code == 200


def dealers(client, url: str) -> list[str]:
    return re.findall(r"dealt by (\w+)", client.get(url).get_data(as_text=True))


def test_after_a_delete_every_later_dealer_follows_the_rotation(client):
    url = new_sheet(client)
    for dealer in ("0", "1", "2"):
        add(client, url, dealer=dealer, re=[str((int(dealer) + 1) % 4), str((int(dealer) + 2) % 4)],
            game="normal", re_points="130")
    first = deal_ids(client, url)[0]
    response = client.post(f"{url}/deal/{first}/delete", data={"version": version(client, url)})
    assert response.status_code == 303
    assert dealers(client, url) == ["Anna", "Bert"]
    assert "Deals: <strong>Carl</strong>" in client.get(url).get_data(as_text=True)


def test_a_dealer_typed_by_hand_is_kept_and_marked(client):
    url = new_sheet(client)
    add(client, url, dealer="0", re=["1", "2"], game="normal", re_points="130")
    add(client, url, dealer="3", re=["0", "1"], game="normal", re_points="130")  # the rotation says Bert
    add(client, url, dealer="0", re=["1", "2"], game="normal", re_points="130")
    html = client.get(url).get_data(as_text=True)
    assert dealers(client, url) == ["Anna", "Dora", "Anna"] and html.count("typed by hand") == 1
    first = deal_ids(client, url)[0]
    client.post(f"{url}/deal/{first}/delete", data={"version": version(client, url)})
    assert dealers(client, url) == ["Dora", "Anna"]


def test_csv_opens_in_german_and_english_spreadsheets(client):
    url = new_sheet(client, lang="de")
    add(client, url, dealer="0", re=["2"], game="solo_queens", re_points="130")  # Carl's compulsory solo: +3
    german = client.get(url + "/sheet.csv").get_data(as_text=True)
    assert german.startswith("\ufeff")  # UTF-8 with a byte-order mark: Excel reads the umlauts
    rows = list(csv.reader(io.StringIO(german.lstrip("\ufeff")), delimiter=";"))
    assert rows[0][:4] == ["Spiel", "Geber", "Spielart", "Pflichtsolo"] and len(rows[0]) == 11  # no Bock column
    assert rows[1][3] == "Pflicht"  # the compulsory solo is marked
    assert rows[1][-4:] == ["-1", "-1", "3", "-1"]  # each player's points, the soloist's three times
    english = client.get(url.replace("/de/", "/en/") + "/sheet.csv").get_data(as_text=True)
    rows = list(csv.reader(io.StringIO(english.lstrip("\ufeff"))))
    assert rows[1][3] == "compulsory" and rows[1][-4:] == ["-1", "-1", "3", "-1"]


def test_the_deal_form_offers_only_the_players_of_this_deal(client):
    url = new_sheet(client, players=["Anna", "Bert", "Carl", "Dora", "Emil"])
    html = client.get(url + "/deal").get_data(as_text=True)  # Anna deals and sits out
    boxes = re.findall(r'name="re" value="(\d)"', html)
    assert boxes == ["1", "2", "3", "4"]
    sheet = client.get(url).get_data(as_text=True)
    assert "Sits out:" in sheet and 'class="standings"' in sheet


def test_undo_takes_back_the_last_deal(client):
    url = new_sheet(client)
    add(client, url, dealer="0", re=["1", "2"], game="normal", re_points="130")
    add(client, url, dealer="1", re=["2", "3"], game="normal", re_points="130")
    html = client.get(url).get_data(as_text=True)
    undo = unescape(re.search(r'href="([^"]+/undo)"', html).group(1))
    assert "Undo deal 2" in html
    confirm = client.get(undo).get_data(as_text=True)  # one more tap: nothing is lost by a slip
    assert 'id="delete" open' in confirm and confirm.count('id="delete"') == 1
    assert confirm.index('id="delete"') < confirm.index('id="deal-form"')  # first, not below the form
    action = unescape(re.search(r'<form method="post" action="([^"]+/delete)"', confirm).group(1))
    response = client.post(action, data={"version": version(client, url)})
    assert response.status_code == 303
    assert dealers(client, url) == ["Anna"] and "Undo deal 1" in client.get(url).get_data(as_text=True)


def test_standings_chart_table_and_figures(client):
    url = new_sheet(client)
    add(client, url, dealer="0", re=["1", "2"], game="normal", re_points="130")
    add(client, url, dealer="1", re=["2"], game="solo_queens", re_points="130")
    html = client.get(url).get_data(as_text=True)
    chart = html.split('class="chart__svg"', 1)[1].split("</svg>", 1)[0]
    assert chart.count("<polyline") == 4 and "<title" in chart
    assert "Totals after each deal" in html  # the numbers, as a table, for screen readers
    carl = re.search(r'<th scope="row">Carl</th>(.*?)</tr>', html.split('class="stats"', 1)[1]).group(1)
    assert re.findall(r'class="num">([^<]*)<', carl) == ["2/2", "1/1", "2/0", "+3"]


def test_my_sheets_on_this_device_newest_first(client):
    first = new_sheet(client, players=["Anna", "Bert", "Carl", "Dora"])
    second = new_sheet(client, players=["Emil", "Fritz", "Gerda", "Hans"])
    add(client, first, dealer="0", re=["1", "2"], game="normal", re_points="130")
    client.get(first)
    client.get(second)
    html = client.get("/en/sheet/").get_data(as_text=True)
    listed = html.split('class="my-sheets"', 1)[1].split("</section>", 1)[0]
    assert listed.index("Emil, Fritz") < listed.index("Anna, Bert")
    assert second.rsplit("/", 1)[1] in listed
    items = [re.sub(r"<[^>]+>|\s+", " ", item) for item in listed.split("<li>")[1:]]
    today = datetime.now(UTC)
    day = f"{today.strftime('%b')} {today.day}, {today.year}"  # how English writes a medium date
    assert "0 deals" in items[0] and "1 deal " in items[1] and all(day in item for item in items), items
    assert "imported" not in listed
    links = client.get(first).get_data(as_text=True).split("Read-only link")[1]
    client.get("/en/sheet/" + re.search(r"/en/sheet/([\w-]{22})\b", links).group(1))
    listed = client.get("/de/sheet/").get_data(as_text=True).split('class="my-sheets"', 1)[1].split("</section>")[0]
    assert listed.count("<li>") == 3 and "nur lesen" in listed.split("<li>")[1]
    client.set_cookie("sheets", "nonsense.<script>")
    assert client.get("/en/sheet/").status_code == 200


def settle_box(html: str) -> str:
    return unescape(html.split('<section id="settle-up"', 1)[1].split("</section>", 1)[0])


def test_settle_up_shows_balances_and_who_pays_whom(client, store):
    url = new_sheet(client)
    add(client, url, dealer="0", re=["1", "2"], re_points="130")
    add(client, url, dealer="1", re=["3"], game="solo_queens", re_points="190", re_announced="re")
    page = client.get(url).get_data(as_text=True)
    assert 'name="cents"' in settle_box(page) and "Payments" not in settle_box(page)
    # Bert 1 − 5 = −4, Carl −4, Anna −6, Dora 14 points: at 5 cents Anna, Bert and Carl each pay Dora.
    response = client.get(url + "?cents=5")
    assert response.status_code == 200
    box = settle_box(response.get_data(as_text=True))
    assert "Balance at 5 cents per point" in box
    payments = re.findall(r"<li>(.*?)</li>", box.split('class="payments"', 1)[1])
    assert payments == ["Anna pays Dora €0.30", "Bert pays Dora €0.20", "Carl pays Dora €0.20"]
    assert "+€0.70" in box and "\u2212€0.30" in box
    # The same in German and Brazilian Portuguese, from the read-only link too.
    view = store.find(url.rsplit("/", 1)[1])[0].view_key
    german = settle_box(client.get(f"/de/sheet/{view}?cents=5").get_data(as_text=True))
    assert "Anna zahlt Dora 0,30\xa0€" in german
    brazil = settle_box(client.get(f"/pt/sheet/{view}?cents=5").get_data(as_text=True))
    assert "Anna paga R$\xa00,30 para Dora" in brazil
    # htmx asks for the box alone.
    fragment = client.get(url + "?cents=5", headers={"HX-Request": "true", "HX-Target": "settle-up"})
    text = fragment.get_data(as_text=True)
    assert text.lstrip().startswith('<section id="settle-up"') and "<html" not in text


@pytest.mark.parametrize("cents", ["", "0", "101", "-5", "1.5", "abc", "²", "1_0", "9" * 40, "++1"])
def test_bad_cents_per_point_are_a_400_with_the_fields_message(client, cents):
    url = new_sheet(client)
    add(client, url, dealer="0", re=["1", "2"], re_points="130")
    for headers in ({}, {"HX-Request": "true", "HX-Target": "settle-up"}):
        response = client.get(url, query_string={"cents": cents}, headers=headers)
        assert response.status_code == 400
        box = settle_box(response.get_data(as_text=True))
        assert "Enter the cents per point as a whole number from 1 to 100." in box
        assert 'aria-invalid="true"' in box and "Payments" not in box


def test_deals_first_lists_the_names_typed(client):
    """Sent back with a mistake, the form names each player in "Deals first" by the name
    typed (the fields left empty by their number); app.js does the same while typing."""
    response = client.post("/en/sheet/", data={"player": ["Anna", "", "Carl", "Anna"], "ruleset": "ddv",
                                               "first_dealer": "2"})
    assert response.status_code == 400
    select = response.get_data(as_text=True).split('name="first_dealer"', 1)[1].split("</select>", 1)[0]
    assert re.findall(r">([^<]+)</option>", select) == ["Anna", "Player 2", "Carl", "Anna", "Player 5",
                                                        "Player 6", "Player 7"]
    assert '<option value="2" data-player-label="Player 3" selected>Carl</option>' in select


def test_after_saving_the_sheet_opens_at_its_top_where_the_names_are(client):
    url = new_sheet(client)
    form = {"version": version(client, url), "dealer": "0", "re": ["1", "2"], "re_points": "130"}
    assert client.post(url + "/deal", data=form).headers["Location"] == url  # no anchor down at the totals
    deal_id = deal_ids(client, url)[0]
    changed = client.post(f"{url}/deal/{deal_id}", data={**form, "version": version(client, url)})
    assert changed.status_code == 303 and changed.headers["Location"] == url


def test_a_sheet_is_rendered_once_for_its_tag_and_the_cookies_it_read(client, monkeypatch):
    from tutor.web.score import sheet as views

    rendered = []
    real = views.sheet_context
    monkeypatch.setattr(views, "sheet_context", lambda loaded: rendered.append(1) or real(loaded))
    url = new_sheet(client)
    first = client.get(url).get_data(as_text=True)
    assert client.get(url).get_data(as_text=True) == first and len(rendered) == 1  # kept
    assert client.get(url, headers={"HX-Request": "true"}).status_code == 200 and len(rendered) == 2  # another part
    client.set_cookie("rules", "pagat")  # the page says which rules the visitor has chosen
    assert client.get(url).get_data(as_text=True) != first and len(rendered) == 3
    client.delete_cookie("rules")
    add(client, url, dealer="0", re=["0", "2"], re_points="130")  # a new version: a new tag
    assert len(totals(client, url)) == 4 and len(rendered) >= 4
    assert client.get(url + "?cents=abc").status_code == 400
    assert client.get(url + "?cents=abc").status_code == 400  # a refusal is never kept
