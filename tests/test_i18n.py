"""Languages: locale in the URL, the bare `/` redirect, alternates and the language switch."""
from __future__ import annotations

import re

import pytest

from tests.conftest import LANGUAGES, PAGES


def test_root_redirects_by_accept_language(client):
    response = client.get("/", headers={"Accept-Language": "it-IT,it;q=0.9,en;q=0.5"})
    assert response.status_code == 302
    assert response.headers["Location"] == "/it/"
    assert "Accept-Language" in response.headers["Vary"]


def test_root_prefers_the_language_cookie_over_accept_language(client):
    client.set_cookie("lang", "pt")
    response = client.get("/", headers={"Accept-Language": "de"})
    assert response.headers["Location"] == "/pt/"


def test_root_ignores_a_bad_language_cookie(client):
    client.set_cookie("lang", "xx<script>")
    response = client.get("/", headers={"Accept-Language": "fr"})
    assert response.headers["Location"] == "/fr/"


def test_root_falls_back_to_english(client):
    assert client.get("/", headers={"Accept-Language": "ja"}).headers["Location"] == "/en/"
    assert client.get("/").headers["Location"] == "/en/"


def test_reading_a_page_remembers_its_language_for_the_next_visit(client):
    client.get("/es/rules/")
    assert client.get_cookie("lang").value == "es"
    assert client.get("/", headers={"Accept-Language": "de"}).headers["Location"] == "/es/"


def test_unknown_language_is_404(client):
    assert client.get("/xx/").status_code == 404
    assert client.get("/DE/rules/").status_code == 404


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("page", PAGES)
def test_every_page_in_every_language_has_html_lang_and_alternates(client, lang, page):
    response = client.get(f"/{lang}/{page}")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert f'<html lang="{lang}"' in html
    for other in LANGUAGES:  # a path: no host is vouched for (TRUSTED_HOSTS unset)
        assert f'<link rel="alternate" hreflang="{other}" href="/{other}/{page}">' in html
    assert '<link rel="alternate" hreflang="x-default" href="/">' in html


def test_with_trusted_hosts_the_alternates_are_whole_addresses(tmp_path, monkeypatch):
    from app import create_app

    monkeypatch.setenv("TRUSTED_HOSTS", "doko.example.org")
    app = create_app({"TESTING": True}, instance_path=str(tmp_path / "instance"))
    html = app.test_client().get("/en/rules/", base_url="https://doko.example.org").get_data(as_text=True)
    assert '<link rel="alternate" hreflang="de" href="https://doko.example.org/de/rules/">' in html
    assert '<link rel="alternate" hreflang="x-default" href="https://doko.example.org/">' in html


def test_language_menu_keeps_the_page_and_reloads_fully(client):
    html = client.get("/de/rules/").get_data(as_text=True)
    for other in LANGUAGES:
        link = re.search(rf'<a href="/{other}/rules/" hreflang="{other}" lang="{other}" hx-boost="false"', html)
        assert link, other


def test_pages_speak_their_language(client):
    assert "Einstellungen" in client.get("/de/settings").get_data(as_text=True)
    assert "Réglages" in client.get("/fr/settings").get_data(as_text=True)
    assert "Regole" in client.get("/it/rules/").get_data(as_text=True)


def test_language_names_are_in_their_own_language(client):
    html = client.get("/en/").get_data(as_text=True)
    for name in ("Deutsch", "English", "Italiano", "Español", "Français", "Português"):
        assert name in html
