"""croupier: casino table games run exactly as their rules are written.

The public names (docs/api.md), each imported from its module on first use:

>>> import croupier
>>> rules = croupier.blackjack_rules("macau-1983", {"decks": 8})
>>> rules.decks
8
>>> croupier.parse_amount("12.50")
Decimal('12.50')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from croupier._lazy import lazy_names

__version__ = "0.1.0"

__all__ = [
    "BaccaratTable",
    "BlackjackRound",
    "BlackjackTable",
    "CroupierError",
    "__version__",
    "baccarat_rules",
    "blackjack_rules",
    "format_amount",
    "load_transcript",
    "parse_amount",
    "replay_transcript",
    "seeded",
]

if TYPE_CHECKING:
    from croupier.baccarat.presets import baccarat_rules
    from croupier.baccarat.state import BaccaratTable
    from croupier.blackjack.presets import blackjack_rules
    from croupier.blackjack.state import Round as BlackjackRound
    from croupier.blackjack.state import Table as BlackjackTable
    from croupier.errors import CroupierError
    from croupier.money import format_amount, parse_amount
    from croupier.rng import seeded
    from croupier.transcript import load as load_transcript
    from croupier.transcript import replay as replay_transcript
else:  # at run time each name is imported on first use; type checkers see the imports above
    __getattr__, __dir__ = lazy_names(
        __name__,
        {
            "BaccaratTable": "croupier.baccarat.state",
            "BlackjackRound": "croupier.blackjack.state:Round",
            "BlackjackTable": "croupier.blackjack.state:Table",
            "CroupierError": "croupier.errors",
            "baccarat_rules": "croupier.baccarat.presets",
            "blackjack_rules": "croupier.blackjack.presets",
            "format_amount": "croupier.money",
            "load_transcript": "croupier.transcript:load",
            "parse_amount": "croupier.money",
            "replay_transcript": "croupier.transcript:replay",
            "seeded": "croupier.rng",
        },
    )
