"""Mine the positions of the best_card quiz from real deals (tutor/quiz/best_card.json).

    python scripts/mine_best_card.py            # mine (or go on mining) into tutor/quiz/best_card.json
    python scripts/mine_best_card.py --check    # re-analyse every stored position: does the engine agree?
    python scripts/mine_best_card.py --summary  # positions per rule set and tip code
    python scripts/mine_best_card.py --reconfirm  # after the computer players change: keep what still holds

The computer players play whole deals (``tutor.play.play_bots``) under ``ddv`` and under
``pagat``, each with its own default options, seeds 1, 2, 3 … (``ddv``) and 100001, 100002 …
(``pagat``) in turn, the bots' level going round 0, 1, 2 with the seed (normal games, then
weddings, then solos and poverty too).
At every decision of seat 0 with at least two distinct candidate cards:

1. Pre-check, free: some pair of candidates must have a named table tip
   (``tutor.analysis.tips.explain`` other than ``simulations_prefer``) of a code that is not
   full yet; otherwise no position here can count.
2. Screen: ``analyse`` at N = 30, then at N = 100 (seed ``deal seed × 64 + card number``,
   as a deal's review seeds it). At N = 30 every other candidate must trail the best by
   ROUGH_LOSS (the standard error there is about 0.27, so a card a game point worse almost
   always does: this only spares the N = 100 run where nothing is near), at N = 100 by
   SCREEN_LOSS game points, and the tip of the best against the closest one (the learner's
   likely alternative) must be a named one of a code not full yet.
3. Confirm: ``analyse`` at N = 300 with another seed (CONFIRM_SEED + the screen's seed). It
   must pick the same best card and not be silent; every other candidate must lose at least
   MIN_LOSS game points (held-out) and at least MIN_ERRORS standard errors; the closest
   one's reason must be a named tip. The confirming run is what is stored: the samples, its
   seed, the best card with its equivalents, the tip and its loss, and every other
   candidate with its loss and tip, so that the data can be checked against the engine
   (``--check``, and a sample of it in the tests).

A code is full at CAP_PER_CODE positions in a rule set: no decision is screened for it any
more (the confirming run may still name a full code, now and then, one over). After
MAX_DEALS deals the hunt goes on for the rare codes alone, up to RARE_DEALS deals: from then
on a code is full at MIN_PER_CODE positions, so that only the decisions where a rare tip
could be the reason are screened, and a deal costs a fraction of what it did. A rule set is
done once it holds TARGET positions with every code found at least MIN_PER_CODE times, or
after RARE_DEALS deals. Everything is seeded and done in order, so the same parameters always give the same
file; the file records how far mining went, so a run that was stopped goes on where it
stopped and ends with the same file as a run that never was. One process, one core: a
deal takes a second or two on a quiet machine, the whole run an hour or more.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any, Final

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from tutor.analysis.judge import Analysis, CardValue, analyse, candidates  # noqa: E402
from tutor.analysis.review import replay_start  # noqa: E402
from tutor.analysis.tips import SIMULATIONS_PREFER, Situation, Tip, explain  # noqa: E402
from tutor.analysis.view import SeatView  # noqa: E402
from tutor.play import play_bots  # noqa: E402
from tutor.quiz.seat_view import read_view, view_data  # noqa: E402
from tutor.rules.cards import Card, card_id  # noqa: E402
from tutor.rules.deal import Deal  # noqa: E402
from tutor.rules.rulesets import RuleSet  # noqa: E402

OUT: Final = Path(__file__).resolve().parent.parent / "tutor" / "quiz" / "best_card.json"
RULESETS: Final = ("ddv", "pagat")
FIRST_SEED: Final = {"ddv": 1, "pagat": 100_001}  # other deals for each rule set, not the same ones twice
SEAT: Final = 0
ROUGH_SAMPLES: Final = 30
ROUGH_LOSS: Final = 0.4
SCREEN_SAMPLES: Final = 100
CONFIRM_SAMPLES: Final = 300
CONFIRM_SEED: Final = 1_000_003  # added to the screen's seed: the confirming worlds are others
SCREEN_LOSS: Final = 0.75  # the screen lets through what might reach MIN_LOSS at N = 300
MIN_LOSS: Final = 1.0  # game points (per player, a soloist's divided by three) every other card loses
MIN_ERRORS: Final = 3.0  # standard errors every other card's loss must reach
CAP_PER_CODE: Final = 30
MIN_PER_CODE: Final = 8
TARGET: Final = 240
MAX_DEALS: Final = 1600  # deals screened for every code not full
RARE_DEALS: Final = 5000  # then for the codes found fewer than MIN_PER_CODE times
SAVE_EVERY: Final = 10  # seeds between two saves of the file


def decisions(rules: RuleSet, seed: int) -> list[tuple[int, Deal]]:
    """Seat 0's moments to choose a card in the bots' deal of this seed: (card number, the
    deal at that moment with every announcement made so far)."""
    finished = play_bots(rules, seed, seed % 3).deal
    if finished is None:
        return []
    again = replay_start(finished)
    pending = list(finished.announcements)
    moments = []
    for k, card in enumerate(c for trick in finished.tricks for c in trick):
        while pending and pending[0].played <= k:
            said = pending.pop(0)
            again.announce_level(said.seat, said.level)
        if again.turn == SEAT:
            moments.append((k, again.copy()))
        again.play(card)
    return moments


def _tip(tip: Tip | None) -> dict[str, Any] | None:
    return None if tip is None else {"code": tip.code, "params": tip.params}


def _others(analysis: Analysis) -> list[CardValue]:
    return [c for c in analysis.cards if c.verdict != "best"]


def _closeness(c: CardValue) -> tuple[float, Card]:
    """The learner's likely alternative is the candidate that loses least."""
    return (c.loss, c.card)


def _best(analysis: Analysis) -> CardValue:
    return next(c for c in analysis.cards if c.verdict == "best")


def screen(view: SeatView, deal: Deal, seed: int, full: set[str]) -> Analysis | None:
    """The screening analysis, when this decision may make a position."""
    groups = candidates(view, deal)
    if len(groups) < 2:
        return None
    situation = Situation.of(view, deal)
    named = {explain(situation, b, c).code for b, _ in groups for c, _ in groups if b != c}
    if not named - full - {SIMULATIONS_PREFER}:
        return None
    rough = analyse(view, ROUGH_SAMPLES, seed)
    if rough.silent is not None or min(c.loss for c in _others(rough)) < ROUGH_LOSS:
        return None
    analysis = analyse(view, SCREEN_SAMPLES, seed)
    others = _others(analysis)
    if analysis.silent is not None or not others or min(c.loss for c in others) < SCREEN_LOSS:
        return None
    closest = min(others, key=_closeness)
    code = explain(situation, _best(analysis).card, closest.card).code
    return analysis if code != SIMULATIONS_PREFER and code not in full else None


def confirm(view: SeatView, first: Analysis, seed: int) -> Analysis | None:
    """The confirming analysis, when it holds up."""
    analysis = analyse(view, CONFIRM_SAMPLES, seed)
    others = _others(analysis)
    if analysis.silent is not None or not others or _best(analysis).card != _best(first).card:
        return None
    if any(c.loss < MIN_LOSS or c.loss < MIN_ERRORS * c.loss_error for c in others):
        return None
    closest = min(others, key=_closeness)
    if closest.reason is None or closest.reason.code == SIMULATIONS_PREFER:
        return None
    return analysis


def record(rules: RuleSet, seed: int, k: int, view: SeatView, analysis: Analysis, analysed_with: int) -> dict[str, Any]:
    assert read_view(view_data(view), rules) == view, "the plain data gives the view back"
    best = _best(analysis)
    others = sorted(_others(analysis), key=_closeness)
    closest = others[0]
    return {
        "id": f"{rules.ruleset}-{seed}-{k}",
        "rules": rules.ruleset,
        "view": view_data(view),
        "samples": analysis.samples,
        "seed": analysed_with,
        "best": [card_id(c) for c in (best.card, *best.same_as)],
        "tip": _tip(closest.reason),
        "loss": round(closest.loss, 3),
        "candidates": [{"card": card_id(c.card), "same_as": [card_id(x) for x in c.same_as],
                        "loss": round(c.loss, 3), "error": round(c.loss_error, 3), "tip": _tip(c.reason)}
                       for c in others],
    }


def load(path: Path) -> dict[str, Any]:
    if path.exists():
        data: dict[str, Any] = json.loads(path.read_text())
        return data
    return {"mined": {r: {"next_seed": FIRST_SEED[r], "deals": 0, "done": False} for r in RULESETS}, "positions": []}


def save(path: Path, data: dict[str, Any]) -> None:
    """One position a line, so that the file reads (and diffs) well."""
    lines = [json.dumps(p, sort_keys=True, ensure_ascii=False) for p in data["positions"]]
    text = '{"mined": ' + json.dumps(data["mined"], sort_keys=True) + ',\n "positions": [\n'
    text += ",\n".join(lines) + "\n]}\n"
    tmp = path.with_suffix(".tmp")
    tmp.write_text(text)
    tmp.replace(path)


def counts(data: dict[str, Any], ruleset: str) -> Counter[str]:
    return Counter(p["tip"]["code"] for p in data["positions"] if p["rules"] == ruleset)


def finished(data: dict[str, Any], ruleset: str) -> bool:
    state = data["mined"][ruleset]
    found = counts(data, ruleset)
    enough = sum(found.values()) >= TARGET and all(n >= MIN_PER_CODE for n in found.values())
    return enough or state["deals"] >= RARE_DEALS


def full_codes(data: dict[str, Any], ruleset: str) -> set[str]:
    """The codes no decision is screened for any more."""
    cap = CAP_PER_CODE if data["mined"][ruleset]["deals"] < MAX_DEALS else MIN_PER_CODE
    return {code for code, n in counts(data, ruleset).items() if n >= cap}


def mine(path: Path) -> None:
    data = load(path)
    start = time.monotonic()
    rounds = 0
    while not all(finished(data, r) for r in RULESETS):
        for ruleset in RULESETS:
            state = data["mined"][ruleset]
            state["done"] = finished(data, ruleset)  # what the file says; mining reads the counts
            if state["done"]:
                continue
            rules = RuleSet.named(ruleset)
            seed = state["next_seed"]
            for k, deal in decisions(rules, seed):
                full = full_codes(data, ruleset)
                view = SeatView.of(deal, SEAT)
                first = screen(view, deal, seed * 64 + k, full)
                if first is None:
                    continue
                again = confirm(view, first, CONFIRM_SEED + seed * 64 + k)
                if again is not None:
                    data["positions"].append(record(rules, seed, k, view, again, CONFIRM_SEED + seed * 64 + k))
            state["next_seed"] = seed + 1
            state["deals"] += 1
        rounds += 1
        if rounds % SAVE_EVERY == 0:
            save(path, data)
            summary(data, f"{time.monotonic() - start:.0f} s")
    for ruleset in RULESETS:
        data["mined"][ruleset]["done"] = True
    save(path, data)
    summary(data, "done")


def summary(data: dict[str, Any], note: str = "") -> None:
    for ruleset in RULESETS:
        found = counts(data, ruleset)
        state = data["mined"][ruleset]
        print(f"{ruleset}: {sum(found.values())} positions from {state['deals']} deals; "
              + ", ".join(f"{code} {n}" for code, n in found.most_common()), note, flush=True)


def check(path: Path) -> int:
    """Re-analyse every stored position with its seed and samples: the best card and the tip
    must be the stored ones. Prints each disagreement; returns how many there were."""
    data = load(path)
    wrong = 0
    for p in data["positions"]:
        rules = RuleSet.named(p["rules"])
        view = read_view(p["view"], rules)
        analysis = analyse(view, p["samples"], p["seed"])
        best = _best(analysis)
        closest = min(_others(analysis), key=_closeness)
        got = ([card_id(c) for c in (best.card, *best.same_as)], _tip(closest.reason))
        if got != (p["best"], p["tip"]):
            wrong += 1
            print(p["id"], "stored", p["best"], p["tip"], "now", *got, flush=True)
    print(f"{len(data['positions'])} positions checked, {wrong} disagree")
    return wrong


def reconfirm(path: Path) -> None:
    """After the computer players changed (they play out every candidate), confirm every stored
    position again with its seed, as a new one is confirmed: kept, with the new figures and
    tip, where the same card is still the best by the same margins with a named tip; dropped
    otherwise. Prints how many of each."""
    data = load(path)
    kept, dropped = [], []
    for p in data["positions"]:
        rules = RuleSet.named(p["rules"])
        view = read_view(p["view"], rules)
        analysis = analyse(view, CONFIRM_SAMPLES, p["seed"])
        others = _others(analysis)
        holds = analysis.silent is None and others and card_id(_best(analysis).card) in p["best"]
        holds = holds and all(c.loss >= MIN_LOSS and c.loss >= MIN_ERRORS * c.loss_error for c in others)
        closest = min(others, key=_closeness) if holds else None
        if closest is None or closest.reason is None or closest.reason.code == SIMULATIONS_PREFER:
            dropped.append(p["id"])
            continue
        _rules, seed, k = p["id"].rsplit("-", 2)
        kept.append(record(rules, int(seed), int(k), view, analysis, p["seed"]))
    data["positions"] = kept
    save(path, data)
    print(f"{len(kept)} positions hold, {len(dropped)} dropped: {' '.join(dropped)}")
    summary(data)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--check", action="store_true", help="re-analyse every stored position")
    parser.add_argument("--summary", action="store_true", help="positions per rule set and code")
    parser.add_argument("--reconfirm", action="store_true", help="confirm every position again, drop what fails")
    args = parser.parse_args()
    if args.reconfirm:
        reconfirm(args.out)
        return
    if args.check:
        sys.exit(1 if check(args.out) else 0)
    if args.summary:
        summary(load(args.out))
        return
    mine(args.out)


if __name__ == "__main__":
    main()
