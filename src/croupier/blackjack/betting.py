"""Who may bet on which box, and who decides for a box (Art. 2.3, 13; online §4.5)."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal

from croupier.blackjack.rules import Rules
from croupier.errors import BetError
from croupier.money import format_amount


def occupant(box: int, seated: Mapping[int, str], bets: Mapping[int, Mapping[str, Decimal]]) -> str | None:
    """Who occupies ``box``: the seated player, else its first bettor (docs/transcript.md ``seated``)."""
    if box in seated:
        return seated[box]
    on_box = bets.get(box)
    return next(iter(on_box)) if on_box else None


def verify_bet(
    rules: Rules,
    player: str,
    box: int,
    amount: Decimal,
    seated: Mapping[int, str],
    bets: Mapping[int, Mapping[str, Decimal]],
) -> None:
    """Raise :class:`BetError` naming the rule if ``player`` may not bet ``amount`` on ``box``.

    Only what no later bet can make legal is refused here (Art. 2.3 is judged on the whole set of
    bets when betting closes: :func:`unbacked_bets`): a bet behind may arrive before the occupant's.
    """
    name = rules.preset
    if not isinstance(player, str) or not player:
        raise BetError("a bet needs a player's name")
    if not 1 <= box <= rules.boxes:
        raise BetError(f"{name} has boxes 1-{rules.boxes} (Art. 2.3); there is no box {box}")
    if amount <= 0:
        raise BetError(f"a bet must be a positive amount; {player} bet {format_amount(amount)}")
    if rules.min_bet is not None and amount < rules.min_bet:
        raise BetError(
            f"the table minimum is {format_amount(rules.min_bet)}; {player} bet {format_amount(amount)} on box {box}"
        )
    if rules.max_bet is not None and amount > rules.max_bet:
        raise BetError(
            f"the table maximum is {format_amount(rules.max_bet)}; {player} bet {format_amount(amount)} on box {box}"
        )
    if player in bets.get(box, {}):
        raise BetError(f"one bet per player per box (Art. 2.3): {player} already bet on box {box}")
    holder = occupant(box, seated, bets)
    own_boxes = [b for b in bets if player in bets[b]]
    if holder is not None and holder != player:
        if not rules.bet_behind:
            raise BetError(f"{name} takes no bets behind (online §4.5; bet_behind=false): box {box} is {holder}'s")
        seated_somewhere = player in seated.values() or any(occupant(b, seated, bets) == player for b in bets)
        if not seated_somewhere and own_boxes:
            raise BetError(
                f"a player without a box may bet on one box only (Art. 2.3): {player} already bet on box {own_boxes[0]}"
            )
    limit = rules.boxes_per_player
    if len(own_boxes) >= limit:
        where = "one deck: one box each" if rules.metal_box else f"max_boxes_per_player={limit}"
        raise BetError(
            f"{name} allows {limit} box(es) per player (Art. 2.3; {where}): {player} already bet on "
            f"box(es) {', '.join(str(b) for b in own_boxes)}"
        )


def unbacked_bets(seated: Mapping[int, str], bets: Mapping[int, Mapping[str, Decimal]]) -> list[tuple[str, int, str]]:
    """Art. 2.3, judged when betting closes: the bets on a box whose occupant did not bet.

    A bet behind a box, or a seated player's bet on another player's box, stands only where that box's
    occupant also bets; the order in which the bets arrived does not matter. Returns ``(player, box,
    reason)`` for each bet to return, in the order of ``bets``. Only a box with a seated occupant can
    lack its occupant's bet (an unseated box's occupant is its first bettor).
    """
    returned: list[tuple[str, int, str]] = []
    for box, on_box in bets.items():
        holder = occupant(box, seated, bets)
        if holder is None or holder in on_box:
            continue
        for player in on_box:
            reason = (
                f"a bet behind box {box} stands only where its occupant bets too (Art. 2.3): "
                f"{holder} did not bet on box {box}"
            )
            returned.append((player, box, reason))
    return returned


def decider(box: int, seated: Mapping[int, str], bets: Mapping[str, Decimal], occupant_name: str | None) -> str:
    """Art. 13: the highest bet decides; on equal highest bets the seated player, else the first to bet."""
    highest = max(bets.values())
    leaders = [player for player, amount in bets.items() if amount == highest]
    if occupant_name is not None and occupant_name in leaders:
        return occupant_name
    return leaders[0]
