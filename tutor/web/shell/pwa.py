"""What makes the app installable and usable offline: the web manifest and the service
worker. Both live outside the language prefix, at the URLs browsers look for."""
from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path

from flask import Blueprint, Response, current_app, has_request_context, render_template, request, url_for
from flask_babel import force_locale
from flask_babel import gettext as _

from tutor.web.base import i18n
from tutor.web.base.reference import PAGES as REFERENCE_SECTIONS
from tutor.web.base.reference import reference_url

bp = Blueprint("pwa", __name__)

THEME_LIGHT = "#1f6f4a"  # the green of a card table
BACKGROUND = "#f6f4ee"
ICON_SIZES = (192, 512)
MANIFEST_MAX_AGE = 24 * 60 * 60  # a new version's manifest reaches browsers within a day


def asset_version() -> str:
    """The version of this app's assets, computed once (and looked up by the app's folder,
    a string, without building a Path on every call: pages ask for it several times each)."""
    return version_at(current_app.root_path)


def version_at(root: str) -> str:
    """The asset version of the app in this folder (`asset_version` without an app context)."""
    version = _VERSIONS.get(root)
    if version is None:
        version = _VERSIONS[root] = tree_hash(Path(root))
    return version


_VERSIONS: dict[str, str] = {}


@lru_cache(maxsize=4)
def tree_hash(root: Path) -> str:
    """A short hash of everything the service worker precaches or a page is built from:
    a new version of any of them means new caches."""
    digest = hashlib.sha256()
    for folder in ("static", "templates", "translations", "tutor", "lessons"):
        for path in sorted((root / folder).rglob("*")):
            if path.is_file() and path.suffix in {".css", ".js", ".png", ".ico", ".svg", ".html", ".po", ".py", ".md",
                                                  ".toml"}:
                digest.update(path.relative_to(root).as_posix().encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


STATIC_URLS_KEPT = 512


def static_url(filename: str) -> str:
    """A static file's URL with the asset version, so a new version is fetched anew. Built
    once per file, version and script root (a page asks for about ten on every render)."""
    version = asset_version()
    if not has_request_context():
        return url_for("static", filename=filename, v=version)
    key = (filename, version, request.script_root)
    urls: dict[tuple[str, str, str], str] = current_app.extensions.setdefault("static_urls", {})
    url = urls.get(key)
    if url is None:
        url = url_for("static", filename=filename, v=version)
        if len(urls) < STATIC_URLS_KEPT:
            urls[key] = url
    return url


def shell_urls() -> list[str]:
    """What the service worker precaches for every language: styles, scripts, icons."""
    files = ["css/app.css", "css/score.css", "js/app.js", "css/quiz.css", "js/quiz.js", "css/learn.css", "js/learn.js",
             "js/score-table.js", "js/reference.js", "js/play.js", "js/sheet-queue.js", "js/sheet.js"]
    files.append("vendor/" + current_app.config["HTMX_FILE"])
    # The icon the pages show; the larger ones are the manifest's, fetched by the browser
    # itself when it installs the app (10 kB that no page offline needs).
    files.append(f"icons/icon-{ICON_SIZES[0]}.png")
    return [static_url(name) for name in files]


def reference_pages(lang: str) -> list[str]:
    """The rules reference of one language: its contents and every section, in order (the
    sections are the contents page's links to the reference's section pages)."""
    return [reference_url(lang=lang), *(reference_url(slug, lang=lang) for slug in REFERENCE_SECTIONS)]


def language_pages() -> dict[str, list[str]]:
    """What the service worker keeps of one language: its offline page, rules reference
    (contents and sections) and calculator; precached for the visitor's own language, kept
    for another once visited. The offline page comes first (the worker's anyOffline)."""
    return {
        lang: [url_for("pages.offline", lang=lang), *reference_pages(lang), url_for("score.calculator", lang=lang)]
        for lang in i18n.LANGUAGES
    }


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """The web app manifest, in the language asked for (`?lang=de`), else the visitor's."""
    asked = request.args.get("lang")
    named = asked in i18n.LANGUAGES
    lang = asked if asked and named else i18n.preferred_language(request)
    with force_locale(lang):
        data = {
            "id": "/",
            "name": _("Doko Tutor: learn Doppelkopf"),
            "short_name": "Doko Tutor",
            "description": _("Learn, practise and look up the rules of Doppelkopf."),
            "lang": lang,
            "dir": "ltr",
            "start_url": url_for("pages.home", lang=lang),
            "scope": "/",
            "display": "standalone",
            "orientation": "any",
            "theme_color": THEME_LIGHT,
            "background_color": BACKGROUND,
            "categories": ["games", "education"],
            "icons": [
                {"src": static_url(f"icons/icon-{size}.png"), "sizes": f"{size}x{size}",
                 "type": "image/png", "purpose": "any"}
                for size in ICON_SIZES
            ]
            + [
                {"src": static_url(f"icons/maskable-{size}.png"), "sizes": f"{size}x{size}",
                 "type": "image/png", "purpose": "maskable"}
                for size in ICON_SIZES
            ],
        }
    response = current_app.response_class(
        json.dumps(data, ensure_ascii=False, indent=1), mimetype="application/manifest+json"
    )
    response.vary.add("Cookie")
    response.vary.add("Accept-Language")
    if named:  # the URL says everything it depends on: no page view needs to ask for it again
        response.headers["Cache-Control"] = f"public, max-age={MANIFEST_MAX_AGE}"
    return response


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker, served from the root so its scope is the whole app."""
    body = render_template(
        "pwa/sw.js",
        version=asset_version(),
        shell=shell_urls(),
        language_pages=language_pages(),
        languages=i18n.LANGUAGES,
        default_language=i18n.DEFAULT_LANGUAGE,
        sheet_queue=static_url("js/sheet-queue.js"),
    )
    response = current_app.response_class(body, mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Service-Worker-Allowed"] = "/"
    return response
