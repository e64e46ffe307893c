"""What every template can use: the page's language and its alternates, the navigation,
card faces, labels, which rules are in force, the rules reference's addresses and versioned
static URLs."""
from __future__ import annotations

from functools import partial
from typing import Any

from flask import Flask, g, request, url_for
from flask_babel import get_locale, lazy_pgettext

from tutor.rules.rulesets import RuleSet
from tutor.web import words
from tutor.web.base import i18n, shared
from tutor.web.base.reference import reference_url
from tutor.web.base.rules import current_rules, to_cookie
from tutor.web.base.security import external_url
from tutor.web.shell import pwa
from tutor.web.shell.pwa import static_url
from tutor.web.words.cards import card_face

# The six sections of the tab bar: (key, endpoint, label). The key names the icon too. The
# settings are one tap away in the header (SETTINGS_ITEM), so that six tabs fit a phone.
NAV_ITEMS = (
    ("learn", "learn.path", lazy_pgettext("navigation", "Learn")),
    ("play", "play.show", lazy_pgettext("navigation", "Play")),
    ("quiz", "quiz.index", lazy_pgettext("navigation", "Quiz")),
    ("score", "score.calculator", lazy_pgettext("navigation", "Score")),
    ("sheet", "sheet.index", lazy_pgettext("navigation", "Sheet")),
    ("rules", "reference.show", lazy_pgettext("navigation", "Rules")),
)
SETTINGS_ITEM = ("settings", "settings.show", lazy_pgettext("navigation", "Settings"))


def alternate_url(lang: str, external: bool = False) -> str:
    """This page in another language; the start page where a page has no URL of its own.
    `external` (the hreflang links) names the host only where TRUSTED_HOSTS vouches for it:
    otherwise the link is a path, and no answer carries a Host a request made up."""
    endpoint = request.endpoint
    args = dict(request.view_args or {})
    if not (endpoint and request.url_rule and "lang" in request.url_rule.arguments):
        endpoint, args = "pages.home", {}
    else:
        # A page whose state is its query (a deal to play) names it in `g.alternate_args`,
        # so that another language shows the same state, not a fresh one.
        args |= g.get("alternate_args") or {}
    return external_url(endpoint, **args, lang=lang) if external else url_for(endpoint, **args, lang=lang)


def changed_options(rules: RuleSet) -> list[tuple[str, Any]]:
    """House options that differ from the rule set's own, as (option, value)."""
    base = RuleSet.named(rules.ruleset).options()
    return [(name, value) for name, value in rules.options().items() if base[name] != value]


def init_app(app: Flask) -> None:
    # What is kept (base/shared.py) is kept per asset version: looked up at each call.
    app.extensions[shared.VERSION_KEY] = partial(pwa.version_at, app.root_path)
    # Globals, so the card partials work when imported without the page's context.
    app.jinja_env.globals.update(card_face=card_face)

    @app.context_processor
    def page_context() -> dict[str, Any]:
        return {
            "page_lang": str(get_locale() or i18n.DEFAULT_LANGUAGE),
            "languages": i18n.LANGUAGES,
            "native_name": i18n.native_name,
            "alternate_url": alternate_url,
            "external_url": external_url,
            "nav_items": NAV_ITEMS,
            "settings_item": SETTINGS_ITEM,
            "static_url": static_url,
            "card_face": card_face,
            "labels": words,
            "current_rules": current_rules,
            "changed_options": changed_options,
            "reference_url": reference_url,
            "rules_key": to_cookie(current_rules()),
        }
