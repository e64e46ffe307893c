"""How responses travel: compressed, and static files cached for as long as their URL lasts.

- Pages, fragments, JSON, the manifest and the service worker are compressed by Flask-Compress
  (Brotli or gzip, whichever the browser accepts; tiny bodies and streamed ones stay as they
  are), which also keeps `Vary: Accept-Encoding` and strong ETags right. A body that follows
  from a key (base/shared.py, `send_compressed`: a quiz question) is compressed once and kept.
- Static files are served by WhiteNoise from a copy of `static/` that holds a Brotli and a
  gzip version of every text file, made once per asset version. A URL carrying the current
  version (`?v=…`, which every `url_for("static", …)` gets) never changes its content, so it
  is cached for a year as immutable; any other static URL is revalidated each time.
- `/favicon.ico` answers with the app's icon.
"""
from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from flask import Blueprint, Flask, Response, current_app, request
from flask_compress import Compress
from whitenoise import WhiteNoise
from whitenoise.compress import Compressor

from tutor.web.base import htmx, shared
from tutor.web.shell.pwa import asset_version, tree_hash

bp = Blueprint("assets", __name__)

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
FAVICON_MAX_AGE = 24 * 60 * 60  # its URL cannot carry a version: a day, then revalidated

StartResponse = Callable[..., Any]


class StaticFiles(WhiteNoise):
    """WhiteNoise, with the cache lifetime chosen by the URL's version rather than its path."""

    def __init__(self, application: Any, root: Path, version: str) -> None:
        super().__init__(
            application, root=str(root), prefix="static/", max_age=None, allow_all_origins=False,
        )  # the security headers are added around it (security.SecurityHeaders), as to every answer
        self.version = version

    def serve(self, static_file: Any, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        versioned = parse_qs(environ.get("QUERY_STRING", "")).get("v") == [self.version]
        cache_control = IMMUTABLE if versioned else REVALIDATE

        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            headers = [(name, value) for name, value in headers if name.lower() != "cache-control"]
            headers.append(("Cache-Control", cache_control))
            return start_response(status, headers, exc_info)

        return super().serve(static_file, environ, start)


def compressed_copy(static: Path, version: str, cache_dir: Path) -> Path:
    """`static/` with a .br and a .gz beside each text file, made once per version (so an
    edited file never meets an old compressed one) and shared by every process. Copies of
    earlier versions stay (a few hundred KB each): delete `.cache/` while the app is stopped."""
    target = cache_dir / f"static-{version}"
    if target.is_dir():
        return target
    cache_dir.mkdir(parents=True, exist_ok=True)
    building = Path(tempfile.mkdtemp(prefix=f".{target.name}-", dir=cache_dir))
    shutil.copytree(static, building, dirs_exist_ok=True)
    compressor = Compressor(quiet=True)
    for path in sorted(building.rglob("*")):
        if path.is_file() and compressor.should_compress(path.name):
            compressor.compress(str(path))
    try:
        os.rename(building, target)
    except OSError:  # another process got there first: its copy is the same
        shutil.rmtree(building, ignore_errors=True)
    return target


def version_static_urls(endpoint: str, values: dict[str, Any]) -> None:
    """Every `url_for("static", …)` carries the asset version."""
    if endpoint == "static":
        values.setdefault("v", asset_version())


@bp.get("/favicon.ico")
def favicon() -> Response:
    """The app's icon where browsers and tools look for it without reading a page (two KB,
    sent from memory: no file stays open for it)."""
    icon = Path(current_app.static_folder or "static") / "icons" / "favicon.ico"
    response = Response(icon.read_bytes(), mimetype="image/x-icon")
    response.cache_control.public = True
    response.cache_control.max_age = FAVICON_MAX_AGE
    response.add_etag()
    response.make_conditional(request)
    return response


class Compression(Compress):
    """Flask-Compress, with a short way out for a body that is compressed already (a kept
    quiz question, the quiz pack): its hook would only add `Vary: Accept-Encoding` to it, after
    reading the request's Accept-Encoding and the response's type and length."""

    def after_request(self, response: Response | None) -> Response:
        if response is not None and "Content-Encoding" in response.headers:
            htmx.vary_on(response, "Accept-Encoding")
            return response
        compressed: Response = super().after_request(response)
        return compressed


def init_app(app: Flask) -> None:
    """Call first in the factory: compression then runs after every other response hook."""
    app.config.setdefault("COMPRESS_ALGORITHM", list(shared.ENCODINGS))
    app.config.setdefault("COMPRESS_STREAMS", False)
    app.config.setdefault("STATIC_CACHE_DIR", os.path.join(app.root_path, ".cache"))
    Compression(app)
    app.url_defaults(version_static_urls)
    app.register_blueprint(bp)
    version = tree_hash(Path(app.root_path))
    static = compressed_copy(Path(app.static_folder or "static"), version, Path(app.config["STATIC_CACHE_DIR"]))
    app.wsgi_app = StaticFiles(app.wsgi_app, static, version)  # type: ignore[method-assign]
