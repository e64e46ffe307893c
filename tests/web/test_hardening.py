"""Issue 9's findings 6 to 8 over HTTP: a foreign Host, sheet pages kept out of caches, writes
that race, and the settings page keeping both halves of a choice."""
from __future__ import annotations

import re
from html import unescape
from urllib.parse import urlsplit

import pytest

from app import create_app
from tests.postgres import postgres_url

PLAYERS = ["Anna", "Bert", "Carl", "Dora"]
HOST = "doko.example.org"


# --- finding 6: the Host header, and sheet pages in caches ---------------------------------


@pytest.fixture
def trusted(monkeypatch, tmp_path):
    """The app as `TRUSTED_HOSTS=doko.example.org make run` starts it."""
    monkeypatch.setenv("TRUSTED_HOSTS", f" {HOST}, www.{HOST} ")
    return create_app({"TESTING": True}, instance_path=str(tmp_path / "instance"))


def test_trusted_hosts_come_from_the_environment(trusted):
    assert trusted.config["TRUSTED_HOSTS"] == [HOST, f"www.{HOST}"]


def test_without_trusted_hosts_every_host_is_answered(app, monkeypatch):
    monkeypatch.delenv("TRUSTED_HOSTS", raising=False)
    assert not app.config.get("TRUSTED_HOSTS")
    assert app.test_client().get("/en/", headers={"Host": "127.0.0.1:8000"}).status_code == 200


@pytest.mark.parametrize("host", ["a" * 64 + ".example", "a..b", "."])
@pytest.mark.parametrize("path", ["/en/", "/en/rules/", "/nope"])
def test_a_host_no_url_can_name_is_a_400_without_trusted_hosts(tmp_path, monkeypatch, host, path):
    """A label of more than 63 characters or an empty one: werkzeug cannot make a URL of it,
    so the app answers a 400 with a sentence, not a 500 whose error page fails to build links."""
    monkeypatch.delenv("TRUSTED_HOSTS", raising=False)
    served = create_app({}, instance_path=str(tmp_path / "instance"))  # not TESTING: as a visitor gets it
    response = served.test_client().get(path, headers={"Host": host})
    assert response.status_code == 400, response.status_code
    assert "Traceback" not in response.get_data(as_text=True)


def test_without_trusted_hosts_no_answer_carries_the_host_it_was_asked_for(app, monkeypatch):
    monkeypatch.delenv("TRUSTED_HOSTS", raising=False)
    client = app.test_client()
    for path in ("/en/", "/de/rules/trumps", "/en/quiz/", "/en/settings", "/en/learn/"):
        response = client.get(path, headers={"Host": "evil.example"})
        assert response.status_code == 200 and "evil.example" not in response.get_data(as_text=True), path
        assert 'hreflang="de" href="/de/' in response.get_data(as_text=True), path


def test_without_trusted_hosts_a_sheet_carries_no_host_and_its_links_are_made_whole_by_the_browser(app, monkeypatch):
    monkeypatch.delenv("TRUSTED_HOSTS", raising=False)
    client = app.test_client()
    sheet = client.post("/en/sheet/", data={"player": PLAYERS, "ruleset": "ddv"}, headers={"Host": "evil.example"})
    key = sheet.headers["Location"].rsplit("/", 1)[1]
    assert "evil.example" not in sheet.headers["Location"]
    html = client.get(f"/en/sheet/{key}", headers={"Host": "evil.example"}).get_data(as_text=True)
    assert "evil.example" not in html
    assert re.search(r'value="/en/sheet/[\w-]+" data-whole-url', html)  # app.js makes it whole
    assert 'class="sheet-qr"' not in html  # a QR code would need the host


def test_with_trusted_hosts_a_sheet_has_its_qr_code(trusted):
    client = trusted.test_client()
    sheet = client.post("/en/sheet/", data={"player": PLAYERS, "ruleset": "ddv"}, headers={"Host": HOST})
    html = client.get(sheet.headers["Location"], headers={"Host": HOST}).get_data(as_text=True)
    assert 'class="sheet-qr"' in html and "data-whole-url" not in html


def test_https_answers_ask_browsers_to_stay_on_https(client):
    for path in ("/en/", "/static/css/app.css", "/nope", "/api/v1/openapi.json"):
        for base, hsts in (("https://localhost", "max-age=31536000"), ("http://localhost", None)):
            with client.get(path, base_url=base) as response:
                assert response.headers.get("Strict-Transport-Security") == hsts, (path, base)


@pytest.mark.parametrize("path", ["/", "/en/", "/en/rules/", "/de/settings", "/en/sheet/", "/nope", "/api/v1/x"])
def test_a_foreign_host_gets_no_page_and_no_link(trusted, path):
    client = trusted.test_client()
    response = client.get(path, headers={"Host": "evil.example"})
    assert response.status_code == 400
    assert "evil.example" not in response.get_data(as_text=True)
    assert "evil.example" not in response.headers.get("Location", "")
    assert "Traceback" not in response.get_data(as_text=True)


def test_a_foreign_host_cannot_write(trusted):
    client = trusted.test_client()
    response = client.post("/en/sheet/", data={"player": PLAYERS, "ruleset": "ddv"}, headers={"Host": "evil.example"})
    assert response.status_code == 400 and "Location" not in response.headers


def test_share_links_and_language_links_name_the_trusted_host(trusted):
    client = trusted.test_client()
    response = client.post("/en/sheet/", data={"player": PLAYERS, "ruleset": "ddv"}, headers={"Host": HOST})
    assert response.status_code == 303
    sheet = response.headers["Location"]
    html = client.get(sheet, headers={"Host": f"www.{HOST}"}).get_data(as_text=True)
    hosts = {urlsplit(unescape(u)).hostname for u in re.findall(r'href="(https?://[^"]+)"', html)}
    hosts |= {urlsplit(unescape(u)).hostname for u in re.findall(r'value="(https?://[^"]+)"', html)}
    assert hosts == {f"www.{HOST}"}, hosts
    assert client.get("/", headers={"Host": HOST}).status_code in (302, 303)


@pytest.fixture(params=["sqlite", "postgres"])
def sheet_app(request, tmp_path):
    url = f"sqlite:///{tmp_path}/sheets.sqlite3" if request.param == "sqlite" else postgres_url()
    return create_app({"TESTING": True, "DATABASE_URL": url}, instance_path=str(tmp_path / "instance"))


def new_sheet(client) -> str:
    response = client.post("/en/sheet/", data={"player": PLAYERS, "ruleset": "ddv"})
    assert response.status_code == 303
    return response.headers["Location"]


def deal_form(client, url: str, path: str = "/deal") -> dict[str, str]:
    """The hidden fields of a deal form as the page gives them (version, the one-time id)."""
    html = client.get(url + path).get_data(as_text=True)
    return {name: unescape(value) for name, value in re.findall(r'type="hidden" name="(\w+)" value="([^"]*)"', html)}


DEAL = {"dealer": "0", "re": ["1", "2"], "re_points": "130"}


def test_sheet_pages_are_private_and_only_those_to_read_and_enter_deals_are_kept(sheet_app):
    """No shared cache keeps a sheet's page (its address is its key). The device may keep
    the pages it needs offline: the sheet (either link), the forms for a new deal and the
    list of its sheets, asked again every time; never an edit form, a file or a write's answer."""
    client = sheet_app.test_client()
    url = new_sheet(client)
    client.post(url + "/deal", data={**deal_form(client, url), **DEAL})
    deal_id = re.findall(r'/deal/([\w-]{12})"', client.get(url).get_data(as_text=True))[0]
    view_key = re.search(r"/en/sheet/([\w-]{22})", client.get(url).get_data(as_text=True).replace(url, ""))
    assert view_key
    kept = [url, url + "/deal", url + "/quick", "/en/sheet/", f"/en/sheet/{view_key.group(1)}"]
    never = [f"{url}/deal/{deal_id}", f"{url}/quick/{deal_id}", f"{url}/deal/{deal_id}/undo", url + "/sheet.csv",
             url + "/sheet.json"]
    for path in kept + never:
        response = client.get(path)
        assert response.status_code == 200, path
        assert response.headers["Cache-Control"] == ("private, no-cache" if path in kept else "private, no-store"), path
    response = client.post(url + "/deal", data={"version": "1", **DEAL})  # a stale version: 409
    assert response.status_code == 409 and response.headers["Cache-Control"] == "private, no-store"
    assert client.get(url + "?cents=abc").headers["Cache-Control"] == "private, no-store"  # a 400


def test_the_service_worker_keeps_no_no_store_page(client):
    script = client.get("/sw.js").get_data(as_text=True)
    page = script.split("async function page(request)", 1)[1].split("\n}\n", 1)[0]
    assert "no-store" in page and "&& kept" in page


def test_other_pages_may_still_be_cached(client):
    assert "no-store" not in client.get("/en/rules/").headers.get("Cache-Control", "")


# --- finding 7: writes that race ------------------------------------------------------------


def _sheet_ids(client, url: str) -> list[str]:
    return re.findall(r'/deal/([\w-]{12})"', client.get(url).get_data(as_text=True))


def test_an_edit_that_loses_to_a_delete_gets_the_conflict_page(sheet_app):
    client = sheet_app.test_client()
    url = new_sheet(client)
    client.post(url + "/deal", data={**deal_form(client, url), **DEAL})
    deal_id = _sheet_ids(client, url)[0]
    edit = deal_form(client, url, f"/deal/{deal_id}")  # one phone opens the deal to change it
    delete = client.post(f"{url}/deal/{deal_id}/delete", data={"version": edit["version"]})  # another deletes it
    assert delete.status_code == 303
    response = client.post(f"{url}/deal/{deal_id}", data={**edit, **DEAL, "re_points": "150"})
    assert response.status_code == 409
    assert "changed on another phone" in unescape(response.get_data(as_text=True))
    assert _sheet_ids(client, url) == []
    # The same for a second delete, and a deal that never existed is still a 404.
    again = client.post(f"{url}/deal/{deal_id}/delete", data={"version": edit["version"]})
    assert again.status_code == 409
    current = deal_form(client, url)["version"]
    assert client.post(f"{url}/deal/{'0' * 12}", data={"version": current, **DEAL}).status_code == 404


def test_an_edit_whose_deal_goes_between_reading_and_writing_gets_the_conflict_page(sheet_app, monkeypatch):
    """The delete commits after the edit read the sheet and before it writes."""
    from tutor.web.score.store import Store

    client = sheet_app.test_client()
    url = new_sheet(client)
    client.post(url + "/deal", data={**deal_form(client, url), **DEAL})
    deal_id = _sheet_ids(client, url)[0]
    edit = deal_form(client, url, f"/deal/{deal_id}")
    store = sheet_app.extensions["doko_store"]
    update = Store.update_deal

    def deleted_first(self, sheet, version, deal, data):  # another phone deletes it first
        self.delete_deal(sheet, version, deal)
        return update(self, sheet, version, deal, data)

    monkeypatch.setattr(Store, "update_deal", deleted_first)
    response = client.post(f"{url}/deal/{deal_id}", data={**edit, **DEAL, "re_points": "150"})
    monkeypatch.setattr(Store, "update_deal", update)
    assert response.status_code == 409
    assert "changed on another phone" in unescape(response.get_data(as_text=True))
    assert store.load(url.rsplit("/", 1)[1])[2] == []


def test_a_deal_sent_twice_is_saved_once_and_shows_the_sheet(sheet_app):
    client = sheet_app.test_client()
    url = new_sheet(client)
    form = {**deal_form(client, url), **DEAL}
    assert re.fullmatch(r"[0-9a-f]{12}", form["once"])
    first = client.post(url + "/deal", data=form)
    assert first.status_code == 303
    again = client.post(url + "/deal", data=form)  # the answer was lost: the phone sends it again
    assert again.status_code == 303 and again.headers["Location"] == first.headers["Location"]
    assert len(_sheet_ids(client, url)) == 1
    # Also after the sheet moved on: the next deal saved, then the old form sent once more.
    client.post(url + "/deal", data={**deal_form(client, url), **DEAL, "dealer": "1"})
    late = client.post(url + "/deal", data=form)
    assert late.status_code == 303
    assert len(_sheet_ids(client, url)) == 2


@pytest.mark.parametrize("path", ["/deal", "/quick"])
def test_a_saved_form_sent_again_is_not_checked_against_the_next_dealer(sheet_app, path):
    """Five players: Back after saving, then Save again. The old form's Re player sits out at
    the next dealer, but the form names its own dealer and was saved already: the sheet, not
    "this player sat out", and one deal."""
    client = sheet_app.test_client()
    made = client.post("/en/sheet/", data={"player": [*PLAYERS, "Emil"], "ruleset": "ddv"})
    url = made.headers["Location"]
    fields = {"dealer": "0", "re": ["1", "4"], "game": "normal"}
    fields.update({"re_points": "130"} if path == "/deal" else {"winner": "re", "value": "1"})
    form = {**deal_form(client, url, path), **fields}
    assert client.post(url + path, data=form).status_code == 303
    again = client.post(url + path, data=form)  # at dealer 1, player 1 sits out
    assert again.status_code == 303, unescape(again.get_data(as_text=True))[-1500:]
    html = client.get(url).get_data(as_text=True)
    assert len(re.findall(r'/(?:deal|quick)/([\w-]{12})"', html)) == 1


def test_each_deal_form_has_its_own_one_time_id(sheet_app):
    client = sheet_app.test_client()
    url = new_sheet(client)
    assert deal_form(client, url)["once"] != deal_form(client, url)["once"]
    # A stale form with a new id is still the conflict it was.
    form = {**deal_form(client, url), **DEAL}
    client.post(url + "/deal", data={**deal_form(client, url), **DEAL})
    stale = client.post(url + "/deal", data=form)
    assert stale.status_code == 409
    assert f'name="once" value="{form["once"]}"' in stale.get_data(as_text=True)


@pytest.mark.parametrize("once", ["", "x" * 12, "ABCDEF012345", "0" * 13, "²" * 12])
def test_a_damaged_one_time_id_saves_nothing(sheet_app, once):
    client = sheet_app.test_client()
    url = new_sheet(client)
    response = client.post(url + "/deal", data={**deal_form(client, url), **DEAL, "once": once})
    assert response.status_code == 400
    assert _sheet_ids(client, url) == []


def test_the_store_recognises_a_deal_saved_under_its_id(sheet_app):
    from tutor.web.score.store import AlreadySaved, Conflict

    store = sheet_app.extensions["doko_store"]
    sheet = store.create_sheet(PLAYERS, "ddv", False, 0)
    assert store.add_deal(sheet, 1, {"n": 1}, "0123456789ab") == "0123456789ab"
    with pytest.raises(AlreadySaved):
        store.add_deal(sheet, 1, {"n": 1}, "0123456789ab")
    with pytest.raises(Conflict):
        store.add_deal(sheet, 1, {"n": 2}, "ba9876543210")
    assert [d.id for d in store.load(sheet.edit_key)[2]] == ["0123456789ab"]


def test_two_copies_of_one_form_at_once_save_one_deal(sheet_app):
    import threading

    from tutor.web.score.store import AlreadySaved

    store = sheet_app.extensions["doko_store"]
    sheet = store.create_sheet(PLAYERS, "ddv", False, 0)
    outcomes: list[str] = []
    start = threading.Barrier(4)

    def send():
        start.wait()
        try:
            store.add_deal(sheet, 1, {"n": 1}, "00000000000a")
            outcomes.append("saved")
        except AlreadySaved:
            outcomes.append("already")

    threads = [threading.Thread(target=send) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["already"] * 3 + ["saved"]
    assert len(store.load(sheet.edit_key)[2]) == 1


# --- finding 8: the settings page keeps the rule set and the house options together ---------


def _submit_settings(client, ticks: dict[str, str], button: str, lang: str = "en") -> str:
    """What a browser without JavaScript sends: the page's form as it is, the radios ticked
    by the visitor, and the button pressed; the rules cookie afterwards."""
    html = client.get(f"/{lang}/settings").get_data(as_text=True)
    forms = re.findall(r"<form\b[^>]*>.*?</form>", html, re.S)
    (form,) = [f for f in forms if re.search(rf'<button[^>]*>\s*{re.escape(button)}\s*</button>', f)]
    data: list[tuple[str, str]] = []
    radios: dict[str, str] = {}
    for tag in re.findall(r"<input\b[^>]*>", form):
        name, value = re.search(r'name="([^"]+)"', tag).group(1), unescape(re.search(r'value="([^"]*)"', tag).group(1))
        if 'type="hidden"' in tag:
            data.append((name, value))
        elif 'type="radio"' in tag and " checked" in tag:
            radios[name] = value
    radios.update(ticks)
    data += list(radios.items())
    pressed = re.search(rf'<button([^>]*)>\s*{re.escape(button)}\s*</button>', form).group(1)
    named = re.search(r'name="([^"]+)" value="([^"]*)"', pressed)
    if named:
        data.append(named.groups())
    from werkzeug.datastructures import MultiDict

    response = client.post(f"/{lang}/settings", data=MultiDict(data))
    assert response.status_code == 303, response.get_data(as_text=True)[-2000:]
    return client.get_cookie("rules").value


def test_ticking_pagat_then_a_house_option_then_saving_the_options_keeps_pagat(client):
    cookie = _submit_settings(client, {"ruleset": "pagat", "deck": "40"}, "Save house options")
    assert cookie == "pagat|deck=40"  # pagat's own options, and the one ticked
    html = client.get("/en/settings").get_data(as_text=True)
    assert 'value="pagat" checked' in html and 'value="40" aria-describedby="hint-deck" checked' in html


def test_ticking_a_house_option_then_choosing_a_rule_set_takes_its_own_options(client):
    assert _submit_settings(client, {"ruleset": "pagat", "deck": "40"}, "Use this rule set") == "pagat"


def test_house_options_are_kept_when_the_rule_set_stays(client):
    assert _submit_settings(client, {"deck": "40"}, "Save house options") == "ddv|deck=40"
    assert _submit_settings(client, {"schweinchen": "true"}, "Save house options") == "ddv|deck=40|schweinchen=true"
    # Switching to pagat with another option ticked: pagat's own options plus that one.
    assert _submit_settings(client, {"ruleset": "pagat", "dullen": "second_wins"}, "Save house options") == \
        "pagat|dullen=second_wins"


def test_a_damaged_shown_field_still_saves_what_is_ticked(client):
    response = client.post("/en/settings", data={"ruleset": "pagat", "deck": "40", "save": "options", "shown": "x|"})
    assert response.status_code == 303 and client.get_cookie("rules").value == "pagat|deck=40"


def test_a_host_no_url_can_name_on_a_write_from_another_site_is_a_400(tmp_path, monkeypatch):
    """The cross-site guard refuses the write before routing finds the Host unusable: the error
    page still is the plain sentence, not a 500 whose page fails to build its links."""
    monkeypatch.delenv("TRUSTED_HOSTS", raising=False)
    served = create_app({}, instance_path=str(tmp_path / "instance"))
    response = served.test_client().post("/en/settings", data={"ruleset": "pagat"},
                                         headers={"Host": "a..b", "Origin": "https://evil.example"})
    assert response.status_code == 400 and "Traceback" not in response.get_data(as_text=True)
