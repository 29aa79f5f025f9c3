"""The typed actions a player takes at a blackjack round.

Each action is a frozen value. :meth:`Round.verify(action) <croupier.blackjack.state.Round.verify>`
raises :class:`~croupier.errors.IllegalActionError` naming the rule, changing nothing;
:meth:`Round.apply(action) <croupier.blackjack.state.Round.apply>` performs it and returns its record.
:meth:`Round.legal_actions` lists what is open now; :meth:`LegalAction.action
<croupier.blackjack.actions.LegalAction.action>` turns one of its entries into an action.

Text from the wire or a transcript becomes an action in one place, :func:`parse`.

>>> parse("double", box=1, amount="5")
Double(box=1, hand=None, player=None, amount='5', declined_by=())
>>> parse("stand", box=2, hand=1).kind
'stand'
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from decimal import Decimal
from typing import ClassVar, cast

from croupier.errors import IllegalActionError, not_an_action

Amount = Decimal | int | str | None
"""An amount as given: the engine reads it exactly (:func:`croupier.money.parse_amount`) and refuses
a float or a malformed text with the rule's message; ``None`` where the rule gives the default."""


@dataclass(frozen=True, slots=True)
class Hit:
    """Take a card (``hand`` None: the hand to act; ``player`` None: the box's decider)."""

    kind: ClassVar[str] = "hit"
    box: int
    hand: int | None = None
    player: str | None = None


@dataclass(frozen=True, slots=True)
class Stand:
    """Take no more cards."""

    kind: ClassVar[str] = "stand"
    box: int
    hand: int | None = None
    player: str | None = None


@dataclass(frozen=True, slots=True)
class Double:
    """Add up to the bet (``amount`` None: the full bet) and take one card (Art. 11; online §2.6);
    ``declined_by``: the box's other bettors who add no matching stake (Art. 13)."""

    kind: ClassVar[str] = "double"
    box: int
    hand: int | None = None
    player: str | None = None
    amount: Amount = None
    declined_by: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Split:
    """Split a pair into two hands, a matching stake on the new one (Art. 10); ``declined_by`` as for
    :class:`Double` (Art. 13)."""

    kind: ClassVar[str] = "split"
    box: int
    hand: int | None = None
    player: str | None = None
    declined_by: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Surrender:
    """Give up half the bet (Art. 12)."""

    kind: ClassVar[str] = "surrender"
    box: int
    hand: int | None = None
    player: str | None = None


@dataclass(frozen=True, slots=True)
class Insure:
    """``player`` insures their bet on ``box`` for ``amount`` (Art. 8; online §2.5)."""

    kind: ClassVar[str] = "insurance"
    player: str
    box: int
    amount: Amount


@dataclass(frozen=True, slots=True)
class TakeEvenMoney:
    """``player`` takes 1:1 at once on a natural against an ace (Art. 6)."""

    kind: ClassVar[str] = "even_money"
    player: str
    box: int


@dataclass(frozen=True, slots=True)
class CloseInsurance:
    """No more insurance or even money (the offer's timer, or everyone has answered)."""

    kind: ClassVar[str] = "close_insurance"


Play = Hit | Stand | Double | Split | Surrender
"""A play decision on the hand to act."""

Action = Play | Insure | TakeEvenMoney | CloseInsurance
"""Everything a player (or the insurance timer) does at a round."""

TYPES: tuple[type[Action], ...] = (Hit, Stand, Double, Split, Surrender, Insure, TakeEvenMoney, CloseInsurance)
"""The action types, in the order of :data:`KINDS`."""

PLAYS: tuple[type[Play], ...] = (Hit, Stand, Double, Split, Surrender)
"""The play decisions' types."""

KINDS: tuple[str, ...] = tuple(cls.kind for cls in TYPES)
"""The action kinds, as the wire and transcripts name them: ``hit``, ``stand``, ``double``, ``split``,
``surrender``, ``insurance``, ``even_money``, ``close_insurance``."""


def require(action: object) -> Action:
    """``action`` itself when it is a blackjack action; anything else (a text, another game's action) is
    refused naming what was held."""
    if not isinstance(action, TYPES):
        raise not_an_action("blackjack", action, TYPES)
    for name, wanted, optional in _FIELDS:
        if hasattr(action, name):
            value = getattr(action, name)
            if (value is None and optional) or (isinstance(value, wanted) and not isinstance(value, bool)):
                continue
            what = wanted.__name__ + (" or None" if optional else "")
            raise IllegalActionError(f"{action!r}: {name} is {what}, not {value!r} ({type(value).__name__})")
    return action


_FIELDS: tuple[tuple[str, type, bool], ...] = (("box", int, False), ("hand", int, True))
"""The fields an action names a place by, their type and whether None stands for "the one to act"; the
player's name is checked where it is compared (a text), an amount where it is read (moves.Amount)."""


def names(declined_by: Collection[str]) -> tuple[str, ...]:
    """``declined_by`` as a tuple, in the order given; a lone string stays as it is, for the engine to
    refuse naming Art. 13 (it is a list of names, not one)."""
    if isinstance(declined_by, str):
        return cast(tuple[str, ...], declined_by)
    return tuple(declined_by)


def play(kind: str, box: int, hand: int | None = None, player: str | None = None) -> Play:
    """The play decision ``kind`` with no amount and nobody declining (the full double)."""
    if kind not in KINDS[:5]:
        raise IllegalActionError(f"{kind} is not a play decision; they are {', '.join(KINDS[:5])}")
    action = parse(kind, box=box, hand=hand, player=player)
    assert isinstance(action, Play)
    return action


def parse(
    kind: object,
    *,
    box: int = 0,
    hand: int | None = None,
    player: str | None = None,
    amount: Amount = None,
    declined_by: Collection[str] = (),
) -> Action:
    """The action named ``kind`` with its fields: the one place text becomes an action.

    ``amount`` belongs to a double or insurance, ``declined_by`` to a double or a split; a field the
    kind does not take is ignored. Insurance and even money need the ``player``.
    """
    cls = type_of(kind)
    declined = names(declined_by)
    if cls is Hit:
        return Hit(box, hand, player)
    if cls is Stand:
        return Stand(box, hand, player)
    if cls is Double:
        return Double(box, hand, player, amount, declined)
    if cls is Split:
        return Split(box, hand, player, declined)
    if cls is Surrender:
        return Surrender(box, hand, player)
    if cls is CloseInsurance:
        return CloseInsurance()
    if player is None:
        raise IllegalActionError(f"{kind} on box {box}: name the player")
    return Insure(player, box, amount) if cls is Insure else TakeEvenMoney(player, box)


_BY_KIND: dict[str, type[Action]] = {cls.kind: cls for cls in TYPES}


def type_of(kind: object) -> type[Action]:
    """The action type named ``kind`` (one of :data:`KINDS`); an unknown kind is refused by name."""
    cls = _BY_KIND.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise IllegalActionError(f"unknown action {kind!r}; the actions are {', '.join(KINDS)}")
    return cls
