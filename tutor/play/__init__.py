"""Play a deal with the tutor: the human at seat 0, computer players at seats 1-3.

Pure Python next to the engine, no web: a page parses the URL (``parse_seed``,
``parse_level``, the moves string), calls ``position()`` and renders what it returns;
``Position.then(move)`` gives the moves string of the next link or form.
"""

from tutor.play.deal import (
    HUMAN,
    LEVELS,
    SEED_MAX,
    AnnouncementMade,
    AnnounceOption,
    PlayedCard,
    Position,
    PovertyView,
    Result,
    Reveal,
    TrickView,
    Turn,
    new_seed,
    parse_level,
    parse_seed,
    play_bots,
    position,
    sort_hand,
)
from tutor.play.moves import Move, decode_moves, encode_moves

__all__ = [
    "HUMAN",
    "LEVELS",
    "SEED_MAX",
    "AnnouncementMade",
    "AnnounceOption",
    "Move",
    "PlayedCard",
    "Position",
    "PovertyView",
    "Result",
    "Reveal",
    "TrickView",
    "Turn",
    "decode_moves",
    "encode_moves",
    "new_seed",
    "parse_level",
    "parse_seed",
    "play_bots",
    "position",
    "sort_hand",
]
