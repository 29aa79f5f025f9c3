"""A batch of baccarat tables stepped in one compiled call: Gymnasium's ``VectorEnv``.

:class:`BaccaratVectorEnv` is ``num_envs`` copies of :class:`~croupier.rl.baccarat.BaccaratEnv` (the
same actions, observation, mask, penalty and step limit; docs/rl.md) whose coups are dealt by the
baccarat simulator's compiled steps (:mod:`croupier.sim.baccarat_batch`): one call to
:meth:`step` deals one coup at every table. The engine stays the judge: the twin tests replay every
shoe the batch dealt through :class:`~croupier.baccarat.state.BaccaratTable` and find the same cards
in the same places, the same observations and the same nets (tests/rl/test_baccarat_vector.py).

What differs from the single environment, by design:

* The shoes come from the simulator's generator (xoshiro256**, one stream per table, seeded by
  :meth:`reset`'s ``seed``), not from :func:`croupier.rng.seeded`: a seed gives the same shoes every
  run, not the single environment's shoes. :meth:`shoe_cards` gives a table's shoe (the cards drawn so far in
  order), for a transcript or a replay.
* Autoreset is Gymnasium's default, next step (``metadata["autoreset_mode"]``): the step after a
  table's episode ended starts its new shoe, ignores its action and returns reward 0.
* Bet sizes are whole table units; the mask is the same at every coup, so rule sets whose mask
  changes from coup to coup (``tie_bets = increase_only``, where a bet that stood on a tie must stay)
  are refused with the reason.
* Rewards are float64 table units; ``infos["net_minor"]`` holds each step's exact net in minor units
  (``self.unit`` of them to a table unit).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any, cast

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode

from croupier.baccarat.moves import PlaceBet
from croupier.baccarat.presets import baccarat_rules
from croupier.baccarat.rules import SPOTS, Rules, Spot
from croupier.baccarat.state import BaccaratTable, Phase, shuffled_shoes
from croupier.cards import RANKS, SUITS, Card
from croupier.errors import RulesError
from croupier.money import parse_amount
from croupier.rl.baccarat import OBS_FIELDS
from croupier.rl.session import fresh_seed
from croupier.rng import seeded
from croupier.sim import baccarat_batch as vk
from croupier.sim import baccarat_kernels as bk
from croupier.sim.baccarat import rule_parameters, seed_words, tableau_arrays

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
Array = npt.NDArray[Any]


class BaccaratVectorEnv(gym.vector.VectorEnv[IntArray, IntArray, Array]):
    """``num_envs`` baccarat tables under ``preset`` and ``rules_overrides``; see the module docstring."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012 (gymnasium's name)

    def __init__(
        self,
        num_envs: int = 1,
        preset: str = "macau",
        rules_overrides: Mapping[str, object] | None = None,
        *,
        bet_sizes: Sequence[object] = (1,),
        spots: Sequence[str] | None = None,
        illegal_penalty: float = 1.0,
        max_steps: int | None = 1000,
    ) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs is a positive number of tables, got {num_envs!r}")
        if max_steps is not None and max_steps < 1:
            raise ValueError(f"max_steps is a positive number of steps or None, got {max_steps!r}")
        self.rules: Rules = baccarat_rules(preset, rules_overrides)
        if self.rules.tie_bets == "increase_only":
            raise RulesError(
                "tie_bets = increase_only: a bet that stood on a tie changes the mask from coup to coup (Art. 18); "
                "the batch environment takes rule sets whose mask is fixed: use BaccaratEnv for this one"
            )
        self.spots, self.bet_sizes = _choices(self.rules, spots, bet_sizes)
        self.num_envs = num_envs
        self.illegal_penalty = float(illegal_penalty)
        self.max_steps = max_steps
        rp = rule_parameters(self.rules, "shoe")
        rp[bk.R_DEMO] = 0  # as the single environment: no demonstration coups (Art. 2.2 allows, never requires)
        self._rp = rp
        self.unit = int(rp[bk.R_UNIT])
        self._tableau = tableau_arrays()
        actions = 1 + len(self.spots) * len(self.bet_sizes)
        self._spot_of = np.full(actions, -1, dtype=np.int64)
        self._size_of = np.zeros(actions, dtype=np.int64)
        for a in range(1, actions):
            spot, size = self.bet(a)
            self._spot_of[a] = SPOTS.index(spot)
            self._size_of[a] = int(size)
        self._legal = _fixed_mask(self.rules, self.spots, self.bet_sizes)
        self.single_action_space = spaces.Discrete(actions)
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, actions, dtype=np.int64))
        cards = self.rules.decks * 52
        high = np.array([cards // 4 + 1, cards, *([4 * self.rules.decks] * len(RANKS)), 3, 9, 9], dtype=np.int64)
        self.single_observation_space = spaces.Box(0, high, (len(OBS_FIELDS),), np.int64)
        self.observation_space = spaces.Box(0, np.tile(high, (num_envs, 1)), (num_envs, len(OBS_FIELDS)), np.int64)
        self._state = vk.state_arrays(self.rules.decks, num_envs)
        self._obs = np.zeros((num_envs, vk.OBS_SIZE), dtype=np.int64)
        self._gain = np.zeros(num_envs, dtype=np.int64)
        self._outcome = np.zeros(num_envs, dtype=np.int64)
        self._terminated = np.zeros(num_envs, dtype=np.bool_)
        self._truncated = np.zeros(num_envs, dtype=np.bool_)
        self.seed_used: int | str | None = None

    # ---------------------------------------------------------------------------------------------
    def bet(self, action: int) -> tuple[Spot, Decimal]:
        """The spot and stake of bet action ``action`` (1 …); 0 is no bet."""
        count = len(self.bet_sizes)
        return self.spots[(action - 1) // count], self.bet_sizes[(action - 1) % count]

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[IntArray, dict[str, Any]]:
        """A new shoe at every table; ``seed`` (an int) makes the run's shoes reproducible."""
        if isinstance(seed, list):
            raise ValueError("seed: one int seeds every table (table j is stream j of it), not a list")
        self.seed_used = seed if seed is not None else fresh_seed()
        shoes, rngs, T, K, V = self._state
        vk.seed_tables(seed_words(self.seed_used), 0, rngs)
        vk.reset_tables(self._rp, shoes, rngs, T, K, V, self._obs)
        return self._obs.copy(), {"action_mask": self.action_masks()}

    def step(self, actions: IntArray) -> tuple[IntArray, Array, Array, Array, dict[str, Any]]:
        chosen = np.asarray(actions, dtype=np.int64).reshape(-1)
        if chosen.shape[0] != self.num_envs:
            raise ValueError(f"actions: one for each of the {self.num_envs} tables, got {chosen.shape[0]}")
        shoes, rngs, T, K, V = self._state
        nat, pdraw, bstood, bthird = self._tableau
        vk.step_tables(
            self._rp, nat, pdraw, bstood, bthird, shoes, rngs, T, K, V, chosen, self._spot_of, self._size_of,
            self._legal, self.max_steps or 0, self._gain, self._outcome, self._terminated, self._truncated, self._obs,
        )  # fmt: skip
        if np.any(self._outcome == vk.O_SHORT):
            raise RulesError("a shoe ran out of cards before its cut card: the rules' cut card forbids it")
        refused = self._outcome == vk.O_REFUSED
        rewards = self._gain / self.unit - self.illegal_penalty * refused
        infos = {"action_mask": self.action_masks(), "net_minor": self._gain.copy(), "refused": refused}
        return self._obs.copy(), rewards, self._terminated.copy(), self._truncated.copy(), infos

    def action_masks(self) -> BoolArray:
        """Each table's legal actions now (``num_envs`` rows); a table about to start its new shoe offers
        every action (the action is not used)."""
        masks = np.tile(self._legal.astype(np.bool_), (self.num_envs, 1))
        masks[self._state[4][:, vk.V_RESET] == 1] = True
        return masks

    def shoe_cards(self, table: int) -> tuple[list[Card], int, int | None]:
        """Table ``table``'s shoe: every card, those drawn so far first and in the order drawn (the rest in
        no particular order: each is drawn uniformly among them when its turn comes), how many were drawn,
        and the cut card's position (cards above it; ``None`` for none)."""
        shoes, _, T, _, _ = self._state
        cards = [Card(RANKS[int(code) % 13], SUITS[int(code) // 13]) for code in shoes[table]]
        cut = int(T[table, bk.T_CUT])
        return cards, int(T[table, bk.T_POS]), (cut if cut >= 0 else None)


def _choices(
    rules: Rules, spots: Sequence[str] | None, bet_sizes: Sequence[object]
) -> tuple[tuple[Spot, ...], tuple[Decimal, ...]]:
    chosen = tuple(spots) if spots is not None else tuple(rules.spots)
    for spot in chosen:
        if spot not in rules.spots:
            raise RulesError(f"spots: {rules.preset} offers {', '.join(rules.spots)}; not {spot!r}")
    if not chosen or len(set(chosen)) != len(chosen):
        raise RulesError("spots: give each spot once, at least one")
    if not bet_sizes:
        raise RulesError("bet_sizes: give at least one bet size")
    sizes = tuple(parse_amount(size, what="bet size") for size in bet_sizes)
    for size in sizes:
        if size <= 0 or size != size.to_integral_value():
            raise RulesError(f"bet_sizes: the batch environment bets whole table units, not {size}")
    return cast(tuple[Spot, ...], chosen), sizes


def _fixed_mask(rules: Rules, spots: tuple[Spot, ...], sizes: tuple[Decimal, ...]) -> npt.NDArray[np.int8]:
    """The bets the engine takes from a lone bettor at a betting window (the same at every coup of rules
    whose ties leave nothing standing): asked of the engine's table itself."""
    table = BaccaratTable(rules, shuffled_shoes(rules, seeded(0))())
    assert table.phase is Phase.BETTING
    legal = np.zeros(1 + len(spots) * len(sizes), dtype=np.int8)
    legal[0] = 1
    for s, spot in enumerate(spots):
        for k, size in enumerate(sizes):
            legal[1 + s * len(sizes) + k] = table.can(PlaceBet("agent", spot, size))
    return legal
