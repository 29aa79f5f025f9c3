"""Helpers for the environment tests: seeded random play that checks every mask against the engine."""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from croupier.blackjack.state import Round
from croupier.errors import CroupierError
from croupier.rl.encoding import RANK_INDEX, REMAINING, SEEN
from croupier.rng import RandomSource


def seen_by_a_counter(rounds: list[Round]) -> list[int]:
    """Cards of each rank lying face up on the table in ``rounds``, read from the hands (not the operations)."""
    counts: Counter[int] = Counter()
    for played in rounds:
        for card in played.dealer_cards:
            counts[RANK_INDEX[card.rank]] += 1
        for hands in played.hands.values():
            for hand in hands:
                for card in hand.cards:
                    counts[RANK_INDEX[card.rank]] += 1
    return [counts[i] for i in range(13)]


def check_counter_view(obs: Any, rounds: list[Round], remaining: int) -> None:
    assert list(obs[SEEN:REMAINING]) == seen_by_a_counter(rounds)
    assert obs[REMAINING] == remaining


def pick(mask: Any, rng: RandomSource) -> int:
    legal = np.flatnonzero(mask)
    assert len(legal) > 0, "a live state offers at least one action"
    return int(legal[rng.randbelow(len(legal))])


def refused(verify: Any, *args: Any) -> bool:
    try:
        verify(*args)
    except CroupierError:
        return True
    return False
