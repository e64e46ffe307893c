"""Installable and offline: the manifest, the icons and the service worker."""
from __future__ import annotations

import json
import re
import struct
from pathlib import Path

import pytest

from tutor.web.base.reference import PAGES

ROOT = Path(__file__).resolve().parents[2]


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_manifest_has_what_an_install_needs(client):
    response = client.get("/manifest.webmanifest?lang=de")
    assert response.mimetype == "application/manifest+json"
    manifest = json.loads(response.data)
    for key in ("name", "short_name", "id", "start_url", "scope", "display", "theme_color", "background_color", "lang"):
        assert manifest[key], key
    assert manifest["display"] == "standalone"
    assert manifest["lang"] == "de" and manifest["start_url"] == "/de/"
    assert manifest["name"] != "Doko Tutor: learn Doppelkopf"  # translated
    purposes = {(icon["sizes"], icon["purpose"]) for icon in manifest["icons"]}
    assert purposes == {("192x192", "any"), ("512x512", "any"), ("192x192", "maskable"), ("512x512", "maskable")}
    for icon in manifest["icons"]:
        with client.get(icon["src"]) as response:
            width, height = png_size(response.data)
        assert f"{width}x{height}" == icon["sizes"]


def test_manifest_id_stays_the_same_in_every_language(client):
    ids = {json.loads(client.get(f"/manifest.webmanifest?lang={lang}").data)["id"] for lang in ("de", "en", "fr")}
    assert ids == {"/"}


def test_manifest_ignores_an_unknown_language(client):
    manifest = json.loads(client.get("/manifest.webmanifest?lang=zz", headers={"Accept-Language": "es"}).data)
    assert manifest["lang"] == "es"


def test_pages_link_the_manifest_in_their_language(client):
    assert 'href="/manifest.webmanifest?lang=fr"' in client.get("/fr/").get_data(as_text=True)


def test_service_worker_is_served_from_the_root_uncached(client):
    response = client.get("/sw.js")
    assert response.mimetype == "text/javascript"
    assert response.headers["Cache-Control"] == "no-cache"


def test_service_worker_precaches_a_shell_that_exists(client):
    body = client.get("/sw.js").get_data(as_text=True)
    shell = json.loads(re.search(r"const SHELL = (\[.*?\]);", body).group(1))
    pages = json.loads(re.search(r"const LANGUAGE_PAGES = (\{.*?\});", body).group(1))
    assert sorted(pages) == sorted(("de", "en", "it", "es", "fr", "pt"))
    for lang, urls in pages.items():
        sections = [f"/{lang}/rules/{slug}" for slug in PAGES]  # the reference: contents and every section
        assert urls == [f"/{lang}/offline", f"/{lang}/rules/", *sections, f"/{lang}/score/"]
    assert not [url for url in shell if not url.startswith("/static/")]  # no page of any one language
    assert any("css/app.css" in url for url in shell) and any("vendor/htmx-2.0." in url for url in shell)
    assert [url.split("?")[0] for url in shell if "/icons/" in url] == ["/static/icons/icon-192.png"]  # the pages' own
    for url in shell + [url for urls in pages.values() for url in urls]:
        with client.get(url) as response:
            assert response.status_code == 200, url


def test_service_worker_installs_one_language_and_keeps_others_when_visited(client):
    body = client.get("/sw.js").get_data(as_text=True)
    install = body.split('addEventListener("install"', 1)[1].split("\n});\n", 1)[0]
    assert "installLanguages" in install and "LANGUAGE_PAGES" not in install
    page = body.split("async function page(request)", 1)[1].split("\n}\n", 1)[0]
    assert "keepLanguage(languageOf(url))" in page


def test_service_worker_version_changes_with_the_assets(client, tmp_path):
    from tutor.web.shell import pwa

    version = re.search(r'const VERSION = "([0-9a-f]+)";', client.get("/sw.js").get_data(as_text=True)).group(1)
    with client.application.app_context():
        assert version == pwa.asset_version()
    css = tmp_path / "static" / "css" / "app.css"
    css.parent.mkdir(parents=True)
    css.write_text("a { color: red; }")
    before = pwa.tree_hash(tmp_path)
    pwa.tree_hash.cache_clear()
    css.write_text("a { color: blue; }")
    assert pwa.tree_hash(tmp_path) != before


def test_a_release_that_only_changes_a_lesson_is_a_new_version(tmp_path):
    """The offline copies of lessons are refreshed like every other asset."""
    from tutor.web.shell import pwa

    lesson = tmp_path / "lessons" / "01-cards"
    lesson.mkdir(parents=True)
    (lesson / "lesson.toml").write_text('slug = "cards"\n')
    (lesson / "en.md").write_text("# Cards\n")
    before = pwa.tree_hash(tmp_path)
    for name, text in (("en.md", "# The cards\n"), ("lesson.toml", 'slug = "cards"\n# more\n')):
        pwa.tree_hash.cache_clear()
        (lesson / name).write_text(text)
        after = pwa.tree_hash(tmp_path)
        assert after != before, name
        before = after


@pytest.mark.parametrize("name", ["icon-192.png", "icon-512.png", "maskable-192.png", "maskable-512.png"])
def test_icons_are_committed_pngs(name):
    data = (ROOT / "static" / "icons" / name).read_bytes()
    size = int(name.split("-")[1].split(".")[0])
    assert png_size(data) == (size, size)
