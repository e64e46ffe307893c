"""The catalogs are complete: every message of the app, the API and the engine is
translated in every language, nothing fuzzy, placeholders intact."""
from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ("de", "it", "es", "fr", "pt")  # English is the source language
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2), "_l": None,
            "lazy_gettext": None, "lazy_ngettext": (1, 2), "lazy_pgettext": ((1, "c"), 2)}


@pytest.fixture(scope="module")
def source_messages() -> set[tuple[str, str | None]]:
    with open(ROOT / "babel.cfg") as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    found = set()
    for _file, _line, message, _comments, context in extract_from_dir(
        str(ROOT), method_map, options_map, keywords=KEYWORDS
    ):
        msgid = message[0] if isinstance(message, tuple) else message
        found.add((msgid, context))
    return found


def load(lang: str):
    with open(ROOT / "translations" / lang / "LC_MESSAGES" / "messages.po", "rb") as po:
        return read_po(po, locale=lang)


def test_extraction_finds_the_app_and_the_api(source_messages):
    ids = {msgid for msgid, _ in source_messages}
    assert "Rules reference" in ids  # templates
    assert "DDV tournament rules" in ids  # tutor/web
    assert any("JSON" in msgid for msgid in ids)  # the API's error messages


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_is_translated(source_messages, lang):
    catalog = load(lang)
    missing, fuzzy, empty = [], [], []
    for msgid, context in sorted(source_messages, key=str):
        message = catalog.get(msgid, context)
        if message is None:
            missing.append(msgid)
        elif message.fuzzy:
            fuzzy.append(msgid)
        elif not message.string or (isinstance(message.string, tuple) and not all(message.string)):
            empty.append(msgid)
    assert not missing, f"{lang}: not in the catalog: {missing[:10]}"
    assert not fuzzy, f"{lang}: fuzzy: {fuzzy[:10]}"
    assert not empty, f"{lang}: untranslated: {empty[:10]}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_placeholders_survive_translation(lang):
    catalog = load(lang)
    problems = [(message.id, errors) for message, errors in catalog.check() if errors]
    assert not problems, problems[:5]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_fuzzy_header_or_entries(lang):
    catalog = load(lang)
    assert not catalog.fuzzy
    assert not [m.id for m in catalog if m.id and m.fuzzy]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_stands_once_in_the_catalog(lang):
    """Features add their messages side by side and the catalogs merge as a union of lines
    (.gitattributes): a message two features both added would stand twice, and the catalog
    would silently keep one of its two translations."""
    import re

    text = (Path(__file__).resolve().parent.parent / "translations" / lang / "LC_MESSAGES" / "messages.po").read_text()
    keys = [m.group(0) for m in re.finditer(r'^(?:msgctxt "(?:[^"\\]|\\.)*"\n)?msgid (?:"(?:[^"\\]|\\.)*"\n)+', text,
                                           re.M)]
    twice = sorted({key for key in keys if keys.count(key) > 1})
    assert not twice, twice[:5]
