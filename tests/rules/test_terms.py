"""The game's words as types: the ids each part of the app uses are the engine's."""
from tutor.rules import terms
from tutor.rules.announcements import LIMITS, PARTIES
from tutor.rules.games import GAMES
from tutor.rules.rulesets import RULESETS, RuleSet
from tutor.rules.scoring import EXTRAS, LINE_IDS, score


def test_the_engines_tuples_are_the_types_ids():
    assert GAMES == terms.GAME_IDS and PARTIES == terms.PARTY_IDS and LIMITS == terms.LIMIT_IDS
    assert RULESETS == terms.RULESET_NAMES and EXTRAS == terms.EXTRA_IDS and LINE_IDS == terms.LINE_ID_LIST
    assert terms.ANNOUNCEMENT_IDS == (*terms.PARTY_IDS, *terms.LIMIT_IDS)


def test_every_line_scored_has_an_id_of_the_type():
    result = score(RuleSet.named("pagat"), "normal", 0, 0, "no_90", "schwarz", {"kontra": {"fox": 2}})
    assert result.lines and all(line.id in terms.LINE_ID_LIST for line in result.lines)
    assert result.winner in terms.PARTY_IDS


def test_narrow_refuses_what_is_not_an_id():
    assert terms.narrow("solo_aces", terms.GAME_IDS) == "solo_aces"
    try:
        terms.narrow("solo_kings", terms.GAME_IDS)
    except ValueError:
        return
    raise AssertionError("solo_kings is no game")
