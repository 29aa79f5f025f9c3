"""A baccarat bet against the table's limits, and who squeezes (docs/rules.md Art. 13-16, 18).

Functions of the stakes on the layout (each player's total per spot); :class:`~croupier.baccarat.state.BaccaratTable`
checks the phase and the seat before it asks :func:`why_not_stake`, and names the squeeze holders with
:func:`squeeze_holder` when betting closes.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from decimal import Decimal

from croupier.baccarat.rules import SPOTS, Rules, Spot
from croupier.baccarat.tableau import Side
from croupier.errors import BetError, CroupierError
from croupier.money import ZERO, format_amount

Stakes = Mapping[tuple[str, Spot], Decimal]
"""Each (player, spot)'s stake on the layout."""


def side_total(stakes: Stakes, side: Side) -> Decimal:
    """Every player's stake on ``side`` together (Art. 14)."""
    return sum((amount for (_, spot), amount in stakes.items() if spot == side), ZERO)


def why_not_stake(rules: Rules, player: str, spot: str, amount: Decimal, stakes: Stakes) -> CroupierError | None:
    """Why ``player`` may not add ``amount`` on ``spot`` to the ``stakes`` (None: allowed): the spot
    (Art. 13), the amount, the limits on the player's whole stake there (Art. 14, 18) and the cap on
    the difference between banker and player (Art. 14)."""
    if spot not in SPOTS:
        return BetError(f"unknown spot {spot!r}; the spots are {', '.join(rules.spots)} (Art. 13)")
    if spot not in rules.spots:
        return BetError(f"{rules.preset} does not offer {spot} (lucky_6 = false; 2018 amendment)")
    if amount <= 0:
        return BetError(f"a bet must be a positive amount, got {format_amount(amount)}")
    stake = stakes.get((player, spot), ZERO) + amount
    after = f"; this bet makes {player}'s {spot} stake {format_amount(stake)}" if stake != amount else ""
    if rules.min_bet is not None and stake < rules.min_bet:
        return BetError(f"{rules.preset}'s minimum bet is {format_amount(rules.min_bet)} (Art. 18){after}")
    if rules.max_bet is not None and stake > rules.max_bet:
        return BetError(f"{rules.preset}'s maximum bet is {format_amount(rules.max_bet)} (Art. 14, 18){after}")
    step = rules.banker_stake_step
    if spot == "banker" and step is not None and stake % step != 0:
        return BetError(
            f"{rules.preset} banker bets must be a multiple of the minimum {format_amount(step)} (Art. 18){after}"
        )
    cap = rules.max_side_imbalance
    if cap is not None and spot in ("player", "banker"):
        banker = side_total(stakes, "banker") + (amount if spot == "banker" else ZERO)
        player_total = side_total(stakes, "player") + (amount if spot == "player" else ZERO)
        difference = abs(banker - player_total)
        if difference > cap:
            return BetError(
                f"{rules.preset} caps the difference between banker and player stakes at {format_amount(cap)} "
                f"(Art. 14); this bet would make it {format_amount(difference)} "
                f"(banker {format_amount(banker)}, player {format_amount(player_total)})"
            )
    return None


def squeeze_holder(side: Side, stakes: Stakes, seated: Collection[str] | None) -> str | None:
    """Art. 16.2: the seated player with the largest bet on ``side``; on equal bets, the first to bet.
    ``seated``: None where nobody sits (every bettor counts)."""
    holder, largest = None, ZERO
    for (player, spot), amount in stakes.items():
        if spot == side and (seated is None or player in seated) and amount > largest:
            holder, largest = player, amount
    return holder
