"""Settings: the rule set and house options, remembered on the device in a cookie.

The rest of the app reads the rules from ONE place, `current_rules()`. A bad cookie silently
means the default rules; a bad form post is a 400 with a message in the page's language.
"""
from __future__ import annotations

from typing import Any, Final

from flask import Blueprint, abort, g, redirect, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from tutor import htmx, i18n
from tutor.rules.errors import RulesError
from tutor.rules.rulesets import OPTION_CHOICES, RULESETS, RuleSet, parse_rules
from tutor.security import is_local_path
from tutor.web import labels

bp = Blueprint("settings", __name__, url_prefix=i18n.LANG_PREFIX)

COOKIE: Final = "rules"
DEFAULT_RULESET: Final = "ddv"


def encode(value: Any) -> str:
    """An option value as it appears in a form field and in the cookie."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def decode(option: str, text: str) -> Any:
    """The allowed value of `option` spelled `text`; RulesError for anything else."""
    for choice in OPTION_CHOICES[option]:
        if encode(choice) == text:
            return choice
    raise RulesError("bad_option_value", f"rules.options.{option}", option=option)


def rules_from_fields(ruleset: str, fields: dict[str, str]) -> RuleSet:
    """Rules from text fields (a form or the cookie); RulesError when any field is wrong.
    Options left out keep the rule set's own defaults."""
    options = {name: decode(name, text) for name, text in fields.items() if name in OPTION_CHOICES}
    unknown = set(fields) - set(OPTION_CHOICES)
    if unknown:
        raise RulesError("unknown_option", f"rules.options.{sorted(unknown)[0]}")
    return parse_rules({"ruleset": ruleset, "options": options})


def to_cookie(rules: RuleSet) -> str:
    """`ddv` or `ddv|deck=40|schweinchen=true`: only what differs from the rule set."""
    base = RuleSet.named(rules.ruleset).options()
    changed = [f"{k}={encode(v)}" for k, v in rules.options().items() if base[k] != v]
    return "|".join([rules.ruleset, *changed])


def from_cookie(text: str | None) -> RuleSet:
    """The rules a cookie names; the default rules for a missing or damaged cookie."""
    try:
        ruleset, *pairs = (text or DEFAULT_RULESET).split("|")
        fields = dict(pair.split("=", 1) for pair in pairs)
        if len(fields) != len(pairs):
            raise RulesError("duplicate_option", "rules")
        return rules_from_fields(ruleset, fields)
    except (RulesError, ValueError):
        return RuleSet.named(DEFAULT_RULESET)


def current_rules() -> RuleSet:
    """The rules this visitor plays by. Every page that depends on rules asks here."""
    if "rules" not in g:
        g.rules = from_cookie(request.cookies.get(COOKIE))
    return g.rules


def _form_rules() -> RuleSet:
    """The rules a settings form posts; 400 with a translated message when they are wrong."""
    form = request.form
    ruleset = form.get("ruleset", "")
    if ruleset not in RULESETS:
        abort(400, description=_("Please choose one of the rule sets offered."))
    fields = {k: v for k, v in form.items() if k in OPTION_CHOICES}
    try:
        return rules_from_fields(ruleset, fields)
    except RulesError as error:
        option = (error.field or "").rsplit(".", 1)[-1]
        name = labels.OPTIONS[option].name if option in labels.OPTIONS else option
        abort(400, description=_("“%(option)s” cannot be set to that value.", option=name))


def _back(lang: str) -> str:
    """Where to go after saving: a local `next` path, else the settings page itself."""
    target = request.form.get("next") or request.args.get("next")
    if target and is_local_path(target):
        return target
    return url_for("settings.show", lang=lang, saved=1)


@bp.get("/settings")
def show() -> str:
    """The rule set and house options, each with one line saying what it changes."""
    template = "settings/_form.html" if htmx.is_partial(request) else "settings/show.html"
    return render_template(
        template,
        rules=current_rules(),
        rulesets=RULESETS,
        choices=OPTION_CHOICES,
        defaults={name: RuleSet.named(name) for name in RULESETS},
        encode=encode,
        saved=bool(request.args.get("saved")),
        next=request.args.get("next") if is_local_path(request.args.get("next")) else None,
    )


@bp.post("/settings")
def save() -> Response:
    """Remember the posted rules on this device, then go back (303, so reload is safe)."""
    if request.headers.get("Sec-Fetch-Site") == "cross-site":
        abort(400, description=_("Settings can only be changed from this site."))
    rules = _form_rules()
    response = redirect(_back(g.lang), code=303)
    response.set_cookie(
        COOKIE,
        to_cookie(rules),
        max_age=i18n.COOKIE_MAX_AGE,
        samesite="Lax",
        httponly=True,
        secure=request.is_secure,
    )
    return response
