"""The blackjack environments' actions and observations (docs/rl.md, "Spaces").

Both blackjack environments, the single-agent :class:`~croupier.rl.blackjack.BlackjackEnv` and the
multi-seat :class:`~croupier.rl.multi.BlackjackAEC`, share one action layout and one observation
layout, so an agent trained on one plays the other.

Actions (``Discrete(9 + boxes × len(bet_sizes))`` multi-seat, ``Discrete(9 + len(bet_sizes))`` single):

====  ===============  =====================================================================
0     ``stand``        take no more cards
1     ``hit``          take a card
2     ``double``       double for the full bet and take one card (Art. 11)
3     ``split``        split a pair (Art. 10)
4     ``surrender``    give up half the bet, as the box's first decision (Art. 12)
5     ``insurance``    insure for half the bet, the most Art. 8 allows
6     ``even_money``   take 1:1 on a natural against an ace (Art. 6)
7     ``no_insurance`` decline insurance and even money
8     ``no_bet``       sit this round out (multi-seat only)
9…    bets             bet ``bet_sizes[k]``: single agent ``9 + k`` on its box; multi-seat
                       ``9 + (box − 1) × len(bet_sizes) + k`` (on its own box, or behind another)
====  ===============  =====================================================================

Only the actions the round offers now are legal: ``info["action_mask"]`` (``np.int8``, 1 = legal)
is built from :meth:`Round.legal_actions` (bets from :meth:`Round.can_bet`).

Observation: one ``np.int64`` vector of :data:`OBS_SIZE` entries, named in :data:`OBS_FIELDS`.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from croupier.blackjack import actions as op
from croupier.blackjack import moves
from croupier.blackjack.hand import POINTS, Hand
from croupier.blackjack.rules import Rules
from croupier.cards import RANKS
from croupier.codes import DOUBLE as DOUBLE
from croupier.codes import HIT as HIT
from croupier.codes import OPTION_CODES, OPTIONS
from croupier.codes import SPLIT as SPLIT
from croupier.codes import STAND as STAND
from croupier.codes import SURRENDER as SURRENDER
from croupier.errors import RulesError
from croupier.money import parse_amount

INSURANCE, EVEN_MONEY, NO_INSURANCE, NO_BET = range(OPTIONS, OPTIONS + 4)
"""After the play decisions, whose indices are the kernels' option codes (:mod:`croupier.codes`)."""
FIRST_BET = NO_BET + 1
"""Index of the first bet action."""
ACKNOWLEDGE = STAND
"""The one action of a round the deal settled (single agent, phase ``over`` at ``reset``): its step
delivers the round's net as the reward and ends the episode (docs/rl.md, "Episodes")."""

ACTION_NAMES: tuple[str, ...] = (
    *sorted(OPTION_CODES, key=OPTION_CODES.__getitem__),
    moves.Insure.kind,
    moves.TakeEvenMoney.kind,
    "no_insurance",
    "no_bet",
)
"""Names of the actions before the bets, by index: the play decisions in the order of their option codes."""

PLAY_INDEX: dict[type[moves.Action], int] = {cls: OPTION_CODES[cls.kind] for cls in moves.PLAYS}
"""Each play decision's type (:attr:`LegalAction.type <croupier.blackjack.actions.LegalAction.type>`) and its
action index, its option code (:data:`croupier.codes.OPTION_CODES`)."""


def engine_action(index: int, box: int, player: str, insurance: Decimal | None = None) -> moves.Action:
    """The engine's typed action (:mod:`croupier.blackjack.moves`) for a decision index, ``stand`` to
    ``no_insurance`` (closing the offer); ``insurance`` is the amount an insurance index stakes."""
    if not 0 <= index <= NO_INSURANCE:
        raise ValueError(f"action {index} is not a decision; they are 0-{NO_INSURANCE} (stand to no_insurance)")
    if index == NO_INSURANCE:
        return moves.CloseInsurance()
    return moves.parse(ACTION_NAMES[index], box=box, player=player, amount=insurance)


PHASE_BET, PHASE_INSURANCE, PHASE_DECISION, PHASE_OVER, PHASE_WAIT = range(5)
PHASE_NAMES = ("bet", "insurance", "decision", "over", "wait")
"""``phase``: what the agent is asked now (``wait``: another seat acts; multi-seat only)."""

OBS_FIELDS: tuple[str, ...] = (
    "phase",
    "total",
    "soft",
    "pair",
    "cards",
    "hand",
    "hands",
    "from_split",
    "up",
    "box",
    *(f"seen_{rank}" for rank in RANKS),
    "remaining",
)
"""The observation vector's entries, in order (docs/rl.md):

* ``phase``: 0 bet, 1 insurance, 2 decision, 3 round over, 4 waiting for another seat;
* ``total``, ``soft``, ``pair``, ``cards``: the agent's hand now to act (else its box's last hand):
  best total 0-30, 1 if soft, the value of a two-card pair (1 ace … 10 ten-value) else 0, the
  number of cards (0-21);
* ``hand``, ``hands``, ``from_split``: the hand's index 0-3, the box's number of hands 0-4, 1 on a
  split hand;
* ``up``: the dealer's up-card, 1 ace … 10 ten-value, 0 before the deal;
* ``box``: the agent's box 1-7 (multi-seat: the box it bet on, 0 with no bet);
* ``seen_A`` … ``seen_K``: how many cards of each rank were seen face up since the shuffle (what a
  counter sees: every box's cards, the dealer's up-card and the hole card once turned; not burns);
* ``remaining``: cards left in the shoe (a counter sees the discard tray).
"""

OBS_SIZE = len(OBS_FIELDS)
SEEN = OBS_FIELDS.index("seen_A")
REMAINING = OBS_FIELDS.index("remaining")
RANK_INDEX: dict[str, int] = {rank: i for i, rank in enumerate(RANKS)}
"""Rank letter to its ``seen_`` offset (A, 2, …, 9, T, J, Q, K)."""

Obs = npt.NDArray[np.int64]
Mask = npt.NDArray[np.int8]
Observation = Obs | dict[str, npt.NDArray[Any]]
"""An observation: the vector, or with ``mask_in_obs`` ``{"observation": vector, "action_mask": mask}``."""


def observation_high(rules: Rules) -> Obs:
    """The largest value of each entry (the lowest is 0)."""
    high = [4, 30, 1, 10, 21, 3, 4, 1, 10, rules.boxes, *([4 * rules.decks] * len(RANKS)), 52 * rules.decks]
    return np.array(high, dtype=np.int64)


def observation_space(rules: Rules, actions: int, mask_in_obs: bool) -> spaces.Space[Any]:
    """The observation vector's ``Box``; with ``mask_in_obs`` a ``Dict`` of it and the action mask
    (``observation`` and ``action_mask``: the layout of PettingZoo's classic environments)."""
    vector = spaces.Box(0, observation_high(rules), (OBS_SIZE,), np.int64)
    if not mask_in_obs:
        return vector
    return spaces.Dict({"observation": vector, "action_mask": spaces.Box(0, 1, (actions,), np.int8)})


def read_bet_sizes(rules: Rules, sizes: Sequence[object]) -> tuple[Decimal, ...]:
    """Bet sizes as exact amounts inside the table limits; raise :class:`RulesError` naming the bad one."""
    if not sizes:
        raise RulesError("bet_sizes: give at least one bet size")
    amounts = tuple(parse_amount(size, what="bet size") for size in sizes)
    for amount in amounts:
        if amount <= 0:
            raise RulesError(f"bet_sizes: a bet is a positive amount, got {amount}")
        if rules.min_bet is not None and amount < rules.min_bet:
            raise RulesError(f"bet_sizes: {amount} is below the table minimum {rules.min_bet}")
        if rules.max_bet is not None and amount > rules.max_bet:
            raise RulesError(f"bet_sizes: {amount} is above the table maximum {rules.max_bet}")
    if len(set(amounts)) != len(amounts):
        raise RulesError("bet_sizes: each size once")
    return amounts


def default_bet(rules: Rules) -> Decimal:
    """One table unit, or the table minimum where it is higher."""
    one = Decimal(1)
    if rules.min_bet is not None and rules.min_bet > one:
        return rules.min_bet
    if rules.max_bet is not None and rules.max_bet < one:
        return rules.max_bet
    return one


def write_hand(obs: Obs, hand: Hand | None, index: int, hands: int, up: int) -> None:
    """Fill the hand and up-card entries of ``obs`` (``hand`` None: before the deal)."""
    if hand is None:
        obs[1:10] = 0
    else:
        cards = hand.cards
        obs[1] = hand.total
        obs[2] = hand.soft
        obs[3] = POINTS[cards[0].rank] if len(cards) == 2 and hand.pair() else 0
        obs[4] = len(cards)
        obs[5] = index
        obs[6] = hands
        obs[7] = hand.from_split
    obs[8] = up


def count_seen(operations: Sequence[op.Operation], start: int, seen: Obs) -> int:
    """Add the cards seen face up in ``operations[start:]`` to ``seen`` (13 counts); return the new start."""
    end = len(operations)
    for i in range(start, end):
        o = operations[i]
        kind = type(o)
        if kind is op.CardDealt:
            assert isinstance(o, op.CardDealt)
            if o.face_up:
                seen[RANK_INDEX[o.card.rank]] += 1
        elif kind is op.HoleCardTurned or kind is op.CardVoided:
            assert isinstance(o, op.HoleCardTurned | op.CardVoided)
            seen[RANK_INDEX[o.card.rank]] += 1
    return end


def up_value(card_rank: str | None) -> int:
    """The up-card as the observation writes it: 1 ace … 10 ten-value, 0 none."""
    return 0 if card_rank is None else POINTS[card_rank]
