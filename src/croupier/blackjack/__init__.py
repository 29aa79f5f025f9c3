"""Blackjack as the rules are written: Macau 1983 and live-online (docs/rules.md §1-§3).

The public names (docs/api.md), each imported from its module on first use:

>>> from croupier.blackjack import Table, blackjack_rules
>>> from croupier.rng import seeded
>>> table = Table.shuffled(blackjack_rules("macau-1983"), seeded(1))
>>> round_ = table.new_round()
>>> round_.bet("ana", 1, 100)
BetPlaced(player='ana', box=1, amount=Decimal('100'))
>>> type(round_.pending).__name__
'AwaitBets'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from croupier._lazy import lazy_names

__all__ = [
    "PRESETS",
    "Action",
    "CloseInsurance",
    "Double",
    "Hit",
    "Insure",
    "LegalAction",
    "Round",
    "Rules",
    "Split",
    "Stand",
    "Surrender",
    "Table",
    "TakeEvenMoney",
    "blackjack_rules",
    "replay_blackjack",
    "to_transcript",
]

if TYPE_CHECKING:
    from croupier.blackjack.actions import LegalAction
    from croupier.blackjack.moves import (
        Action,
        CloseInsurance,
        Double,
        Hit,
        Insure,
        Split,
        Stand,
        Surrender,
        TakeEvenMoney,
    )
    from croupier.blackjack.presets import PRESETS, blackjack_rules
    from croupier.blackjack.replay import replay_blackjack, to_transcript
    from croupier.blackjack.rules import Rules
    from croupier.blackjack.state import Round, Table
else:  # at run time each name is imported on first use; type checkers see the imports above
    __getattr__, __dir__ = lazy_names(
        __name__,
        {
            "PRESETS": "croupier.blackjack.presets",
            "Action": "croupier.blackjack.moves",
            "CloseInsurance": "croupier.blackjack.moves",
            "Double": "croupier.blackjack.moves",
            "Hit": "croupier.blackjack.moves",
            "Insure": "croupier.blackjack.moves",
            "Split": "croupier.blackjack.moves",
            "Stand": "croupier.blackjack.moves",
            "Surrender": "croupier.blackjack.moves",
            "TakeEvenMoney": "croupier.blackjack.moves",
            "LegalAction": "croupier.blackjack.actions",
            "Round": "croupier.blackjack.state",
            "Rules": "croupier.blackjack.rules",
            "Table": "croupier.blackjack.state",
            "blackjack_rules": "croupier.blackjack.presets",
            "replay_blackjack": "croupier.blackjack.replay",
            "to_transcript": "croupier.blackjack.replay",
        },
    )
