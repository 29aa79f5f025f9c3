"""The blackjack engine's stable import path: :class:`Round`, :class:`Table` and :data:`AUTOMATIONS`.

The round, its state machine and its three faces per operation, is :mod:`croupier.blackjack.round`;
the table that deals rounds from a shoe is :mod:`croupier.blackjack.table`. Import either from here.
"""

from croupier.blackjack.round import AUTOMATIONS, Round
from croupier.blackjack.table import Table

__all__ = ["AUTOMATIONS", "Round", "Table"]
