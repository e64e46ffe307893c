"""How responses travel: compressed text, static files cached by their version, /favicon.ico."""
from __future__ import annotations

import gzip
import json
import re
import struct
from pathlib import Path

import brotli
import pytest
from flask import Response, request, stream_with_context
from flask_babel import force_locale

from tests.conftest import LANGUAGES, PAGES
from tutor.web.shell import assets
from tutor.web.shell.pwa import asset_version
from tutor.web.words import cards

DECODE = {"br": brotli.decompress, "gzip": gzip.decompress}
STATIC = re.compile(r'(?:href|src)="(/static/[^"]*)"')
IMMUTABLE = "public, max-age=31536000, immutable"


def static_urls_of(client, path):
    body = client.get(path).get_data(as_text=True)
    return STATIC.findall(body)


def vary(response):
    return {part.strip().lower() for part in response.headers.get("Vary", "").split(",")}


# Every kind of text the app sends, each large enough to be worth compressing.
TEXT = [
    "/en/",
    "/de/rules/",
    "/fr/learn/",
    "/it/score/",
    "/es/settings",
    "/pt/offline",
    "/api/v1/openapi.json",
    "/manifest.webmanifest?lang=de",
    "/sw.js",
]


@pytest.mark.parametrize("path", TEXT)
@pytest.mark.parametrize("encoding", ["br", "gzip"])
def test_text_is_compressed_and_decodes_to_the_same_body(client, path, encoding):
    plain = client.get(path)
    packed = client.get(path, headers={"Accept-Encoding": encoding})
    assert plain.status_code == packed.status_code == 200
    assert "Content-Encoding" not in plain.headers
    assert packed.headers["Content-Encoding"] == encoding
    assert int(packed.headers["Content-Length"]) == len(packed.data) < len(plain.data)
    assert DECODE[encoding](packed.data) == plain.data
    assert "accept-encoding" in vary(plain) and "accept-encoding" in vary(packed)


def test_brotli_is_preferred_when_both_are_accepted(client):
    response = client.get("/en/rules/", headers={"Accept-Encoding": "gzip, deflate, br"})
    assert response.headers["Content-Encoding"] == "br"
    response = client.get("/en/rules/", headers={"Accept-Encoding": "br;q=0.5, gzip"})
    assert response.headers["Content-Encoding"] == "gzip"


def test_unknown_or_refused_encodings_get_the_plain_body(client):
    for accept in ("identity", "compress", "deflate;q=0.5", "zstd"):
        response = client.get("/en/rules/", headers={"Accept-Encoding": accept})
        assert "Content-Encoding" not in response.headers, accept


def test_tiny_and_streamed_responses_stay_as_they_are(app):
    @app.get("/test-tiny")
    def tiny():
        return "ok"

    @app.get("/test-stream")
    def stream():
        return Response(stream_with_context(iter(["x" * 4000] * 3)), mimetype="text/html")

    client = app.test_client()
    tiny_response = client.get("/test-tiny", headers={"Accept-Encoding": "br, gzip"})
    assert "Content-Encoding" not in tiny_response.headers and tiny_response.data == b"ok"
    streamed = client.get("/test-stream", headers={"Accept-Encoding": "br, gzip"})
    assert "Content-Encoding" not in streamed.headers and streamed.data == b"x" * 12000


def test_a_strong_etag_names_the_encoding_and_still_matches(app):
    @app.get("/test-etag")
    def tagged():
        response = Response("<p>" + "same text " * 200 + "</p>", mimetype="text/html")
        response.set_etag("abc")
        return response.make_conditional(request)

    client = app.test_client()
    plain = client.get("/test-etag")
    packed = client.get("/test-etag", headers={"Accept-Encoding": "gzip"})
    assert plain.headers["ETag"] == '"abc"'
    assert packed.headers["ETag"] == '"abc:gzip"'
    again = client.get("/test-etag", headers={"Accept-Encoding": "gzip", "If-None-Match": '"abc:gzip"'})
    assert again.status_code == 304 and again.data == b""
    assert client.get("/test-etag", headers={"If-None-Match": '"abc"'}).status_code == 304
    # the compressed body's tag does not validate the plain one
    assert client.get("/test-etag", headers={"If-None-Match": '"abc:gzip"'}).status_code == 200


@pytest.mark.parametrize("name", ["css/app.css", "css/quiz.css", "css/score.css", "js/app.js", "js/quiz.js"])
@pytest.mark.parametrize("encoding", ["br", "gzip"])
def test_static_text_is_served_precompressed(client, name, encoding):
    url = f"/static/{name}?v={asset_version_of(client)}"
    with client.get(url) as plain, client.get(url, headers={"Accept-Encoding": encoding}) as packed:
        plain_body, packed_body = plain.data, packed.data
        assert packed.headers["Content-Encoding"] == encoding and "Content-Encoding" not in plain.headers
        assert "accept-encoding" in vary(packed)
    assert DECODE[encoding](packed_body) == plain_body == (Path("static") / name).read_bytes()


def test_htmx_is_served_precompressed_too(app, client):
    url = f"/static/vendor/{app.config['HTMX_FILE']}?v={asset_version_of(client)}"
    with client.get(url, headers={"Accept-Encoding": "br"}) as response:
        assert response.headers["Content-Encoding"] == "br"
        assert len(response.data) < 20_000  # 52 KB raw


def asset_version_of(client):
    with client.application.test_request_context("/"):
        return asset_version()


def test_versioned_static_files_are_immutable_and_others_revalidate(client):
    version = asset_version_of(client)
    with client.get(f"/static/css/app.css?v={version}") as response:
        assert response.status_code == 200
        assert response.headers["Cache-Control"] == IMMUTABLE
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert "Access-Control-Allow-Origin" not in response.headers
        etag = response.headers["ETag"]
    for url in ("/static/css/app.css", "/static/css/app.css?v=000000000000", f"/static/css/app.css?v={version}x"):
        with client.get(url) as response:
            assert response.headers["Cache-Control"] == "no-cache", url
    with client.get("/static/css/app.css", headers={"If-None-Match": etag}) as response:
        assert response.status_code == 304
    assert client.get("/static/css/none-such.css").status_code == 404


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_static_url_of_every_page_is_versioned(client, lang):
    version = asset_version_of(client)
    for page in PAGES:
        urls = static_urls_of(client, f"/{lang}/{page}")
        assert any("icons/" in url for url in urls), page
        for url in urls:
            assert url.endswith(f"?v={version}"), (page, url)
            with client.get(url) as response:
                assert response.status_code == 200 and response.headers["Cache-Control"] == IMMUTABLE, url


def test_the_manifest_and_the_worker_name_versioned_static_urls(client):
    version = asset_version_of(client)
    manifest = json.loads(client.get("/manifest.webmanifest?lang=en").data)
    icons = [icon["src"] for icon in manifest["icons"]]
    body = client.get("/sw.js").get_data(as_text=True)
    shell = json.loads(re.search(r"const SHELL = (\[.*?\]);", body).group(1))
    worker = [url for url in shell if url.startswith("/static/")]
    assert icons and worker
    for url in icons + worker:
        assert url.endswith(f"?v={version}"), url


def test_the_manifest_of_a_named_language_is_cached_for_a_day(client):
    assert client.get("/manifest.webmanifest?lang=de").headers["Cache-Control"] == "public, max-age=86400"
    for path in ("/manifest.webmanifest", "/manifest.webmanifest?lang=zz"):  # chosen by cookie or header
        assert "Cache-Control" not in client.get(path).headers, path


def test_favicon_is_a_real_icon_cached_for_a_day(client):
    with client.get("/favicon.ico") as response:
        assert response.status_code == 200
        assert response.mimetype == "image/x-icon"
        assert response.headers["Cache-Control"] == "public, max-age=86400"
        data, etag = response.data, response.headers["ETag"]
    reserved, kind, count = struct.unpack("<HHH", data[:6])
    assert (reserved, kind) == (0, 1) and count >= 1
    sizes = {data[6 + 16 * i] or 256 for i in range(count)}
    assert 32 in sizes
    with client.get("/favicon.ico", headers={"If-None-Match": etag}) as response:
        assert response.status_code == 304


def test_the_compressed_copy_is_made_once_per_version(tmp_path):
    static = tmp_path / "static"
    (static / "css").mkdir(parents=True)
    (static / "css" / "a.css").write_text("body { color: red; }\n" * 100)
    (static / "icon.png").write_bytes(b"\x89PNG" + bytes(200))
    cache = tmp_path / "cache"
    first = assets.compressed_copy(static, "v1", cache)
    assert brotli.decompress((first / "css" / "a.css.br").read_bytes()) == (static / "css" / "a.css").read_bytes()
    assert gzip.decompress((first / "css" / "a.css.gz").read_bytes()) == (static / "css" / "a.css").read_bytes()
    assert not (first / "icon.png.br").exists()  # images are compressed already
    (static / "css" / "a.css").write_text("body { color: blue; }\n" * 100)
    assert assets.compressed_copy(static, "v1", cache) == first  # the same version: kept
    second = assets.compressed_copy(static, "v2", cache)
    assert second != first
    assert b"blue" in brotli.decompress((second / "css" / "a.css.br").read_bytes())
    assert not (static / "css" / "a.css.br").exists()  # the sources stay untouched


# Card faces are worked out once per language; a face cached in one must never show in another
# (a cache keyed without the language once showed the first visitor's words to everybody).
def test_card_faces_are_cached_per_language(app):
    cards._card_face.cache_clear()
    faces = {}
    with app.test_request_context("/de/"):
        for lang in ("de", "en", "fr", "de", "en", "fr"):
            with force_locale(lang):
                faces.setdefault(lang, []).append(cards.card_face("QC"))
    assert [face.name for face in faces["de"]] == ["Kreuz-Dame"] * 2
    assert [face.name for face in faces["en"]] == ["queen of clubs"] * 2
    assert [face.name for face in faces["fr"]] == ["dame de trèfle"] * 2
    assert faces["fr"][0].letter == "D" and faces["en"][0].letter == "Q"
    info = cards._card_face.cache_info()
    assert (info.misses, info.hits) == (3, 3)
    assert all(type(face.name) is str and type(face.letter) is str for face in faces["de"])  # nothing lazy


def test_pages_in_two_languages_never_share_a_card_label(client):
    cards._card_face.cache_clear()
    german = client.get("/de/rules/trumps").get_data(as_text=True)
    english = client.get("/en/rules/trumps").get_data(as_text=True)
    german_again = client.get("/de/rules/trumps").get_data(as_text=True)
    assert 'aria-label="Kreuz-Dame"' in german and 'aria-label="queen of clubs"' not in german
    assert 'aria-label="queen of clubs"' in english and 'aria-label="Kreuz-Dame"' not in english
    assert german_again == german
    assert cards._card_face.cache_info().hits > 100  # the reference draws the same cards again and again


def test_a_bad_card_id_is_still_refused_and_not_cached(app):
    with app.test_request_context("/en/"), force_locale("en"):
        for _ in range(2):
            with pytest.raises(ValueError):
                cards.card_face("ZZ")
