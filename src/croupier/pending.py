"""What a table waits for next, in the same records for both engines.

A blackjack :class:`~croupier.blackjack.round.Round` and a
:class:`~croupier.baccarat.state.BaccaratTable` each hold ``pending``: the one thing that must happen
before the game can go on. The records here are shared by both; a blackjack round adds its own
(insurance offers, a hand's decision). A chore is waited for only where the caller took it over
(the engine's ``automations`` leave out the automation it belongs to); a card only where a live shoe has none yet.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class AwaitShoe:
    """No shoe is in play: ``load_shoe`` brings one (the shoe source does, where shuffling is automated)."""


@dataclass(frozen=True, slots=True)
class AwaitBets:
    """Betting is open; the deal (blackjack's ``deal``, baccarat's ``start_coup``) closes it."""


@dataclass(frozen=True, slots=True)
class AwaitCard:
    """A live shoe has no card: the dealer's reader must supply the next one (``purpose`` says where)."""

    purpose: str


@dataclass(frozen=True, slots=True)
class AwaitChore:
    """A chore the caller chose to perform itself, by the chore's name: blackjack ``burn``, ``deal``,
    ``dealer_hit``, ``dealer_stand`` (both of the automation ``dealer_play``) or ``settle``; baccarat
    ``shuffle``, ``turn_first_card`` (of the automation ``burn``), ``burn``, ``deal`` or ``settle``."""

    chore: str


Waiting = AwaitShoe | AwaitBets | AwaitCard | AwaitChore
"""What a baccarat table can wait for; a blackjack round's ``Pending`` adds its own offers and decisions."""
