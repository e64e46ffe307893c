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


def test_sheet_pages_are_private_and_never_stored(sheet_app):
    client = sheet_app.test_client()
    url = new_sheet(client)
    client.post(url + "/deal", data={**deal_form(client, url), **DEAL})
    deal_id = re.findall(r'/deal/([\w-]{12})"', client.get(url).get_data(as_text=True))[0]
    view_key = re.search(r"/en/sheet/([\w-]{22})", client.get(url).get_data(as_text=True).replace(url, ""))
    paths = [url, url + "/deal", f"{url}/deal/{deal_id}", url + "/sheet.csv", "/en/sheet/"]
    if view_key:
        paths.append(f"/en/sheet/{view_key.group(1)}")
    for path in paths:
        response = client.get(path)
        assert response.status_code == 200, path
        assert response.headers["Cache-Control"] == "private, no-store", path
    response = client.post(url + "/deal", data={"version": "1", **DEAL})  # a stale version: 409
    assert response.status_code == 409 and response.headers["Cache-Control"] == "private, no-store"


def test_the_service_worker_keeps_no_no_store_page(client):
    script = client.get("/sw.js").get_data(as_text=True)
    page = script.split("async function page(request)", 1)[1].split("\n}\n", 1)[0]
    assert "no-store" in page and "&& kept" in page


def test_other_pages_may_still_be_cached(client):
    assert "no-store" not in client.get("/en/rules/").headers.get("Cache-Control", "")
