"""Quick entry on the score sheet over HTTP: the winners and the value, as on paper. Saved,
edited, refused when its row fails the sheet's checks (nothing stored), in every language."""
from __future__ import annotations

import csv
import io
import re
from html import unescape

import pytest

from tests.web.test_sheet import PLAYERS, app, new_sheet, store, totals  # noqa: F401 (fixtures)
from tutor.rules.sheet import Deal
from tutor.web.score.store_format import from_data, to_data


def deal_ids(client, url: str) -> list[str]:
    """The deals' ids from the sheet's row links, to the deal form or the quick form."""
    return re.findall(r'/(?:deal|quick)/([\w-]{12})"', client.get(url).get_data(as_text=True))


def form_of(client, path: str) -> dict[str, str]:
    html = client.get(path).get_data(as_text=True)
    fields = {"version": re.search(r'name="version" value="(\d+)"', html).group(1)}
    once = re.search(r'name="once" value="([^"]+)"', html)
    if once:
        fields["once"] = once.group(1)
    return fields


def quick(client, url: str, status: int = 303, **fields):
    response = client.post(url + "/quick", data={**form_of(client, url + "/quick"), **fields})
    assert response.status_code == status, unescape(response.get_data(as_text=True))[-3000:]
    return response


def error_of(response, field: str) -> str:
    found = re.search(rf'id="error-{field}">([^<]*)</p>', response.get_data(as_text=True))
    assert found, field
    return unescape(found.group(1))


def stored(store, url: str) -> list[dict]:  # noqa: F811
    return [d.data for d in store.load(url.rsplit("/", 1)[1])[2]]


def test_a_quick_deal_is_saved_and_counts_like_any_other(client, store):  # noqa: F811
    url = new_sheet(client)
    quick(client, url, dealer="0", re=["1", "3"], game="normal", winner="re", value="3")
    quick(client, url, dealer="1", re=["2"], game="solo_queens", winner="kontra", value="2")
    assert totals(client, url) == ["-1", "5", "-9", "5"]  # Carl's lost compulsory solo: −6, the others +2
    html = unescape(client.get(url).get_data(as_text=True))
    assert "Normal game · Re won, 3" in html and "Queens solo · The opponents won, 2 · compulsory" in html
    assert html.count("both checks pass") == 2
    assert "Deals: <strong>Bert</strong>" in html  # a compulsory solo: the same dealer deals again
    assert stored(store, url)[0] == {"game": "normal", "dealer": 0, "re_players": [1, 3], "dealer_by_hand": False,
                                     "quick": {"winner": "re", "value": 3, "bock": False}}


@pytest.mark.parametrize(("re_players", "total", "expected"), [(["1"], "−4", 2), (["1", "2", "3"], "+4", 2),
                                                             ([], "−8", 2)])
def test_quick_entry_rejects_a_non_zero_sum_row(client, store, re_players, total, expected):  # noqa: F811
    url = new_sheet(client)
    response = quick(client, url, 400, dealer="0", re=re_players, game="normal", winner="re", value="2")
    assert error_of(response, "re_players") == (
        f"The entries of this row sum to {total}, not zero: tick exactly {expected} Re players.")
    assert 'value="2"' in response.get_data(as_text=True)  # the typed deal is still in the form
    assert stored(store, url) == []


def test_a_quick_solo_with_two_re_players_is_refused_in_german(client, store):  # noqa: F811
    url = new_sheet(client, lang="de")
    response = quick(client, url, 400, dealer="0", re=["1", "2"], game="solo_queens", winner="re", value="1")
    assert '<html lang="de"' in response.get_data(as_text=True)
    assert error_of(response, "re_players") == (
        "Die Einträge dieser Zeile ergeben zusammen +4 statt null: Kreuze genau 1 Re-Spieler an.")
    assert stored(store, url) == []


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"value": "0"}, "value", "Das muss eine ganze Zahl von 1 bis 99 sein."),
        ({"value": "100"}, "value", "Das muss eine ganze Zahl von 1 bis 99 sein."),
        ({"value": "-3"}, "value", None),
        ({"value": "abc"}, "value", None),
        ({"value": ""}, "value", "Bitte fülle dieses Feld aus."),
        ({"value": "9" * 40}, "value", None),
        ({"winner": ""}, "winner", "Bitte wähle, wer gewonnen hat."),
        ({"winner": "nobody"}, "winner", "Bitte wähle einen der angebotenen Werte."),
        ({"game": "<script>"}, "game", None),
        ({"game": "poverty"}, "game", None),
        ({"dealer": "9"}, "dealer", None),
        ({"re": ["1", "9"]}, "re_players", None),
        ({"re": ["0", "1"], "player5": True}, "re_players", "Dieser Spieler hat in diesem Spiel ausgesetzt."),
    ],
)
def test_bad_quick_deals_are_a_translated_400_and_store_nothing(client, store, fields, field, message):  # noqa: F811
    fields = dict(fields)  # each backend gets the same parameters
    players = PLAYERS + ["Emil"] if fields.pop("player5", False) else PLAYERS
    url = new_sheet(client, players=players, lang="de")
    response = quick(client, url, 400, **{"dealer": "0", "re": ["1", "2"], "game": "normal", "winner": "re",
                                          "value": "2", **fields})
    html = response.get_data(as_text=True)
    assert '<html lang="de"' in html and "<script>" not in html.split("<main", 1)[1]
    text = error_of(response, field)
    assert text and (message is None or text == message)
    assert stored(store, url) == []


def test_editing_a_quick_deal_opens_the_quick_form_and_saves(client, store):  # noqa: F811
    url = new_sheet(client)
    quick(client, url, dealer="0", re=["1", "2"], game="normal", winner="re", value="2")
    deal_id = deal_ids(client, url)[0]
    html = client.get(url).get_data(as_text=True)
    assert f"/quick/{deal_id}" in html and f"/deal/{deal_id}\"" not in html  # the row opens the quick form
    page = client.get(f"{url}/quick/{deal_id}").get_data(as_text=True)
    assert 'name="winner" value="re" checked' in page and 'name="value" inputmode="numeric"' in page
    assert 'value="2"' in page and f'href="{url}/deal/{deal_id}"' in page  # "count card points instead"
    response = client.post(f"{url}/quick/{deal_id}", data={**form_of(client, f"{url}/quick/{deal_id}"), "dealer": "0",
                                                           "re": ["1", "2"], "game": "normal", "winner": "kontra",
                                                           "value": "4"})
    assert response.status_code == 303
    assert totals(client, url) == ["4", "-4", "-4", "4"]
    bad = client.post(f"{url}/quick/{deal_id}", data={**form_of(client, f"{url}/quick/{deal_id}"), "dealer": "0",
                                                      "re": ["1"], "game": "normal", "winner": "re", "value": "4"})
    assert bad.status_code == 400 and "not zero" in bad.get_data(as_text=True)
    assert stored(store, url)[0]["quick"] == {"winner": "kontra", "value": 4, "bock": False}


def test_a_counted_deal_opens_in_the_quick_form_with_its_winners_and_value(client):
    url = new_sheet(client)
    form = form_of(client, url + "/deal")
    client.post(url + "/deal", data={**form, "dealer": "0", "re": ["2"], "game": "solo_jacks", "re_points": "110"})
    deal_id = deal_ids(client, url)[0]
    page = client.get(f"{url}/quick/{deal_id}").get_data(as_text=True)
    assert 'name="winner" value="kontra" checked' in page and 'name="value" inputmode="numeric" min="1" max="99" ' \
        'step="1" value="1"' in page  # the lost jacks solo: each opponent +1
    assert f'href="{url}/deal/{deal_id}"' in client.get(url).get_data(as_text=True)  # counted: the full form


def test_the_main_button_follows_the_kind_of_the_last_deal(client):
    url = new_sheet(client)
    html = client.get(url).get_data(as_text=True)
    assert f'class="button" href="{url}/deal">Enter deal 1' in html and f'href="{url}/quick">Quick entry' in html
    quick(client, url, dealer="0", re=["1", "2"], game="normal", winner="re", value="1")
    html = client.get(url).get_data(as_text=True)
    assert f'class="button" href="{url}/quick">Enter deal 2' in html
    assert f'href="{url}/deal">Enter with card points' in html
    full = client.get(url + "/deal").get_data(as_text=True)
    quick_page = client.get(url + "/quick").get_data(as_text=True)
    assert f'href="{url}/quick"' in full and f'href="{url}/deal"' in quick_page  # one tap either way


def test_bock_is_offered_only_where_the_sheet_plays_it(client):
    plain = new_sheet(client)
    assert 'name="bock"' not in client.get(plain + "/quick").get_data(as_text=True)
    assert "without Bock" not in client.get(plain + "/quick").get_data(as_text=True)
    quick(client, plain, dealer="0", re=["1", "2"], game="normal", winner="re", value="1", bock="on")
    assert "starts Bock" not in client.get(plain).get_data(as_text=True)
    url = new_sheet(client, bock="on")
    assert 'name="bock"' in client.get(url + "/quick").get_data(as_text=True)
    quick(client, url, dealer="0", re=["1", "2"], game="normal", winner="re", value="1", bock="on")
    # in the Bock round the form says the value is typed without Bock, as the sheet counts it
    assert "Type it without Bock: the sheet multiplies it by 2." in client.get(url + "/quick").get_data(as_text=True)
    quick(client, url, dealer="1", re=["2", "3"], game="normal", winner="re", value="2")
    html = client.get(url).get_data(as_text=True)
    assert "starts Bock" in html and "Bock ×2" in html
    assert totals(client, url) == ["-5", "-3", "5", "3"]


def test_the_preview_shows_the_row(client):
    url = new_sheet(client, bock="on")
    response = client.get(url + "/quick?dealer=0&re=1&re=3&winner=kontra&value=3", headers={"HX-Request": "true"})
    html = unescape(response.get_data(as_text=True))
    assert response.status_code == 200 and "<html" not in html
    assert "Kontra won, 3" in html and "<span>Anna</span> <strong class=\"writes__amount\">+3</strong>" in html
    assert 'id="error-value" hx-swap-oob="true"' in html and 'id="sitting-out" hx-swap-oob="true"' in html
    picking = client.get(url + "/quick?dealer=0&re=1&winner=re&value=3", headers={"HX-Request": "true"})
    assert picking.status_code == 200 and "not zero" not in picking.get_data(as_text=True)  # still ticking
    too_many = client.get(url + "/quick?dealer=0&re=1&re=2&re=3&winner=re&value=3", headers={"HX-Request": "true"})
    assert "not zero" in too_many.get_data(as_text=True)


@pytest.mark.parametrize("query", ["dealer=99", "re=" + "&re=".join("0" * 50), "value=%00", "winner=%F0%9F%83%8F",
                                   "game=solo_aces&re=0&re=1&winner=re&value=1", "value=99999999999999"])
def test_the_quick_preview_never_breaks(client, query):
    url = new_sheet(client)
    response = client.get(f"{url}/quick?{query}", headers={"HX-Request": "true"})
    assert response.status_code == 200 and 'id="quick-result"' in response.get_data(as_text=True)


@pytest.mark.parametrize("lang", ["en", "de", "it", "es", "fr", "pt"])
def test_the_quick_form_renders_in_every_language(client, lang):
    url = new_sheet(client, lang=lang, bock="on")
    response = client.get(url + "/quick")
    html = response.get_data(as_text=True)
    assert response.status_code == 200 and f'<html lang="{lang}"' in html
    assert html.count('name="re"') == 4 and html.count('name="winner"') == 2 and 'name="bock"' in html
    quick(client, url, dealer="0", re=["1", "2"], game="normal", winner="re", value="2")
    assert client.get(url).status_code == 200 and client.get(url + "/sheet.csv").status_code == 200


def test_the_quick_form_offers_only_the_players_of_this_deal(client):
    url = new_sheet(client, players=PLAYERS + ["Emil"])
    html = client.get(url + "/quick").get_data(as_text=True)  # Anna deals and sits out
    assert re.findall(r'name="re" value="(\d)"', html) == ["1", "2", "3", "4"]
    assert "Sits out: Anna" in html


def test_the_quick_form_has_the_full_forms_write_checks(client, store):  # noqa: F811
    url = new_sheet(client)
    deal = {"dealer": "0", "re": ["1", "2"], "game": "normal", "winner": "re", "value": "1"}
    form = form_of(client, url + "/quick")
    cross = client.post(url + "/quick", data={**form, **deal}, headers={"Sec-Fetch-Site": "cross-site"})
    assert cross.status_code == 400
    assert client.post(url + "/quick", data={**form, **deal, "version": "x"}).status_code == 400
    assert client.post(url + "/quick", data={**form, **deal, "once": "nonsense"}).status_code == 400
    assert client.post(url + "/quick", data={**form, **deal}).status_code == 303
    assert client.post(url + "/quick", data={**form, **deal}).status_code == 303  # the same form again: kept once
    assert len(stored(store, url)) == 1
    stale = client.post(url + "/quick", data={**form_of(client, url + "/quick"), **deal, "version": form["version"]})
    assert stale.status_code == 409 and "changed on another phone" in stale.get_data(as_text=True)
    view = "/en/sheet/" + store.find(url.rsplit("/", 1)[1])[0].view_key
    assert client.get(view + "/quick").status_code == 403
    assert client.post(view + "/quick", data={**form_of(client, url + "/quick"), **deal}).status_code == 403
    assert len(stored(store, url)) == 1


def test_undo_of_a_quick_deal_opens_the_quick_form_to_delete_it(client):
    url = new_sheet(client)
    quick(client, url, dealer="0", re=["1", "2"], game="normal", winner="re", value="1")
    undo = unescape(re.search(r'href="([^"]+/undo)"', client.get(url).get_data(as_text=True)).group(1))
    page = client.get(undo).get_data(as_text=True)
    assert 'id="quick-form"' in page and 'id="delete" open' in page
    action = unescape(re.search(r'<form method="post" action="([^"]+/delete)"', page).group(1))
    assert client.post(action, data=form_of(client, url + "/quick")).status_code == 303
    assert deal_ids(client, url) == []


def test_csv_marks_a_quick_deal(client):
    url = new_sheet(client)
    quick(client, url, dealer="0", re=["2"], game="solo_queens", winner="re", value="2")
    rows = list(csv.reader(io.StringIO(client.get(url + "/sheet.csv").get_data(as_text=True).lstrip("\ufeff"))))
    assert rows[0][5:8] == ["Re’s card points", "Quick entry", "Anna"]  # no Bock rounds: no Bock column
    assert rows[1][5:7] == ["", "The soloist won, 2"] and rows[1][-4:] == ["-2", "-2", "6", "-2"]
    assert rows[1][3] == "compulsory"
    assert all(len(row) == len(rows[0]) for row in rows)


def test_csv_of_a_sheet_with_bock_has_the_bock_column(client):
    url = new_sheet(client, bock="on")
    quick(client, url, dealer="0", re=["1", "2"], game="normal", winner="re", value="1", bock="on")
    quick(client, url, dealer="1", re=["2", "3"], game="normal", winner="kontra", value="2")
    rows = list(csv.reader(io.StringIO(client.get(url + "/sheet.csv").get_data(as_text=True).lstrip("\ufeff"))))
    assert rows[0][5:9] == ["Re’s card points", "Quick entry", "Bock", "Anna"]
    assert [row[7] for row in rows[1:3]] == ["1", "2"]  # the second deal counts double
    assert rows[2][-4:] == ["4", "4", "-4", "-4"]
    assert all(len(row) == len(rows[0]) for row in rows)


def test_stored_deals_without_quick_fields_load_unchanged():
    old = {"game": "normal", "re_points": 156, "re_tricks": 8, "dealer": 0, "re_players": [1, 3],
           "re_announced": None, "kontra_announced": None, "extras": {"re": {"fox": 1}}, "dealer_by_hand": False}
    deal = from_data(old)
    assert deal.quick is None and to_data(deal) == old
    older = {"game": "normal", "re_points": 130, "re_tricks": 7, "dealer": 2, "re_players": [0, 1]}
    assert from_data(older) == Deal("normal", 130, 7, 2, (0, 1))
    new = Deal.quick_entry("solo_hearts", 1, (2,), "kontra", 5, bock=True, dealer_by_hand=True)
    assert from_data(to_data(new)) == new


def test_a_quick_deal_with_card_points_in_its_data_is_refused_by_check_deal():
    from tutor.rules.errors import RulesError
    from tutor.rules.rulesets import RuleSet
    from tutor.rules.sheet import check_deal

    data = {**to_data(Deal.quick_entry("normal", 0, (1, 2), "re", 2)), "re_points": 130}
    with pytest.raises(RulesError) as error:
        check_deal(RuleSet.named("ddv"), 4, from_data(data))
    assert error.value.code == "quick_with_summary"
    with pytest.raises(RulesError):
        damaged = {**data, "re_points": 0, "quick": {"winner": "re", "value": "2"}}  # a value as text
        check_deal(RuleSet.named("ddv"), 4, from_data(damaged))


def test_a_quick_deal_can_be_counted_after_all_in_the_full_form(client, store):  # noqa: F811
    url = new_sheet(client)
    quick(client, url, dealer="0", re=["1", "3"], game="normal", winner="re", value="1")
    deal_id = deal_ids(client, url)[0]
    page = client.get(f"{url}/deal/{deal_id}").get_data(as_text=True)
    assert 'name="re" value="1" checked' in page and 'name="re" value="3" checked' in page
    assert 'name="re_points" inputmode="numeric" min="0" max="240" step="1" value=""' in page  # nothing counted yet
    assert f'href="{url}/quick/{deal_id}"' in page  # and back to the quick form
    form = {**form_of(client, f"{url}/deal/{deal_id}"), "dealer": "0", "re": ["1", "3"], "game": "normal",
            "re_points": "156", "re_fox": "1", "kontra_doppelkopf": "1"}
    assert client.post(f"{url}/deal/{deal_id}", data=form).status_code == 303
    assert totals(client, url) == ["-2", "2", "-2", "2"]
    data = stored(store, url)[0]
    assert "quick" not in data and data["re_points"] == 156
