"""Why not that one (tutor/quiz/why.py): for 1,000 questions of every kind, every wrong choice
gets the engine's rule against it, naming that very choice; and level-0 questions are never
trivial."""
from __future__ import annotations

from collections.abc import Iterator

import pytest

from tutor.quiz import KINDS, Question, make
from tutor.quiz.why import rule_of, why_not
from tutor.quiz.winner import contenders
from tutor.rules.cards import parse_card
from tutor.rules.games import game_table
from tutor.rules.rulesets import RuleSet

RULES = (RuleSet.named("ddv"), RuleSet.named("pagat"),
         RuleSet.named("ddv").with_options(deck=40, schweinchen=True, dullen="second_wins", poverty=True))
QUESTIONS = 1000


def questions(kind: str, count: int = QUESTIONS) -> Iterator[Question]:
    for seed in range(count):
        yield make(kind, seed, RULES[seed % 3], seed % 4)


def wrong_answers(q: Question) -> Iterator[tuple[str, ...]]:
    """Every answer with one field wrong: each other choice, each choice ticked or left out,
    numbers near the right one (and its opposite)."""
    for i, f in enumerate(q.fields):
        right = q.answer[i]
        if f.mode == "one":
            alternatives = [c.value for c in f.choices if c.value != right]
        elif f.mode == "many":
            rights = set(filter(None, right.split(",")))
            alternatives = [",".join(sorted(rights ^ {c.value})) for c in f.choices]
        else:
            near = {int(right) + d for d in (-11, -10, -4, -3, -2, -1, 1, 2, 10)} | {-int(right)}
            alternatives = [str(n) for n in sorted(near) if f.low <= n <= f.high and n != int(right)]
        for value in alternatives:
            yield tuple(value if j == i else q.answer[j] for j in range(len(q.fields)))


@pytest.mark.parametrize("kind", KINDS)
def test_every_wrong_choice_gets_the_rule_against_it_naming_it(kind):
    for q in questions(kind):
        assert why_not(q, q.answer) == ()
        for given in wrong_answers(q):
            misses = why_not(q, given)
            wrong = {(f.name, v) for f, v, r in zip(q.fields, given, q.answer, strict=True) if v != r}
            assert {m.field for m in misses} == {name for name, _v in wrong}, (kind, q.seed, given)
            for miss in misses:
                f = next(f for f in q.fields if f.name == miss.field)
                assert miss.reason.params["choice"] == miss.value
                choice = next((c for c in f.choices if c.value == miss.value), None)
                if choice is not None and choice.card:
                    assert miss.reason.params["card"] == choice.card  # the card picked, by name
                if f.mode == "many":
                    rights = set(q.answer[q.fields.index(f)].split(","))
                    assert miss.picked == (miss.value not in rights)


def test_a_tick_all_answer_names_each_wrong_tick_and_each_miss():
    q = make("legal", 3, RULES[0], 0)
    legal = q.answer[0].split(",")
    others = [c.value for c in q.fields[0].choices if c.value not in legal]
    given = (",".join(sorted([*legal[1:], others[0]])),)
    misses = why_not(q, given)
    assert [(m.value, m.picked) for m in misses if m.value == legal[0]] == [(legal[0], False)]
    assert [(m.value, m.picked) for m in misses if m.value == others[0]] == [(others[0], True)]


@pytest.mark.parametrize("kind", KINDS)
def test_every_question_names_the_rule_that_decides_it(kind):
    for q in questions(kind, 200):
        assert rule_of(q) in {r.code for r in q.reasons}


# --- Level 0 is a newcomer's: never trivial -------------------------------------------------


def test_no_newcomer_trick_where_only_one_card_could_win():
    for seed in range(QUESTIONS):
        q = make("winner", seed, RULES[seed % 3], 0)
        table = game_table(q.game, q.rules.with_options(schweinchen=False))
        assert contenders([parse_card(c) for _s, c in q.facts["plays"]], table) >= 2, seed


def test_no_newcomer_legal_question_where_every_card_is_legal():
    for seed in range(QUESTIONS):
        q = make("legal", seed, RULES[seed % 3], 0)
        assert set(q.answer[0].split(",")) != {c.value for c in q.fields[0].choices}, seed


def test_no_newcomer_announcement_moment_where_nobody_or_everything_may():
    for seed in range(QUESTIONS):
        q = make("announce", seed, RULES[seed % 3], 0)
        f = q.fields[0]
        answer = set(filter(None, q.answer[0].split(",")))
        assert answer, seed  # e.g. trick 6 with nothing said: long past every deadline
        assert answer != {c.value for c in f.choices}, seed
