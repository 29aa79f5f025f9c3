"""Macau baccarat (Punto Banco), docs/rules.md §1 and §4: rules as data, the coup state machine, replay, roads.

The public names (docs/api.md), each imported from its module on first use:

>>> from croupier.baccarat import baccarat_rules
>>> baccarat_rules("macau").decks
8
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from croupier._lazy import lazy_names

__all__ = [
    "PRESETS",
    "Action",
    "BaccaratTable",
    "LeaveSeat",
    "LegalMove",
    "PlaceBet",
    "Rules",
    "Sit",
    "baccarat_rules",
    "build_roads",
    "replay_baccarat",
]

if TYPE_CHECKING:
    from croupier.baccarat.moves import Action, LeaveSeat, LegalMove, PlaceBet, Sit
    from croupier.baccarat.presets import PRESETS, baccarat_rules
    from croupier.baccarat.replay import replay_baccarat
    from croupier.baccarat.roads import build_roads
    from croupier.baccarat.rules import Rules
    from croupier.baccarat.state import BaccaratTable
else:  # at run time each name is imported on first use; type checkers see the imports above
    __getattr__, __dir__ = lazy_names(
        __name__,
        {
            "PRESETS": "croupier.baccarat.presets",
            "Action": "croupier.baccarat.moves",
            "LeaveSeat": "croupier.baccarat.moves",
            "LegalMove": "croupier.baccarat.moves",
            "PlaceBet": "croupier.baccarat.moves",
            "Sit": "croupier.baccarat.moves",
            "BaccaratTable": "croupier.baccarat.state",
            "Rules": "croupier.baccarat.rules",
            "baccarat_rules": "croupier.baccarat.presets",
            "build_roads": "croupier.baccarat.roads",
            "replay_baccarat": "croupier.baccarat.replay",
        },
    )
