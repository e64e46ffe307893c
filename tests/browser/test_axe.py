"""axe-core finds no accessibility violations on any page, in any language, light or dark."""
from __future__ import annotations

import pytest

from tests.conftest import LANGUAGES, PAGES


def violations(page, axe_source: str) -> list[str]:
    page.evaluate(axe_source)  # evaluated by the browser's devtools, so the strict CSP stays on
    found = page.evaluate(
        "axe.run(document).then((r) => r.violations.map("
        "(v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')))"
    )
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_violations_on_any_page(page, axe_source, lang):
    for path in PAGES:
        page.goto(f"/{lang}/{path}")
        assert violations(page, axe_source) == [], f"/{lang}/{path}"


def test_no_violations_in_dark_mode(browser, server, axe_source):
    context = browser.new_context(viewport={"width": 360, "height": 640}, base_url=server, color_scheme="dark")
    page = context.new_page()
    for path in PAGES:
        page.goto(f"/en/{path}")
        assert violations(page, axe_source) == [], f"/en/{path}"
    context.close()


def test_no_violations_with_the_language_menu_open(page, axe_source):
    page.goto("/fr/rules/")
    page.click(".lang-menu summary")
    assert violations(page, axe_source) == []
