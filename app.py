"""Doko Tutor: the Flask application factory. gunicorn serves `app:app`."""
from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from functools import lru_cache
from inspect import iscoroutinefunction
from typing import Any, Final

from flask import Flask, Request, g
from flask.sessions import NullSession, SessionInterface
from flask_babel import Babel
from werkzeug.routing import Map, MapAdapter, Rule
from werkzeug.wsgi import get_host

from tutor import htmx, i18n, secret_key, security
from tutor.request import Request as AppRequest


class NoSessions(SessionInterface):
    """No Flask session: what the app remembers lives in cookies of its own, one per kind,
    signed (tutor/web/base/signed.py), so no request needs Flask's session cookie read, a
    session object made or its saving considered. Writing to `flask.session` fails loudly
    (Flask's null session) rather than being lost."""

    def open_session(self, app: Flask, request: Request) -> NullSession:
        return self.make_null_session(app)


# What werkzeug's `Map.bind_to_environ` reads of a request (the URL adapter is made of these
# alone): tests/test_request.py compares the adapters with Flask's own.
ADAPTER_KEYS: Final = ("HTTP_HOST", "SERVER_NAME", "SERVER_PORT", "wsgi.url_scheme", "HTTP_CONNECTION",
                       "HTTP_UPGRADE", "SCRIPT_NAME", "PATH_INFO", "QUERY_STRING", "REQUEST_METHOD")


class App(Flask):
    """Flask, asking once per function whether it is a coroutine: `ensure_sync` runs for every
    hook and view of every request, and `inspect.iscoroutinefunction` was a tenth of a small
    page's time. (Flask's documentation invites overriding it.) Nothing here is async.

    And the URL adapter of an address asked lately is not made again (`create_url_adapter`:
    the host's IDNA encoding and the environ's decoding, for every request), nor is its route
    looked up again (`KeptAdapter`): an adapter only holds the address, and matching or
    building URLs with it changes nothing in it. The Host is still checked against
    TRUSTED_HOSTS on every request."""

    _sync: dict[Callable[..., Any], Callable[..., Any]]

    def create_url_adapter(self, request: Request | None) -> MapAdapter | None:
        if (request is None or not self.config["FAST_PATHS"] or self.url_map.host_matching
                or self.subdomain_matching or self.config["SERVER_NAME"] is not None):
            return super().create_url_adapter(request)
        if (trusted := self.config["TRUSTED_HOSTS"]) is not None:
            request.trusted_hosts = trusted
        environ = request.environ
        request.host = get_host(environ, request.trusted_hosts)  # as Flask sets it; refuses a foreign Host
        return _adapter(self.url_map, self.url_map.default_subdomain or "", tuple(environ.get(k) for k in ADAPTER_KEYS))

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        if not self.config["FAST_PATHS"]:
            return super().ensure_sync(func)
        try:
            return self._sync[func]
        except AttributeError:
            self._sync = {}
        except KeyError:
            pass
        except TypeError:  # not hashable: asked every time
            return super().ensure_sync(func)
        if iscoroutinefunction(func):
            return super().ensure_sync(func)  # wrapped anew each time, as Flask does
        if len(self._sync) < 4096:  # hooks and views, a few dozen; bound methods alike
            self._sync[func] = func
        return func


class KeptAdapter(MapAdapter):
    """werkzeug's URL adapter, keeping the route its address matched (the way Flask asks for
    it, once a request): the same address always matches the same route, as Flask takes no
    new routes once it has answered a request. A refusal (404, 405, a redirect to the address
    with its slash) is looked up every time. The arguments come as a fresh dict each time:
    Flask takes the language out of them."""

    _matched: tuple[Rule, Mapping[str, Any]] | None = None

    def match(self, path_info: str | None = None, method: str | None = None, return_rule: bool = False,
              query_args: Mapping[str, Any] | str | None = None, websocket: bool | None = None) -> Any:
        if not return_rule or path_info is not None or method is not None or query_args is not None \
                or websocket is not None:
            return super().match(path_info, method, return_rule, query_args, websocket)  # type: ignore[call-overload]
        kept = self._matched
        if kept is None:
            kept = super().match(return_rule=True)
            self._matched = kept
        return kept[0], dict(kept[1])


@lru_cache(maxsize=1024)
def _adapter(url_map: Map, subdomain: str, values: tuple[Any, ...]) -> MapAdapter:
    environ = {key: value for key, value in zip(ADAPTER_KEYS, values, strict=True) if value is not None}
    made = url_map.bind_to_environ(environ, server_name=None, subdomain=subdomain)
    return KeptAdapter(made.map, made.server_name, made.script_name, made.subdomain, made.url_scheme,
                       made.path_info, made.default_method, made.query_args)


def create_app(config: dict[str, Any] | None = None, instance_path: str | None = None) -> Flask:
    """Build the app: configuration, extensions, blueprints, headers. The instance folder
    (secret key, SQLite sheets) is `instance/` unless another absolute path is given."""
    app = App(__name__, instance_path=instance_path, instance_relative_config=True)
    app.session_interface = NoSessions()
    app.config.update(
        MAX_CONTENT_LENGTH=64 * 1024,
        BABEL_DEFAULT_LOCALE=i18n.DEFAULT_LANGUAGE,
        BABEL_TRANSLATION_DIRECTORIES="translations",
        HTMX_FILE="htmx-2.0.11.min.js",
        # The shortcuts around framework code paths (docs/performance.md, "Shortcuts", lists
        # each and its gain): FAST_PATHS=0 in the environment takes the frameworks' own way.
        FAST_PATHS=os.environ.get("FAST_PATHS", "1").strip() != "0",
    )
    hosts = [h.strip() for h in os.environ.get("TRUSTED_HOSTS", "").split(",") if h.strip()]
    if hosts:
        # Flask refuses a request naming another Host (400), so no link or redirect built
        # from it ever points elsewhere.
        app.config["TRUSTED_HOSTS"] = hosts
    if config:
        app.config.update(config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = secret_key.load(app.instance_path)

    from tutor.web.shell import assets

    assets.init_app(app)  # first: its compression runs after every other response hook
    Babel(app, locale_selector=i18n.select_locale)
    htmx.init_app(app)
    app.request_class = AppRequest  # htmx-flask's, reading a small form the short way (tutor/request.py)
    security.init_app(app)
    app.after_request(i18n.remember_language)

    @app.url_value_preprocessor
    def pull_lang(endpoint: str | None, values: dict[str, Any] | None) -> None:
        """Every page URL starts with its language; keep it for the locale selector."""
        if values and "lang" in values:
            g.lang = values.pop("lang")

    @app.url_defaults
    def add_lang(endpoint: str, values: dict[str, Any]) -> None:
        """url_for() keeps the page's language unless told another."""
        if "lang" not in values and app.url_map.is_endpoint_expecting(endpoint, "lang"):
            values["lang"] = g.get("lang") or i18n.DEFAULT_LANGUAGE

    from tutor import web

    web.init_app(app)

    from tutor import cli

    cli.init_app(app)
    from tutor.web.base import shared

    shared.init_app(app)  # last: in front of everything, static files included
    return app


app = create_app()
