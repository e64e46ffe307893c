"""Settings, `/<lang>/settings`: the rule set and house options, remembered on the device
in a cookie (`tutor.web.base.rules` reads it back). A bad form post is a 400 with a message
in the page's language.
"""
from __future__ import annotations

from flask import Blueprint, abort, g, redirect, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from tutor.rules.errors import RulesError
from tutor.rules.rulesets import OPTION_CHOICES, RULESETS, RuleSet
from tutor.web import words
from tutor.web.base import htmx, i18n, security
from tutor.web.base.rules import COOKIE, current_rules, encode, rules_from_fields, rules_from_key, to_cookie
from tutor.web.base.security import is_local_path
from tutor.web.base.shared import shared

bp = Blueprint("settings", __name__, url_prefix=i18n.LANG_PREFIX)

def _form_rules() -> RuleSet:
    """The rules a settings form posts; 400 with a translated message when they are wrong.

    The form has two buttons (`save`): "ruleset" takes the ticked rule set with its own house
    options; "options" the ticked rule set with the ticked house options. When the rule set
    ticked is not the one the page showed (`shown`), only the options ticked differently from
    the page are the visitor's choice; the others are the new rule set's own."""
    form = request.form
    ruleset = form.get("ruleset", "")
    if ruleset not in RULESETS:
        abort(400, description=_("Please choose one of the rule sets offered."))
    fields = {k: v for k, v in form.items() if k in OPTION_CHOICES}
    if form.get("save") == "ruleset":
        fields = {}
    shown = _shown(form.get("shown"))
    if shown is not None and shown.ruleset != ruleset:
        fields = {k: v for k, v in fields.items() if v != encode(shown.options()[k])}
    try:
        return rules_from_fields(ruleset, fields)
    except RulesError as error:
        option = (error.field or "").rsplit(".", 1)[-1]
        name = words.OPTIONS[option].name if option in words.OPTIONS else option
        abort(400, description=_("“%(option)s” cannot be set to that value.", option=name))


def _shown(text: str | None) -> RuleSet | None:
    """The rules the page with the form showed (None when the form did not say)."""
    try:
        return rules_from_key(text) if text else None
    except RulesError:
        return None


def _back(lang: str) -> str:
    """Where to go after saving: a local `next` path, else the settings page itself."""
    target = request.form.get("next") or request.args.get("next")
    if target and is_local_path(target):
        return target
    return url_for("settings.show", lang=lang, saved=1)


@bp.get("/settings")
@shared(COOKIE)
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
    rules = _form_rules()
    response = redirect(_back(g.lang), code=303)
    security.set_cookie(response, request, COOKIE, to_cookie(rules), i18n.COOKIE_MAX_AGE)
    return response
