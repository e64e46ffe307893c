"""Settings: one source of rules, remembered in a cookie, safe against bad input."""
from __future__ import annotations

import itertools

import pytest

from tutor.rules.rulesets import OPTION_CHOICES, RULESETS, RuleSet
from tutor.web.base.rules import COOKIE, current_rules, encode, from_cookie, to_cookie


def test_default_rules_are_ddv(app):
    with app.test_request_context("/en/"):
        assert current_rules() == RuleSet.named("ddv")


def test_every_combination_of_options_survives_the_cookie():
    for ruleset in RULESETS:
        for values in itertools.product(*OPTION_CHOICES.values()):
            rules = RuleSet.named(ruleset).with_options(**dict(zip(OPTION_CHOICES, values)))
            assert from_cookie(to_cookie(rules)) == rules


def test_cookie_names_only_what_differs():
    assert to_cookie(RuleSet.named("ddv")) == "ddv"
    assert to_cookie(RuleSet.named("pagat").with_options(deck=40)) == "pagat|deck=40"


@pytest.mark.parametrize(
    "cookie",
    ["", "nonsense", "pagat|deck=41", "ddv|deck", "ddv|colour=blue", "ddv|schweinchen=yes", "ddv|deck=40|deck=48",
     "|||", "pagat|" + "x" * 3000, "ddv|dullen=first_wins=1", "\x00"],
)
def test_a_damaged_cookie_silently_means_the_default_rules(client, cookie):
    client.set_cookie(COOKIE, cookie)
    response = client.get("/en/rules/")
    assert response.status_code == 200
    assert "DDV tournament rules" in response.get_data(as_text=True)


def test_saving_a_rule_set_sets_the_cookie_and_redirects_with_303(client):
    response = client.post("/en/settings", data={"ruleset": "pagat"})
    assert response.status_code == 303
    assert response.headers["Location"] == "/en/settings?saved=1"
    assert client.get_cookie(COOKIE).value == "pagat"
    html = client.get("/en/settings?saved=1").get_data(as_text=True)
    assert 'value="pagat" checked' in html
    assert "Saved." in html


def test_saving_house_options(client):
    form = {"ruleset": "ddv", **{name: encode(choices[-1]) for name, choices in OPTION_CHOICES.items()}}
    client.post("/en/settings", data=form)
    cookie = f"{COOKIE}={client.get_cookie(COOKIE).value}"
    with client.application.test_request_context("/en/", headers={"Cookie": cookie}):
        rules = current_rules()
    assert rules == RuleSet.named("ddv").with_options(**{n: c[-1] for n, c in OPTION_CHOICES.items()})


def test_choosing_a_rule_set_resets_the_house_options(client):
    client.post("/en/settings", data={"ruleset": "ddv", "deck": "40"})
    assert client.get_cookie(COOKIE).value == "ddv|deck=40"
    client.post("/en/settings", data={"ruleset": "ddv"})
    assert client.get_cookie(COOKIE).value == "ddv"


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"ruleset": "skat"}, "Bitte wähle eines der angebotenen Regelwerke."),
        ({}, "Bitte wähle eines der angebotenen Regelwerke."),
        ({"ruleset": "ddv", "deck": "52"}, "„Blatt“ kann nicht auf diesen Wert gesetzt werden."),
        ({"ruleset": "ddv", "schweinchen": "True"}, "„Schweinchen“ kann nicht auf diesen Wert gesetzt werden."),
    ],
)
def test_a_bad_form_is_a_400_with_a_translated_message(client, form, message):
    response = client.post("/de/settings", data=form)
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert message in html
    assert '<html lang="de"' in html
    assert client.get_cookie(COOKIE) is None


def test_a_bad_form_from_htmx_gets_just_the_message(client):
    response = client.post("/en/settings", data={"ruleset": "x"}, headers={"HX-Request": "true"})
    assert response.status_code == 400
    assert response.get_data(as_text=True).startswith('<p class="error"')


def test_a_cross_site_post_is_refused(client):
    response = client.post("/en/settings", data={"ruleset": "pagat"}, headers={"Sec-Fetch-Site": "cross-site"})
    assert response.status_code == 400
    assert client.get_cookie(COOKIE) is None


def test_pages_that_depend_on_rules_say_which_rules_they_show(client):
    client.post("/en/settings", data={"ruleset": "pagat", "deck": "40"})
    for page in ("", "learn/", "quiz/", "rules/"):
        html = client.get(f"/en/{page}").get_data(as_text=True)
        assert "Rules shown:" in html and "Classic rules (pagat)" in html, page
        assert "40 cards (without nines)" in html, page


def test_every_option_has_a_name_an_explanation_and_a_label_for_each_value(client):
    from tutor.web.words import OPTIONS

    assert set(OPTIONS) == set(OPTION_CHOICES)
    for name, choices in OPTION_CHOICES.items():
        assert set(OPTIONS[name].values) == set(choices), name
    html = client.get("/en/settings").get_data(as_text=True)
    for name, choices in OPTION_CHOICES.items():
        for choice in choices:
            assert f'name="{name}" value="{encode(choice)}"' in html
