"""A phone user picks a language and rules, and finds them kept after a reload."""
from __future__ import annotations

import re

from playwright.sync_api import expect


def test_switching_language_keeps_the_page_and_is_remembered(page):
    page.goto("/de/rules/")
    page.click(".lang-menu summary")
    page.click(".lang-menu__list a[hreflang=fr]")
    expect(page).to_have_url(re.compile(r"/fr/rules/$"))
    assert page.get_attribute("html", "lang") == "fr"
    expect(page.locator("h1")).to_have_text("Mémento des règles")
    page.reload()
    assert page.get_attribute("html", "lang") == "fr"
    page.goto("/")
    expect(page).to_have_url(re.compile(r"/fr/$"))


def test_choosing_a_rule_set_is_kept_after_reload(page):
    page.goto("/en/settings")
    page.check("input[type=radio][name=ruleset][value=pagat]")
    page.click("text=Use this rule set")
    expect(page.locator(".notice")).to_be_visible()
    page.reload()
    expect(page.locator("input[type=radio][name=ruleset][value=pagat]")).to_be_checked()
    page.click(".tabs a[href='/en/rules/']")
    expect(page.locator(".rules-note")).to_contain_text("Classic rules (pagat)")


def test_house_options_save_in_place_with_htmx(page):
    page.goto("/en/settings")
    page.evaluate("window.notReloaded = true")
    page.check("input[name=deck][value='40']")
    page.click("text=Save house options")
    expect(page.locator(".notice")).to_be_visible()
    assert page.evaluate("window.notReloaded === true")  # swapped by htmx, not a new page
    page.reload()
    expect(page.locator("input[name=deck][value='40']")).to_be_checked()
    page.goto("/en/rules/")
    expect(page.locator(".rules-note")).to_contain_text("40 cards (without nines)")


def test_settings_work_without_javascript(browser, server):
    context = browser.new_context(viewport={"width": 360, "height": 640}, base_url=server, java_script_enabled=False)
    page = context.new_page()
    page.goto("/de/settings")
    page.check("input[name=schweinchen][value=true]")
    page.click("text=Hausregeln speichern")
    expect(page.locator(".notice")).to_be_visible()
    page.reload()
    expect(page.locator("input[name=schweinchen][value=true]")).to_be_checked()
    page.goto("/de/rules/trumps")
    assert page.locator("#trumps .card").first.get_attribute("data-card") == "AD"
    context.close()


def test_change_rules_from_the_reference_comes_back_to_it(page):
    page.goto("/it/rules/")
    page.click(".rules-note a")
    page.check("input[type=radio][name=ruleset][value=pagat]")
    page.click("text=Usa questo regolamento")
    expect(page).to_have_url(re.compile(r"/it/rules/$"))
    expect(page.locator(".rules-note")).to_contain_text("Regole classiche (pagat)")


def test_change_rules_from_a_section_comes_back_to_the_section_under_the_new_rules(page):
    page.goto("/en/rules/parties")
    expect(page.locator("#parties")).not_to_contain_text("Poverty:")
    page.click(".rules-note a")
    page.check("input[type=radio][name=ruleset][value=pagat]")
    page.click("text=Use this rule set")
    expect(page).to_have_url(re.compile(r"/en/rules/parties$"))
    expect(page.locator(".rules-note")).to_contain_text("Classic rules (pagat)")
    expect(page.locator("#parties")).to_contain_text("Poverty:")


def test_boosted_navigation_swaps_the_page_without_reloading(page):
    page.goto("/en/")
    page.evaluate("window.notReloaded = true")
    page.click(".tabs a[href='/en/quiz/']")
    expect(page.locator("h1")).to_have_text("Quiz")
    assert page.evaluate("window.notReloaded === true")
    expect(page.locator(".tabs a[aria-current=page]")).to_contain_text("Quiz")
