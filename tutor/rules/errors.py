"""The one error the engine raises for input it cannot accept.

Messages are for the web layer to translate: each error carries a stable ``code``, the
``field`` at fault (a dotted path like ``tricks.3.2``) and ``params`` to fill the message.
"""
from __future__ import annotations

from typing import Any


class RulesError(ValueError):
    """Input that breaks the rules or the contract: a card that does not exist, a count
    that cannot happen, a card played against the rules."""

    def __init__(self, code: str, field: str | None = None, **params: Any) -> None:
        super().__init__(f"{code} at {field}: {params}" if params else f"{code} at {field}")
        self.code = code
        self.field = field
        self.params = params
