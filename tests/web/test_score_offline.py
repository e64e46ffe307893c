"""The calculator offline: static/js/score-table.js, run under node, gives the engine's answer
for the inputs the form can send, under both rule sets and each house option."""
from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
from html import unescape
from pathlib import Path

import pytest

from tutor.rules.announcements import announcement_choices
from tutor.rules.cards import DECK_POINTS
from tutor.rules.games import played_games
from tutor.rules.rulesets import OPTION_CHOICES, RULESETS, RuleSet
from tutor.web.base.rules import rules_key
from tutor.web.score import offline
from tutor.web.score.form import read

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "static" / "js" / "score-table.js"
NODE = shutil.which("node") or shutil.which("nodejs")
pytestmark = pytest.mark.skipif(NODE is None, reason="needs node to run the page's script")

RUNNER = """
const fs = require("fs");
require(process.argv[1]);
const input = JSON.parse(fs.readFileSync(0, "utf8"));
const out = input.cases.map((values) => DokoScoreTable.lookup(input.table, values, input.offered));
process.stdout.write(JSON.stringify(out));
"""


def run_script(table: dict, offered: list[str], cases: list[dict]) -> list[dict]:
    done = subprocess.run([NODE, "-e", RUNNER, str(SCRIPT)], input=json.dumps(
        {"table": table, "offered": offered, "cases": cases}), capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def engine(rules: RuleSet, values: dict) -> dict:
    """What the server's calculator answers for these fields."""
    form = read(values, rules, required=False)
    if form.errors:
        return {"status": "invalid"}
    if form.summary is None:
        return {"status": "empty"}
    result = form.summary.score(rules)
    return {"status": "ok", "winner": result.winner, "lines": [[ln.id, ln.party, ln.points] for ln in result.lines],
            "value": result.value, "scores": dict(result.scores), "re_points": form.summary.re_points}


def compare(app, rules: RuleSet, cases: list[dict]) -> None:
    with app.test_request_context("/en/score/"):
        expected = [engine(rules, values) for values in cases]
    table = offline.build(offline.variant_key(rules))
    got = run_script(table, list(played_games(rules)), cases)
    for values, want, have in zip(cases, expected, got, strict=True):
        if want["status"] == "ok":
            have = {k: have.get(k) for k in want}
        else:
            have = {"status": have["status"]}
        assert have == want, (rules_key(rules), values)


def plain_cases(rules: RuleSet) -> list[dict]:
    """Every game, every card-points entry, schwarz or not, every tricks entry; then every pair
    of announcements at every card points."""
    cases = []
    points = ["", *map(str, range(DECK_POINTS + 1))]
    for game in played_games(rules):
        for p in points:
            for tricks in ["", *map(str, range(rules.tricks + 1))]:
                cases.append({"game": game, "re_points": p, "re_tricks": tricks})
            for schwarz in ("re", "kontra"):
                for tricks in ("", "0", str(rules.tricks)):
                    cases.append({"game": game, "re_points": p, "schwarz": schwarz, "re_tricks": tricks})
    for game in ("normal", "solo_jacks"):
        for re_said in ["", *announcement_choices("re")]:
            for kontra_said in ["", *announcement_choices("kontra")]:
                for p in points[1:]:
                    for schwarz in ("", "re", "kontra"):
                        cases.append({"game": game, "re_points": p, "schwarz": schwarz,
                                      "re_announced": re_said, "kontra_announced": kontra_said})
    return cases


def random_cases(rules: RuleSet, count: int, seed: int) -> list[dict]:
    """Whole forms as the form can send them: any game, points, tricks, announcements and
    every extra-point select."""
    rng = random.Random(seed)
    from tutor.rules.scoring import counted_extras, extra_max

    cases = []
    for _ in range(count):
        values = {"game": rng.choice(played_games(rules)), "re_points": str(rng.randint(0, DECK_POINTS)),
                  "schwarz": rng.choice(["", "", "", "", "re", "kontra"]),
                  "re_tricks": rng.choice(["", "", str(rng.randint(0, rules.tricks))]),
                  "re_announced": rng.choice(["", *announcement_choices("re")]),
                  "kontra_announced": rng.choice(["", *announcement_choices("kontra")])}
        for party in ("re", "kontra"):
            for extra in counted_extras(rules):
                top = extra_max(extra, rules)
                values[f"{party}_{extra}"] = str(rng.choice([0, 0, rng.randint(0, min(top, 3)), rng.randint(0, top)]))
        cases.append(values)
    return cases


VARIANTS = [variant.ruleset + "|" + offline.variant_key(variant) for variant in offline._variants()]


# Each rule set as it comes is checked on every plain input; its house-option variants (the
# 40-card deck, the other Karlchen rule) on every fifth one, which keeps the suite quick while
# still reaching every game, card-points band and announcement pair.
DEFAULTS = {offline.variant_key(RuleSet.named(name)) for name in RULESETS}


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_plain_input_gets_the_engines_answer(app, variant):
    key = variant.split("|", 1)[1]
    rules = offline.variant_rules(key)
    cases = plain_cases(rules)
    compare(app, rules, cases if key in DEFAULTS else cases[::5])


@pytest.mark.parametrize("variant", VARIANTS)
def test_extra_points_get_the_engines_answer(app, variant):
    rules = offline.variant_rules(variant.split("|", 1)[1])
    compare(app, rules, random_cases(rules, 5000, seed=len(variant)))


HOUSE = [(ruleset, name, value) for ruleset in RULESETS for name, values in OPTION_CHOICES.items() for value in values]


@pytest.mark.parametrize(("ruleset", "name", "value"), HOUSE)
def test_each_house_option_is_scored_by_its_table(app, ruleset, name, value):
    rules = RuleSet.named(ruleset).with_options(**{name: value})
    compare(app, rules, random_cases(rules, 1500, seed=7) + plain_cases(rules)[::61])


def test_the_calculator_names_its_versioned_table_and_serves_it(client):
    html = client.get("/de/score/?rules=pagat%7Cdeck%3D40").get_data(as_text=True)
    url = unescape(re.search(r'data-offline-table="([^"]+)"', html).group(1))
    assert "/de/score/table/pagat-40-win_or_catch.json?v=" in url
    response = client.get(url)
    assert response.status_code == 200 and "immutable" in response.headers["Cache-Control"]
    data = response.get_json()
    assert data["words"]["winner"]["re"] == "Re gewinnt."
    assert len(response.data) < 100_000  # small enough to keep on a phone
    assert client.get("/de/score/table/nonsense.json").status_code == 404


def test_the_worker_keeps_the_table_and_the_script(client):
    worker = client.get("/sw.js").get_data(as_text=True)
    assert "js/score-table.js" in worker and "cacheScoreTables" in worker
