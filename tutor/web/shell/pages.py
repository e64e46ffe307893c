"""The pages every visitor finds: home, the Learn and Quiz landing pages, offline.

A bare `/` picks a language (cookie, then Accept-Language) and redirects to it.
"""
from __future__ import annotations

from flask import Blueprint, redirect, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from tutor import i18n
from tutor.rules.games import trick_winner
from tutor.web.base import practice
from tutor.web.base.rules import current_rules

bp = Blueprint("pages", __name__)

# A trick to show what the card pictures look like: cards in play order, with who played
# them. Which card wins is the engine's answer, not ours.
SAMPLE_TRICK = ("9D", "QC", "10H", "AD")


@bp.get("/")
def root() -> Response:
    """Send a visitor to the language they chose before, or the one their browser asks for."""
    lang = i18n.preferred_language(request)
    response = redirect(url_for("pages.home", lang=lang), code=302)
    response.vary.add("Cookie")
    response.vary.add("Accept-Language")
    return response


@bp.get(i18n.LANG_PREFIX + "/")
def home() -> str:
    """What the app offers, one tap away each."""
    return render_template("pages/home.html", streak=practice.streak())


@bp.get(i18n.LANG_PREFIX + "/learn/")
def learn() -> str:
    """What the lessons will teach, and the reference to read meanwhile."""
    players = (_("North"), _("East"), _("South"), _("West"))
    winner = trick_winner(list(SAMPLE_TRICK), "normal", current_rules())
    plays = list(zip(players, SAMPLE_TRICK, strict=True))
    return render_template("pages/learn.html", sample_plays=plays, sample_winner=winner)


@bp.get(i18n.LANG_PREFIX + "/offline")
def offline() -> str:
    """Shown by the service worker when a page is neither reachable nor cached."""
    return render_template("pages/offline.html")
