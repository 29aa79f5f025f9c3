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

from collections.abc import Mapping
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


class UnreadableRequest(ActionError):
    """A request the round cannot read (a field missing or of the wrong kind): answered 422, not 409."""


@dataclass(frozen=True)
class Misdeal:
    """A misdeal the round voided (:meth:`GameRound.misdeal`): what the table records of it."""

    dealt: int
    """The cards of the deal voided (the round's record: ``misdeal_after_cards``)."""
    voided: tuple[str, ...]
    """The voided cards the round's record keeps ahead of its own (a redeal draws anew; a coup voided in
    place keeps its cards among its own)."""
    burn: int
    """The cards burned before the deal is dealt again."""
    redeals: bool
    """Whether the deal is dealt again as a fresh round (:meth:`GameRound.redeal`)."""


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
    """One round as a table actor drives it (see the module docstring). Besides the play, each game answers
    the dealer's reports and errors at a live table in its own way (liveshoe.py asks, never which game):
    ``report_cut_card`` (where a transcript puts it), ``void_face_up_card`` and ``void_card`` (refused by
    a game that keeps the card), ``move_misdealt`` (the card back where the request's fields say),
    ``misdeal`` with ``redeal`` and ``misdeal_spec`` (the deal voided, dealt again, and recorded);
    ``house_edge`` is the live edge surveillance watches (empty where the game shows none),
    ``face_up_voided`` the cards its record lists as void, and ``others_match`` whether a decision asks
    the box's other bettors to match it (Art. 13)."""

    def progress(self) -> int: ...
    def set_seated(self, seated: dict[int, str]) -> None: ...
    def trial(self) -> GameRound: ...
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
    def legal_by_player(self, players: list[str]) -> dict[str, list[dict[str, Any]]]: ...
    def cards_drawn(self) -> list[str]: ...
    def spec(self) -> dict[str, Any]: ...
    def result(self) -> dict[str, Any]: ...
    def house_edge(self) -> dict[str, str]: ...
    def face_up_voided(self) -> list[str]: ...
    def report_cut_card(self) -> int: ...
    def void_face_up_card(self, card: Card) -> None: ...
    def void_card(self, card: Card, reason: str) -> None: ...
    def move_misdealt(self, card: Card, payload: Mapping[str, Any]) -> dict[str, Any]: ...
    def misdeal(self, *, in_play: bool, earlier: int) -> Misdeal: ...
    def redeal(self) -> GameRound: ...
    def misdeal_spec(self, misdeals: list[int], burn: int) -> dict[str, Any]: ...
    def others_match(self, player: str, action: dict[str, Any]) -> bool: ...
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
    def lobby(self, round_view: Mapping[str, Any]) -> dict[str, Any]: ...


def cut_card_position(shoe: Shoe, drew: bool) -> int:
    """Where a transcript puts a cut card the dealer reported, so that its replay counts the same round
    as the last: on the round's last card drawn, or on the next card when the round has drawn none."""
    return shoe.position - 1 if drew and shoe.position else shoe.position


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
