"""Fresh positions of the same kind: after a miss a lesson asks again about new cards, never
about the position whose answer it has just shown (and never twice the same in a row).

``fresh(kind, position, rules, seed, avoid, taught)`` returns a position (plain data, as a
lesson writes one) that the engine decides by the same rule as the given one: the same
reason code for a trick, a lead, a card, a party; the same kind of row for a score, a sheet
or a dealer; for a decision, one of the position's own variants or its mirror image (plain
clubs and spades trade places, which changes nothing in a normal game). The seed makes it
reproducible: the same seed gives the same position. ``taught`` (rule ids of lessons/rules.toml
taught so far on the path) keeps a fresh score from needing a line not yet explained.
"""
from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping, Sequence
from itertools import permutations
from typing import Any, Final

from tutor.learn import kinds
from tutor.quiz import ask as quiz_ask
from tutor.quiz.base import SEATS, Question
from tutor.quiz.positions import play
from tutor.quiz.why import rule_of
from tutor.rules.announcements import LIMITS
from tutor.rules.cards import IDS, card_id, in_deck, parse_card, rank_of, suit_of
from tutor.rules.deals import deal_hands, play_randomly
from tutor.rules.errors import RulesError
from tutor.rules.games import game_table, is_solo
from tutor.rules.rulesets import RuleSet

__all__ = ["NoVariant", "fresh", "key", "same_as", "said_kinds"]

TRIES: Final = 3000
PATIENCE: Final = 150  # tries more for a preferred position once a fitting one is found
# The rule of lessons/rules.toml each scoring line belongs to: a fresh score uses only lines
# whose rule the learner has met on the path.
LINE_RULES: Final = {
    "won": "8.won", "against_the_old_ones": "8.old-ones", "below_90": "8.below", "below_60": "8.below",
    "below_30": "8.below", "schwarz": "8.below", "re_announced": "8.announced", "kontra_announced": "8.announced",
    "no_90_announced": "8.limits-announced", "no_60_announced": "8.limits-announced",
    "no_30_announced": "8.limits-announced", "schwarz_announced": "8.limits-announced",
    "reached_120_against_no_90": "8.reached", "reached_90_against_no_60": "8.reached",
    "reached_60_against_no_30": "8.reached", "reached_30_against_schwarz": "8.reached",
    "failed_announcement": "9.scoring", "fox": "8.extras", "doppelkopf": "8.extras", "karlchen": "8.extras",
    "karlchen_caught": "9.extras",
}
# Lines that grow with the card points: a fresh score may have more or fewer of them.
LADDER: Final = frozenset({"won", "below_90", "below_60", "below_30", "schwarz"})


class NoVariant(ValueError):
    """No fresh position of the same kind was found for a check."""


def key(position: Mapping[str, Any]) -> str:
    """A position as one comparable string: what "the same position" means."""
    return json.dumps(position, sort_keys=True, default=str)


def build(kind: str, position: Mapping[str, Any], rules: RuleSet) -> Question:
    if kind in kinds.OWN_KINDS:
        return kinds.ask(kind, position, rules)
    return quiz_ask(kind, position, rules)


def _deck(rules: RuleSet) -> list[str]:
    return [c for c in IDS if in_deck(parse_card(c), rules.deck)]


def _cards(rng: random.Random, rules: RuleSet, count: int, pool: Sequence[str] | None = None) -> list[str]:
    """``count`` random cards, no card more than twice."""
    pool = list(pool or _deck(rules))
    chosen: list[str] = []
    while len(chosen) < count:
        card = rng.choice(pool)
        if chosen.count(card) < 2:
            chosen.append(card)
    return chosen


Maker = Callable[[random.Random], dict[str, Any] | None]


def _search(kind: str, original: Mapping[str, Any], rules: RuleSet, seed: int, avoid: set[str],
            make: Maker, same: Callable[[Question], bool], prefer: Callable[[Question], bool] | None = None,
            tries: int = TRIES) -> dict[str, Any]:
    """The first made position that the engine accepts, that ``same`` keeps and that is none
    of ``avoid``; one that ``prefer`` likes too if found within the tries."""
    rng = random.Random(seed)
    fallback: dict[str, Any] | None = None
    waited = 0
    for _ in range(tries):
        if fallback is not None:
            waited += 1
            if waited > PATIENCE:
                break
        candidate = make(rng)
        if candidate is None or key(candidate) in avoid:
            continue
        try:
            question = build(kind, candidate, rules)
        except (RulesError, ValueError, KeyError, TypeError):
            continue
        if not same(question):
            continue
        if prefer is None or prefer(question):
            return candidate
        fallback = fallback or candidate
    if fallback is not None:
        return fallback
    raise NoVariant(f"no fresh {kind} position like {key(original)}")


def _pick(kind: str, candidates: list[dict[str, Any]], rules: RuleSet, seed: int, avoid: set[str],
          same: Callable[[Question], bool], prefer: Callable[[Question], bool] | None = None) -> dict[str, Any]:
    """One of an enumerated list of candidates, chosen by the seed among those that fit."""
    fitting: list[dict[str, Any]] = []
    liked: list[dict[str, Any]] = []
    for candidate in candidates:
        if key(candidate) in avoid:
            continue
        try:
            question = build(kind, candidate, rules)
        except (RulesError, ValueError, KeyError, TypeError):
            continue
        if same(question):
            fitting.append(candidate)
            if prefer is None or prefer(question):
                liked.append(candidate)
    choice = liked or fitting
    if not choice:
        raise NoVariant(f"no fresh {kind} position like {candidates[:1]}")
    return random.Random(seed).choice(choice)


# --- One generator per kind ----------------------------------------------------------------


def _winner(original: Mapping[str, Any], q: Question, rules: RuleSet, seed: int, avoid: set[str]) -> dict[str, Any]:
    size = len(original["trick"])
    code = rule_of(q)

    def make(rng: random.Random) -> dict[str, Any]:
        trick = _cards(rng, rules, size)
        if code == "first_of_equal" or rng.random() < 0.3:
            i, j = sorted(rng.sample(range(size), 2))
            trick[j] = trick[i]
        return {**{k: v for k, v in original.items() if k in ("game", "last")}, "trick": trick,
                "leader": rng.randrange(SEATS)}

    return _search("winner", original, rules, seed, avoid, make, lambda v: rule_of(v) == code,
                   lambda v: v.answer != q.answer)


def _legal(original: Mapping[str, Any], q: Question, rules: RuleSet, seed: int, avoid: set[str]) -> dict[str, Any]:
    size, trick_size = len(original["hand"]), len(original["trick"])
    reason = q.reasons[0]
    disguised = bool(reason.params.get("trumps_of_suit"))
    restricted = len(q.answer[0].split(",")) < len(q.fields[0].choices)

    def make(rng: random.Random) -> dict[str, Any]:
        cards = _cards(rng, rules, size + trick_size)
        return {**{k: v for k, v in original.items() if k == "game"}, "hand": cards[:size], "trick": cards[size:]}

    def same(v: Question) -> bool:
        r = v.reasons[0]
        return (r.code == reason.code and bool(r.params.get("trumps_of_suit")) == disguised
                and (len(v.answer[0].split(",")) < len(v.fields[0].choices)) == restricted)

    return _search("legal", original, rules, seed, avoid, make, same)


def _trumps(original: Mapping[str, Any], q: Question, rules: RuleSet, seed: int, avoid: set[str]) -> dict[str, Any]:
    code = q.reasons[0].code
    pair = "cards" in original

    def make(rng: random.Random) -> dict[str, Any]:
        game = {k: v for k, v in original.items() if k == "game"}
        if pair:
            first, second = rng.sample(_deck(rules), 2)
            return {**game, "cards": [first, second]}
        return {**game, "card": rng.choice(_deck(rules))}

    return _search("trumps", original, rules, seed, avoid, make, lambda v: v.reasons[0].code == code)


def _points(original: Mapping[str, Any], q: Question, rules: RuleSet, seed: int, avoid: set[str]) -> dict[str, Any]:
    cards = list(original.get("cards") or [c for t in original["tricks"] for c in t])
    ranks = {rank_of(parse_card(c)) for c in cards}
    pool = [c for c in _deck(rules) if rank_of(parse_card(c)) in ranks] or _deck(rules)
    extra = [c for c in _deck(rules) if c not in pool]

    def make(rng: random.Random) -> dict[str, Any]:
        chosen = _cards(rng, rules, len(cards), pool)
        if extra and len(chosen) <= 4 and rng.random() < 0.5:
            chosen[rng.randrange(len(chosen))] = rng.choice(extra)
        if "tricks" in original:
            sizes = [len(t) for t in original["tricks"]]
            out, at = [], 0
            for n in sizes:
                out.append(chosen[at:at + n])
                at += n
            return {"tricks": out}
        return {"cards": chosen}

    return _search("points", original, rules, seed, avoid, make, lambda v: True, lambda v: v.answer != q.answer)


def _announce(original: Mapping[str, Any], q: Question, rules: RuleSet, seed: int, avoid: set[str]) -> dict[str, Any]:
    code = rule_of(q)
    said = dict(original.get("said") or {})
    flip = {"re": "kontra", "kontra": "re"}

    def mirrored(s: Mapping[str, str]) -> dict[str, str]:
        out = {}
        for party, value in s.items():
            other = flip[party]
            out[other] = other if value == party else value
        return out

    candidates: list[dict[str, Any]] = []
    base = {k: v for k, v in original.items() if k not in ("party", "cards", "said", "parties")}
    if original.get("ask") == "who":
        arrangements = sorted(set(permutations(original["parties"])))
        for parties in arrangements:
            for shift in (-1, 0, 1):
                cards = [c + shift for c in original["cards"]]
                for s in (said, mirrored(said)):
                    candidates.append({**base, "parties": list(parties), "cards": cards, "said": s})
    else:
        for party in ("re", "kontra"):
            s = said if party == original["party"] else mirrored(said)
            for count in range(0, rules.tricks + 1):
                candidates.append({**base, "party": party, "cards": count, "said": s})
    return _pick("announce", candidates, rules, seed, avoid, lambda v: rule_of(v) == code,
                 lambda v: v.answer != q.answer)


SAID_CHOICES: Final = (None, 0, 1, 2, 3, 4)


def _said(party: str, level: int | None) -> str | None:
    if level is None:
        return None
    return party if level == 0 else LIMITS[level - 1]


def said_kinds(said: Mapping[str, str] | None) -> frozenset[str]:
    """What kinds of announcement a position's ``said`` holds: "party" (a Re or Kontra on
    its own) and "limit" (no 90 and beyond). A fresh position uses no kind its step's own
    position leaves out: before announcements are taught, nothing is said."""
    return frozenset("party" if value in ("re", "kontra") else "limit" for value in (said or {}).values())


def _needs(original: Mapping[str, Any], q: Question, rules: RuleSet, seed: int, avoid: set[str]) -> dict[str, Any]:
    code = q.reasons[0].code
    nobody = bool(q.reasons[0].params.get("nobody"))
    kinds_used = said_kinds(original.get("said"))
    candidates = []
    for party in ("re", "kontra"):
        for r in SAID_CHOICES:
            for k in SAID_CHOICES:
                said = {p: s for p, s in (("re", _said("re", r)), ("kontra", _said("kontra", k))) if s}
                if not said_kinds(said) <= kinds_used:
                    continue
                candidates.append({**{x: v for x, v in original.items() if x == "game"}, "party": party,
                                   "said": said})
    return _pick("needs", candidates, rules, seed, avoid,
                 lambda v: v.reasons[0].code == code and bool(v.reasons[0].params.get("nobody")) == nobody,
                 lambda v: v.answer != q.answer)


def _lines(q: Question) -> set[str]:
    return {line for line, _party, _points in q.reasons[-1].params["lines"]}


def _score(original: Mapping[str, Any], q: Question, rules: RuleSet, seed: int, avoid: set[str],
           taught: frozenset[str]) -> dict[str, Any]:
    focus = _lines(q) - LADDER
    nobody = q.answer[0] == "nobody"
    allowed = {line for line, rule in LINE_RULES.items() if rule in taught} | _lines(q)
    candidates = [{**original, "re_points": points} for points in range(0, 241)]
    candidates = [{k: v for k, v in c.items() if k != "re_tricks"} for c in candidates]

    def same(v: Question) -> bool:
        lines = _lines(v)
        return focus <= lines and lines <= allowed and (v.answer[0] == "nobody") == nobody

    return _pick("score", candidates, rules, seed, avoid, same, lambda v: v.answer != q.answer)


def _game(original: Mapping[str, Any], q: Question, rules: RuleSet, seed: int, avoid: set[str]) -> dict[str, Any]:
    codes = [r.code for r in q.reasons]
    said = list(original.get("reservations", ["healthy"] * SEATS))
    compulsory = set(original.get("compulsory", []))
    candidates = []
    for order in sorted(set(permutations(range(SEATS)))):
        for dealer in range(SEATS):
            reservations = [said[order[s]] for s in range(SEATS)]
            flags = sorted(s for s in range(SEATS) if order[s] in compulsory)
            candidate: dict[str, Any] = {"dealer": dealer, "reservations": reservations}
            if flags:
                candidate["compulsory"] = flags
            candidates.append(candidate)
    return _pick("game", candidates, rules, seed, avoid, lambda v: [r.code for r in v.reasons] == codes,
                 lambda v: v.answer != q.answer)


def _rotated(hands: Sequence[Sequence[int]], by: int) -> list[list[str]]:
    return [[card_id(c) for c in hands[(s + by) % SEATS]] for s in range(SEATS)]


def _party(original: Mapping[str, Any], q: Question, rules: RuleSet, seed: int, avoid: set[str]) -> dict[str, Any]:
    code = q.reasons[0].code
    game = original.get("game", "normal")
    keep = {k: v for k, v in original.items() if k == "game"}

    if game == "normal":
        queens = "QC" in original["hand"]

        def make(rng: random.Random) -> dict[str, Any] | None:
            others = [c for c in _deck(rules) if c != "QC"]
            hand = _cards(rng, rules, rules.tricks - (1 if queens else 0), others) + (["QC"] if queens else [])
            return {**keep, "seat": 0, "hand": hand}
    elif game in ("wedding", "wedding_solo"):
        groom_seat = original.get("groom", 0)

        def make(rng: random.Random) -> dict[str, Any] | None:
            position = play(rng, rules.with_options(schweinchen=False), "wedding")
            deal, groom = position.deal, position.info["groom"]
            by = (groom - groom_seat) % SEATS  # the groom sits where he sat in the lesson
            winners = deal.winners
            clarified = next((t for t in range(3) if winners[t] != groom), None)
            shown = 3 if clarified is None else clarified + 1
            tricks = [[card_id(c) for c in deal.tricks[t]] for t in range(shown)]
            return {**keep, "groom": groom_seat, "leader": (deal.leaders[0] - by) % SEATS,
                    "seat": rng.randrange(SEATS), "tricks": tricks}
    elif game == "poverty":
        def make(rng: random.Random) -> dict[str, Any] | None:
            poor, acceptor, seat = rng.randrange(SEATS), rng.randrange(SEATS), rng.randrange(SEATS)
            return {**keep, "poor": poor, "acceptor": acceptor, "seat": seat}
    else:
        name = "groom" if game == "silent_wedding" and "groom" in original else "soloist"
        solos = [g for g in ("solo_queens", "solo_jacks", "solo_clubs", "solo_spades", "solo_hearts", "solo_diamonds",
                             "solo_aces") if is_solo(g)]

        def make(rng: random.Random) -> dict[str, Any] | None:
            chosen = game if game == "silent_wedding" or rng.random() < 0.5 else rng.choice(solos)
            return {"game": chosen, name: rng.randrange(SEATS), "seat": rng.randrange(SEATS)}

    return _search("party", original, rules, seed, avoid, make, lambda v: v.reasons[0].code == code,
                   tries=600 if game in ("wedding", "wedding_solo") else TRIES)


# Reasons of the extras kind that say what the trick is about (its cards), not who took it.
EXTRA_FOCUS: Final = frozenset({"fox_caught", "fox_own", "karlchen_wins_last", "karlchen_caught",
                                "karlchen_caught_not_counted", "karlchen_not_last", "karlchen_beaten_by_partner",
                                "doppelkopf_trick", "no_extras_in_solo"})


def _focus(q: Question) -> list[str]:
    return sorted(r.code for r in q.reasons if r.code in EXTRA_FOCUS)


def _extras(original: Mapping[str, Any], q: Question, rules: RuleSet, seed: int, avoid: set[str]) -> dict[str, Any]:
    focus = _focus(q)
    must = [c for c in ("AD", "JC") if c in original["trick"]]
    arrangements = sorted(set(permutations(["re", "re", "kontra", "kontra"])))

    def make(rng: random.Random) -> dict[str, Any]:
        trick = _cards(rng, rules, SEATS)
        for i, card in enumerate(must):
            trick[(i + rng.randrange(SEATS)) % SEATS] = card
        return {**{k: v for k, v in original.items() if k in ("game", "last")}, "trick": trick,
                "leader": rng.randrange(SEATS), "parties": list(rng.choice(arrangements))}

    return _search("extras", original, rules, seed, avoid, make, lambda v: _focus(v) == focus,
                   lambda v: v.answer != q.answer)


def _sheet_row(original: Mapping[str, Any], q: Question, rules: RuleSet, seed: int, avoid: set[str]) -> dict[str, Any]:
    codes = [r.code for r in q.reasons]

    def make(rng: random.Random) -> dict[str, Any]:
        value = rng.randint(1, 6)
        if rng.random() < 0.5:
            entries = [3 * value, -value, -value, -value]
        else:
            entries = [value, value, -value, -value]
        roll = rng.random()
        if roll < 0.35:
            entries[rng.randrange(SEATS)] += rng.choice((-2, -1, 1, 2))  # no longer sums to zero
        elif roll < 0.7:
            i, j = rng.sample(range(SEATS), 2)  # still sums to zero, parity mixed when odd
            step = rng.choice((1, 2, 3))
            entries[i] += step
            entries[j] -= step
        rng.shuffle(entries)
        return {"entries": entries}

    return _search("sheet_row", original, rules, seed, avoid, make, lambda v: [r.code for r in v.reasons] == codes)


def _dealer(original: Mapping[str, Any], q: Question, rules: RuleSet, seed: int, avoid: set[str]) -> dict[str, Any]:
    players = int(original.get("players", 4))
    codes = [r.code for r in q.reasons]
    solos = ["solo_queens", "solo_jacks", "solo_clubs", "solo_spades", "solo_hearts", "solo_diamonds"]
    candidates = []
    for shift in range(players):
        for swap in (0, 2):
            def moved(n: int, shift: int = shift) -> int:
                return (n + shift) % players

            candidate: dict[str, Any] = {k: v for k, v in original.items() if k not in ("deals", "owed", "dealer")}
            if "deals" in original:
                deals = []
                for deal in original["deals"]:
                    entry = {**deal, "dealer": moved(deal["dealer"])}
                    if "soloist" in deal:
                        entry["soloist"] = moved(deal["soloist"])
                    if str(deal.get("game", "")).startswith("solo_"):
                        entry["game"] = solos[(solos.index(deal["game"]) + swap) % len(solos)] \
                            if deal["game"] in solos else deal["game"]
                    deals.append(entry)
                candidate["deals"] = deals
            if "owed" in original:
                candidate["owed"] = sorted(moved(n) for n in original["owed"])
            if "dealer" in original:
                candidate["dealer"] = moved(original["dealer"])
            candidates.append(candidate)
    if "deals_left" in original:
        more = []
        for candidate in candidates:
            for owed in (candidate.get("owed", []),):
                for extra in range(0, 3):
                    more.append({**candidate, "owed": owed, "deals_left": max(1, original["deals_left"] + extra)})
        candidates = more
    return _pick("dealer", candidates, rules, seed, avoid, lambda v: [r.code for r in v.reasons] == codes,
                 lambda v: v.answer != q.answer)


def _poverty(original: Mapping[str, Any], q: Question, rules: RuleSet, seed: int, avoid: set[str]) -> dict[str, Any]:
    code = q.reasons[0].code
    fox = "AD" in original["hand"]
    table = game_table("normal", rules.with_options(schweinchen=False))
    trumps = [c for c in _deck(rules) if table.is_trump(parse_card(c))]
    plain = [c for c in _deck(rules) if c not in trumps]
    want = q.reasons[0].params["count"]

    def make(rng: random.Random) -> dict[str, Any]:
        count = max(0, min(6, want + rng.choice((-1, 0, 1))))
        hand = _cards(rng, rules, count, trumps) if count else []
        if fox and "AD" not in hand:
            if not hand:
                return {"hand": []}
            hand[0] = "AD"
        hand += _cards(rng, rules, rules.tricks - len(hand), plain)
        return {"hand": hand}

    return _search("poverty", original, rules, seed, avoid, make,
                   lambda v: v.reasons[0].code == code, lambda v: v.facts["hand"] != q.facts["hand"])


def _swap_out(rng: random.Random, hands: list[list[int]], seat: int, keep: Callable[[int], bool],
              others: Sequence[int]) -> None:
    """Trade every card of ``seat`` that ``keep`` refuses for a card of another seat that it
    accepts, so that ``seat`` ends up holding only cards ``keep`` likes."""
    for card in [c for c in hands[seat] if not keep(c)]:
        donors = [(o, c) for o in others for c in hands[o] if keep(c)]
        if not donors:
            return
        other, given = rng.choice(donors)
        hands[seat].remove(card)
        hands[other].remove(given)
        hands[seat].append(given)
        hands[other].append(card)


def _infer(original: Mapping[str, Any], q: Question, rules: RuleSet, seed: int, avoid: set[str]) -> dict[str, Any]:
    code = q.reasons[0].code
    count = len(original.get("tricks", []))
    calls = bool(original.get("said"))
    plain = rules.with_options(schweinchen=False)
    table = game_table("normal", plain)
    queen = parse_card("QC")

    def make(rng: random.Random) -> dict[str, Any] | None:
        seat = rng.randrange(1, SEATS)
        leader = rng.randrange(SEATS)
        hands = deal_hands(rng, plain)
        others = [s for s in range(SEATS) if s != seat]
        if code == "infer_no_trump":
            # The asked player holds no trump at all (so no Q♣): he cannot follow a trump lead.
            _swap_out(rng, hands, seat, lambda c: not table.is_trump(c), others)
        if code == "infer_silent_wedding":
            _swap_out(rng, hands, seat, lambda c: c == queen or table.is_trump(c), others)
            for other in others:
                while queen in hands[other]:
                    plain_cards = [c for c in hands[seat] if c != queen]
                    given = rng.choice(plain_cards)
                    hands[other].remove(queen)
                    hands[seat].remove(given)
                    hands[other].append(given)
                    hands[seat].append(queen)
        if code != "infer_silent_wedding" and sum(queen in h for h in hands) != 2:
            return None  # one player with both Q♣: not the normal game this check is about
        if hands[0].count(queen) == 2:
            return None
        tricks, _leaders, _winners = play_randomly(rng, table, hands, leader)
        ids = [[card_id(c) for c in t] for t in tricks]
        shown = count
        if code == "infer_no_trump":
            leads = [t for t in range(len(ids)) if table.is_trump(tricks[t][0])]
            if not leads or leads[0] > 4:
                return None
            shown = leads[0] + 1
        elif code == "infer_silent_wedding":
            queens = 0
            for t in range(len(ids)):
                queens += ids[t].count("QC")
                if queens == 2:
                    shown = t + 1
                    break
            if shown > 5:
                return None
        said = {}
        if calls:
            caller = rng.randrange(1, SEATS)
            said[str(caller)] = "re" if queen in hands[caller] else "kontra"
        return {"hand": [card_id(c) for c in sorted(hands[0])], "leader": leader, "seat": seat,
                "tricks": ids[:shown], **({"said": said} if said else {})}

    return _search("infer", original, rules, seed, avoid, make, lambda v: v.reasons[0].code == code, tries=800)


CLUBS_SPADES: Final = {"C": "S", "S": "C"}


def mirror(position: Any) -> Any:
    """The position with plain clubs and spades traded (A, 10, K, 9; queens and jacks are
    trumps and stay): in a normal game both suits play alike, so every answer holds."""
    if isinstance(position, str) and position in IDS:
        card = parse_card(position)
        rank, suit = rank_of(card), suit_of(card)
        if rank in ("A", "10", "K", "9") and suit in CLUBS_SPADES:
            return rank + CLUBS_SPADES[suit]
        return position
    if isinstance(position, list):
        return [mirror(p) for p in position]
    if isinstance(position, dict):
        return {k: (v if k == "variants" else mirror(v)) for k, v in position.items()}
    return position


def _decide(original: Mapping[str, Any], q: Question, rules: RuleSet, seed: int, avoid: set[str]) -> dict[str, Any]:
    base = {k: v for k, v in original.items() if k != "variants"}
    own = [base] + [{**{k: v for k, v in base.items() if k in ("game", "claim", "judge", "groom")}, **v}
                    for v in original.get("variants", [])]
    # A decision to announce shows card points only: its mirror would look the same.
    candidates = own + ([] if "announce" in base else [mirror(p) for p in own])
    return _pick("decide", candidates, rules, seed, avoid, lambda v: True)


def _sheet(original: Mapping[str, Any], q: Question, rules: RuleSet, seed: int, avoid: set[str]) -> dict[str, Any]:
    players = original.get("players", 4)

    def make(rng: random.Random) -> dict[str, Any]:
        deals = []
        for i, deal in enumerate(original["deals"]):
            dealer = (original.get("first", 0) + i) % players
            playing = [(dealer + k) % players for k in range(1, SEATS + 1)]
            why = deal.get("why")
            winner = "kontra" if why in ("tie", "lost_re") else "re" if why == "lost_kontra" else \
                rng.choice(("re", "kontra"))
            re = sorted(rng.sample(playing, len(deal.get("re", [0, 1]))))
            value = max(2 if why == "tie" else 1, min(6, deal.get("value", 1) + rng.choice((-1, 0, 1, 2))))
            deals.append({**deal, "re": re, "winner": winner, "value": value})
        return {**original, "deals": deals}

    return _search("sheet", original, rules, seed, avoid, make, lambda v: True, lambda v: v.answer != q.answer)


def _recall(original: Mapping[str, Any], q: Question, rules: RuleSet, seed: int, avoid: set[str]) -> dict[str, Any]:
    """Another fact of the step (a variant: its own ``section`` of prose, question and list)
    where there is one not just asked, else the same list in another order. ``original``
    holds the variants; ``avoid`` the positions just asked (as keys) and the step's own."""
    own = {k: v for k, v in original.items() if k != "variants"}
    facts = [own, *(dict(v) for v in original.get("variants", ()))]
    asked = {json.loads(a).get("section") for a in avoid if a != key(own)}
    rng = random.Random(seed)
    fresh_facts = [f for f in facts if f.get("section") not in (asked or {None})]
    if fresh_facts:
        fact = rng.choice(fresh_facts)
        if fact.get("section") is not None:
            return fact  # a new question, its list as written
    else:
        fact = own
    count = int(fact["count"])
    orders = [list(p) for p in permutations(range(1, count + 1)) if list(p) != list(range(1, count + 1))]
    fitting = [o for o in orders if key({**fact, "order": o}) not in avoid] or orders
    return {**fact, "order": rng.choice(fitting)}


def _name(original: Mapping[str, Any], q: Question, rules: RuleSet, seed: int, avoid: set[str]) -> dict[str, Any]:
    names = sorted(kinds.NAMES)

    def make(rng: random.Random) -> dict[str, Any]:
        name = rng.choice(names)
        others = [c for c in _deck(rules) if c not in {card_id(x) for x in kinds.NAMES.values()}]
        cards = rng.sample(others, len(original["cards"]) - 1) + [card_id(kinds.NAMES[name])]
        rng.shuffle(cards)
        return {"name": name, "cards": cards}

    return _search("name", original, rules, seed, avoid, make, lambda v: True, lambda v: v.answer != q.answer)


GENERATORS: Final[dict[str, Callable[[Mapping[str, Any], Question, RuleSet, int, set[str]], dict[str, Any]]]] = {
    "winner": _winner, "legal": _legal, "trumps": _trumps, "points": _points, "announce": _announce,
    "needs": _needs, "game": _game, "party": _party, "extras": _extras, "sheet_row": _sheet_row,
    "dealer": _dealer, "poverty": _poverty, "infer": _infer, "decide": _decide, "sheet": _sheet,
    "recall": _recall, "name": _name,
}


def fresh(kind: str, position: Mapping[str, Any], rules: RuleSet, seed: int, avoid: Sequence[Mapping[str, Any]] = (),
          taught: frozenset[str] = frozenset()) -> dict[str, Any]:
    """A position of the same kind as ``position`` (a check of a lesson), decided by the same
    rule, none of ``position`` itself and ``avoid``; the same ``seed`` gives the same one.
    NoVariant if none can be found."""
    original = {k: v for k, v in position.items() if k != "variants"} if kind not in ("decide", "recall") \
        else dict(position)
    question = build(kind, {k: v for k, v in original.items() if k not in ("variants", "order")}, rules)
    skip = {key(original)} | {key(a) for a in avoid}
    if kind == "decide":
        # A decision with plain clubs and spades traded is the same decision: the one to
        # avoid is avoided in both colours (the step's own mirror may come, it was not asked).
        skip = {key({k: v for k, v in original.items() if k != "variants"})} | {key(a) for a in avoid} \
            | {key(mirror(a)) for a in avoid}
    if kind == "recall":
        skip = {key({k: v for k, v in original.items() if k != "variants"})} | {key(a) for a in avoid}
    generator = GENERATORS.get(kind)
    if generator is None and kind != "score":
        raise NoVariant(f"no fresh positions for the {kind} kind")

    def run(skipped: set[str]) -> dict[str, Any]:
        if kind == "score":
            return _score(original, question, rules, seed, skipped, taught)
        assert generator is not None
        return generator(original, question, rules, seed, skipped)

    try:
        return run(skip)
    except NoVariant:
        if not avoid:
            raise
        # So few positions of this kind that none is left: the step's own may come back, but
        # never the one just asked.
        return run(skip - {key(original), key({k: v for k, v in original.items() if k != "variants"})})


def same_as(kind: str, position: Mapping[str, Any]) -> str:
    """What "the same position" means to a learner, as one comparable string: a recall is
    its fact (the step's own or a variant's ``section``), whatever the order of its list; a
    decision and its mirror image (plain clubs and spades traded) are one decision."""
    plain = {k: v for k, v in position.items() if k != "variants"}
    if kind == "recall":  # the same fact is the same question, in whatever order its list comes
        return key({"section": plain.get("section"), "answer": plain.get("answer")})
    if kind == "decide":
        return min(key(plain), key(mirror(plain)))
    return key(plain)
