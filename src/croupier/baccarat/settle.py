"""Settlement of a baccarat coup: what each spot pays (Art. 12, 13, 17, 18; 2018 amendment).

A coup's cards decide every bet at once; :func:`settle_bet` gives one stake's outcome and its gain
(+ won, 0 returned, − the stake lost), exactly, through :class:`~croupier.money.Ratio`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

from croupier.baccarat import tableau
from croupier.baccarat.rules import (
    BANKER_COMMISSION,
    LUCKY_6_THREE_CARDS,
    LUCKY_6_TWO_CARDS,
    SUPER_6_PAYS,
    Rules,
    Spot,
)
from croupier.baccarat.tableau import Winner
from croupier.cards import Card
from croupier.money import ZERO

Outcome = Literal["win", "lose", "push", "stand"]
"""``push``: returned on a tie (Art. 12). ``stand``: a player or banker bet on a tie under
``tie_bets = increase_only`` (Art. 18): neither won nor lost nor handed back; it stays on its spot
for the next coup (:class:`~croupier.baccarat.records.BetCarried`)."""


@dataclass(frozen=True, slots=True)
class CoupCards:
    """The two sides' cards of a complete coup, and what they show."""

    player: tuple[Card, ...]
    banker: tuple[Card, ...]

    @property
    def player_total(self) -> int:
        return tableau.total(self.player)

    @property
    def banker_total(self) -> int:
        return tableau.total(self.banker)

    @property
    def winner(self) -> Winner:
        """Art. 11-12."""
        return tableau.winner(self.player_total, self.banker_total)

    @property
    def natural(self) -> bool:
        """Art. 9: either side holds a two-card 8 or 9."""
        return tableau.is_natural(self.player) or tableau.is_natural(self.banker)

    @property
    def player_pair(self) -> bool:
        """Art. 13(4): the player's first two cards have one rank."""
        return tableau.is_pair(self.player)

    @property
    def banker_pair(self) -> bool:
        """Art. 13(4): the banker's first two cards have one rank."""
        return tableau.is_pair(self.banker)


@dataclass(frozen=True, slots=True)
class BetSettlement:
    """One player's whole stake on one spot, and what it came to."""

    player: str
    spot: Spot
    stake: Decimal
    outcome: Outcome
    gain: Decimal
    """The player's gain on this stake: the amount won, 0 when returned or standing, minus the stake when lost."""

    @property
    def returned(self) -> Decimal:
        """What goes back to the player now: stake and winnings, the stake on a push, nothing on a loss, and
        nothing on a stake that stands for the next coup (it stays on the table: :attr:`carried`)."""
        return ZERO if self.outcome == "stand" else self.stake + self.gain

    @property
    def carried(self) -> Decimal:
        """The stake that stays on its spot for the next coup (Art. 18, ``increase_only``), else 0."""
        return self.stake if self.outcome == "stand" else ZERO


def settle_bet(rules: Rules, spot: Spot, stake: Decimal, cards: CoupCards) -> tuple[Outcome, Decimal]:
    """The outcome and gain of ``stake`` on ``spot`` for a complete coup."""
    winner = cards.winner
    if spot in ("player", "banker"):
        if winner == "tie":
            return "push", ZERO  # Art. 12: player and banker bets are returned or stand
        if winner != spot:
            return "lose", -stake
        if spot == "player":
            return "win", stake  # Art. 17.1: 1:1
        if rules.commission == "5pct":
            return "win", BANKER_COMMISSION.of(stake)  # Art. 18: 5% commission
        if cards.banker_total == 6:
            return "win", SUPER_6_PAYS.of(stake)  # none_super6 (docs/rules.md §4, Art. 17, 18): a banker 6 pays 1:2
        return "win", stake
    if spot == "tie":
        return ("win", rules.tie_pays.of(stake)) if winner == "tie" else ("lose", -stake)  # Art. 17.2
    if spot == "player_pair":
        return ("win", rules.pair_pays.of(stake)) if cards.player_pair else ("lose", -stake)  # Art. 17.3
    if spot == "banker_pair":
        return ("win", rules.pair_pays.of(stake)) if cards.banker_pair else ("lose", -stake)  # Art. 17.3
    # lucky_6 (2018 amendment): a banker win on 6 only; a banker 6 that ties loses
    if winner == "banker" and cards.banker_total == 6:
        ratio = LUCKY_6_TWO_CARDS if len(cards.banker) == 2 else LUCKY_6_THREE_CARDS
        return "win", ratio.of(stake)
    return "lose", -stake


def settle_stakes(
    rules: Rules, cards: CoupCards, stakes: Iterable[tuple[str, Spot, Decimal]]
) -> tuple[BetSettlement, ...]:
    """Settle every ``(player, spot, stake)`` of a coup."""
    settlements = []
    for player, spot, stake in stakes:
        outcome, gain = settle_bet(rules, spot, stake, cards)
        settlements.append(BetSettlement(player, spot, stake, outcome, gain))
    return tuple(settlements)


def net_by_player(settlements: Iterable[BetSettlement]) -> dict[str, Decimal]:
    """Each player's gain over the coup, all spots together, in the order they first bet."""
    net: dict[str, Decimal] = {}
    for settlement in settlements:
        net[settlement.player] = net.get(settlement.player, ZERO) + settlement.gain
    return net
