"""The web layer, one package per feature; each owns its blueprint, views, forms and words.

    shell/      home, learn, offline pages; settings; manifest and service worker; errors;
                what every template can use
    learn/      the lessons: the path, their steps and checks, the glossary, progress
    quiz/       the quiz pages, their words and the progress cookie
    score/      the calculator, the deal form they share, score sheets
    reference/  the rules reference
    api/        the JSON API and its OpenAPI document
    play/       a deal played with the tutor, every state a URL
    base/       shared by several features: languages (i18n), htmx, security headers and
                cookies, the response cache, the visitor's rules and their text form
    words/      shared translated labels: game words, card faces, engine error messages

Features import from base/ and words/ (and the layers below: learn, quiz, analysis, play,
rules), never from each other: the import contracts of pyproject.toml.
"""
from __future__ import annotations

from flask import Flask


def init_app(app: Flask) -> None:
    """Register every feature's blueprint, the error pages and the template context."""
    from tutor.web.api import views as api
    from tutor.web.learn import views as learn
    from tutor.web.play import review as play_review  # noqa: F401 (adds its routes to play.bp)
    from tutor.web.play import views as play
    from tutor.web.quiz import pack as quiz_pack  # noqa: F401 (adds its route to quiz.bp)
    from tutor.web.quiz import views as quiz
    from tutor.web.reference import views as reference
    from tutor.web.score import (  # noqa: F401 (routes on sheet.bp)
        calculator,
        sheet,
        sheet_deals,
        sheet_file,
        sheet_offline,
        sheet_quick,
    )
    from tutor.web.shell import context, errors, pages, pwa, settings

    for blueprint in (pages.bp, reference.bp, settings.bp, pwa.bp, api.bp, quiz.bp, calculator.bp, sheet.bp,
                      learn.bp, play.bp):
        app.register_blueprint(blueprint)
    sheet.init_app(app)
    learn.init_app(app)
    errors.init_app(app)
    context.init_app(app)
