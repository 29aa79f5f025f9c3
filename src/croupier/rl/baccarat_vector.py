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

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from croupier.baccarat.moves import PlaceBet
from croupier.baccarat.presets import baccarat_rules
from croupier.baccarat.rules import SPOTS, Rules, Spot
from croupier.baccarat.state import BaccaratTable, Phase, shuffled_shoes
from croupier.cards import RANKS
from croupier.errors import RulesError
from croupier.rl.baccarat import OBS_FIELDS, bet_choices
from croupier.rl.batch import BoolArray, IntArray, TableBatch
from croupier.rng import seeded
from croupier.sim import baccarat_batch as vk
from croupier.sim import baccarat_kernels as bk
from croupier.sim.baccarat import rule_parameters, tableau_arrays


class BaccaratVectorEnv(TableBatch):
    """``num_envs`` baccarat tables under ``preset`` and ``rules_overrides``; see the module docstring."""

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
        super().__init__(num_envs, illegal_penalty, max_steps)
        self.rules: Rules = baccarat_rules(preset, rules_overrides)
        if self.rules.tie_bets == "increase_only":
            raise RulesError(
                "tie_bets = increase_only: a bet that stood on a tie changes the mask from coup to coup (Art. 18); "
                "the batch environment takes rule sets whose mask is fixed: use BaccaratEnv for this one"
            )
        self.spots, self.bet_sizes = _choices(self.rules, spots, bet_sizes)
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
        self._outcome = np.zeros(num_envs, dtype=np.int64)

    # ---------------------------------------------------------------------------------------------
    def bet(self, action: int) -> tuple[Spot, Decimal]:
        """The spot and stake of bet action ``action`` (1 …); 0 is no bet."""
        count = len(self.bet_sizes)
        return self.spots[(action - 1) // count], self.bet_sizes[(action - 1) % count]

    def _seed_and_deal(self, seed: npt.NDArray[np.uint64]) -> IntArray:
        shoes, rngs, T, K, V = self._state
        vk.seed_tables(seed, 0, rngs)
        vk.reset_tables(self._rp, shoes, rngs, T, K, V, self._obs)
        return self._obs

    def _run(self, actions: IntArray) -> tuple[IntArray, BoolArray]:
        shoes, rngs, T, K, V = self._state
        nat, pdraw, bstood, bthird = self._tableau
        vk.step_tables(
            self._rp, nat, pdraw, bstood, bthird, shoes, rngs, T, K, V, actions, self._spot_of, self._size_of,
            self._legal, self.max_steps or 0, self._gain, self._outcome, self._terminated, self._truncated, self._obs,
        )  # fmt: skip
        if np.any(self._outcome == vk.O_SHORT):
            raise RulesError("a shoe ran out of cards before its cut card: the rules' cut card forbids it")
        return self._obs, self._outcome == vk.O_REFUSED

    def _shoe_rows(self) -> tuple[npt.NDArray[np.int8], IntArray, int, int]:
        shoes, _, T, _, _ = self._state
        return shoes, T, bk.T_POS, bk.T_CUT

    def action_masks(self) -> BoolArray:
        """Each table's legal actions now (``num_envs`` rows); a table about to start its new shoe offers
        every action (the action is not used)."""
        masks = np.tile(self._legal.astype(np.bool_), (self.num_envs, 1))
        masks[self._state[4][:, vk.V_RESET] == 1] = True
        return masks


def _choices(
    rules: Rules, spots: Sequence[str] | None, bet_sizes: Sequence[object]
) -> tuple[tuple[Spot, ...], tuple[Decimal, ...]]:
    """The single environment's choices (:func:`~croupier.rl.baccarat.bet_choices`), in whole units."""
    chosen, sizes = bet_choices(rules, spots, bet_sizes)
    for size in sizes:
        if size != size.to_integral_value():
            raise RulesError(f"bet_sizes: the batch environment bets whole table units, not {size}")
    return chosen, sizes


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
