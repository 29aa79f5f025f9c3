"""Tables the blackjack analysis walks: the dealer's final hands and the player's hand compositions.

Both tables depend only on the rules' shape (soft 17, how many pair cards a split may remove), never
on the shoe, so they are built once per shape and cached. Card values are indexed 0–9 for A, 2, …, 9,
T (value ``i + 1``; an ace counts 1 here, 11 where that makes a soft total).

**Dealer hands.** Every ordered sequence the dealer can draw from an up-card to a standing total
(docs/rules.md §2: draw to 16, stand on 17; ``dealer_hits_soft_17``) is grouped by its multiset of cards
and its final total. The probability of an ordered sequence from a shoe depends only on the multiset
(a falling product of counts), so the probability that the dealer finishes on a total is a sum over
multisets of ``multiplicity × falling products``: the multiplicity counts the orderings that start
with each up-card and are a legal dealer sequence. Busts are not listed (one minus the rest).

**Player compositions.** Every multiset of cards with a hard total of 21 or less is a hand the player
can hold. A split hand is valued against a shoe from which further pair cards were removed (the
other split hands' first cards): those removals are stored as compositions too, ``hand + j × pair``,
so that each gets its own exact dealer probabilities.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

VALUES = 10
"""Card values A, 2, …, 9, T."""

SUIT_MATCH = 0.25
"""P(a card of a given rank is of a given suit): suits are exchangeable (see blackjack.py)."""

DEALER_OUTCOMES = 6
"""Dealer outcome columns: final 17, 18, 19, 20, 21 (not a natural), natural. A bust is the rest."""
NATURAL = 5

IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class DealerTable:
    """The dealer's standing hands as multisets, with the orderings that start with each up-card.

    ``values[d, :nnz[d]]`` and ``counts[d, :nnz[d]]`` give multiset ``d`` (value index, copies);
    ``size[d]`` its number of cards; ``outcome[d]`` its column (0–4 for totals 17–21, 5 natural).
    The orderings of multiset ``d`` are ``up[ptr[d]:ptr[d + 1]]`` with ``mult[...]`` orderings each.
    """

    values: IntArray
    counts: IntArray
    nnz: IntArray
    size: IntArray
    outcome: IntArray
    ptr: IntArray
    up: IntArray
    mult: IntArray
    max_count: IntArray  # most copies of each value in any multiset
    max_size: int


@lru_cache(maxsize=2)
def dealer_table(hits_soft_17: bool) -> DealerTable:
    """Enumerate the dealer's standing hands (docs/rules.md §2) for one soft-17 rule."""
    found: dict[tuple[tuple[int, ...], int], list[int]] = {}
    counts = [0] * VALUES

    def draw(hard: int, has_ace: bool, cards: int, up: int) -> None:
        soft = has_ace and hard + 10 <= 21
        points = hard + 10 if soft else hard
        if points >= 17 and not (hits_soft_17 and points == 17 and soft):
            if points > 21:
                return
            outcome = NATURAL if cards == 2 and points == 21 else points - 17
            key = (tuple(counts), outcome)
            found.setdefault(key, [0] * VALUES)[up] += 1
            return
        for value in range(VALUES):
            counts[value] += 1
            draw(hard + value + 1, has_ace or value == 0, cards + 1, up)
            counts[value] -= 1

    for up in range(VALUES):
        counts[up] += 1
        draw(up + 1, up == 0, 1, up)
        counts[up] -= 1

    keys = sorted(found)
    n = len(keys)
    values = np.zeros((n, VALUES), dtype=np.int64)
    cnts = np.zeros((n, VALUES), dtype=np.int64)
    nnz = np.zeros(n, dtype=np.int64)
    size = np.zeros(n, dtype=np.int64)
    outcome = np.zeros(n, dtype=np.int64)
    ptr = np.zeros(n + 1, dtype=np.int64)
    ups: list[int] = []
    mults: list[int] = []
    for d, (multiset, out) in enumerate(keys):
        j = 0
        for value, copies in enumerate(multiset):
            if copies:
                values[d, j] = value
                cnts[d, j] = copies
                j += 1
        nnz[d] = j
        size[d] = sum(multiset)
        outcome[d] = out
        for up, m in enumerate(found[(multiset, out)]):
            if m:
                ups.append(up)
                mults.append(m)
        ptr[d + 1] = len(ups)
    max_count = np.array([max(k[0][v] for k in keys) for v in range(VALUES)], dtype=np.int64)
    return DealerTable(
        values,
        cnts,
        nnz,
        size,
        outcome,
        ptr,
        np.array(ups, dtype=np.int64),
        np.array(mults, dtype=np.int64),
        max_count,
        int(size.max()),
    )


@dataclass(frozen=True)
class Compositions:
    """Player hand compositions and the removals split hands need, with links between them.

    ``cards[r]`` holds the copies of each value in composition ``r``; ``plus[r, v]`` is the index of
    ``r`` with one more card of value ``v`` (-1 when that is not listed). ``hands`` lists the
    compositions of two or more cards with a hard total of 21 or less (the hands a player can hold),
    most cards first: a hand's value needs the values of the hands one card longer.
    ``pair_hands[pair_ptr[p]:pair_ptr[p + 1]]`` lists those that hold a card of value ``p``.
    ``dealer[r]`` is true where dealer probabilities are needed: a hand, or a hand with up to
    ``extra[p]`` more cards of a value ``p`` it holds.
    """

    cards: IntArray
    size: IntArray
    hard: IntArray
    plus: IntArray
    hands: IntArray
    pair_ptr: IntArray
    pair_hands: IntArray
    dealer: npt.NDArray[np.bool_]
    extra: tuple[int, ...]

    def index(self, cards: tuple[int, ...]) -> int:
        """The index of a composition given as copies per value (KeyError when it is not listed)."""
        r = 0
        for value, copies in enumerate(cards):
            for _ in range(copies):
                r = int(self.plus[r, value])
                if r < 0:
                    raise KeyError(cards)
        return r


@lru_cache(maxsize=16)
def compositions(extra: tuple[int, ...], two_card_aces: bool) -> Compositions:
    """Every hand with a hard total of 21 or less, and each holding value ``p`` with up to ``extra[p]`` more
    cards of value ``p`` removed (only two-card hands for aces when ``two_card_aces``: split aces take one card).
    """
    base: list[tuple[int, ...]] = []

    def grow(value: int, prefix: list[int], total: int) -> None:
        if value == VALUES:
            base.append(tuple(prefix))
            return
        copies = 0
        while total + copies * (value + 1) <= 21:
            prefix.append(copies)
            grow(value + 1, prefix, total + copies * (value + 1))
            prefix.pop()
            copies += 1

    grow(0, [], 0)
    base.sort(key=lambda c: (sum(c), c))  # the empty composition first
    listed: dict[tuple[int, ...], int] = {c: i for i, c in enumerate(base)}
    order: list[tuple[int, ...]] = list(base)
    needs_dealer: set[tuple[int, ...]] = {c for c in base if sum(c) >= 2}
    for pair in range(VALUES):
        for hand in base:
            if hand[pair] == 0 or sum(hand) < 1 or (pair == 0 and two_card_aces and sum(hand) > 2):
                continue
            for j in range(1, extra[pair] + 1):
                removed = list(hand)
                removed[pair] += j
                key = tuple(removed)
                if key not in listed:
                    listed[key] = len(order)
                    order.append(key)
                if sum(hand) >= 2:
                    needs_dealer.add(key)
    n = len(order)
    cards = np.array(order, dtype=np.int64).reshape(n, VALUES)
    size = cards.sum(axis=1)
    hard = cards @ np.arange(1, VALUES + 1, dtype=np.int64)
    plus = np.full((n, VALUES), -1, dtype=np.int64)
    for i, key in enumerate(order):
        grown = list(key)
        for value in range(VALUES):
            grown[value] += 1
            found = listed.get(tuple(grown))
            grown[value] -= 1
            if found is not None:
                plus[i, value] = found
    hand_ids = [i for i, key in enumerate(base) if sum(key) >= 2]
    hand_ids.sort(key=lambda i: (-int(size[i]), i))
    pair_lists = [[i for i in hand_ids if base[i][p] > 0] for p in range(VALUES)]
    pair_ptr = np.zeros(VALUES + 1, dtype=np.int64)
    for p in range(VALUES):
        pair_ptr[p + 1] = pair_ptr[p] + len(pair_lists[p])
    dealer = np.zeros(n, dtype=np.bool_)
    for key in needs_dealer:
        dealer[listed[key]] = True
    return Compositions(
        cards,
        size,
        hard,
        plus,
        np.array(hand_ids, dtype=np.int64),
        pair_ptr,
        np.array([i for lst in pair_lists for i in lst], dtype=np.int64),
        dealer,
        extra,
    )
