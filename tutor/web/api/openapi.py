"""The OpenAPI 3.1 document of the JSON API v1, served at /api/v1/openapi.json."""
from __future__ import annotations

from typing import Any, Final

from tutor.analysis.verdicts import VERDICTS
from tutor.rules.cards import DECK_POINTS
from tutor.rules.games import GAMES
from tutor.rules.rulesets import OPTION_CHOICES, RULESETS
from tutor.rules.scoring import EXTRAS, LINE_IDS
from tutor.rules.terms import ANNOUNCEMENT_IDS

CARD: Final = {"type": "string", "pattern": "^(A|10|K|Q|J|9)[CSHD]$", "examples": ["QC", "10H"]}
PARTY: Final = {"type": "string", "enum": ["re", "kontra"]}
ANNOUNCEMENT: Final = {
    "type": ["string", "null"],
    "enum": ["re", "kontra", "no_90", "no_60", "no_30", "schwarz", None],
    "description": "The highest announcement made by a party; the lower levels are implied.",
}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _cards(low: int, high: int) -> dict[str, Any]:
    return {"type": "array", "items": CARD, "minItems": low, "maxItems": high}


def _operation(summary: str, request: str, response: str, example: dict[str, Any]) -> dict[str, Any]:
    json_body = {"schema": _ref(request), "example": example}
    return {
        "post": {
            "summary": summary,
            "requestBody": {"required": True, "content": {"application/json": json_body}},
            "responses": {
                "200": {"description": "OK", "content": {"application/json": {"schema": _ref(response)}}},
                "400": {"description": "Bad input", "content": {"application/json": {"schema": _ref("Error")}}},
            },
        }
    }


def _busy(operation: dict[str, Any]) -> dict[str, Any]:
    """An operation that may answer 503 while the analysis has all the work it takes."""
    operation["post"]["responses"]["503"] = {
        "description": "The analysis is busy: try again in a moment (Retry-After).",
        "headers": {"Retry-After": {"schema": {"type": "string"}}},
        "content": {"application/json": {"schema": _ref("Error")}},
    }
    return operation


_OPTIONS: Final[dict[str, dict[str, Any]]] = {
    name: {"type": "boolean"} if name in ("schweinchen", "poverty") else {"enum": list(choices)}
    for name, choices in OPTION_CHOICES.items()
}
_EXTRA_COUNTS: Final = {
    "type": "object",
    "additionalProperties": False,
    "properties": {name: {"type": "integer", "minimum": 0, "maximum": 12} for name in EXTRAS},
}

SCHEMAS: Final[dict[str, Any]] = {
    "Rules": {
        "description": "A rule-set name or a rule set with house options; ddv when left out.",
        "default": "ddv",
        "oneOf": [
            {"type": "string", "enum": list(RULESETS)},
            {
                "type": "object",
                "additionalProperties": False,
                "properties": {
                    "ruleset": {"type": "string", "enum": list(RULESETS)},
                    "options": {"type": "object", "additionalProperties": False, "properties": _OPTIONS},
                },
            },
        ]
    },
    "Game": {"type": "string", "enum": list(GAMES)},
    "Error": {
        "type": "object",
        "required": ["error"],
        "properties": {
            "error": {
                "type": "object",
                "required": ["code", "message", "field"],
                "properties": {
                    "code": {"type": "string"},
                    "message": {"type": "string", "description": "In the request's Accept-Language."},
                    "field": {"type": ["string", "null"]},
                },
            }
        },
    },
    "TrickRequest": {
        "type": "object",
        "additionalProperties": False,
        "required": ["game", "cards"],
        "properties": {
            "rules": _ref("Rules"),
            "game": _ref("Game"),
            "cards": {**_cards(1, 4), "description": "In play order; the first card is the lead."},
            "last_trick": {"type": "boolean", "default": False},
        },
    },
    "TrickResponse": {
        "type": "object",
        "required": ["winner", "points", "trumps"],
        "properties": {
            "winner": {"type": "integer", "minimum": 0, "maximum": 3},
            "points": {"type": "integer", "minimum": 0},
            "trumps": {"type": "array", "items": {"type": "boolean"}},
        },
    },
    "LegalRequest": {
        "type": "object",
        "additionalProperties": False,
        "required": ["game", "hand"],
        "properties": {
            "rules": _ref("Rules"),
            "game": _ref("Game"),
            "hand": _cards(1, 12),
            "trick": {**_cards(0, 3), "description": "Cards played so far; empty when the player leads."},
        },
    },
    "LegalResponse": {
        "type": "object",
        "required": ["legal"],
        "properties": {"legal": {"type": "array", "items": CARD}},
    },
    "AnnouncementsRequest": {
        "type": "object",
        "additionalProperties": False,
        "required": ["game", "party", "cards_in_hand"],
        "properties": {
            "rules": _ref("Rules"),
            "game": _ref("Game"),
            "party": PARTY,
            "cards_in_hand": {"type": "integer", "minimum": 0, "maximum": 12},
            "own": ANNOUNCEMENT,
            "opponent": ANNOUNCEMENT,
            "wedding_clarified_in_trick": {"type": ["integer", "null"], "minimum": 0, "maximum": 3},
        },
    },
    "AnnouncementsResponse": {
        "type": "object",
        "required": ["allowed"],
        "properties": {"allowed": {"type": "array", "items": {"type": "string"}}},
    },
    "Announcements": {
        "type": "object",
        "additionalProperties": False,
        "properties": {"re": ANNOUNCEMENT, "kontra": ANNOUNCEMENT},
    },
    "ScoreSummaryRequest": {
        "type": "object",
        "additionalProperties": False,
        "required": ["game", "re_points"],
        "properties": {
            "rules": _ref("Rules"),
            "game": _ref("Game"),
            "re_points": {"type": "integer", "minimum": 0, "maximum": DECK_POINTS},
            "re_tricks": {
                "type": "integer", "minimum": 0, "maximum": 12,
                "description": "Tricks Re won. Left out: none with 0 points, all with 240, "
                "otherwise a count that makes neither party schwarz.",
            },
            "announcements": _ref("Announcements"),
            "extras": {
                "type": "object",
                "additionalProperties": False,
                "properties": {"re": _EXTRA_COUNTS, "kontra": _EXTRA_COUNTS},
            },
        },
    },
    "ScoreDealRequest": {
        "type": "object",
        "additionalProperties": False,
        "required": ["game", "parties", "first_leader", "tricks"],
        "properties": {
            "rules": _ref("Rules"),
            "game": _ref("Game"),
            "parties": {"type": "array", "items": PARTY, "minItems": 4, "maxItems": 4},
            "first_leader": {"type": "integer", "minimum": 0, "maximum": 3},
            "tricks": {"type": "array", "items": _cards(4, 4), "minItems": 10, "maxItems": 12},
            "announcements": _ref("Announcements"),
            "schweinchen": {
                "type": ["integer", "null"], "minimum": 0, "maximum": 3,
                "description": "The seat that declared both A♦ as Schweinchen, or null for nobody; taken as given. "
                "Left out, the engine reads the tricks.",
            },
        },
    },
    "ScoreRequest": {"oneOf": [_ref("ScoreSummaryRequest"), _ref("ScoreDealRequest")]},
    "ScoreResponse": {
        "type": "object",
        "required": ["winner", "re_points", "re_tricks", "lines", "value", "scores"],
        "properties": {
            "winner": {"type": ["string", "null"], "enum": ["re", "kontra", None]},
            "re_points": {"type": "integer"},
            "re_tricks": {"type": "integer"},
            "lines": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["id", "party", "points"],
                    "properties": {
                        "id": {"type": "string", "enum": list(LINE_IDS)},
                        "party": PARTY,
                        "points": {"type": "integer"},
                    },
                },
            },
            "value": {"type": "integer", "description": "Re's net: lines of Re minus lines of Kontra."},
            "scores": {
                "type": "object",
                "required": ["re", "kontra"],
                "properties": {"re": {"type": "integer"}, "kontra": {"type": "integer"}},
            },
            "trick_winners": {"type": "array", "items": {"type": "integer"}, "description": "Deal form only."},
        },
    },
    "AnalyseRequest": {
        "type": "object",
        "additionalProperties": False,
        "required": ["game", "seat", "first_leader", "hand", "tricks"],
        "properties": {
            "rules": _ref("Rules"),
            "game": _ref("Game"),
            "seat": {"type": "integer", "minimum": 0, "maximum": 3, "description": "The seat to play next."},
            "first_leader": {"type": "integer", "minimum": 0, "maximum": 3},
            "hand": {**_cards(1, 12), "description": "The seat's cards now."},
            "tricks": {
                "type": "array", "items": _cards(0, 4), "maxItems": 12,
                "description": "Every trick so far in play order, the last one unfinished (possibly empty).",
            },
            "announced": {
                "type": "array",
                "description": "Every announcement so far, in order.",
                "items": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["seat", "id"],
                    "properties": {
                        "seat": {"type": "integer", "minimum": 0, "maximum": 3},
                        "id": {"type": "string", "enum": list(ANNOUNCEMENT_IDS)},
                        "party": {**PARTY, "type": ["string", "null"], "enum": ["re", "kontra", None],
                                  "description": "The party it was made for (a limit is said with it)."},
                        "played": {"type": ["integer", "null"], "minimum": 0, "maximum": 48,
                                   "description": "Cards on the table when it was made; left out: the earliest "
                                   "moment the rules allow."},
                    },
                },
            },
            "reservations": {
                "type": ["object", "null"],
                "additionalProperties": False,
                "description": "What was declared and is public, by seat.",
                "properties": {
                    name: {"type": ["integer", "null"], "minimum": 0, "maximum": 3}
                    for name in ("wedding", "silent_wedding", "solo", "poverty", "returned", "schweinchen",
                                 "trumps_returned")
                },
            },
            "samples": {"type": "integer", "minimum": 10, "maximum": 1000, "default": 100},
            "seed": {"type": "integer", "minimum": 0, "maximum": 2**31 - 1, "default": 0},
        },
    },
    "AnalyseResponse": {
        "type": "object",
        "required": ["seat", "samples", "party_known", "cards", "best"],
        "properties": {
            "seat": {"type": "integer"},
            "samples": {"type": "integer"},
            "party_known": {"type": ["string", "null"], "enum": ["re", "kontra", None]},
            "silent": {
                "type": ["string", "null"],
                "enum": ["single_candidate", "decided", "unmodelled", "unreliable", None],
                "description": "Why no card is judged here, or null.",
            },
            "best": {"type": "array", "items": CARD},
            "cards": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["card", "value", "error", "card_points", "loss", "verdict"],
                    "properties": {
                        "card": CARD,
                        "same_as": {"type": "array", "items": CARD},
                        "value": {"type": "number"},
                        "error": {"type": "number"},
                        "card_points": {"type": "number"},
                        "loss": {"type": "number"},
                        "verdict": {"type": "string", "enum": list(VERDICTS)},
                        "reason": {
                            "type": "object",
                            "required": ["code", "message"],
                            "properties": {"code": {"type": "string"}, "message": {"type": "string"}},
                        },
                    },
                },
            },
        },
    },
}

OPENAPI: Final[dict[str, Any]] = {
    "openapi": "3.1.0",
    "info": {
        "title": "Doko Tutor rules engine",
        "version": "1.0.0",
        "description": "Doppelkopf under the DDV tournament rules or pagat's rules: trick winners, "
        "legal cards, announcements, scoring, and each card of a decision judged by simulation. Every bad input is a "
        "400 with an error object.",
    },
    "paths": {
        "/api/v1/trick": _operation(
            "Who wins this trick", "TrickRequest", "TrickResponse",
            {"rules": "ddv", "game": "normal", "cards": ["9D", "QC", "10H", "AD"], "last_trick": False},
        ),
        "/api/v1/legal": _operation(
            "Which cards may be played", "LegalRequest", "LegalResponse",
            {"rules": "ddv", "game": "normal", "hand": ["AS", "9S", "QS", "KH"], "trick": ["10S"]},
        ),
        "/api/v1/announcements": _operation(
            "What may this player announce now", "AnnouncementsRequest", "AnnouncementsResponse",
            {"rules": "ddv", "game": "normal", "party": "kontra", "cards_in_hand": 10, "own": None,
             "opponent": "re", "wedding_clarified_in_trick": None},
        ),
        "/api/v1/score": _operation(
            "Score this deal", "ScoreRequest", "ScoreResponse",
            {"rules": "ddv", "game": "normal", "re_points": 156, "re_tricks": 8,
             "announcements": {"re": None, "kontra": None},
             "extras": {"re": {"fox": 1}, "kontra": {"doppelkopf": 1}}},
        ),
        "/api/v1/analyse": _busy(_operation(
            "How good is each card here", "AnalyseRequest", "AnalyseResponse",
            {"rules": "ddv", "game": "normal", "seat": 1, "first_leader": 0,
             "hand": ["AC", "QC", "9C", "9C", "QS", "9S", "AH", "10H", "10H", "QH", "JD"],
             "tricks": [["9S", "KS", "AS", "10S"], ["9D", "JH", "QS"]],
             "announced": [], "reservations": None, "samples": 100, "seed": 7},
        )),
        "/api/v1/openapi.json": {
            "get": {
                "summary": "This document",
                "responses": {"200": {"description": "The OpenAPI 3.1 document", "content": {"application/json": {}}}},
            }
        },
    },
    "components": {"schemas": SCHEMAS},
}
