"""Every prompt, choice, field and reason a lesson check can produce has words, in every
language: a new code in tutor/quiz without wording fails here."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest
from flask_babel import force_locale

from tests.conftest import LANGUAGES
from tutor import learn as L
from tutor.learn import kinds as K
from tutor.quiz import ASK_MODULES, LESSON_KINDS
from tutor.rules.rulesets import RuleSet
from tutor.web.words.questions import names, prompts, reasons

QUIZ = Path(names.__file__).resolve().parents[3] / "quiz"


def _strings(node: ast.AST) -> set[str]:
    """The strings an expression can be: a constant, or either branch of a conditional."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.IfExp):
        return _strings(node.body) | _strings(node.orelse)
    return set()


def _codes(module: Path) -> set[str]:
    """The reason codes a module's ``Reason(...)`` calls can name: string constants in the
    first argument, or assigned to the name passed there."""
    tree = ast.parse(module.read_text(encoding="utf-8"))
    assigned: dict[str, set[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    assigned.setdefault(target.id, set()).update(_strings(node.value))
    codes: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Reason" and node.args:
            first = node.args[0]
            if isinstance(first, ast.Name):
                codes |= assigned.get(first.id, set())
            else:
                codes |= _strings(first)
    return codes


@pytest.mark.parametrize("kind", LESSON_KINDS)
def test_every_reason_code_of_the_lesson_kinds_is_worded(kind):
    codes = _codes(QUIZ / f"{kind}.py")
    assert codes, kind
    missing = sorted(c for c in codes if c not in reasons.WORDS and c not in reasons.GROUPED)
    assert not missing, f"tutor/quiz/{kind}.py: no wording in words/questions/ for {missing}"


def test_the_code_finder_finds_a_code_it_is_not_told_of(tmp_path):
    sample = tmp_path / "k.py"
    sample.write_text('code = "a" if x else "b"\nReason(code, {})\nReason("c" if y else "d", {})\n')
    assert _codes(sample) == {"a", "b", "c", "d"}


def test_every_lesson_check_is_worded_in_every_language(app):
    houses = [RuleSet.named("ddv"), RuleSet.named("pagat"), RuleSet.named("ddv").with_options(karlchen="win_or_catch")]
    with app.test_request_context("/en/learn/"):
        for lang in LANGUAGES:
            with force_locale(lang):
                for item in L.load_lessons():
                    for step in item.checks():
                        for rules in houses:
                            if not step.applies(rules):
                                continue
                            q = L.build_check(item, step, rules)
                            assert q is not None and (q.kind in ASK_MODULES or q.kind in K.OWN_KINDS)
                            assert prompts.prompt(q), (item.slug, step.id)
                            for f in q.fields:
                                for c in f.choices:
                                    assert c.card or prompts.choice_label(c), (item.slug, step.id, c)
                            for reason in q.reasons:
                                if reason.code != "score_lines":
                                    assert reasons.reason_text(reason, q), (item.slug, step.id, reason.code)
                            assert names.section_name(q.section), (item.slug, step.id, q.section)


def test_every_reason_code_of_the_lessons_own_kinds_is_worded():
    codes = set().union(*(_codes(module) for module in Path(K.__file__).parent.glob("*.py")))
    codes |= {"decide_" + claim for claim in K.CLAIMS}
    codes = {c for c in codes if c != "decide_"}
    assert {"infer_unknown", "decide_outcome", "sheet_row", "name_card", "decide_fresh_ace"} <= codes
    missing = sorted(c for c in codes if c not in reasons.WORDS and c not in reasons.GROUPED)
    assert not missing, f"tutor/learn/kinds/: no wording in words/questions/ for {missing}"


def test_lesson_fields_are_worded():
    for name in ("extras", "possible", "dealer", "player", "poverty", "choice", "sheet"):
        assert names.field_label(name), name
