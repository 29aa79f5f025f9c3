"""A batch of one-box blackjack tables stepped in one compiled call: Gymnasium's ``VectorEnv``.

:class:`BlackjackVectorEnv` is ``num_envs`` copies of :class:`~croupier.rl.blackjack.BlackjackEnv` without
bets (the same actions, observation, mask, illegal-action penalty and step limit; one episode is one
round, bet one table unit; docs/rl.md) whose rounds are played by the blackjack simulator's compiled
steps (:mod:`croupier.sim.blackjack_batch`), each round a resumable state machine that stops at the
agent's decisions: one call to :meth:`step` takes one decision at every table. The engine stays the
judge: the twin tests replay every shoe the batch dealt through the single environment over the same
cards (its :class:`~croupier.blackjack.state.Table` and ``Round.apply``) with the same actions and find
the same observations, masks, nets and episode ends (tests/rl/test_blackjack_vector.py).

What differs from the single environment, by design:

* The shoes come from the simulator's generator (xoshiro256**, one stream per table, seeded by
  :meth:`reset`'s ``seed``), not from :func:`croupier.rng.seeded`; :meth:`shoe_cards` gives a table's
  shoe (the cards drawn so far in order) for a transcript or a replay, :attr:`shoe_numbers` how many
  shoes each table has started.
* Autoreset is Gymnasium's default, next step (``metadata["autoreset_mode"]``): the step after a
  table's episode ended deals its next round, ignores its action and returns reward 0 (a round the
  deal settles shows phase ``over`` with one legal action, acknowledge, as the single environment's
  ``reset`` does).
* The bet is one table unit (rule sets whose limits forbid it are refused), no bet decisions; rewards
  are float64 table units and ``infos["net_minor"]`` holds each step's exact net in minor units
  (``self.unit`` of them to a table unit).
* A rule set the compiled round does not play exactly is refused in ``__init__`` with the rule named.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from croupier.blackjack.presets import blackjack_rules
from croupier.blackjack.rules import Rules
from croupier.errors import RulesError
from croupier.rl.batch import BoolArray, IntArray, TableBatch
from croupier.rl.encoding import OBS_SIZE, default_bet, observation_high
from croupier.sim import blackjack_batch as bb
from croupier.sim import kernels as k


class BlackjackVectorEnv(TableBatch):
    """``num_envs`` one-box blackjack tables under ``preset`` and ``rules_overrides``; see the module docstring."""

    def __init__(
        self,
        num_envs: int = 1,
        preset: str = "macau-1983",
        rules_overrides: Mapping[str, object] | None = None,
        *,
        illegal_penalty: float = 1.0,
        max_steps: int | None = 100,
    ) -> None:
        super().__init__(num_envs, illegal_penalty, max_steps)
        self.rules: Rules = blackjack_rules(preset, rules_overrides)
        self.overrides: dict[str, object] = dict(rules_overrides or {})
        refuse_unplayable(self.rules)
        self._rp = bb.batch_parameters(self.rules)
        self.unit = int(self._rp[k.R_UNIT])
        self._links = np.full((1, 10), -1, dtype=np.int64)
        self.single_action_space = spaces.Discrete(bb.ACTIONS)
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, bb.ACTIONS, dtype=np.int64))
        high = observation_high(self.rules)
        self.single_observation_space = spaces.Box(0, high, (OBS_SIZE,), np.int64)
        self.observation_space = spaces.Box(0, np.tile(high, (num_envs, 1)), (num_envs, OBS_SIZE), np.int64)
        self._state = bb.state_arrays(self.rules.decks, num_envs)
        self._obs = np.zeros((num_envs, bb.OBS_SIZE), dtype=np.int64)
        self._refused = np.zeros(num_envs, dtype=np.bool_)

    def _seed_and_deal(self, seed: npt.NDArray[np.uint64]) -> IntArray:
        shoes, rngs, T, H, C, V, masks = self._state
        bb.seed_tables(seed, 0, rngs)
        bb.reset_tables(self._rp, self._links, shoes, rngs, T, H, C, V, masks, self._obs)
        return self._obs

    def _run(self, actions: IntArray) -> tuple[IntArray, BoolArray]:
        shoes, rngs, T, H, C, V, masks = self._state
        bb.step_tables(
            self._rp, self._links, shoes, rngs, T, H, C, V, masks, actions, self.max_steps or 0, self._gain,
            self._refused, self._terminated, self._truncated, self._obs,
        )  # fmt: skip
        return self._obs, self._refused.copy()

    def _shoe_rows(self) -> tuple[npt.NDArray[np.int8], IntArray, int, int]:
        shoes, _, T, *_ = self._state
        return shoes, T, k.T_POS, k.T_CUT

    def action_masks(self) -> BoolArray:
        """Each table's legal actions now (``num_envs`` rows); a table about to deal its next round offers
        every action (the action is not used)."""
        return self._state[6].astype(np.bool_)

    @property
    def shoe_numbers(self) -> IntArray:
        """How many shoes each table has started since :meth:`reset` (1 for the first)."""
        return self._state[5][:, bb.V_SHOE].copy()


def refuse_unplayable(rules: Rules) -> None:
    """Raise :class:`RulesError` naming the rule where the compiled round would not play ``rules`` exactly."""
    if default_bet(rules) != 1:
        raise RulesError(
            "min_bet / max_bet: the batch environment bets one table unit a round; "
            f"{rules.preset}'s limits ({rules.min_bet} to {rules.max_bet}) forbid it: use BlackjackEnv"
        )
    if rules.cut_card is None and not rules.metal_box:
        raise RulesError(
            "cut_card = none: rounds are dealt to the shoe's end and void when it runs out (Art. 2.1), where the "
            "compiled round would show a stand-in card; the batch environment takes a cut card: use BlackjackEnv"
        )
