"""The deal summary form, shared by the calculator and the score sheet: read the fields,
ask the engine whether the deal could happen, and say what is wrong next to the field.

The form only turns text into the engine's values; which summaries are possible, who wins
and what it scores are the engine's answers.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from tutor.rules.announcements import LIMITS
from tutor.rules.cards import DECK_POINTS
from tutor.rules.errors import RulesError
from tutor.rules.games import GAMES, check_game, is_solo
from tutor.rules.rulesets import RuleSet
from tutor.rules.scoring import EXTRA_MAX, EXTRAS, Score, check_summary, default_re_tricks, score
from tutor.web.words.errors import error_message

PARTIES: Final = ("re", "kontra")
# Short names of the extra points for the form (the scoring lines say more).
EXTRA_LABELS: Final = {
    "fox": _l("Fox caught"),
    "doppelkopf": _l("Doppelkopf"),
    "karlchen": _l("Karlchen"),
    "karlchen_caught": _l("Karlchen caught"),
}
SCHWARZ_CHOICES: Final = ("", "re", "kontra")  # nobody / Re took every trick / Kontra did
MAX_TEXT: Final = 12  # no number field needs more characters
# Messages of the web forms that the API does not have (its table is reused for the rest).
MESSAGES: Final = {
    "not_a_number": _l("Please enter a whole number."),
    "required": _l("Please fill in this field."),
    "unknown_choice": _l("Please choose one of the values offered."),
    "points_need_schwarz": _l("Re cannot have exactly these card points in a deal where both parties took a trick."),
    "schwarz_tricks": _l("With schwarz, one party took every trick: the tricks must be 0 or all."),
    "player_sat_out": _l("This player sat out this deal."),
    "bad_rules": _l("These rules are not known. Open the calculator from the menu to use your own."),
}


def message(error: RulesError) -> str:
    """A translated sentence for an engine error, from the API's table or the form's own."""
    if error.code in MESSAGES:
        return str(MESSAGES[error.code]) % dict(error.params)
    return error_message(error.code, error.params)


def field_name(engine_field: str | None) -> str:
    """The form field for an engine error's field: ``extras.re.fox`` is ``re_fox``."""
    name = engine_field or "form"
    if name.startswith("extras."):
        _, party, extra = (name.split(".") + ["", ""])[:3]
        return f"{party}_{extra}"
    if name.startswith("announcements."):
        return name.split(".", 1)[1] + "_announced"
    return name


@dataclass
class Summary:
    """What the calculator knows of a deal, in the engine's terms."""

    game: str
    re_points: int
    re_tricks: int
    re_announced: str | None
    kontra_announced: str | None
    extras: dict[str, dict[str, int]]

    def score(self, rules: RuleSet) -> Score:
        return score(rules, self.game, self.re_points, self.re_tricks, self.re_announced,
                     self.kontra_announced, self.extras)

    def as_fields(self, rules: RuleSet) -> dict[str, str]:
        """The form fields that give this summary back (for links and the edit form)."""
        fields = {"game": self.game, "re_points": str(self.re_points)}
        if self.re_tricks in (0, rules.tricks):
            fields["schwarz"] = "re" if self.re_tricks else "kontra"
        fields["re_tricks"] = str(self.re_tricks)
        for party, said in (("re", self.re_announced), ("kontra", self.kontra_announced)):
            if said:
                fields[f"{party}_announced"] = said
        for party in PARTIES:
            for extra, count in self.extras.get(party, {}).items():
                if count:
                    fields[f"{party}_{extra}"] = str(count)
        return fields


@dataclass
class Form:
    """The form as typed (to show it again) and what is wrong with it, by field."""

    values: dict[str, str]
    errors: dict[str, str] = field(default_factory=dict)
    summary: Summary | None = None

    def error(self, name: str, text: str) -> None:
        self.errors.setdefault(name, text)


def announcement_choices(party: str) -> tuple[str, ...]:
    """What a party can have announced, lowest first: its own name, then the limits."""
    return (party, *LIMITS)


def extras_for(rules: RuleSet) -> tuple[str, ...]:
    """The extra points a form asks for: Karlchen caught only where the rules count it."""
    return tuple(e for e in EXTRAS if e != "karlchen_caught" or rules.karlchen == "win_or_catch")


def extra_max(extra: str, rules: RuleSet) -> int:
    return EXTRA_MAX.get(extra, rules.tricks)


def _text(data: Mapping[str, Any], name: str) -> str:
    value = data.get(name, "")
    return value.strip()[:200] if isinstance(value, str) else ""


def _number(form: Form, name: str, low: int, high: int, required: bool = False) -> int | None:
    text = form.values.get(name, "")
    if text == "":
        if required:
            form.error(name, str(MESSAGES["required"]))
        return None
    if len(text) > MAX_TEXT or not text.isascii() or not text.lstrip("-").isdigit():
        form.error(name, str(MESSAGES["not_a_number"]))
        return None
    value = int(text)
    if not low <= value <= high:
        form.error(name, error_message("out_of_range", {"low": low, "high": high}))
        return None
    return value


def _choice(form: Form, name: str, choices: tuple[str, ...]) -> str | None:
    text = form.values.get(name, "")
    if text not in choices:
        form.error(name, str(MESSAGES["unknown_choice"]))
        return None
    return text


def field_names(rules: RuleSet) -> list[str]:
    names = ["game", "re_points", "schwarz", "re_tricks", "re_announced", "kontra_announced"]
    return names + [f"{p}_{e}" for p in PARTIES for e in extras_for(rules)]


def read(data: Mapping[str, Any], rules: RuleSet, required: bool = True) -> Form:
    """Read a summary form. ``form.summary`` is set when the deal could happen; otherwise
    ``form.errors`` says why, by field. Without Re's card points there is nothing to score
    (an error only when ``required``)."""
    form = Form({name: _text(data, name) for name in field_names(rules)})
    values = form.values
    values["game"] = values["game"] or "normal"
    game = _choice(form, "game", GAMES)
    if game is not None:
        try:
            check_game(game, rules)
        except RulesError as error:
            form.error("game", message(error))
            game = None
    schwarz = _choice(form, "schwarz", SCHWARZ_CHOICES)
    points = _number(form, "re_points", 0, DECK_POINTS, required and not schwarz)
    tricks = _number(form, "re_tricks", 0, rules.tricks)
    said = {}
    for party in PARTIES:
        said[party] = _choice(form, f"{party}_announced", ("", *announcement_choices(party))) or None
    extras: dict[str, dict[str, int]] = {}
    for party in PARTIES:
        for extra in extras_for(rules):
            count = _number(form, f"{party}_{extra}", 0, extra_max(extra, rules))
            if count:
                extras.setdefault(party, {})[extra] = count
    if schwarz:
        # Schwarz: the other party took no trick, so it has no card points either.
        all_tricks = schwarz == "re"
        if tricks is not None and tricks != (rules.tricks if all_tricks else 0):
            form.error("re_tricks", str(MESSAGES["schwarz_tricks"]))
        points, tricks = (DECK_POINTS, rules.tricks) if all_tricks else (0, 0)
        values["re_points"] = str(points)
    if form.errors or game is None or points is None:
        return form
    try:
        tricks = tricks if tricks is not None else infer_tricks(rules, game, points, extras)
        check_summary(rules, game, points, tricks, extras)
    except RulesError as error:
        form.error(field_name(error.field), message(error))
        return form
    form.summary = Summary(game, points, tricks, said["re"], said["kontra"], extras)
    return form


def infer_tricks(rules: RuleSet, game: str, points: int, extras: Mapping[str, Mapping[str, int]]) -> int:
    """Re's tricks when the table did not say: any count the points and extra points fit,
    with both parties taking a trick (schwarz is said with its own field). Tricks matter
    only for schwarz, so any fitting count scores the same."""
    tricks = rules.tricks
    guess = min(max(default_re_tricks(rules, points), 1), tricks - 1)
    order = sorted(range(1, tricks), key=lambda k: abs(k - guess))
    first_error: RulesError | None = None
    for count in order:
        try:
            check_summary(rules, game, points, count, extras)
            return count
        except RulesError as error:
            first_error = first_error or error
    assert first_error is not None
    if first_error.code == "points_do_not_fit_tricks":
        raise RulesError("points_need_schwarz", "re_points")
    raise first_error


def signed(number: int) -> str:
    """A sheet entry: +2, −2 (a real minus sign) or 0."""
    return f"+{number}" if number > 0 else f"\u2212{-number}" if number < 0 else "0"


def number(value: int) -> str:
    """A total: −8 with a real minus sign."""
    return f"\u2212{-value}" if value < 0 else str(value)


def winner_text(result: Score, game: str) -> str:
    """Who won, in the words of the game kind."""
    if result.winner is None:
        return _("Nobody wins: neither party made its announcement.")
    if is_solo(game):
        return _("The soloist wins.") if result.winner == "re" else _("The opponents win.")
    return _("Re wins.") if result.winner == "re" else _("Kontra wins.")
