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
from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode

from croupier.blackjack.presets import blackjack_rules
from croupier.blackjack.rules import Rules
from croupier.cards import RANKS, SUITS, Card
from croupier.errors import RulesError
from croupier.rl.encoding import OBS_SIZE, default_bet, observation_high
from croupier.rl.session import fresh_seed
from croupier.sim import blackjack_batch as bb
from croupier.sim import kernels as k
from croupier.sim.blackjack import seed_words

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
Array = npt.NDArray[Any]


class BlackjackVectorEnv(gym.vector.VectorEnv[IntArray, IntArray, Array]):
    """``num_envs`` one-box blackjack tables under ``preset`` and ``rules_overrides``; see the module docstring."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012 (gymnasium's name)

    def __init__(
        self,
        num_envs: int = 1,
        preset: str = "macau-1983",
        rules_overrides: Mapping[str, object] | None = None,
        *,
        illegal_penalty: float = 1.0,
        max_steps: int | None = 100,
    ) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs is a positive number of tables, got {num_envs!r}")
        if max_steps is not None and max_steps < 1:
            raise ValueError(f"max_steps is a positive number of steps or None, got {max_steps!r}")
        self.rules: Rules = blackjack_rules(preset, rules_overrides)
        self.overrides: dict[str, object] = dict(rules_overrides or {})
        refuse_unplayable(self.rules)
        self.num_envs = num_envs
        self.illegal_penalty = float(illegal_penalty)
        self.max_steps = max_steps
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
        self._gain = np.zeros(num_envs, dtype=np.int64)
        self._refused = np.zeros(num_envs, dtype=np.bool_)
        self._terminated = np.zeros(num_envs, dtype=np.bool_)
        self._truncated = np.zeros(num_envs, dtype=np.bool_)
        self.seed_used: int | str | None = None
        self._started = False

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[IntArray, dict[str, Any]]:
        """A new shoe and round at every table; ``seed`` (an int) makes the run's shoes reproducible."""
        if isinstance(seed, list):
            raise ValueError("seed: one int seeds every table (table j is stream j of it), not a list")
        self.seed_used = seed if seed is not None else fresh_seed()
        shoes, rngs, T, H, C, V, masks = self._state
        bb.seed_tables(seed_words(self.seed_used), 0, rngs)
        bb.reset_tables(self._rp, self._links, shoes, rngs, T, H, C, V, masks, self._obs)
        self._started = True
        return self._obs.copy(), {"action_mask": self.action_masks()}

    def step(self, actions: IntArray) -> tuple[IntArray, Array, Array, Array, dict[str, Any]]:
        if not self._started:  # the tables have no shoe yet (and their generators no seed)
            raise gym.error.ResetNeeded("reset the environment first: the tables have no shoe yet")
        chosen = np.asarray(actions, dtype=np.int64).reshape(-1)
        if chosen.shape[0] != self.num_envs:
            raise ValueError(f"actions: one for each of the {self.num_envs} tables, got {chosen.shape[0]}")
        shoes, rngs, T, H, C, V, masks = self._state
        bb.step_tables(
            self._rp, self._links, shoes, rngs, T, H, C, V, masks, chosen, self.max_steps or 0, self._gain,
            self._refused, self._terminated, self._truncated, self._obs,
        )  # fmt: skip
        refused = self._refused.copy()
        rewards = self._gain / self.unit - self.illegal_penalty * refused
        infos = {"action_mask": self.action_masks(), "net_minor": self._gain.copy(), "refused": refused}
        return self._obs.copy(), rewards, self._terminated.copy(), self._truncated.copy(), infos

    def action_masks(self) -> BoolArray:
        """Each table's legal actions now (``num_envs`` rows); a table about to deal its next round offers
        every action (the action is not used)."""
        return self._state[6].astype(np.bool_)

    @property
    def shoe_numbers(self) -> IntArray:
        """How many shoes each table has started since :meth:`reset` (1 for the first)."""
        return self._state[5][:, bb.V_SHOE].copy()

    def shoe_cards(self, table: int) -> tuple[list[Card], int, int | None]:
        """Table ``table``'s shoe: every card, those drawn so far first and in the order drawn (the rest in
        no particular order: each is drawn uniformly among them when its turn comes), how many were drawn,
        and the cut card's position (cards above it; ``None`` for none)."""
        shoes, _, T, *_ = self._state
        cards = [Card(RANKS[int(code) % 13], SUITS[int(code) // 13]) for code in shoes[table]]
        cut = int(T[table, k.T_CUT])
        return cards, int(T[table, k.T_POS]), (cut if cut >= 0 else None)


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
