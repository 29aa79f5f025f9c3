"""Transcripts (docs/transcript.md): read a document, replay it through the game's engine.

:func:`load` reads JSON with every number as an exact ``int`` or :class:`~decimal.Decimal`;
:func:`replay` dispatches on ``game`` and returns the result document of ``croupier replay --json``
(amounts as exact decimal strings). Errors are :class:`~croupier.errors.TranscriptError` whose
message names the round, the action and the rule.
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

from croupier.errors import TranscriptError

GAMES = ("blackjack", "baccarat")


def load(text: str) -> dict[str, Any]:
    """Parse a transcript's JSON text, numbers exact, or raise :class:`TranscriptError`."""
    try:
        doc = json.loads(text, parse_float=Decimal, parse_constant=_reject_constant)
    except json.JSONDecodeError as error:
        raise TranscriptError(
            f"transcript: not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}"
        ) from None
    except ValueError as error:
        raise TranscriptError(f"transcript: {error}") from None
    except RecursionError:
        raise TranscriptError("transcript: the JSON is nested too deeply to be a transcript") from None
    if not isinstance(doc, dict):
        raise TranscriptError("transcript: the document must be a JSON object with game, rules, shoe and rounds")
    return doc


def _reject_constant(name: str) -> object:
    raise ValueError(f"{name} is not a number a transcript may hold")


def replay(doc: dict[str, Any]) -> dict[str, Any]:
    """Replay a parsed transcript; return the result document."""
    game = doc.get("game")
    if game == "blackjack":
        from croupier.blackjack.replay import replay_blackjack

        return replay_blackjack(doc)
    if game == "baccarat":
        from croupier.baccarat.replay import replay_baccarat

        return replay_baccarat(doc)
    raise TranscriptError(f"transcript: unknown game {game!r}; the games are: {', '.join(GAMES)}")


def render(doc: dict[str, Any], result: dict[str, Any]) -> str:
    """The readable account of a replay, for people."""
    if doc.get("game") == "baccarat":
        from croupier.baccarat.replay import render_baccarat

        return render_baccarat(result)
    from croupier.blackjack.replay import render_blackjack

    return render_blackjack(result)
