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
from tutor.web.score.calculator import offline_words
from tutor.web.score.form import read

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "static" / "js" / "score-table.js"
NODE = shutil.which("node") or shutil.which("nodejs")
# `make test` installs node where it is missing: without it these tests fail, they do not skip.
assert NODE is not None, "node runs the page's script here: `make test` installs it (Debian's nodejs)"

RUNNER = """
const fs = require("fs");
require(process.argv[1]);
const input = JSON.parse(fs.readFileSync(0, "utf8"));
const out = input.cases.map((values) => {
  const answer = DokoScoreTable.lookup(input.table, values, input.offered);
  if (answer.errors) {  // each field's message as the page shows it
    answer.errors = Object.fromEntries(Object.entries(answer.errors).map(
      ([field, error]) => [field, DokoScoreTable.message(input.words, error)]));
  }
  return answer;
});
process.stdout.write(JSON.stringify(out));
"""


def run_script(table: dict, offered: list[str], cases: list[dict], words: dict) -> list[dict]:
    done = subprocess.run([NODE, "-e", RUNNER, str(SCRIPT)], input=json.dumps(
        {"table": table, "offered": offered, "cases": cases, "words": words}), capture_output=True, text=True,
        check=True)
    return json.loads(done.stdout)


def engine(rules: RuleSet, values: dict) -> dict:
    """What the server's calculator answers for these fields: an impossible deal's answer is
    the message next to each field."""
    form = read(values, rules, required=False)
    if form.errors:
        return {"status": "invalid", "errors": dict(form.errors)}
    if form.summary is None:
        return {"status": "empty"}
    result = form.summary.score(rules)
    return {"status": "ok", "winner": result.winner, "lines": [[ln.id, ln.party, ln.points] for ln in result.lines],
            "value": result.value, "scores": dict(result.scores), "re_points": form.summary.re_points}


def compare(app, rules: RuleSet, cases: list[dict], lang: str = "en") -> None:
    with app.test_request_context(f"/{lang}/score/"):
        expected = [engine(rules, values) for values in cases]
        words = offline_words()
    table = offline.build(offline.variant_key(rules))
    got = run_script(table, list(played_games(rules)), cases, words)
    for values, want, have in zip(cases, expected, got, strict=True):
        have = {k: have.get(k) for k in want}
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


# What a person (or a damaged address) can put into each field besides a good value.
ODD_TEXT = ["", "abc", "-1", "+5", "\u22123", " 7 ", "0000000000", "00012", "1e3", "12.5", "999", "\u0663",
            "\u00a05\u00a0", "\ufeff5", "5\x1f", "--1", "1_0", "9" * 13, "\u00b2"]


def odd_cases(rules: RuleSet) -> list[dict]:
    """Each field on its own with odd text, and with a deal that could happen otherwise; some
    fields odd together; games and choices that are not offered."""
    from tutor.rules.scoring import counted_extras

    rng = random.Random(13)
    names = ["re_points", "re_tricks", *(f"{p}_{e}" for p in ("re", "kontra") for e in counted_extras(rules))]
    choices = {"game": ["nonsense", "poverty", "NORMAL", " solo_jacks "], "schwarz": ["x", "both", " re"],
               "re_announced": ["kontra", "no_30 ", "Re"], "kontra_announced": ["re", "no_0"]}
    cases = []
    for name in names:
        for odd in ODD_TEXT:
            cases.append({"re_points": "150", name: odd})
            cases.append({"re_points": "150", "schwarz": rng.choice(["", "re", "kontra"]), name: odd,
                          "re_tricks": rng.choice(["", "0", str(rules.tricks), "5"])})
    for name, values in choices.items():
        for odd in values:
            cases.append({"re_points": "150", name: odd})
    for _ in range(300):
        cases.append({name: rng.choice(ODD_TEXT + ["1", "2", "150"]) for name in rng.sample(names, 3)})
    return cases


@pytest.mark.parametrize("ruleset", RULESETS)
def test_odd_text_in_any_field_gets_the_servers_message_for_that_field(app, ruleset):
    rules = RuleSet.named(ruleset).with_options(deck=40, karlchen="win_or_catch")
    for variant in (RuleSet.named(ruleset), rules):
        compare(app, variant, odd_cases(variant))


@pytest.mark.parametrize("lang", ["de", "fr", "pt"])
def test_the_field_messages_read_as_the_servers_in_each_language(app, lang):
    rules = RuleSet.named("ddv").with_options(karlchen="win_or_catch")
    compare(app, rules, odd_cases(rules)[::3] + random_cases(rules, 800, seed=3), lang=lang)


def test_the_table_has_words_for_every_error_it_holds():
    for variant in offline._variants():
        table = offline.build(offline.variant_key(variant))
        codes = {code for code, _field, _values in table["errors"]}
        assert codes <= set(offline.ENGINE_CODES), codes - set(offline.ENGINE_CODES)
