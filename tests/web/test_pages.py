"""Every page: real, translated, with the navigation and its own section marked."""
from __future__ import annotations

import re

import pytest

from tests.conftest import LANGUAGES, PAGES


@pytest.mark.parametrize(
    ("path", "section"),
    [("learn/", "Learn"), ("quiz/", "Quiz"), ("play/", "Play"), ("score/", "Score"), ("sheet/", "Sheet"),
     ("rules/", "Rules"), ("settings", "Settings")],
)
def test_nav_marks_the_current_section(client, path, section):
    html = client.get(f"/en/{path}", follow_redirects=True).get_data(as_text=True)  # Play starts a deal: a 303
    current = html.split('aria-current="page"')[1].split("</a>")[0]
    assert re.search(rf'<span( class="visually-hidden")?>{section}</span>', current)
    assert html.count('aria-current="page"') == 1


def test_the_tab_bar_reaches_play_and_the_sheet_and_the_header_the_settings(client):
    html = client.get("/de/").get_data(as_text=True)
    tabs = re.findall(r'<li><a href="([^"]+)"', html.split('class="tabs"', 1)[1].split("</nav>", 1)[0])
    assert tabs == ["/de/learn/", "/de/play/", "/de/quiz/", "/de/score/", "/de/sheet/", "/de/rules/"]
    header = html.split('class="top"', 1)[1].split("</header>", 1)[0]
    assert 'class="top__settings" href="/de/settings"' in header
    assert '<span class="visually-hidden">Optionen</span>' in header  # a text name for the icon


@pytest.mark.parametrize("lang", LANGUAGES)
def test_landing_pages_link_to_the_reference(client, lang):
    for path in ("learn/", "quiz/", "score/"):
        assert f'class="button" href="/{lang}/rules/' in client.get(f"/{lang}/{path}").get_data(as_text=True)


def test_home_page_links_every_section(client):
    html = client.get("/de/").get_data(as_text=True)
    for path in ("/de/learn/", "/de/quiz/", "/de/score/", "/de/sheet/", "/de/play/", "/de/rules/", "/de/settings"):
        assert f'href="{path}"' in html


def test_not_found_is_a_translated_page(client):
    response = client.get("/fr/nowhere")
    assert response.status_code == 404
    html = response.get_data(as_text=True)
    assert '<html lang="fr"' in html and "Il n’y a pas de page à cette adresse." in html


def test_wrong_method_is_405_not_a_crash(client):
    assert client.put("/en/settings").status_code == 405


def test_too_large_a_form_is_refused(client):
    assert client.post("/en/settings", data={"ruleset": "ddv", "x": "y" * 70_000}).status_code == 413


def test_api_is_still_served(client):
    assert client.get("/api/v1/openapi.json").status_code == 200
    response = client.post("/api/v1/trick", json={"rules": "ddv", "game": "normal", "cards": ["9D", "QC", "10H", "AD"]})
    assert response.get_json()["winner"] == 2


def test_translate_cli_is_registered(runner):
    result = runner.invoke(args=["translate", "--help"])
    assert result.exit_code == 0
    assert "update" in result.output and "compile" in result.output


TITLE = re.compile(r"<title>(.*?)</title>", re.S)
TITLED_PAGES = (*PAGES, "play/?s=1&l=0", "quiz/winner", "quiz/daily", "learn/words", "sheet/")


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("path", TITLED_PAGES)
def test_every_title_is_plain_text(client, lang, path):
    """A page's title is what a tab, a bookmark and a screen reader say: words only, never
    markup that slipped into the title block."""
    response = client.get(f"/{lang}/{path}", follow_redirects=True)
    assert response.status_code == 200
    title = TITLE.search(response.get_data(as_text=True))
    assert title is not None
    text = title.group(1)
    assert "<" not in text and ">" not in text and "\n" not in text.strip(), text
    assert text.strip().endswith("Doko Tutor")
