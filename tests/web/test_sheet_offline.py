"""A sheet offline: static/js/sheet.js, run under node, writes the rows of the deals kept on a
phone and what comes next after them as the engine's own sheet does, from the outlook the
server hands the phone (tutor/web/score/offline_sheet.py) and the calculator's table; and
the server's side of it: offline.json, and the JSON answers the phone's queue reads."""
from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
from html import unescape
from pathlib import Path
from typing import Any

import pytest

from tests.web.test_sheet import PLAYERS, app, new_sheet, version  # noqa: F401 (app: the fixture)
from tutor.rules.announcements import announcement_choices
from tutor.rules.games import is_solo, played_games
from tutor.rules.rulesets import RuleSet
from tutor.rules.sheet import Deal, check_deal, course_of, evening, seating
from tutor.web.score import offline, offline_sheet
from tutor.web.score.form import read
from tutor.web.score.store import Store

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = [ROOT / "static" / "js" / "score-table.js", ROOT / "static" / "js" / "sheet.js"]
NODE = shutil.which("node") or shutil.which("nodejs")
# `make test` installs node where it is missing: without it these tests fail, they do not skip.
needs_node = pytest.mark.usefixtures("node")


@pytest.fixture
def node() -> str:
    assert NODE is not None, "node runs the page's script here: `make test` installs it (Debian's nodejs)"
    return NODE

RUNNER = """
const fs = require("fs");
process.argv.slice(1).forEach((path) => require(path));
const input = JSON.parse(fs.readFileSync(0, "utf8"));
const out = input.cases.map((c) => {
  const result = DokoSheet.walk(c.data, c.entries, input.tables[c.variant], DokoScoreTable.lookup);
  return {rows: result.rows.map((r) => ({dealer: r.dealer, multiplier: r.multiplier, entries: r.entries,
                                         totals: r.totals, compulsory: r.compulsory, vorgefuehrt: r.vorgefuehrt,
                                         trigger: r.trigger})),
          next: result.next, multiplier: result.multiplier, totals: result.totals, number: result.number};
});
process.stdout.write(JSON.stringify(out));
"""


@pytest.fixture
def store(app) -> Store:  # noqa: F811 (the app fixture, imported above)
    return app.extensions["doko_store"]


def run_walks(cases: list[dict[str, Any]], tables: dict[str, Any]) -> list[dict[str, Any]]:
    given = json.dumps({"cases": cases, "tables": tables})
    done = subprocess.run([NODE, "-e", RUNNER, *map(str, SCRIPTS)], input=given, capture_output=True, text=True,
                          check=True)
    return json.loads(done.stdout)


def full_fields(rng: random.Random, rules: RuleSet, game: str) -> tuple[list[list[str]], Deal] | None:
    """A deal entered with card points, as the form sends it, and the summary the server reads."""
    fields = {"game": game, "re_points": str(rng.choice([0, 30, 89, 90, 91, 119, 120, 121, 150, 151, 180, 210,
                                                         rng.randint(0, 240)]))}
    if rng.random() < .4:
        fields["re_announced"] = rng.choice(announcement_choices("re"))
    if rng.random() < .3:
        fields["kontra_announced"] = rng.choice(announcement_choices("kontra"))
    if rng.random() < .1:
        fields = {"game": game, "schwarz": rng.choice(["re", "kontra"])}
    if rng.random() < .2 and not is_solo(game):
        fields["re_fox"] = "1"
    form = read(fields, rules)
    if form.summary is None:
        return None
    s = form.summary
    deal = Deal(s.game, s.re_points, s.re_tricks, 0, (), s.re_announced, s.kontra_announced, s.extras)
    return [[name, value] for name, value in fields.items()], deal


def evening_case(rng: random.Random) -> tuple[dict[str, Any], list[dict[str, Any]], str, Any, list[Deal], dict]:
    """A sheet with some deals on the server and some kept on the phone; what the engine makes of all of them."""
    rules = RuleSet.named(rng.choice(["ddv", "ddv", "pagat"]))
    players = rng.randint(4, 7)
    bock = rng.random() < .6
    first = rng.randrange(players)
    games = list(played_games(rules))
    stored: list[Deal] = []
    kept: list[Deal] = []
    entries: list[dict[str, Any]] = []
    on_server = rng.choice([0, 1, 3, 10, 18, 22, 23, 29])
    for index in range(on_server + rng.randint(1, 7)):
        ev = evening(rules, players, stored + kept, bock, first)
        playing = seating(players, ev.next_dealer)[0]
        solo_rate = .5 if ev.vorgefuehrt is not None else .25
        game = rng.choice([g for g in games if is_solo(g)]) if rng.random() < solo_rate else rng.choice(
            [g for g in games if not is_solo(g)])
        re_players = (ev.vorgefuehrt if ev.vorgefuehrt is not None and is_solo(game) else rng.choice(playing),) \
            if is_solo(game) else tuple(rng.sample(playing, 2))
        if rng.random() < .5 or index < on_server:
            winner, value = rng.choice(["re", "kontra"]), rng.randint(1, 9)
            start_bock = bock and rng.random() < .2
            deal = Deal.quick_entry(game, ev.next_dealer, re_players, winner, value, start_bock)
            fields = [["game", game], *(["re", str(p)] for p in re_players), ["winner", winner], ["value", str(value)]]
            if start_bock:
                fields.append(["bock", "on"])
            kind = "quick"
        else:
            made = full_fields(rng, rules, game)
            if made is None:
                continue
            fields, summary = made
            deal = Deal(summary.game, summary.re_points, summary.re_tricks, ev.next_dealer, re_players,
                        summary.re_announced, summary.kontra_announced, summary.extras)
            fields += [["re", str(p)] for p in re_players]
            kind = "deal"
        check_deal(rules, players, deal)
        if index < on_server:
            stored.append(deal)
        else:
            kept.append(deal)
            entries.append({"once": f"{index:012x}", "kind": kind, "fields": fields, "dealer": None})
    _rows, course = course_of(rules, players, stored, bock, first)
    ev = evening(rules, players, stored, bock, first)
    data = {"players": PLAYERS[:0] + [f"P{p}" for p in range(players)], "count": len(stored),
            "totals": list(ev.totals), "bock": bock, "games": games,
            "outlook": offline_sheet.outlook(rules, players, bock, course)}
    return data, entries, offline.variant_key(rules), rules, stored + kept, {"players": players, "bock": bock,
                                                                            "first": first, "kept": len(kept)}


@needs_node
def test_the_phone_writes_the_kept_deals_as_the_engine_does():
    rng = random.Random(23)
    cases, expected, tables = [], [], {}
    for _ in range(160):
        data, entries, variant, rules, deals, about = evening_case(rng)
        if not entries:
            continue
        tables.setdefault(variant, offline.build(variant))
        cases.append({"data": data, "entries": entries, "variant": variant})
        ev = evening(rules, about["players"], deals, about["bock"], about["first"])
        expected.append((ev, about["kept"], rules.has_rounds))
    got = run_walks(cases, tables)
    reached = 0
    for case, (ev, kept, rounds), walked in zip(cases, expected, got, strict=True):
        rows = ev.rows[len(ev.rows) - kept:]
        known = True
        for row, mine in zip(rows, walked["rows"], strict=True):
            assert mine["multiplier"] == row.multiplier and mine["trigger"] == row.bock_trigger, case
            if mine["dealer"] is None:  # beyond the outlook: no dealer, no entries on the phone
                known = False
                assert mine["entries"] is None
                continue
            assert known, case  # once unknown, never known again
            assert mine["dealer"] == row.deal.dealer, case
            assert mine["entries"] == list(row.entries), case
            assert mine["totals"] == list(row.totals), case
            assert (mine["compulsory"], mine["vorgefuehrt"]) == (row.compulsory, row.vorgefuehrt), case
        assert walked["multiplier"] == ev.next_multiplier and walked["number"] == len(ev.rows) + 1
        if walked["next"] is not None:
            reached += 1
            nxt = walked["next"]
            assert nxt["dealer"] == ev.next_dealer and nxt["sittingOut"] == list(ev.next_sitting_out), case
            assert nxt["owed"] == list(ev.solos_owed) and nxt["forced"] == ev.vorgefuehrt, case
            if rounds:  # without rounds the page shows none (and the outlook counts none)
                assert (nxt["round"], nxt["left"]) == (ev.round_number, ev.deals_left_in_round), case
            assert walked["totals"] == list(ev.totals)
    assert reached > len(cases) * 0.9  # the outlook reaches past nearly every evening's kept deals


def test_the_outlook_reaches_three_deals_whatever_they_are():
    """Whatever three deals a table plays offline (any soloist, any dealer of the rotation),
    the phone knows who deals each of them and the next one: the issue's evening, and more."""
    for name in ("ddv", "pagat"):
        rules = RuleSet.named(name)
        for players in range(4, 8):
            for count in (0, 17, 21, 23):
                _rows, course = course_of(rules, players, [], False, 0)
                course = type(course)(count, 0, course.owed, ())
                turns = offline_sheet.rotation(rules, players, course)
                frontier = {0}
                for _deal in range(4):
                    frontier = {edge[0] for node in frontier for edge in turns[node][5].values()}
                    assert None not in frontier, (name, players, count)


# --- the server's side ---------------------------------------------------------------------


def kept_send(client, url: str, path: str, fields: dict[str, Any], once: str, sent_version: int | str):
    return client.post(url + path, data={**fields, "once": once, "version": str(sent_version)},
                       headers={"Accept": "application/json"})


def test_offline_json_carries_the_sheet_the_outlook_and_the_words(client, store):
    url = new_sheet(client, bock="on")
    data = client.get(url + "/offline.json")
    assert data.status_code == 200 and data.headers["Cache-Control"] == "private, no-store"
    body = data.json
    assert body["key"] == url.rsplit("/", 1)[1] and body["version"] == 1 and body["count"] == 0
    assert body["players"] == PLAYERS and body["bock"] and body["urls"]["deal"] == url + "/deal"
    assert body["outlook"]["turns"][0][0] == 0 and "triggers" in body["outlook"]
    assert body["words"]["kept"][1].count(str(body["many"])) == 1
    german = client.get(url.replace("/en/", "/de/") + "/offline.json").json["words"]
    assert german["pending"] == "auf diesem Handy"
    view = store.find(body["key"])[0].view_key
    assert client.get(f"/en/sheet/{view}/offline.json").status_code == 403  # the editor's phone only


def test_a_kept_deal_is_stored_once_and_answers_in_json(client, store):
    url = new_sheet(client)
    key = url.rsplit("/", 1)[1]
    deal = {"dealer": "0", "re": ["1", "2"], "re_points": "130"}
    first = kept_send(client, url, "/deal", deal, "0123456789ab", 1)
    assert first.status_code == 201 and first.json == {"saved": "0123456789ab", "version": 2}
    again = kept_send(client, url, "/deal", deal, "0123456789ab", 1)  # the answer was lost: sent again
    assert again.status_code == 200 and again.json == {"saved": "0123456789ab", "again": True}
    quick = {"game": "normal", "re": ["2", "3"], "winner": "kontra", "value": "2"}  # no dealer: the rotation's
    assert kept_send(client, url, "/quick", quick, "ba9876543210", 2).status_code == 201
    assert kept_send(client, url, "/quick", quick, "ba9876543210", 2).status_code == 200
    _sheet, _editor, deals = store.load(key)
    assert [d.id for d in deals] == ["0123456789ab", "ba9876543210"] and deals[1].data["dealer"] == 1


def test_a_kept_deal_the_server_refuses_says_why_in_the_pages_language(client, store):
    url = new_sheet(client, lang="de")
    key = url.rsplit("/", 1)[1]
    wrong = kept_send(client, url, "/deal", {"re": ["1"], "re_points": "130"}, "0123456789ab", 1)
    assert wrong.status_code == 400 and wrong.json["error"]["code"] == "invalid"
    assert wrong.json["error"]["fields"]["re_players"] == wrong.json["error"]["message"]
    assert "2 Re" in wrong.json["error"]["message"]
    client.post(url + "/deal", data={"version": version(client, url), "re": ["1", "2"], "re_points": "130"})
    stale = kept_send(client, url, "/deal", {"re": ["2", "3"], "re_points": "130"}, "0123456789ab", 1)
    assert stale.status_code == 409 and stale.json["error"]["code"] == "conflict"
    assert "anderen Handy" in stale.json["error"]["message"]
    view = store.find(key)[0].view_key
    read_only = kept_send(client, f"/de/sheet/{view}", "/deal", {"re": ["2", "3"], "re_points": "1"}, "0123456789ab", 2)
    assert read_only.status_code == 403 and read_only.json["error"]["code"] == "read_only"
    gone = kept_send(client, "/de/sheet/" + "A" * 22, "/deal", {}, "0123456789ab", 1)
    assert gone.status_code == 404 and gone.json["error"]["code"] == "not_found"
    damaged = kept_send(client, url, "/deal", {"re": ["2", "3"], "re_points": "130"}, "0123456789ab", "x")
    assert damaged.status_code == 400 and damaged.json["error"]["code"] == "bad_request"
    assert len(store.load(key)[2]) == 1


def test_a_form_opened_to_change_a_kept_deal_keeps_its_id(client):
    url = new_sheet(client)
    html = client.get(url + "/quick?game=normal&re=1&re=2&winner=re&value=3&once=0123456789ab").text
    assert 'name="once" value="0123456789ab"' in html and 'value="3"' in html
    damaged = client.get(url + "/deal?once=nonsense").text
    assert re.search(r'name="once" value="[0-9a-f]{12}"', damaged) and "nonsense" not in unescape(damaged)
