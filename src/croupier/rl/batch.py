"""What the batch environments share (:class:`~croupier.rl.baccarat_vector.BaccaratVectorEnv`,
:class:`~croupier.rl.blackjack_vector.BlackjackVectorEnv`): their arguments' checks, the seed and the
refusal of a step before the first reset, the step's results, and a table's shoe. Each game supplies
its compiled kernels through :meth:`TableBatch._seed_and_deal` and :meth:`TableBatch._run`."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode

from croupier.cards import RANKS, SUITS, Card
from croupier.rl.session import fresh_seed

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
Array = npt.NDArray[Any]


class TableBatch(gym.vector.VectorEnv[IntArray, IntArray, Array]):
    """``num_envs`` tables stepped by one call of a game's compiled kernels; see the module docstring."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012 (gymnasium's name)
    unit: int
    """Minor units to a table unit (``infos["net_minor"]``)."""

    def __init__(self, num_envs: int, illegal_penalty: float, max_steps: int | None) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs is a positive number of tables, got {num_envs!r}")
        if max_steps is not None and max_steps < 1:
            raise ValueError(f"max_steps is a positive number of steps or None, got {max_steps!r}")
        self.num_envs = num_envs
        self.illegal_penalty = float(illegal_penalty)
        self.max_steps = max_steps
        self.seed_used: int | str | None = None
        self._started = False
        self._gain = np.zeros(num_envs, dtype=np.int64)
        self._terminated = np.zeros(num_envs, dtype=np.bool_)
        self._truncated = np.zeros(num_envs, dtype=np.bool_)

    # the game's kernels ------------------------------------------------------------------------
    def _seed_and_deal(self, seed: npt.NDArray[np.uint64]) -> IntArray:
        """Seed every table's generator from the run's two words and start every table; the observations."""
        raise NotImplementedError

    def _run(self, actions: IntArray) -> tuple[IntArray, BoolArray]:
        """One step of every table (the net of each in ``self._gain``, the ends in ``self._terminated``
        and ``self._truncated``); the observations and which actions were refused."""
        raise NotImplementedError

    def _shoe_rows(self) -> tuple[npt.NDArray[np.int8], IntArray, int, int]:
        """Every table's shoe, its table rows, and the indexes of the cards drawn and the cut card in them."""
        raise NotImplementedError

    def action_masks(self) -> BoolArray:
        raise NotImplementedError

    # the interface ---------------------------------------------------------------------------
    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[IntArray, dict[str, Any]]:
        """A new start at every table; ``seed`` (an int) makes the run's shoes reproducible (table ``j`` is
        the simulator's stream ``j`` of it)."""
        from croupier.sim.generator import seed_words

        if isinstance(seed, list):
            raise ValueError("seed: one int seeds every table (table j is stream j of it), not a list")
        self.seed_used = seed if seed is not None else fresh_seed()
        obs = self._seed_and_deal(seed_words(self.seed_used))
        self._started = True
        return obs.copy(), {"action_mask": self.action_masks()}

    def step(self, actions: IntArray) -> tuple[IntArray, Array, Array, Array, dict[str, Any]]:
        if not self._started:  # the tables have no shoe yet (and their generators no seed)
            raise gym.error.ResetNeeded("reset the environment first: the tables have no shoe yet")
        chosen = np.asarray(actions, dtype=np.int64).reshape(-1)
        if chosen.shape[0] != self.num_envs:
            raise ValueError(f"actions: one for each of the {self.num_envs} tables, got {chosen.shape[0]}")
        obs, refused = self._run(chosen)
        rewards = self._gain / self.unit - self.illegal_penalty * refused
        infos = {"action_mask": self.action_masks(), "net_minor": self._gain.copy(), "refused": refused}
        return obs.copy(), rewards, self._terminated.copy(), self._truncated.copy(), infos

    def shoe_cards(self, table: int) -> tuple[list[Card], int, int | None]:
        """Table ``table``'s shoe: every card, those drawn so far first and in the order drawn (the rest in
        no particular order: each is drawn uniformly among them when its turn comes), how many were drawn,
        and the cut card's position (cards above it; ``None`` for none)."""
        shoes, T, pos, cut_at = self._shoe_rows()
        cards = [Card(RANKS[int(code) % 13], SUITS[int(code) // 13]) for code in shoes[table]]
        cut = int(T[table, cut_at])
        return cards, int(T[table, pos]), (cut if cut >= 0 else None)
