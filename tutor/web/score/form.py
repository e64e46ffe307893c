"""The deal summary form, shared by the calculator and the score sheet: read the fields,
ask the engine whether the deal could happen, and say what is wrong next to the field.

The form only turns text into the engine's values; which summaries are possible, who wins
and what it scores are the engine's answers.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal, TypeVar

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext

from tutor.parse import NumberError, whole_number
from tutor.rules.announcements import PARTIES, announcement_choices
from tutor.rules.cards import DECK_POINTS
from tutor.rules.errors import RulesError
from tutor.rules.games import GAMES, check_game, is_solo
from tutor.rules.rulesets import RuleSet
from tutor.rules.scoring import (
    DealSummary,
    Score,
    check_summary,
    counted_extras,
    extra_max,
    fitting_re_tricks,
    schwarz_party,
    schwarz_summary,
)
from tutor.rules.terms import AnnouncementId, Party
from tutor.web.words import signed
from tutor.web.words.errors import MESSAGES as API_MESSAGES
from tutor.web.words.errors import error_message

Choice = TypeVar("Choice", bound=str)

# Short names of the extra points for the form (the scoring lines say more).
EXTRA_LABELS: Final = {
    "fox": _l("Fox caught"),
    "doppelkopf": _l("Doppelkopf"),
    "karlchen": _l("Karlchen"),
    "karlchen_caught": _l("Karlchen caught"),
}
# Who took every trick: nobody, Re or Kontra.
SCHWARZ_CHOICES: Final[tuple[Literal[""] | Party, ...]] = ("", "re", "kontra")
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
    # The sheet's checks on a quick deal's row (tutor.rules.sheet.check_row).
    "row_mixed_parity": _l("The four entries are not all even or all odd, so this row cannot be right."),
    "solo_not_triple": _l("The soloist’s entry is not three times each opponent’s, so this row cannot be right."),
    "quick_with_summary": _l("A quick deal has no card points, announcements or extra points."),
}


def message(error: RulesError) -> str:
    """A translated sentence for an engine error, from the API's table or the form's own."""
    if error.code == "row_not_zero_sum":
        total = int(error.params.get("total", 0))  # never 0 here
        return str(ngettext(
            "The entries of this row sum to %(total)s, not zero: tick exactly %(num)d Re player.",
            "The entries of this row sum to %(total)s, not zero: tick exactly %(num)d Re players.",
            int(error.params.get("expected", 0)), total=signed(total),
        ))
    if error.code in MESSAGES:
        return str(MESSAGES[error.code]) % dict(error.params)
    return error_message(error.code, error.params)


def message_template(code: str) -> str:
    """The translated sentence of a code with its %(name)s places still open, as message()
    fills them (the offline calculator fills them on the phone)."""
    return str(MESSAGES[code]) if code in MESSAGES else str(API_MESSAGES.get(code, API_MESSAGES["bad_type"]))


def field_name(engine_field: str | None) -> str:
    """The form field for an engine error's field: ``extras.re.fox`` is ``re_fox``."""
    name = engine_field or "form"
    if name.startswith("extras."):
        _, party, extra = (name.split(".") + ["", ""])[:3]
        return f"{party}_{extra}"
    if name.startswith("announcements."):
        return name.split(".", 1)[1] + "_announced"
    return name


def summary_fields(summary: DealSummary, rules: RuleSet) -> dict[str, str]:
    """The form fields that give this summary back (for links and the edit form)."""
    fields = {"game": summary.game, "re_points": str(summary.re_points)}
    schwarz = schwarz_party(rules, summary.re_tricks)
    if schwarz:
        fields["schwarz"] = schwarz
    # Tricks the form would work out itself from the points are left out: a learner who never
    # typed them sees the field empty again, and a correction of the points is not held back
    # by a trick count nobody entered.
    if not schwarz:
        try:
            guessed: int | None = fitting_re_tricks(rules, summary.game, summary.re_points, summary.extras)
        except RulesError:
            guessed = None
        if summary.re_tricks != guessed:
            fields["re_tricks"] = str(summary.re_tricks)
    for party, said in (("re", summary.re_announced), ("kontra", summary.kontra_announced)):
        if said:
            fields[f"{party}_announced"] = said
    for party in PARTIES:
        for extra, count in summary.extras.get(party, {}).items():
            if count:
                fields[f"{party}_{extra}"] = str(count)
    return fields


@dataclass
class Form:
    """The form as typed (to show it again) and what is wrong with it, by field."""

    values: dict[str, str]
    errors: dict[str, str] = field(default_factory=dict)
    summary: DealSummary | None = None

    def error(self, name: str, text: str) -> None:
        self.errors.setdefault(name, text)


def _text(data: Mapping[str, Any], name: str) -> str:
    value = data.get(name, "")
    return value.strip()[:200] if isinstance(value, str) else ""


def _number(form: Form, name: str, low: int, high: int, required: bool = False) -> int | None:
    text = form.values.get(name, "")
    if text == "":
        if required:
            form.error(name, str(MESSAGES["required"]))
        return None
    try:
        if len(text) > MAX_TEXT:
            raise NumberError(name, text, "too_long")
        return whole_number(text, name, low=low, high=high)
    except NumberError as error:
        if error.reason in ("too_small", "too_large"):
            form.error(name, error_message("out_of_range", {"low": low, "high": high}))
        else:
            form.error(name, str(MESSAGES["not_a_number"]))
        return None


def _choice(form: Form, name: str, choices: tuple[Choice, ...]) -> Choice | None:
    """The choice the field names (the engine's own id, so typed as the engine types it)."""
    text = form.values.get(name, "")
    chosen = next((choice for choice in choices if choice == text), None)
    if chosen is None:
        form.error(name, str(MESSAGES["unknown_choice"]))
    return chosen


def field_names(rules: RuleSet) -> list[str]:
    names = ["game", "re_points", "schwarz", "re_tricks", "re_announced", "kontra_announced"]
    return names + [f"{p}_{e}" for p in PARTIES for e in counted_extras(rules)]


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
    said: dict[Party, AnnouncementId | None] = {}
    for party in PARTIES:
        no_announcement: tuple[Literal[""] | AnnouncementId, ...] = ("",)
        chosen = _choice(form, f"{party}_announced", no_announcement + announcement_choices(party))
        said[party] = chosen or None
    extras: dict[str, dict[str, int]] = {}
    for party in PARTIES:
        for extra in counted_extras(rules):
            count = _number(form, f"{party}_{extra}", 0, extra_max(extra, rules))
            if count:
                extras.setdefault(party, {})[extra] = count
    if schwarz:
        schwarz_points, schwarz_tricks = schwarz_summary(rules, schwarz)
        if tricks is not None and tricks != schwarz_tricks:
            form.error("re_tricks", str(MESSAGES["schwarz_tricks"]))
        points, tricks = schwarz_points, schwarz_tricks
        values["re_points"] = str(points)
    if form.errors or game is None or points is None:
        return form
    try:
        tricks = tricks if tricks is not None else fitting_re_tricks(rules, game, points, extras)
        check_summary(rules, game, points, tricks, extras)
    except RulesError as error:
        form.error(field_name(error.field), message(error))
        return form
    form.summary = DealSummary(game, points, tricks, said["re"], said["kontra"], extras)
    return form


def winner_text(result: Score, game: str) -> str:
    """Who won, in the words of the game kind."""
    if result.winner is None:
        return _("Nobody wins: neither party made its announcement.")
    if is_solo(game):
        return _("The soloist wins.") if result.winner == "re" else _("The opponents win.")
    return _("Re wins.") if result.winner == "re" else _("Kontra wins.")
