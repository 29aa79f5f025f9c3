"""The errors croupier raises.

Every error a user can cause is a :class:`CroupierError` (a :class:`ValueError`), with a message
that names the rule, its article where the seed gives one, and what was held. The CLI prints that
message on one line and exits with status 2; nothing else escapes as a traceback.
"""

from __future__ import annotations


class CroupierError(ValueError):
    """Base of every error a user of croupier can cause."""


class CardError(CroupierError):
    """A card's text form is not a rank followed by a suit, or a shoe holds too many copies."""


class RulesError(CroupierError):
    """An unknown preset or rule parameter, or a value outside the parameter's allowed values."""


class ShoeError(CroupierError):
    """The shoe cannot supply what is asked: no card left, or a card it cannot hold."""


class BetError(CroupierError):
    """A bet the rules or the table limits refuse."""


class IllegalActionError(CroupierError):
    """An operation that is not legal in the current state of the round."""


class MoneyError(CroupierError):
    """An amount that is not an exact decimal, or not positive where it must be."""


class TranscriptError(CroupierError):
    """A transcript that cannot be read or replayed; the message names round, action and rule."""


def not_an_action(game: str, action: object, types: tuple[type, ...]) -> IllegalActionError:
    """The refusal of ``action`` by a ``game`` engine whose actions are ``types``: what was held, and the
    actions there are (each engine's ``moves.require``)."""
    names = ", ".join(cls.__name__ for cls in types)
    return IllegalActionError(
        f"not a {game} action: {action!r} ({type(action).__name__}); the actions are {names} "
        f"(croupier.{game}.moves; text becomes one through moves.parse)"
    )
