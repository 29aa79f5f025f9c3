"""What a table actor needs of a game: the round it drives and the driver that makes rounds and shoes.

A :class:`GameRound` wraps one engine round (blackjack :class:`~croupier.blackjack.state.Round`, or
a baccarat coup of :class:`~croupier.baccarat.state.BaccaratTable`) behind the few verbs a table
needs: verify and place a bet, close betting, what is pending and for whom, the money a decision
takes before it is made, make it, the answer a timer gives, and the events each viewer may see.

Events never hold a card before it is face up to the viewer they go to. An event with the key
``"to"`` is private: it names the players who may see it (a Macau box's face-down cards go to that
box's bettors, Art. 3.1a; a squeezed card to its holder, Art. 16); every other event is public.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Protocol

from croupier.cards import Card
from croupier.errors import CroupierError, MoneyError
from croupier.money import parse_amount
from croupier.shoe import Shoe

NOBODY: frozenset[str] = frozenset()


class ActionError(CroupierError):
    """A request the round refuses: the message names the rule."""


@dataclass(frozen=True)
class Pending:
    """What the round waits for: ``bets``, ``insurance``, ``decision`` (``player``, ``box``, ``hand``),
    ``squeeze`` (the holders turning their cards, Art. 16), ``card`` (a live dealer's next card),
    ``void`` (a shoe that ran dry) or ``over``."""

    kind: str
    player: str | None = None
    box: int | None = None
    hand: int | None = None
    purpose: str | None = None

    def document(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if v is not None}


class GameRound(Protocol):
    def progress(self) -> int: ...
    def set_seated(self, seated: dict[int, str]) -> None: ...
    def verify_bet(self, player: str, spot: str, amount: Decimal) -> None: ...
    def bet(self, player: str, spot: str, amount: Decimal) -> None: ...
    def close_betting(self) -> None: ...
    def pending(self) -> Pending: ...
    def stakes_for(
        self, player: str, action: dict[str, Any], declined_by: frozenset[str] = NOBODY
    ) -> dict[str, Decimal]: ...
    def act(self, player: str, action: dict[str, Any], declined_by: frozenset[str] = NOBODY) -> None: ...
    def timeout(self) -> None: ...
    def supply_card(self, card: Card) -> None: ...
    def void(self, reason: str) -> None: ...
    def staked(self) -> dict[str, Decimal]: ...
    def carried_out(self) -> dict[str, Decimal]: ...
    def net(self) -> dict[str, Decimal]: ...
    def events_since(self, start: int) -> tuple[int, list[dict[str, Any]]]: ...
    def view(self, viewer: str | None = None) -> dict[str, Any]: ...
    def legal_for(self, player: str) -> list[dict[str, Any]]: ...
    def cards_drawn(self) -> list[str]: ...
    def spec(self) -> dict[str, Any]: ...
    def result(self) -> dict[str, Any]: ...
    @property
    def has_bets(self) -> bool: ...
    @property
    def finished(self) -> bool: ...
    @property
    def voided(self) -> bool: ...
    @property
    def last_of_shoe(self) -> bool: ...


class GameDriver(Protocol):
    """What a table actor needs of a game besides its rounds: shoes, and the next round."""

    decks: int

    def load(self, shoe: Shoe) -> None: ...
    def needs_shoe(self) -> bool: ...
    def next_round(self) -> GameRound: ...
    def build(self, seed: bytes, client_seed: str, nonce: int) -> Shoe: ...


def amount_or_none(raw: object, what: str) -> Decimal | None:
    """A request's optional amount, read exactly."""
    if raw is None:
        return None
    if isinstance(raw, bool) or not isinstance(raw, int | str):
        raise ActionError(f"{what}: {raw!r} is not an amount")
    try:  # strictly, before any arithmetic: ASCII digits, a bounded length and exponent (croupier.numbers)
        return parse_amount(raw, what=what)
    except MoneyError:
        raise ActionError(f"{what}: {raw!r} is not an amount") from None
