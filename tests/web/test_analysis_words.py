"""Every reason code of the analysis and every verdict has its sentence in all six languages,
with its cards and seats filled in."""
from __future__ import annotations

import pytest
from flask_babel import force_locale

from tutor.analysis.tips import CODES, SIMULATIONS_PREFER, Tip
from tutor.analysis.verdicts import VERDICTS
from tutor.web.words.analysis import tip_text, verdict_name

PARAMS = {"better": "AS", "card": "10S", "seat": 2, "suit": "C", "trick": 3, "points": 3, "ace": "AH",
          "winning": "QC", "trumps": 8}
LANGS = ("en", "de", "it", "es", "fr", "pt")


def said(app, lang: str, code: str) -> str:
    with app.test_request_context(f"/{lang}/"), force_locale(lang):
        return tip_text(Tip(code, PARAMS), seat=lambda s: f"<seat {s}>")


@pytest.mark.parametrize("code", [*CODES, SIMULATIONS_PREFER])
def test_every_tip_reads_in_every_language(app, code):
    texts = {lang: said(app, lang, code) for lang in LANGS}
    for lang, text in texts.items():
        assert text and "%(" not in text and "%d" not in text, (lang, text)
        if lang != "en":
            assert text != texts["en"], lang
    if "seat" in texts["en"] or code in ("schmieren", "points_to_opponents", "shown_void", "fox"):
        assert all("<seat 2>" in t for t in texts.values())


def test_the_sentences_name_what_decided(app):
    assert said(app, "en", "dulle_cheap") == "Keep the Dulle for a trick worth it: only 3 card points lay on the table."
    assert "trick 3" in said(app, "en", "shown_void") and "clubs" in said(app, "en", "shown_void")
    assert "A♠" in said(app, "en", SIMULATIONS_PREFER) and "Kreuz" in said(app, "de", "shown_void")


def test_verdicts_have_names(app):
    for lang in LANGS:
        with app.test_request_context(f"/{lang}/"), force_locale(lang):
            names = [verdict_name(v) for v in VERDICTS]
        assert len(set(names)) == len(VERDICTS) and all(names)
