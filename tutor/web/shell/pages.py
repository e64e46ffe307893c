"""The pages every visitor finds: home and offline (the lessons are tutor/web/learn/).

A bare `/` picks a language (cookie, then Accept-Language) and redirects to it.
"""
from __future__ import annotations

from flask import Blueprint, g, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from tutor import learn
from tutor.web.base import i18n, practice
from tutor.web.base.rules import COOKIE as RULES_COOKIE
from tutor.web.base.shared import shared

bp = Blueprint("pages", __name__)


@bp.get("/")
def root() -> Response:
    """Send a visitor to the language they chose before, or the one their browser asks for."""
    lang = i18n.preferred_language(request)
    response = redirect(url_for("pages.home", lang=lang), code=302)
    response.vary.add("Cookie")
    response.vary.add("Accept-Language")
    return response


@bp.get(i18n.LANG_PREFIX + "/")
@shared(RULES_COOKIE, practice.COOKIE)
def home() -> str:
    """What the app offers, one tap away each."""
    return render_template("pages/home.html", streak=practice.streak())


@bp.get(i18n.LANG_PREFIX + "/offline")
@shared(RULES_COOKIE)
def offline() -> str:
    """Shown by the service worker when a page is neither reachable nor cached. It lists
    every lesson of its language; learn.js shows those saved on the device."""
    lang = str(g.get("lang") or i18n.DEFAULT_LANGUAGE)
    saved = [(url_for("learn.lesson", lang=lang, slug=item.slug), item.text(lang).title)
             for item in learn.load_lessons()]
    return render_template("pages/offline.html", lessons=saved)
