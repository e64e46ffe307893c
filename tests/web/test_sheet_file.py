"""A sheet as a file, on SQLite and on a real PostgreSQL: the JSON export imported as a new
sheet gives the same evening (over generated evenings: 4 to 7 players, both rule sets, Bock
on and off, dealers typed by hand), the CSV read back gives every entry and total, and a
damaged file is refused with its reason while nothing is stored."""
from __future__ import annotations

import csv
import io
import json
import re
from html import unescape
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app import create_app
from tests.postgres import postgres_url
from tutor.rules.errors import RulesError
from tutor.rules.games import is_solo
from tutor.rules.scoring import fitting_re_tricks
from tutor.rules.sheet import Deal, Evening, check_deal, evening, seating
from tutor.web.base.rules import rules_from_key
from tutor.web.score.sheet_file import MAX_DEALS
from tutor.web.score.store import Store
from tutor.web.score.store_format import Sheet, from_data, to_data

# Names a CSV has to quote or defuse, and letters beyond ASCII.
NAMES = ["Anna", "Bert", "Zoë", "=Oma", "Carl; Dora", 'Ede "der Kleine"', "Fritz, Jr.", "Gül", "+Hans"]
# A decimal comma means ";" between cells (tests/web/test_sheet.py: German Excel).
DELIMITERS = {"en": ",", "de": ";", "it": ";", "es": ";", "fr": ";", "pt": ";"}
RULES_KEYS = ["ddv", "ddv", "pagat", "pagat|deck=40"]
# Mostly normal games, so that some players still owe their compulsory solo near a round's end.
GAMES = ["normal"] * 9 + ["solo_queens", "solo_jacks", "solo_aces", "silent_wedding", "wedding", "poverty"]


@pytest.fixture(params=["sqlite", "postgres"])
def app(request, tmp_path):
    url = f"sqlite:///{tmp_path}/sheets.sqlite3" if request.param == "sqlite" else postgres_url()
    return create_app({"TESTING": True, "DATABASE_URL": url}, instance_path=str(tmp_path / "instance"))


@pytest.fixture
def store(app) -> Store:
    return app.extensions["doko_store"]


def count_sheets(store: Store) -> int:
    store.setup()
    with store._transaction() as cur:  # the test looks behind the store's back on purpose
        cur.execute("SELECT COUNT(*) FROM sheets")
        return int(cur.fetchone()[0])


@st.composite
def evenings(draw) -> tuple[list[str], str, bool, int, list[Deal]]:
    """An evening the sheet could have stored: each deal checked by the engine as the deal
    form would, its dealer the rotation's or, now and then, another one typed by hand."""
    players = draw(st.integers(4, 7))
    names = draw(st.permutations(NAMES))[:players]
    key = draw(st.sampled_from(RULES_KEYS))
    rules = rules_from_key(key)
    bock, first = draw(st.booleans()), draw(st.integers(0, players - 1))
    deals: list[Deal] = []
    # Short evenings, and long ones that reach the end of a ddv round (vorgeführt solos).
    for _ in range(draw(st.one_of(st.integers(0, 10), st.integers(20, 32)))):
        so_far = evening(rules, players, deals, bock, first)
        rotation = so_far.next_dealer
        dealer = draw(st.integers(0, players - 1)) if draw(st.integers(0, 7)) == 0 else rotation
        game = draw(st.sampled_from(GAMES))
        points = draw(st.one_of(st.sampled_from([0, 120, 240]), st.integers(1, 239)))
        extras = draw(st.sampled_from([{}, {"re": {"fox": 1}}, {"kontra": {"doppelkopf": 1}, "re": {"karlchen": 1}}]))
        playing = seating(players, dealer)[0]
        pick = draw(st.integers(0, 3))
        re = (playing[pick],) if is_solo(game) else (playing[pick], playing[(pick + draw(st.integers(1, 3))) % 4])
        if so_far.vorgefuehrt is not None and dealer == rotation and draw(st.booleans()):
            game, re = draw(st.sampled_from(["solo_queens", "solo_hearts"])), (so_far.vorgefuehrt,)  # vorgeführt
        try:
            tricks = 0 if points == 0 else rules.tricks if points == 240 else fitting_re_tricks(rules, game, points,
                                                                                                 extras)
            if draw(st.integers(0, 3)) == 0:  # now and then a quick deal: the winners and the value
                deal = Deal.quick_entry(game, dealer, re, draw(st.sampled_from(["re", "kontra"])),
                                        draw(st.integers(1, 99)), bock and draw(st.booleans()), dealer != rotation)
            else:
                deal = Deal(game, points, tricks, dealer, re, draw(st.sampled_from([None, "re", "no_90"])),
                            draw(st.sampled_from([None, "kontra", "no_60"])), extras, dealer != rotation)
            check_deal(rules, players, deal)
        except RulesError:
            continue  # a deal the form would refuse: the sheet never stores it
        deals.append(deal)
    return names, key, bock, first, deals


def stored_sheet(store: Store, names: list[str], key: str, bock: bool, first: int, deals: list[Deal]) -> Sheet:
    """A sheet written the way the deal form writes it: created, then one deal at a time."""
    sheet = store.create_sheet(names, key, bock, first)
    for version, deal in enumerate(deals, start=1):
        store.add_deal(sheet, version, to_data(deal))
    return sheet


def sheet_evening(store: Store, key: str) -> tuple[Sheet, Evening]:
    sheet, _, stored = store.load(key)
    return sheet, evening(rules_from_key(sheet.rules), len(sheet.players), [from_data(d.data) for d in stored],
                          sheet.bock, sheet.first_dealer)


def upload(client, body: bytes, lang: str = "en", name: str = "sheet.json", **headers: str):
    """The import form posted with this file. The multipart body is built here: the test
    client's own builder spools a large body to a file it never closes."""
    boundary = "----sheet-file-test"
    parts = (f'--{boundary}\r\nContent-Disposition: form-data; name="sheet"; filename="{name}"\r\n'
             f"Content-Type: application/json\r\n\r\n").encode() + body + f"\r\n--{boundary}--\r\n".encode()
    return client.post(f"/{lang}/sheet/import", data=parts, headers=headers,
                       content_type=f"multipart/form-data; boundary={boundary}")


def error_text(response) -> str:
    found = re.search(r'id="error-import">([^<]*)</p>', response.get_data(as_text=True))
    assert found, response.get_data(as_text=True)[-2000:]
    return unescape(found.group(1))


# --- the export --------------------------------------------------------------------------------


def test_the_json_export_is_the_whole_sheet_as_a_versioned_attachment(app, store):
    deals = [Deal("normal", 130, 7, 1, (2, 3)), Deal("solo_queens", 190, 9, 2, (3,), "re"),
             Deal("normal", 120, 6, 4, (0, 1), dealer_by_hand=True)]
    sheet = stored_sheet(store, ["Anna", "Bert", "Zoë", "Dora", "Emil"], "pagat|deck=40", True, 1, deals)
    client = app.test_client()
    for key in (sheet.edit_key, sheet.view_key):  # the read-only link downloads it too, like the CSV
        response = client.get(f"/de/sheet/{key}/sheet.json")
        assert response.status_code == 200 and response.mimetype == "application/json"
        assert response.headers["Cache-Control"] == "private, no-store"
        disposition = response.headers["Content-Disposition"]
        assert re.fullmatch(r"attachment; filename=doko-sheet-\d{4}-\d\d-\d\d-anna-bert-zoe-dora-emil\.json",
                            disposition), disposition
        doc = json.loads(response.get_data(as_text=True))
        assert doc["format"] == "doko-tutor-sheet" and doc["version"] == 1
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", doc["exported"])
        assert doc["players"] == ["Anna", "Bert", "Zoë", "Dora", "Emil"]
        assert (doc["rules"], doc["bock"], doc["first_dealer"]) == ("pagat|deck=40", True, 1)
        assert doc["deals"] == [to_data(d) for d in deals]  # as entered: the hand-typed dealer stays typed
    html = client.get(f"/en/sheet/{sheet.edit_key}").get_data(as_text=True)
    assert f'href="/en/sheet/{sheet.edit_key}/sheet.json"' in html and "Download as JSON" in html
    assert f'href="/en/sheet/{sheet.view_key}/sheet.json"' in client.get(f"/en/sheet/{sheet.view_key}").get_data(
        as_text=True)
    assert client.get("/en/sheet/" + "A" * 22 + "/sheet.json").status_code == 404


# --- the round trips ---------------------------------------------------------------------------


def round_trip(app, store: Store, names: list[str], key: str, bock: bool, first: int, deals: list[Deal]) -> Evening:
    """Export a sheet as JSON, import the file, and check the new sheet is the old one (and
    both the evening the engine makes of the deals)."""
    old = store.create_sheet(names, key, bock, first, [to_data(d) for d in deals])
    client = app.test_client()
    exported = client.get(f"/en/sheet/{old.view_key}/sheet.json").get_data()
    response = upload(client, exported)
    assert response.status_code == 303, error_text(response)
    new_key = response.headers["Location"].rsplit("/", 1)[1]
    new, new_evening = sheet_evening(store, new_key)
    old, old_evening = sheet_evening(store, old.edit_key)
    assert new_key == new.edit_key and {new.edit_key, new.view_key}.isdisjoint({old.edit_key, old.view_key})
    assert (new.players, new.rules, new.bock, new.first_dealer) == (old.players, old.rules, old.bock, old.first_dealer)
    # Every row (entries, running totals, dealers, sit-outs, Bock, compulsory and vorgeführt
    # solos, checks) and what comes next: the whole evening, field by field.
    assert new_evening == old_evening
    assert old_evening == evening(rules_from_key(key), len(names), deals, bock, first)
    again = json.loads(client.get(f"/en/sheet/{new_key}/sheet.json").get_data())
    assert again["deals"] == json.loads(exported)["deals"]
    return new_evening


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(evenings())
def test_json_export_then_import_gives_the_same_evening(app, store, generated):
    round_trip(app, store, *generated)


def test_quick_deals_come_back_as_quick_deals(app, store):
    """A table that never counts card points: its quick deals, a quick solo among them, come
    back with their winners and values."""
    deals = [Deal.quick_entry("normal", 0, (1, 3), "re", 2), Deal.quick_entry("solo_queens", 1, (2,), "kontra", 3),
             Deal.quick_entry("normal", 1, (0, 2), "kontra", 1, bock=True)]
    came_back = round_trip(app, store, ["Anna", "Bert", "Carl", "Dora"], "ddv", True, 0, deals)
    assert [row.deal.quick for row in came_back.rows] == [deal.quick for deal in deals]
    assert came_back.rows[1].entries == (3, 3, -9, 3)


def test_a_round_that_ends_in_vorgefuehrt_solos_comes_back_the_same(app, store):
    """Normal games until the round's last four deals, then each owing player's forced solo."""
    rules, deals = rules_from_key("ddv"), []
    for _ in range(26):
        ev = evening(rules, 4, deals, True, 3)
        playing = seating(4, ev.next_dealer)[0]
        forced = ev.vorgefuehrt
        deals.append(Deal("solo_queens", 130, 7, ev.next_dealer, (forced,)) if forced is not None
                     else Deal("normal", 120 if len(deals) == 5 else 130, 6, ev.next_dealer, playing[:2]))
    came_back = round_trip(app, store, ["Anna", "Bert", "Carl", "Dora"], "ddv", True, 3, deals)
    assert [row.number for row in came_back.rows if row.vorgefuehrt] == [21, 22, 23, 24]
    assert came_back.round_number == 2 and any(row.multiplier > 1 for row in came_back.rows)


def csv_cell(name: str) -> str:
    return "'" + name if name[:1] in "=+-@" else name


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(evenings(), st.sampled_from(sorted(DELIMITERS)))
def test_csv_export_read_back_gives_each_deals_entries_and_totals(app, store, generated, lang):
    names, key, bock, first, deals = generated
    sheet = store.create_sheet(names, key, bock, first, [to_data(d) for d in deals])
    ev = evening(rules_from_key(key), len(names), deals, bock, first)
    text = app.test_client().get(f"/{lang}/sheet/{sheet.edit_key}/sheet.csv").get_data(as_text=True)
    assert text.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(text.removeprefix("\ufeff"), newline=""), delimiter=DELIMITERS[lang]))
    first_player = 8 if bock else 7  # the Bock column only where the sheet plays Bock rounds
    assert len(rows) == len(deals) + 2 and all(len(r) == first_player + len(names) for r in rows)
    assert rows[0][first_player:] == [csv_cell(n) for n in names]
    for row, cells in zip(ev.rows, rows[1:-1], strict=True):
        assert cells[0] == str(row.number) and cells[1] == csv_cell(names[row.deal.dealer])
        assert bool(cells[3]) == row.compulsory
        # a quick deal has no card points but its winners and value; a counted one the reverse
        assert (cells[5], bool(cells[6])) == (("", True) if row.deal.quick else (str(row.deal.re_points), False))
        if bock:
            assert cells[7] == str(row.multiplier)
        assert cells[first_player:] == ["" if e is None else str(e) for e in row.entries]
    assert rows[-1][first_player:] == [str(t) for t in ev.totals]


# --- the import: what it makes and what it refuses ------------------------------------------------


BASE_DEALS = [Deal("normal", 156, 8, 0, (1, 3), extras={"re": {"fox": 1}}), Deal("solo_queens", 130, 7, 1, (2,)),
              Deal("normal", 120, 6, 1, (3, 4))]


@pytest.fixture
def exported(app, store) -> dict[str, Any]:
    sheet = stored_sheet(store, ["Anna", "Bert", "Carl", "Dora", "Emil"], "ddv", True, 0, BASE_DEALS)
    return json.loads(app.test_client().get(f"/en/sheet/{sheet.edit_key}/sheet.json").get_data())


def test_an_imported_sheet_is_new_editable_and_listed_on_this_device(app, store, exported):
    client = app.test_client()
    before = count_sheets(store)
    response = upload(client, json.dumps(exported).encode())
    assert response.status_code == 303
    editor = response.headers["Location"]
    page = client.get(editor)
    assert page.status_code == 200 and "Enter deal 4" in page.get_data(as_text=True)
    listed = client.get("/en/sheet/").get_data(as_text=True).split('class="my-sheets"', 1)[1].split("</section>")[0]
    assert editor.rsplit("/", 1)[1] in listed and "Anna, Bert, Carl, Dora, Emil" in listed
    assert ">imported</span>" in listed and "3 deals" in listed  # told apart from a sheet started here
    assert count_sheets(store) == before + 1
    assert store.listed([editor.rsplit("/", 1)[1]])[0].imported


def test_an_older_file_without_the_optional_deal_fields_still_imports(app, store, exported):
    for data in exported["deals"]:
        for optional in ("re_announced", "kontra_announced", "extras", "dealer_by_hand"):
            if not data.get(optional):
                data.pop(optional)
    response = upload(app.test_client(), json.dumps(exported).encode())
    assert response.status_code == 303
    assert sheet_evening(store, response.headers["Location"].rsplit("/", 1)[1])[1].totals == evening(
        rules_from_key("ddv"), 5, BASE_DEALS, True, 0).totals


def _set(path: str, value: Any):
    def change(doc: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        target: Any = doc
        for part in parents:
            target = target[int(part)] if isinstance(target, list) else target[part]
        if value is KeyError:
            del target[last]
        elif isinstance(target, list):
            target[int(last)] = value
        else:
            target[last] = value
    return change


def _damage(change, doc: dict[str, Any]) -> bytes:
    if isinstance(change, bytes):
        return change
    if change == "truncated":
        text = json.dumps(doc).encode()
        return text[: len(text) // 2]
    change(doc)
    return json.dumps(doc).encode()


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ("truncated", "Diese Datei ist kein aus Doko Tutor exportierter Zettel."),
        (b"", "Diese Datei ist kein aus Doko Tutor exportierter Zettel."),
        (b"\xff\xfe{}", "Diese Datei ist kein aus Doko Tutor exportierter Zettel."),
        (b"[1, 2]", "Diese Datei ist kein aus Doko Tutor exportierter Zettel."),
        (b'{"format": "doko-tutor-sheet", "version": NaN}', "Diese Datei ist kein aus Doko Tutor exportierter Zettel."),
        (b"[" * 100_000, "Diese Datei ist kein aus Doko Tutor exportierter Zettel."),
        (_set("format", "something-else"), "Diese Datei ist kein aus Doko Tutor exportierter Zettel."),
        (_set("version", 2), "neueren Version von Doko Tutor (Format 2)"),
        (_set("version", "1"), "„version“ fehlt"),
        (_set("version", True), "„version“ fehlt"),
        (_set("title", "x"), "„title“ fehlt"),
        (_set("players", KeyError), "„players“ fehlt"),
        (_set("players", "Anna, Bert, Carl, Dora"), "„players“ fehlt"),
        (_set("players", ["Anna", "Bert", "Carl"]), "Gib die Namen von 4 bis 7 Spielern ein."),
        (_set("players", ["A", "B", "C", "D", "E", "F", "G", "H"]), "Gib die Namen von 4 bis 7 Spielern ein."),
        (_set("players.4", "anna"), "Zwei Spieler haben denselben Namen"),
        (_set("players.4", " "), "Ein Spieler in der Datei hat keinen Namen."),
        (_set("players.4", "E" * 25), "Ein Name hat höchstens 24 Zeichen."),
        (_set("players.4", 5), "„players“ fehlt"),
        (_set("rules", "skat"), "Die Regeln in der Datei sind hier unbekannt."),
        (_set("rules", "ddv|deck=52"), "Die Regeln in der Datei sind hier unbekannt."),
        (_set("rules", ["ddv"]), "„rules“ fehlt"),
        (_set("bock", "yes"), "„bock“ fehlt"),
        (_set("first_dealer", 5), "„first_dealer“ fehlt"),
        (_set("first_dealer", 1.0), "„first_dealer“ fehlt"),
        (_set("deals", {}), "„deals“ fehlt"),
        (_set("deals.1", "solo"), "Spiel 2 in der Datei ist beschädigt."),
        (_set("deals.1.re_points", "130"), "Spiel 2 in der Datei ist beschädigt."),  # a flipped field
        (_set("deals.1.re_points", 130.0), "Spiel 2 in der Datei ist beschädigt."),
        (_set("deals.1.re_players", "2"), "Spiel 2 in der Datei ist beschädigt."),
        (_set("deals.1.dealer_by_hand", "yes"), "Spiel 2 in der Datei ist beschädigt."),
        (_set("deals.1.extras", []), "Spiel 2 in der Datei ist beschädigt."),
        (_set("deals.1.game", KeyError), "Spiel 2 in der Datei ist beschädigt."),
        (_set("deals.1.winner", "re"), "Spiel 2 in der Datei ist beschädigt."),
        # Deals the engine refuses: the number and the engine's own sentence.
        (_set("deals.2.re_points", 300), "Spiel 3 kann so nicht auf dem Zettel stehen: Das muss eine ganze Zahl von "
                                         "0 bis 240 sein."),
        (_set("deals.0.re_players", [0, 1]),
         "Spiel 1 kann so nicht auf dem Zettel stehen: Dieser Spieler hat in diesem Spiel ausgesetzt."),
        (_set("deals.1.game", "skat"), "Spiel 2 kann so nicht auf dem Zettel stehen:"),
        (_set("deals.1.re_players", [1, 2]), "Spiel 2 kann so nicht auf dem Zettel stehen:"),
        (_set("deals.0.re_announced", "kontra"), "Spiel 1 kann so nicht auf dem Zettel stehen:"),
        (_set("deals.0.game", "poverty"), "Spiel 1 kann so nicht auf dem Zettel stehen:"),
    ],
)
def test_a_damaged_file_is_refused_with_its_reason_and_nothing_is_stored(app, store, exported, change, reason):
    before = count_sheets(store)
    response = upload(app.test_client(), _damage(change, exported), lang="de")
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert '<html lang="de"' in html and 'aria-invalid="true" autofocus' in html
    message = error_text(response)
    assert reason in message and message.endswith("Es wurde nichts importiert.")
    assert count_sheets(store) == before


def test_a_player_who_sits_out_as_re_is_named_with_the_engines_words(app, store, exported):
    exported["deals"][0]["re_players"] = [0, 1]  # Anna deals deal 1 at five players: she sits out
    message = error_text(upload(app.test_client(), json.dumps(exported).encode()))
    assert message == "Deal 1 cannot be on this sheet: This player sat out this deal. Nothing was imported."


def test_too_many_deals_are_refused(app, store, exported):
    exported["deals"] = [exported["deals"][0]] * (MAX_DEALS + 1)
    before = count_sheets(store)
    response = upload(app.test_client(), json.dumps(exported).encode())
    assert response.status_code == 400 and f"at most {MAX_DEALS} deals" in error_text(response)
    assert count_sheets(store) == before


def test_a_file_over_a_megabyte_is_a_413_with_the_form_again(app, store, exported):
    before = count_sheets(store)
    exported["padding"] = " " * (1024 * 1024)
    response = upload(app.test_client(), json.dumps(exported).encode(), lang="fr")
    assert response.status_code == 413
    assert error_text(response) == ("Le fichier est trop gros pour une feuille (1 MB au plus). "
                                    "Rien n’a été importé.")
    response = upload(app.test_client(), b" " * (3 * 1024 * 1024))  # past the request's own limit too
    assert response.status_code == 413 and error_text(response).startswith("The file is too large")
    assert count_sheets(store) == before


def test_a_file_under_the_limit_but_over_the_forms_limit_is_read(app, store, exported):
    exported["deals"] = exported["deals"] * 300  # about 100 KB, above the 64 KB of every other form
    response = upload(app.test_client(), json.dumps(exported, indent=2).encode())
    assert response.status_code == 303, error_text(response)
    assert len(store.load(response.headers["Location"].rsplit("/", 1)[1])[2]) == 900


def test_no_file_or_another_field_is_a_400(app, store):
    client = app.test_client()
    before = count_sheets(store)
    response = client.post("/en/sheet/import", data={}, content_type="multipart/form-data")
    assert response.status_code == 400 and error_text(response).startswith("Choose a sheet file to import.")
    response = client.post("/en/sheet/import", data={"sheet": (io.BytesIO(b"{}"), ""), "x": "1"},
                           content_type="multipart/form-data")
    assert response.status_code == 400
    assert client.get("/en/sheet/import").status_code == 405
    assert count_sheets(store) == before


def test_a_cross_site_import_is_refused(app, store, exported):
    before = count_sheets(store)
    body = json.dumps(exported).encode()
    for headers in ({"Sec-Fetch-Site": "cross-site"}, {"Origin": "https://evil.example"}):
        assert upload(app.test_client(), body, **headers).status_code == 400
    assert count_sheets(store) == before


def test_the_start_page_offers_the_import_form_without_javascript(client):
    html = client.get("/en/sheet/").get_data(as_text=True)
    form = html.split('aria-labelledby="import-heading"', 1)[1].split("</form>", 1)[0]
    assert 'method="post" enctype="multipart/form-data"' in form and 'action="/en/sheet/import"' in form
    assert 'type="file" name="sheet"' in form and 'type="submit"' in form


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**30), 10**30) | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
    max_leaves=12,
)


def _paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    """Every place in a document: each key of an object, each item of a list."""
    found = [prefix] if prefix else []
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        found += _paths(item, (*prefix, key))
    return found


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_value_anywhere_in_the_file_is_a_sheet_or_a_reason_never_a_crash(app, store, exported, data):
    doc = json.loads(json.dumps(exported))
    path = data.draw(st.sampled_from(_paths(doc)))
    target = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = data.draw(JSON_VALUES)
    before = count_sheets(store)
    response = upload(app.test_client(), json.dumps(doc).encode())
    assert response.status_code in (303, 400)
    assert count_sheets(store) == before + (response.status_code == 303)
    if response.status_code == 400:
        assert error_text(response).endswith("Nothing was imported.")


@pytest.mark.parametrize(("change", "reason"), [
    ({"value": "abc"}, "whole number from 1 to 99"), ({"value": 0}, "whole number from 1 to 99"),
    ({"value": 100}, "whole number from 1 to 99"), ({"value": 3.5}, "whole number from 1 to 99"),
    ({"value": True}, "whole number from 1 to 99"), ({"winner": "nobody"}, "either re or kontra"),
    ({"bock": "yes"}, "Deal 1 in the file is damaged"), ({"extra": 1}, "Deal 1 in the file is damaged"),
])
def test_a_damaged_quick_deal_is_refused_and_nothing_is_stored(app, store, change, reason):
    doc = {"format": "doko-tutor-sheet", "version": 1, "exported": "2026-12-01T10:00:00+00:00",
           "players": ["Anna", "Bert", "Carl", "Dora"], "rules": "ddv", "bock": False, "first_dealer": 0,
           "deals": [to_data(Deal.quick_entry("normal", 0, (1, 2), "re", 3))]}
    assert upload(app.test_client(), json.dumps(doc).encode()).status_code == 303  # whole, it imports
    before = count_sheets(store)
    doc["deals"][0]["quick"].update(change)
    response = upload(app.test_client(), json.dumps(doc).encode())
    assert response.status_code == 400 and reason in error_text(response)
    assert count_sheets(store) == before
