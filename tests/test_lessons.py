"""The lessons of lessons/: every lesson loads and keeps the format of lessons/README.md,
every check is a question the engine builds and answers under both rule sets, every rule of
rules.toml is taught by some step, and every translation is complete and up to date.

The loader itself is tested on a small fixture (tests/lessons_fixture/), with a lesson whose
every step is broken in a way the validator must name."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.quiz.test_kinds import engine_answer, needs_hold
from tutor import lessons as L
from tutor.quiz import KINDS
from tutor.quiz.base import check, parse_answer
from tutor.rules.cards import parse_card
from tutor.rules.reservations import may_declare_poverty
from tutor.rules.rulesets import RULESETS, RuleSet
from tutor.rules.sheet import checks as sheet_checks

FIXTURE = Path(__file__).parent / "lessons_fixture"
FOLDERS = sorted(p for p in L.ROOT.iterdir() if p.is_dir() and p.name[:2].isdigit())
TRANSLATIONS = [lang for lang in L.LANGS if lang != L.SOURCE_LANG]


def glossary_terms(root: Path = L.ROOT) -> list[str]:
    source = L.load_glossary(L.SOURCE_LANG, root)
    return list(source.sections) if source else []


def learners():
    return [RuleSet.named(name) for name in RULESETS]


# Learners with house options on: every check must still build for them (a 40-card deck,
# Schweinchen, the second Dulle, poverty under the DDV, and so on).
HOUSE = [
    RuleSet.named("ddv").with_options(
        deck=40, schweinchen=True, dullen="second_wins", poverty=True, karlchen="win_or_catch", solo_lead="soloist"
    ),
    RuleSet.named("pagat").with_options(
        deck=40, dullen="second_wins_except_last", karlchen="win", solo_lead="by_solo_kind"
    ),
]


def all_checks(items, house=False):
    """(lesson, step, learner's rules) for every check a learner of either rule set meets."""
    for item in items:
        for step in item.checks():
            for rules in learners() + (HOUSE if house else []):
                if step.applies(rules):
                    yield item, step, rules


# --- The real lessons ---------------------------------------------------------------------


def test_there_are_lessons_and_a_glossary():
    assert FOLDERS, "lessons/ holds no NN-slug folder yet"
    assert L.load_glossary(L.SOURCE_LANG) is not None, "lessons/words/en.md is missing"


@pytest.mark.parametrize("folder", FOLDERS, ids=[f.name for f in FOLDERS])
def test_lesson_keeps_the_format_and_the_engine_accepts_every_check(folder):
    item = L.load_lesson(folder)
    assert item.slug == folder.name[3:]
    found = L.problems(item, L.rule_ids(), glossary_terms())
    assert not found, "\n".join(found)


def test_the_glossary_keeps_the_format():
    found = L.glossary_problems()
    assert not found, "\n".join(found)


# The path of issue 14, in its order (a learner may also jump).
CURRICULUM = [
    "01-cards",
    "02-trumps",
    "03-following-suit",
    "04-re-and-kontra",
    "05-reservations",
    "06-wedding",
    "07-solos",
    "08-poverty",
    "09-announcements",
    "10-replies",
    "11-winning",
    "12-scoring",
    "13-extra-points",
    "14-solo-scoring",
    "15-house-rules",
    "16-tournament",
    "17-tips",
    "18-history",
]


def test_the_path_holds_the_curriculum_in_order():
    assert [f.name for f in FOLDERS] == CURRICULUM


def test_path_numbers_and_slugs_are_unique():
    items = L.load_lessons()
    assert len({i.number for i in items}) == len(items), [i.folder.name for i in items]
    assert len({i.slug for i in items}) == len(items), [i.slug for i in items]


def test_every_rule_is_taught_by_a_step():
    table = L.coverage(L.load_lessons())
    missing = [rule for rule in L.rule_ids() if rule not in table]
    assert not missing, f"{len(missing)} rules of lessons/rules.toml are taught by no step: " + ", ".join(missing)


def test_every_taught_rule_id_exists():
    known = L.rule_ids()
    unknown = {rule: places for rule, places in L.coverage(L.load_lessons()).items() if rule not in known}
    assert not unknown, f"teaches ids missing from rules.toml: {unknown}"


def report_text(lang, report):
    return "\n".join(f"  {slug}: missing {list(s.missing)}, stale {list(s.stale)}" for slug, s in report.items())


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_translation_is_complete_and_up_to_date(lang):
    report = L.translation_report(lang)
    assert not report, (
        f"{lang}: steps to translate (missing) or to check against the changed English and "
        f"stamp with `python -m tutor.lessons stamp {lang} <slug>` (stale):\n" + report_text(lang, report)
    )


@pytest.mark.parametrize("lang", L.LANGS)
def test_every_lesson_renders_in_every_language_under_both_rule_sets(lang):
    for item in L.load_lessons():
        assert item.text(lang).title
        for rules in learners():
            for step in item.steps_for(rules):
                html = L.render_step(item, step, lang, rules, card=lambda c: f"<card {c}>")
                assert "<script" not in html and ":::" not in html, (item.slug, step.id, lang)


def lesson_engine_answer(q):
    """The answer recomputed from the engine's public functions, for the lesson-only kinds
    (and a silent wedding's party asked without a hand, which the quiz never does)."""
    f = q.facts
    if q.kind == "party" and q.game == "silent_wedding" and "hand" not in f:
        return ("re" if f["seat"] == f["groom"] else "kontra",)
    if q.kind == "sheet_row":
        zero, parity = sheet_checks(f["entries"])
        return ("yes" if zero and parity is not False else "no",)
    if q.kind == "poverty":
        return ("yes" if may_declare_poverty([parse_card(c) for c in f["hand"]]) else "no",)
    if q.kind == "recall":
        return (str(f["answer"]),)
    return None  # extras, dealer: checked against the engine in tests/quiz/test_lesson_kinds.py


def test_every_check_is_the_engines_question_and_answer():
    for item, step, rules in all_checks(L.load_lessons(), house=True):
        q = L.build_check(item, step, rules)
        where = (item.slug, step.id, rules.ruleset)
        form = {f.name: (v.split(",") if v else []) if f.mode == "many" else [v] for f, v in zip(q.fields, q.answer)}
        assert check(q, parse_answer(q, form)), where
        if q.kind in KINDS and q.kind != "needs" and lesson_engine_answer(q) is None:
            assert q.answer == engine_answer(q), where
        elif q.kind == "needs":
            assert needs_hold(q), where
        else:
            expected = lesson_engine_answer(q)
            assert expected is None or q.answer == expected, where
        assert q.answer == L.build_check(item, step, rules).answer, where  # the same every time


# --- The loader, on the fixture ------------------------------------------------------------


def fixture():
    return {item.slug: item for item in L.load_lessons(FIXTURE)}


def test_fixture_loads_in_path_order():
    items = L.load_lessons(FIXTURE)
    assert [i.folder.name for i in items] == ["01-sample", "02-broken"]
    sample = items[0]
    assert (sample.number, sample.slug, sample.declared_slug) == (1, "sample", "sample")
    assert [s.id for s in sample.steps] == ["count", "follow", "equal", "poor", "house"]
    assert sample.prose["de"].title == "Eine Probelektion"
    assert sample.step("poor").rules == "pagat" and sample.step("house").only == "ddv"
    assert sample.step("house").options == {"dullen": "second_wins"}
    assert list(sample.prose["en"].sections) == [s.id for s in sample.steps]


def test_a_sound_lesson_has_no_problems():
    rules = L.rule_ids(FIXTURE)
    assert L.problems(fixture()["sample"], rules, glossary_terms(FIXTURE)) == []


def test_every_broken_position_and_format_error_is_named_with_its_lesson_and_step():
    found = L.problems(fixture()["broken"], L.rule_ids(FIXTURE), glossary_terms(FIXTURE))
    text = "\n".join(found)
    assert all("02-broken" in line for line in found), text
    assert "slug = 'wrong-name'" in text
    for step, what in [
        ("thrice", "QC"),
        ("no-nines", "9H"),
        ("revoke", "illegal"),
        ("too-big", "13"),
        ("unknown-rule", "9.nothing"),
        ("unknown-rule", "XX"),
        ("unknown-rule", "riddle"),
    ]:
        assert any(f"step '{step}'" in line and what in line for line in found), (step, what, text)
    assert any("['extra']" in line for line in found), text
    assert any("{QX}" in line for line in found) and any("nosuchterm" in line for line in found), text
    assert any("::: tip" in line for line in found), text
    # Both rule sets were tried: the broken winner trick is refused under each.
    assert sum("step 'thrice'" in line and "too_many_copies" in line for line in found) == 2, text


def test_rule_coverage_names_the_untaught_rule():
    table = L.coverage(L.load_lessons(FIXTURE))
    assert table["3.equal"] == [("sample", "equal"), ("broken", "thrice")]
    assert [r for r in L.rule_ids(FIXTURE) if r not in table] == ["9.untaught"]


def test_every_fixture_check_builds_for_learners_with_house_options():
    for item, step, rules in all_checks([fixture()["sample"]], house=True):
        assert L.build_check(item, step, rules).rules.deck == 48, (step.id, rules)


def test_steps_follow_only_rules_and_options():
    sample = fixture()["sample"]
    ddv, pagat = RuleSet.named("ddv"), RuleSet.named("pagat")
    assert sample.step("count").rules_for(ddv.with_options(deck=40, dullen="second_wins")) == ddv.with_options(
        dullen="second_wins"
    )  # positions are written for 48 cards
    assert [s.id for s in sample.steps_for(pagat)] == ["count", "follow", "equal", "poor"]
    assert sample.step("poor").rules_for(ddv) == pagat
    assert sample.step("house").rules_for(ddv).dullen == "second_wins"
    # The house option decides the answer: the second Dulle takes the trick.
    assert L.build_check(sample, sample.step("house"), ddv).answer == ("2",)
    assert L.build_check(sample, sample.step("equal"), ddv).answer == ("0",)
    # Poverty is pagat's: the step asks under pagat for a DDV learner too.
    poor = L.build_check(sample, sample.step("poor"), ddv)
    assert poor.rules.ruleset == "pagat" and poor.answer == ("yes",)


def test_checks_are_built_by_the_engine_from_the_given_position():
    sample = fixture()["sample"]
    ddv = RuleSet.named("ddv")
    points = L.build_check(sample, sample.step("count"), ddv)
    assert (points.kind, points.answer) == ("points", ("25",))
    legal = L.build_check(sample, sample.step("follow"), ddv)
    assert legal.answer == ("10S,KS",) and legal.facts["hand"][0] == "QS"  # the game's order: trumps first
    assert legal.reasons[0].code == "must_follow_suit" and legal.reasons[0].params["trumps_of_suit"] == ["QS"]
    assert legal.params["seat"] == 0  # the learner plays after the trick's cards
    winner = L.build_check(sample, sample.step("equal"), ddv)
    assert winner.facts["plays"] == [(1, "10H"), (2, "QC"), (3, "10H"), (0, "9D")]
    assert winner.reasons[0].code == "first_of_equal"


def test_shown_cards_follow_the_games_order_and_the_table():
    sample = fixture()["sample"]
    shown = L.shown(sample, sample.step("follow"), RuleSet.named("ddv"))
    assert shown is not None and shown.trick == ((3, "AS"),)
    assert L.shown(sample, sample.step("poor"), RuleSet.named("ddv")) is None


def test_prose_renders_cards_links_and_the_learners_rule_set():
    sample = fixture()["sample"]
    ddv, pagat = RuleSet.named("ddv"), RuleSet.named("pagat")
    html = L.render_step(sample, sample.step("count"), "de", ddv, card=lambda c: f"[{c}]", prefix="/app")
    assert "[AS]" in html and 'href="/app/de/learn/words#dulle"' in html
    follow = sample.step("follow")
    assert "DDV rules" in L.render_step(sample, follow, "en", ddv) and "pagat" not in L.render_step(
        sample, follow, "en", ddv
    )
    assert "pagat&#x27;s rules" in L.render_step(sample, follow, "en", pagat) or "pagat's rules" in L.render_step(
        sample, follow, "en", pagat
    )
    assert "DDV" not in L.render_step(sample, follow, "en", pagat)
    equal = sample.step("equal")
    assert "house rule" not in L.render_step(sample, equal, "en", ddv)
    assert "house rule" in L.render_step(sample, equal, "en", ddv.with_options(dullen="second_wins"))
    raw = L.render_step(sample, sample.step("poor"), "en", ddv)
    assert "<b>" not in raw and "&lt;b&gt;" in raw
    # A language without the section falls back to the English one.
    assert "Pik" not in L.render_step(sample, follow, "it", ddv) and "Spades" in L.render_step(
        sample, follow, "it", ddv
    )


def test_glossary_renders_every_term_falling_back_to_english(tmp_path):
    ddv = RuleSet.named("ddv")
    de = L.glossary("de", ddv, root=FIXTURE)
    assert [t for t, _html in de] == ["dulle", "fuchs"] and "Herz-Zehn" in de[0][1]
    it = dict(L.glossary("it", ddv, root=FIXTURE))
    assert "The 10 of hearts" in it["dulle"]
    assert L.glossary_problems(FIXTURE) == []
    root = tmp_path / "lessons"
    shutil.copytree(FIXTURE, root)
    (root / "words" / "fr.md").write_text("+++\ntitle = 'Mots'\n+++\n## dulle\n{ZZ}\n## oups\nx\n", encoding="utf-8")
    found = "\n".join(L.glossary_problems(root))
    assert "['oups']" in found and "{ZZ}" in found


def test_a_recall_steps_list_becomes_its_choices():
    text = "Which came first?\n\n- the **Skat**\n- Schafkopf, with {QC}\n  on two lines\n- Whist\n"
    prose, choices = L.split_list(text)
    assert prose == "Which came first?" and choices == ["the **Skat**", "Schafkopf, with {QC}\n  on two lines", "Whist"]
    assert L.list_items(text) == 3 and L.list_items("No list.") == 0
    assert L.split_list("- a\n- b\n\nThen more prose.") == ("- a\n- b\n\nThen more prose.".split("\n\n")[1], ["a", "b"])
    assert L.render_inline(choices[1], "en", card=lambda c: f"[{c}]") == "Schafkopf, with [QC] on two lines"
    assert L.render_inline("**Re** <i>", "en") == "<strong>Re</strong> &lt;i&gt;"
    ask = L.ask("recall", {"answer": 2, "count": L.list_items(text)}, RuleSet.named("ddv"))
    assert len(ask.fields[0].choices) == 3


def test_step_numbers_count_the_learners_steps():
    sample = fixture()["sample"]
    assert L.step_at(sample, 5, RuleSet.named("ddv")).id == "house"
    assert L.step_at(sample, 5, RuleSet.named("pagat")) is None and L.step_at(sample, 0, RuleSet.named("ddv")) is None


def test_default_card_drawing_is_a_placeholder_the_web_layer_can_replace():
    html = L.render("{QC} and {10H}, not {XY}", "en", RuleSet.named("ddv"))
    assert html == (
        '<p><span class="card" data-card="QC">QC</span> and '
        '<span class="card" data-card="10H">10H</span>, not {XY}</p>\n'
    )


def test_house_containers_name_an_option_and_may_name_a_value():
    ddv = RuleSet.named("ddv")
    assert not L.container_applies("house dullen", ddv)
    assert L.container_applies("house dullen", ddv.with_options(dullen="second_wins_except_last"))
    assert L.container_applies("house dullen=second_wins", ddv.with_options(dullen="second_wins"))
    assert not L.container_applies("house dullen=second_wins", ddv.with_options(dullen="second_wins_except_last"))
    assert L.container_applies("house poverty", ddv.with_options(poverty=True))
    assert not L.container_applies("house poverty", RuleSet.named("pagat"))  # pagat plays it anyway


def test_stamps_mark_translations_stale_and_missing(tmp_path):
    root = tmp_path / "lessons"
    shutil.copytree(FIXTURE, root)
    report = L.translation_report("de", root)
    assert set(report["sample"].stale) == {"count", "follow", "equal", "poor", "house"}
    assert report["words"].stale == ("dulle", "fuchs")
    assert set(L.translation_report("it", root)["sample"].missing) == {"count", "follow", "equal", "poor", "house"}
    written = L.stamp("de", "sample", root)
    assert written == [root / "01-sample" / "de.md"]
    assert "sample" not in L.translation_report("de", root)
    assert L.stamp("de", "words", root) == [root / "words" / "de.md"]
    assert L.translation_report("de", root) == {"broken": L.translation_report("de", root)["broken"]}
    # The stamped file keeps its front matter and prose.
    de = (root / "01-sample" / "de.md").read_text(encoding="utf-8")
    assert de.startswith('+++\ntitle = "Eine Probelektion"') and "[translates]" in de and "## follow\nPik" in de
    # Changing the English makes that one step stale; removing a translated section, missing.
    en = root / "01-sample" / "en.md"
    en.write_text(en.read_text(encoding="utf-8").replace("You **must** follow.", "You must follow."), encoding="utf-8")
    de_path = root / "01-sample" / "de.md"
    de_path.write_text(de.replace("## poor\nDrei Trümpfe oder weniger.\n", ""), encoding="utf-8")
    L.load_lessons.cache_clear()
    state = L.translation_report("de", root)["sample"]
    assert (state.stale, state.missing) == (("follow",), ("poor",))
    # Stamping again is idempotent on what it does not change.
    L.stamp("de", "sample", root)
    assert L.stamp("de", "sample", root) == [de_path]
    assert L.translation_report("de", root)["sample"].missing == ("poor",)


def test_stamping_the_source_is_refused():
    with pytest.raises(L.LessonError):
        L.stamp("en")


def test_stamps_ignore_trailing_blank_space():
    assert L.stamp_of("Play.\n\n") == L.stamp_of("Play.  ") == L.stamp_of("\nPlay.")
    assert L.stamp_of("Play.") != L.stamp_of("Play!")


def test_broken_files_are_refused_with_their_name(tmp_path):
    folder = tmp_path / "03-odd"
    folder.mkdir()
    (folder / "lesson.toml").write_text('slug = "odd"\nkey = 3\n[[step]]\nid = "a"\nwho = 1\n', encoding="utf-8")
    (folder / "en.md").write_text("+++\ntitle = 'x'\nsummary = 'y'\n+++\n## a\nHi.\n", encoding="utf-8")
    with pytest.raises(L.LessonError, match="unknown keys"):
        L.load_lesson(folder)
    (folder / "lesson.toml").write_text('slug = "odd"\nkey = 3\n[[step]]\nid = "a"\n', encoding="utf-8")
    (folder / "en.md").write_text("no front matter\n## a\n", encoding="utf-8")
    with pytest.raises(L.LessonError, match="en.md"):
        L.load_lesson(folder)
    with pytest.raises(L.LessonError, match="NN-slug"):
        L.load_lesson(tmp_path)


def test_loader_and_quiz_are_typed_and_know_nothing_of_the_web():
    import doctest
    import subprocess
    import sys

    import tutor.quiz

    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-error-summary", "tutor/lessons", "tutor/quiz"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "import flask" not in Path(L.__file__).read_text(encoding="utf-8").lower()
    assert "from flask" not in Path(L.__file__).read_text(encoding="utf-8").lower()
    assert doctest.testmod(L).failed == 0 and doctest.testmod(tutor.quiz).failed == 0


def test_relative_links_in_prose_lead_to_the_same_place_from_every_step_url():
    ddv = RuleSet.named("ddv")
    html = L.render("See [poverty](poverty), [play](../play/), [x](https://example.org/) and [t](#top).",
                    "de", ddv, prefix="/app")
    assert 'href="/app/de/learn/poverty"' in html
    assert 'href="/app/de/play/"' in html
    assert 'href="https://example.org/"' in html and 'href="#top"' in html
