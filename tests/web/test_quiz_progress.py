"""Quiz progress kept on the device: Leitner review, levels, replays, the daily plan."""
from __future__ import annotations

import random

from tutor.quiz import KINDS
from tutor.web.quiz import progress as quiz_progress
from tutor.web.quiz.progress import INTERVALS, KindProgress, Progress, daily_plan, read, write


def test_a_missed_kind_is_due_today_and_right_answers_space_it_out():
    stats = KindProgress()
    stats.record(False, 100)
    assert stats.due == 100 and stats.box == 0
    dues = []
    for day in range(100, 106):
        stats.record(True, day)
        dues.append(stats.due - day)
    assert dues == [1, 2, 4, 8, 16, 16] == [INTERVALS[min(b, len(INTERVALS) - 1)] for b in range(1, 7)]


def test_three_right_in_a_row_raise_the_level_and_a_miss_lowers_it():
    stats = KindProgress()
    for _ in range(6):
        stats.record(True, 1)
    assert stats.level == 2 and stats.streak == 6 and stats.best == 6
    stats.record(False, 1)
    assert (stats.level, stats.streak, stats.best, stats.accuracy) == (1, 0, 6, 86)


def test_progress_survives_the_cookie_and_a_forged_one_does_not():
    progress = Progress()
    progress.of("winner").record(True, 5)
    progress.remember("winner:1:0")
    progress.record_daily(5, True)
    text = write("key", progress)
    again = read("key", text)
    assert again.kinds["winner"].right == 1 and again.answered("winner:1:0") and again.daily_today(5) == "1"
    assert read("other key", text).kinds == {}
    assert read("key", "garbage").kinds == {}
    assert read("key", write("key", Progress())).met() == []


def test_malformed_cookie_data_means_a_fresh_start():
    for data in ({}, {"k": {"winner": [1, 2]}, "r": [], "l": None, "d": [0, ""]}, {"k": [], "r": 1},
                 {"k": {}, "r": [], "l": None, "d": [0, "2"]}):
        assert Progress.load(data).kinds == {}


def test_the_recent_list_forgets_old_questions():
    progress = Progress()
    for i in range(quiz_progress.RECENT + 5):
        progress.remember(f"winner:{i}:0")
    assert not progress.answered("winner:0:0") and progress.answered(f"winner:{quiz_progress.RECENT + 4}:0")


def test_mixed_practice_asks_due_kinds_first_and_never_the_same_twice_running():
    progress = Progress()
    progress.of("legal").record(True, 10)
    progress.of("score").record(False, 10)
    progress.last = "legal"
    assert progress.next_mixed(random.Random(1), 10) == "score"
    progress.last = "score"
    kinds = {progress.next_mixed(random.Random(seed), 10) for seed in range(30)}
    assert "score" not in kinds and kinds <= {"legal", "winner"}


def test_the_daily_plan_is_the_same_all_day_and_new_the_next():
    assert daily_plan(800) == daily_plan(800)
    assert daily_plan(800) != daily_plan(801)
    assert {kind for kind, _seed, _level in daily_plan(800)} == set(KINDS)
