"""Baccarat rule parameters (docs/rules.md §4), by the names docs/rules.md gives them.

:class:`Rules` is frozen; :data:`PARAMS` reads each parameter from text or JSON (the CLI's
``--set NAME=VALUE``, a transcript's ``overrides``). Presets are in :mod:`croupier.baccarat.presets`.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

from croupier.errors import RulesError
from croupier.money import Ratio, format_amount
from croupier.ruleset import Param, amount_or_none, boolean, choice, describe, integer, ratio
from croupier.shoe import parse_cut_card_range

Burn = Literal["first_card_value", "decks"] | int
AtCutCard = Literal["one_more", "last"]
Commission = Literal["5pct", "none_super6"]
TieBets = Literal["push", "increase_only"]
Shuffler = Literal["manual", "automatic"]
Spot = Literal["player", "banker", "tie", "player_pair", "banker_pair", "lucky_6"]

SPOTS: tuple[Spot, ...] = ("player", "banker", "tie", "player_pair", "banker_pair", "lucky_6")
SPOT_LABELS: dict[Spot, str] = {
    "player": "Player",
    "banker": "Banker",
    "tie": "Tie",
    "player_pair": "Player pair",
    "banker_pair": "Banker pair",
    "lucky_6": "Lucky 6",
}
"""How each spot is named to people."""
"""Every betting spot (Art. 13; ``lucky_6``: 2018 amendment). A rule set offers :attr:`Rules.spots`."""

MIN_CARDS_BEHIND_CUT_CARD = 12
"""Art. 2.1: the white card goes in at least twelve cards from the end."""

BANKER_COMMISSION = Ratio(19, 20)
"""Art. 18: the house takes 5% of a banker win, so a banker win pays 0.95:1."""

SUPER_6_PAYS = Ratio(1, 2)
"""Art. 17, 18 as docs/rules.md §4 reads them (`commission = none_super6`): a winning banker 6 pays 1:2."""

LUCKY_6_TWO_CARDS = Ratio(12, 1)
LUCKY_6_THREE_CARDS = Ratio(20, 1)
"""2018 amendment: Lucky 6 pays 12:1 on a two-card banker 6 win, 20:1 on a three-card one."""


@dataclass(frozen=True)
class Rules:
    """A baccarat rule set: a preset plus overrides. Every field is a docs/rules.md §4 parameter."""

    preset: str
    decks: int
    cut_card: tuple[int, int] | int | None
    burn: Burn
    demo_coups: int
    at_cut_card: AtCutCard
    burn_each_coup: int
    commission: Commission
    tie_pays: Ratio
    pair_pays: Ratio
    lucky_6: bool
    tie_bets: TieBets
    banker_bet_multiple_of_min: bool
    shuffler: Shuffler
    squeeze: bool
    min_bet: Decimal | None = None
    max_bet: Decimal | None = None
    max_side_imbalance: Decimal | None = None

    def __post_init__(self) -> None:
        if self.min_bet is not None and self.max_bet is not None and self.min_bet > self.max_bet:
            raise RulesError(
                f"min_bet {format_amount(self.min_bet)} is above max_bet {format_amount(self.max_bet)} (Art. 14, 18)"
            )
        if self.shuffler == "manual":
            self._check_cut_card()

    def _check_cut_card(self) -> None:
        """Art. 2.1: a dealt shoe has a white card at least twelve cards from the end."""
        total = self.decks * 52
        setting = self.cut_card
        if setting is None:
            raise RulesError(
                f"cut_card (Art. 2.1): a shoe dealt by hand needs a cut card at least {MIN_CARDS_BEHIND_CUT_CARD} "
                "cards from the end; allowed: a count of cards above it, or a range of cards from the end such "
                "as '12-16'"
            )
        if isinstance(setting, int):
            if setting > total - MIN_CARDS_BEHIND_CUT_CARD:
                raise RulesError(
                    f"cut_card (Art. 2.1): {setting} cards above the cut card leaves fewer than "
                    f"{MIN_CARDS_BEHIND_CUT_CARD} of {total} behind it"
                )
        elif setting[0] < MIN_CARDS_BEHIND_CUT_CARD or setting[1] > total:
            raise RulesError(
                f"cut_card (Art. 2.1): the cut card goes in at least {MIN_CARDS_BEHIND_CUT_CARD} cards from the "
                f"end of a {total}-card shoe, got {describe(setting)} from the end"
            )

    # derived procedure --------------------------------------------------------------------------
    @property
    def automatic_shuffler(self) -> bool:
        """Art. 2.3, 7.2: no cut, no cut card, no burn; the cards go back into the machine each coup."""
        return self.shuffler == "automatic"

    @property
    def cards_from_cut_card_to_end(self) -> int:
        """The most cards the shoe can still need from the cut card's position on, the cut card's draw included.

        The cut card may come out with a coup's first draw (its burn, Art. 8); the rest of that coup takes
        up to five more cards and its burn, and ``one_more`` deals one more coup of up to six cards after a
        burn (Art. 3.1). Without burns that is 12: exactly Art. 2.1's minimum.
        """
        burn = self.burn_each_coup
        this_coup = 1 + 5 + burn
        return this_coup + (6 + burn if self.at_cut_card == "one_more" else 0)

    @property
    def spots(self) -> tuple[Spot, ...]:
        """The spots this rule set offers (Art. 13; ``lucky_6`` only where the rule set has it)."""
        return SPOTS if self.lucky_6 else SPOTS[:-1]

    @property
    def banker_stake_step(self) -> Decimal | None:
        """Art. 18: where ``min_bet`` is set, a banker stake must be a multiple of it."""
        return self.min_bet if self.banker_bet_multiple_of_min else None

    @property
    def max_demo_coups(self) -> int:
        """Art. 2.2: up to ``demo_coups`` at the start of a shoe; none from an automatic shuffler (Art. 2.3)."""
        return 0 if self.automatic_shuffler else self.demo_coups

    def describe(self) -> dict[str, str]:
        """Every parameter as the user would write it."""
        return {name: describe(getattr(self, name)) for name in PARAMS}


def _burn(raw: object) -> Burn:
    if raw in ("first_card_value", "decks"):
        return "first_card_value" if raw == "first_card_value" else "decks"
    return integer(1, 8)(raw)


def _positive_ratio(raw: object) -> Ratio:
    value = ratio(optional=False)(raw)
    assert value is not None
    if value.pays == 0:
        raise ValueError(raw)
    return value


PARAMS: dict[str, Param] = {
    p.name: p
    for p in (
        Param("decks", integer(6, 12), "6-12", "Art. 1"),
        Param(
            "cut_card",
            parse_cut_card_range,
            "a count of cards above the cut card, or a range of cards from the end ('12-16'), at least 12 from the end",
            "Art. 2.1",
        ),
        Param("burn", _burn, "first_card_value, decks, 1-8", "Art. 2.1"),
        Param("demo_coups", integer(0, 3), "0-3", "Art. 2.2"),
        Param("at_cut_card", choice("one_more", "last"), "one_more, last", "Art. 3.1"),
        Param("burn_each_coup", integer(0, 1), "0, 1", "Art. 8"),
        Param("commission", choice("5pct", "none_super6"), "5pct, none_super6", "Art. 17, 18"),
        Param("tie_pays", _positive_ratio, "a ratio such as 8:1 or 9:1", "Art. 17"),
        Param("pair_pays", _positive_ratio, "a ratio such as 11:1", "Art. 13, 17"),
        Param("lucky_6", boolean, "true, false", "2018 amendment"),
        Param("tie_bets", choice("push", "increase_only"), "push, increase_only", "Art. 12, 18"),
        Param("min_bet", amount_or_none, "a positive amount, or none", "Art. 14, 18"),
        Param("max_bet", amount_or_none, "a positive amount, or none", "Art. 14, 18"),
        Param("banker_bet_multiple_of_min", boolean, "true, false", "Art. 18"),
        Param("max_side_imbalance", amount_or_none, "a positive amount, or none", "Art. 14"),
        Param("shuffler", choice("manual", "automatic"), "manual, automatic", "Art. 2.3, 7.2"),
        Param("squeeze", boolean, "true, false", "Art. 16"),
    )
}
