"""Insurance and even money (Art. 6, 8, 13; online §2.5): when they are offered and how much.

Functions of a :class:`~croupier.blackjack.state.Round`; its ``verify_insurance``,
``verify_even_money`` and ``legal_actions`` use them.

- Insurance is open only while the round waits on
  :class:`~croupier.blackjack.actions.AwaitInsurance` (after the deal, before any box acts).
- Even money opens with it. With no hole card (``hole_card=none``, Macau 1983) it stays open until the
  dealer's face-down card is turned: Art. 6 lets a natural take it at any moment "before the dealer
  reveals the face-down card", while the other boxes play. Other rule sets keep the insurance timing.
- The insurance cap is half the bet (Art. 8); a table with a smallest chip (online §2.5.1) may accept
  the next multiple of the chip above an exact half that no chip makes.
"""

from __future__ import annotations

from decimal import ROUND_CEILING, ROUND_DOWN, Decimal
from typing import TYPE_CHECKING

from croupier.blackjack import actions as op
from croupier.errors import IllegalActionError
from croupier.money import MAX_PLACES, format_amount, half

if TYPE_CHECKING:
    from croupier.blackjack.state import Round

LEAST = Decimal(1).scaleb(-MAX_PLACES)
"""The smallest amount a bet can carry (``MAX_PLACES`` decimal places)."""


def insurance_cap(stake: Decimal, chip: Decimal | None) -> Decimal:
    """The most a bettor may insure on ``stake``: half of it (Art. 8; online §2.5), or with a table
    chip the half rounded up to the next multiple of the chip (online §2.5.1: 25 with chip 1 → 13)."""
    cap = half(stake)
    if chip is None:
        return cap
    chips = (cap / chip).to_integral_value(rounding=ROUND_CEILING)
    return chips * chip


def offered_cap(stake: Decimal, chip: Decimal | None) -> Decimal | None:
    """The cap as :meth:`Round.legal_actions` reports it (amounts carry ``MAX_PLACES`` places)."""
    cap = insurance_cap(stake, chip)
    if cap < LEAST:
        return None
    return cap.quantize(LEAST, rounding=ROUND_DOWN)


def even_money_stays_open(rd: Round) -> bool:
    """Art. 6 (Macau 1983, no hole card): even money stays open while the dealer's face-down card
    under an ace lies unturned and the round is in play."""
    up = rd.up_card
    return (
        rd.rules.hole_card == "none"
        and rd.rules.even_money
        and up is not None
        and up.rank == "A"
        and rd.dealer_has_hole_card
        and not rd.ended
        and not rd.voided
        and isinstance(rd.pending, op.AwaitInsurance | op.AwaitDecision | op.AwaitCard | op.AwaitChore)
    )


def require_offer(rd: Round, what: str, offer: str = "insurance", article: str = "Art. 8; online §2.5") -> None:
    """Insurance and even money are open only while offered: after the deal, against an ace (Art. 8)."""
    up = rd.up_card
    if (
        not rd.ended
        and not rd.voided
        and not isinstance(rd.pending, op.AwaitInsurance)
        and up is not None
        and up.rank != "A"
    ):
        raise IllegalActionError(
            f"{what}: {offer} is offered only when the dealer's up-card is an ace ({article}); the dealer shows {up}"
        )
    if offer == "even money" and even_money_stays_open(rd):
        return
    if (
        offer == "even money"
        and rd.rules.even_money
        and not rd.ended
        and not rd.voided
        and isinstance(rd.pending, op.AwaitDecision)
    ):
        raise IllegalActionError(
            f"{what}: {rd.rules.preset} offers even money only with the insurance offer, before any box acts "
            '(the Art. 6 "before the face-down card is turned" timing is Macau\'s, hole_card=none)'
        )
    rd._require(op.AwaitInsurance, what)


def refuse_insurance(rd: Round, player: str, box: int, what: str) -> Decimal:
    """The bettor's stake on ``box``, or raise why the bettor may not insure it now."""
    if rd.rules.insurance_pays is None:
        raise IllegalActionError(f"{what}: {rd.rules.preset} offers no insurance (insurance_pays=none)")
    stake = rd.bettor_stake(player, box, what)
    if (player, box) in rd.insurance:
        raise IllegalActionError(f"{what}: each bettor insures a box once (Art. 8); {player} already did")
    if (player, box) in rd.even_money:
        raise IllegalActionError(f"{what}: {player} took even money on box {box} (Art. 6)")
    return stake


def verify_insurance(rd: Round, player: str, box: int, value: Decimal) -> None:
    what = f"insurance for {player} on box {box}"
    stake = refuse_insurance(rd, player, box, what)
    cap = insurance_cap(stake, rd.insurance_chip)
    if value <= 0:
        raise IllegalActionError(f"{what}: an insurance bet must be positive, got {format_amount(value)}")
    if value > cap:
        rounded = (
            ""
            if rd.insurance_chip is None
            else f", rounded up to the table's chip of {format_amount(rd.insurance_chip)} (online §2.5.1)"
        )
        raise IllegalActionError(
            f"{what}: insurance is at most half the bet (Art. 8; online §2.5): {player}'s bet on box {box} "
            f"is {format_amount(stake)}, so at most {format_amount(cap)}{rounded}; asked {format_amount(value)}"
        )


def verify_even_money(rd: Round, player: str, box: int) -> None:
    what = f"even money for {player} on box {box}"
    require_offer(rd, what, "even money", "Art. 6")
    if not rd.rules.even_money:
        raise IllegalActionError(
            f"{what}: {rd.rules.preset} offers no even money (even_money=false); a natural may insure instead"
        )
    rd.bettor_stake(player, box, what)
    hand = rd.hands[box][0]
    if not hand.natural:
        raise IllegalActionError(
            f"{what}: even money is for a natural against an ace (Art. 6); box {box} holds {hand.total}"
        )
    if (player, box) in rd.even_money or (player, box) in rd.insurance:
        raise IllegalActionError(f"{what}: {player} has already chosen insurance or even money on box {box}")
    if player in hand.settled:
        raise IllegalActionError(f"{what}: {player}'s bet on box {box} is already settled")


def offers(rd: Round, *, insurance: bool) -> list[op.LegalAction]:
    """Each bettor's open insurance (``insurance``) and even-money offers, box by box."""
    result: list[op.LegalAction] = []
    for box in rd.boxes:
        for player, stake in rd.bets[box].items():
            if insurance:
                try:
                    refuse_insurance(rd, player, box, "insurance")
                except IllegalActionError:
                    pass
                else:
                    cap = offered_cap(stake, rd.insurance_chip)
                    if cap is not None:
                        result.append(op.LegalAction("insurance", box, None, player, LEAST, cap))
            if rd.can_take_even_money(player, box):
                result.append(op.LegalAction("even_money", box, 0, player))
    return result
