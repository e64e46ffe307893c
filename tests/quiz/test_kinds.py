"""For 1,000 questions of every kind: the question is well formed, reproducible from its
seed, and its expected answer is the engine's answer, recomputed here from what the
question shows."""
from __future__ import annotations

from collections import Counter

import pytest

from tutor.quiz import KINDS, MAX_LEVEL, make
from tutor.quiz.base import BadAnswer, canonical, check, parse_answer
from tutor.quiz.best_card import positions
from tutor.rules.announcements import may_announce
from tutor.rules.cards import parse_card
from tutor.rules.deals import wedding_parties
from tutor.rules.games import is_solo, is_trump, legal_cards, trick_points, trick_winner
from tutor.rules.reservations import Reservation, decide
from tutor.rules.rulesets import RuleSet
from tutor.rules.scoring import score, who_wins

COUNT = 1000
POSITIONS = {p["id"]: p for p in positions()}
RULES = (
    RuleSet.named("ddv"),
    RuleSet.named("pagat"),
    RuleSet.named("ddv").with_options(deck=40, schweinchen=True, dullen="second_wins", poverty=True),
    RuleSet.named("pagat").with_options(dullen="second_wins_except_last", solo_lead="soloist", karlchen="win"),
)


def questions(kind):
    for seed in range(COUNT):
        yield make(kind, seed * 7919 + 11, RULES[seed % len(RULES)], seed % (MAX_LEVEL + 1))


def played_rules(q):
    """The rules the tricks were played under: Schweinchen only where it was declared."""
    if q.rules.schweinchen and not q.facts.get("schweinchen"):
        return q.rules.with_options(schweinchen=False)
    return q.rules


def game_of(game):
    return "wedding" if game == "wedding_solo" else game


def engine_answer(q):
    """The answer, asked of the engine's public functions from what the question shows."""
    f = q.facts
    if q.kind == "winner":
        cards = [c for _seat, c in f["plays"]]
        return (str(trick_winner(cards, game_of(q.game), played_rules(q), q.params["last"])),)
    if q.kind == "legal":
        trick = [c for _seat, c in f["plays"]]
        return (",".join(sorted(legal_cards(f["hand"], trick, game_of(q.game), played_rules(q)))),)
    if q.kind == "trumps":
        if q.prompt == "is_trump":
            return ("yes" if is_trump(f["card"], q.game, q.rules) else "no",)
        return (str(trick_winner(list(f["cards"]), q.game, q.rules)),)
    if q.kind == "points":
        return (str(trick_points([c for trick in f["tricks"] for c in trick])),)
    if q.kind == "announce":
        wedding = 0 if f["unclarified"] else f["clarified"]
        if q.game == "wedding" and wedding is None:
            pytest.fail("a wedding question must say how far the clarification got")

        def allowed(seat):
            party = f["parties"][seat]
            other = "kontra" if party == "re" else "re"
            return may_announce(q.rules, q.game, party, f["cards"][seat], f["said"][party], f["said"][other], wedding)

        if q.prompt == "announce_who":
            return (",".join(str(s) for s in range(4) if allowed(s)),)
        return (",".join(sorted(allowed(f["seat"]))),)
    if q.kind == "score":
        result = score(q.rules, q.game, f["re_points"], f["re_tricks"], f["said"]["re"], f["said"]["kontra"], f["extras"])
        return (result.winner or "nobody", str(result.scores["re"]))
    if q.kind == "game":
        reservations = [Reservation(kind, solo, compulsory) for _seat, kind, solo, compulsory in f["reservations"]]
        decision = decide(q.rules, f["dealer"], reservations)
        game = "normal" if decision.declarer is None else f"{decision.game}@{decision.declarer}"
        if all(kind == "healthy" for _seat, kind, _solo, _compulsory in f["reservations"]):
            return (str(decision.leader),)  # no game to choose: only who leads is asked
        return (game, str(decision.leader))
    if q.kind == "party":
        seat = f["seat"]
        if q.game == "normal":
            return ("re" if "QC" in f["hand"] else "kontra",)
        if q.game in ("wedding", "wedding_solo"):
            return (wedding_parties(f["groom"], [w for _plays, w in f["tricks"]])[1][seat],)
        if q.game == "poverty":
            return ("re" if seat in (f["poor"], f["acceptor"]) else "kontra",)
        if q.game == "silent_wedding":
            return ("re" if f["hand"].count("QC") == 2 else "kontra",)
        assert is_solo(q.game)
        return ("re" if seat == f["soloist"] else "kontra",)
    if q.kind == "best_card":
        # The answer stored with the mined position: the choice that holds its best card(s).
        best = sorted(POSITIONS[f["position"]]["best"])
        return tuple(c.value for c in q.fields[0].choices if sorted([c.card, *c.params.get("same", [])]) == best)
    raise AssertionError(q.kind)


def needs_hold(q):
    """A "needs" answer holds when the engine's who_wins agrees at the threshold."""
    f, party = q.facts, q.params["party"]
    levels = {p: -1 if f["said"][p] is None else 0 if f["said"][p] == p else
              ("no_90", "no_60", "no_30", "schwarz").index(f["said"][p]) + 1 for p in ("re", "kontra")}
    tricks = q.rules.tricks

    def wins(points, won):
        re_points, re_tricks = (points, won) if party == "re" else (240 - points, tricks - won)
        return who_wins(re_points, re_tricks, tricks, levels["re"], levels["kontra"]) == party

    answer = q.answer[0]
    if answer == "all":
        return wins(240, tricks) and not wins(240, tricks - 1)
    if answer == "one":
        return wins(0, 1) and not wins(0, 0)
    points = int(answer[1:])
    return wins(points, tricks // 2) and (points == 0 or not wins(points - 1, tricks // 2))


ALLOWED = ("in_time", "reply_in_time", "rides_along")


def reasons_agree(q):
    """The reason the question shows names the answer it expects."""
    first, last = q.reasons[0].params, q.reasons[-1].params
    if q.kind == "winner":
        return str(first["winner"]) == q.answer[0]
    if q.kind == "trumps" and q.prompt == "higher":
        return first["card"] == q.facts["cards"][int(q.answer[0])]
    if q.kind == "trumps":
        return (q.reasons[0].code == "is_trump") == (q.answer[0] == "yes")
    if q.kind == "points":
        return str(first["total"]) == q.answer[0]
    if q.kind == "announce" and q.prompt == "announce_what":
        allowed = [q.fields[0].choices[i].value for i, r in enumerate(q.reasons) if r.code in ALLOWED]
        return ",".join(sorted(allowed)) == q.answer[0]
    if q.kind == "announce":
        return ",".join(str(s) for s, r in enumerate(q.reasons) if r.code in ALLOWED) == q.answer[0]
    if q.kind == "game":
        return last["seat"] == int(q.answer[-1])
    if q.kind == "party":
        return first["party"] == q.answer[0]
    if q.kind == "score":
        return q.reasons[-1].params["re"] == int(q.answer[1])
    if q.kind == "best_card":
        return first["better"] == q.answer[0] and first == POSITIONS[q.facts["position"]]["tip"]["params"]
    return True


@pytest.mark.parametrize("kind", KINDS)
def test_every_question_is_well_formed_and_the_engines_answer(kind):
    seen = Counter()
    for q in questions(kind):
        assert q.kind == kind and q.fields and len(q.answer) == len(q.fields)
        for field, value in zip(q.fields, q.answer):
            if field.mode == "number":
                assert field.low <= int(value) <= field.high
            else:
                values = {c.value for c in field.choices}
                assert len(values) == len(field.choices), "choices are distinct"
                assert field.mode == "many" or len(values) >= 2, "never a choice of one"
                assert field.mode == "many" or value in values
                if field.mode == "many" and value:
                    assert set(value.split(",")) <= values
            assert canonical(field, value.split(",") if field.mode == "many" and value else
                             ([] if field.mode == "many" else [value])) == value
            for choice in field.choices:
                if choice.card:
                    parse_card(choice.card)
        assert q.reasons and q.section
        # Checking the expected answer through the form path says "right".
        form = {f.name: (v.split(",") if v else []) if f.mode == "many" else [v] for f, v in zip(q.fields, q.answer)}
        assert check(q, parse_answer(q, form))
        if kind == "needs":
            assert needs_hold(q), (q.facts, q.params, q.answer)
        else:
            assert q.answer == engine_answer(q), (q.seed, q.facts, q.answer)
        assert reasons_agree(q), (q.seed, q.reasons, q.answer)
        seen[q.reasons[0].code] += 1
        seen[q.game] += 1
    # The generator teaches more than one rule.
    assert len([c for c in seen if c not in ("normal",)]) >= 3, seen


@pytest.mark.parametrize("kind", KINDS)
def test_a_seed_reproduces_its_question(kind):
    for seed in (1, 2, 3):
        for level in range(MAX_LEVEL + 1):
            assert make(kind, seed, RULES[0], level) == make(kind, seed, RULES[0], level)


@pytest.mark.parametrize("kind", KINDS)
def test_a_wrong_answer_is_wrong(kind):
    for q in list(questions(kind))[:100]:
        field = q.fields[0]
        if field.mode == "number":
            wrong = str(int(q.answer[0]) + 1)
        elif field.mode == "many":
            values = [c.value for c in field.choices]
            right = set(q.answer[0].split(",")) - {""}
            wrong = ",".join(sorted(right ^ {values[0]}))
        else:
            wrong = next(c.value for c in field.choices if c.value != q.answer[0])
        assert not check(q, (wrong, *q.answer[1:]))


def test_malformed_answers_are_refused():
    q = make("score", 5, RULES[0], 2)
    for form in ({}, {"winner": ["re"]}, {"winner": ["elvis"], "result": ["3"]}, {"winner": ["re"], "result": ["three"]},
                 {"winner": ["re", "kontra"], "result": ["3"]}, {"winner": ["re"], "result": ["99999"]}):
        with pytest.raises(BadAnswer):
            parse_answer(q, form)
    legal = make("legal", 5, RULES[0])
    with pytest.raises(BadAnswer):
        parse_answer(legal, {"cards": ["ZZ"]})


def test_levels_bring_in_weddings_solos_and_poverty():
    games = {level: {make("party", s, RULES[2], level).game for s in range(200)} for level in range(MAX_LEVEL + 1)}
    assert games[0] == {"normal"}
    assert "wedding" in games[1] and not any(g.startswith("solo_") for g in games[1])
    assert any(g.startswith("solo_") for g in games[2])
    assert "poverty" in games[3]
    assert "poverty" not in {make("party", s, RULES[0], 3).game for s in range(200)}  # ddv without the option


def test_below_the_top_level_house_options_never_decide_a_trick():
    second = RuleSet.named("ddv").with_options(dullen="second_wins")
    for seed in range(300):
        low = make("winner", seed, second, seed % 3)
        assert not any(r.code in ("second_dulle", "first_dulle_in_last_trick") for r in low.reasons)
    top = [make("winner", seed, second, 3) for seed in range(300)]
    assert any(r.code == "second_dulle" for q in top for r in q.reasons)


def test_winner_questions_favour_the_rules_that_decide():
    codes = Counter(make("winner", seed, RULES[0]).reasons[0].code for seed in range(300))
    assert codes["first_of_equal"] >= 20 and codes["trump_on_plain"] >= 20
    assert codes["only_card"] == 0  # a lone card teaches nothing
