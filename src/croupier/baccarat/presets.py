"""The baccarat preset of docs/rules.md §4: ``macau``."""

from __future__ import annotations

from collections.abc import Mapping

from croupier.baccarat.rules import PARAMS, Rules
from croupier.errors import RulesError
from croupier.money import Ratio
from croupier.ruleset import apply_overrides

MACAU = Rules(
    preset="macau",
    decks=8,  # Art. 1: six to twelve decks
    cut_card=(12, 16),  # Art. 2.1: at least twelve cards from the end; "about 12" in docs/rules.md
    burn="first_card_value",  # Art. 2.1 (83/2011 amendment)
    demo_coups=3,  # Art. 2.2: up to three demonstration coups
    at_cut_card="one_more",  # Art. 3.1
    burn_each_coup=0,  # Art. 8: the house may burn one from the second coup on
    commission="5pct",  # Art. 18
    tie_pays=Ratio(8, 1),  # Art. 17.2
    pair_pays=Ratio(11, 1),  # Art. 17.3
    lucky_6=False,  # 2018 amendment
    tie_bets="push",  # Art. 12
    banker_bet_multiple_of_min=True,  # Art. 18
    shuffler="manual",  # Art. 2.1; "automatic" is Art. 2.3, 7.2
    squeeze=False,  # Art. 16.1: where the house allows it
)

PRESETS: dict[str, Rules] = {MACAU.preset: MACAU}


def baccarat_rules(preset: str, overrides: Mapping[str, object] | None = None) -> Rules:
    """The rule set ``preset`` with ``overrides`` by parameter name (docs/rules.md §4)."""
    base = PRESETS.get(preset)
    if base is None:
        raise RulesError(f"unknown baccarat preset {preset!r}; the presets are: {', '.join(PRESETS)}")
    return apply_overrides(base, PARAMS, overrides or {}, game="baccarat")
