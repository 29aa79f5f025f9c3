"""A Gymnasium environment for the betting decisions of a baccarat shoe (docs/rules.md §4).

One episode is one shoe of :class:`~croupier.baccarat.state.BaccaratTable` (with an automatic
shuffler, Art. 2.3 and 7.2, one coup): each step is one coup. The agent bets one of ``bet_sizes``
on one spot the rules offer, or sits the coup out; the engine deals the tableau and settles. The
shoe starts with its burns (Art. 2.1) and ends with the coup the cut card rule makes the last
(Art. 3.1); no demonstration coups are dealt (Art. 2.2 allows up to ``demo_coups``).

Actions: ``Discrete(1 + len(spots) × len(bet_sizes))``; 0 is no bet, ``1 + s × len(bet_sizes) + k``
bets ``bet_sizes[k]`` on ``spots[s]`` (default :attr:`Rules.spots`: player, banker, tie,
player_pair, banker_pair, and lucky_6 where offered). ``info["action_mask"]`` holds the bets the
engine takes now (:meth:`BaccaratTable.can_place_bet`: table limits, banker multiples, the side
imbalance cap, and a bet that stood on a tie under ``tie_bets = increase_only``).

Observation (``np.int64``, :data:`OBS_FIELDS`): ``coup`` (coups dealt in this shoe), ``remaining``
(cards left in the shoe), ``seen_A`` … ``seen_K`` (cards of each rank seen face up since the shuffle,
the first card turned at the shoe's start included, burns not), ``winner`` of the last coup (0 none,
1 player, 2 banker, 3 tie), its ``player_total`` and ``banker_total``.

An action outside the mask is refused (the coup is not dealt, the reward is ``-illegal_penalty``,
one table unit by default, and ``info["illegal_action"]`` holds the engine's reason) or, with
``illegal_action="raise"``, raises it. ``max_steps`` (default 1,000, refused steps included)
truncates a shoe that an agent stalls. ``mask_in_obs`` makes the observation
``{"observation": vector, "action_mask": mask}``; :meth:`BaccaratEnv.action_masks` gives the mask
either way. ``render_mode="ansi"``: :meth:`BaccaratEnv.render` writes the last coup.

Reward: the agent's net of the coup in table units (commission included). ``reset(seed=…)``
starts a seeded stream of shoes (:func:`croupier.rng.seeded`); :meth:`BaccaratEnv.transcript`
writes the shoe so far as a transcript that ``croupier replay`` replays to the same result.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any, cast

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from croupier.baccarat.moves import PlaceBet
from croupier.baccarat.presets import PRESETS, baccarat_rules
from croupier.baccarat.rules import Rules, Spot
from croupier.baccarat.state import BaccaratTable, CardDealt, FirstCardTurned, Phase, shuffled_shoes
from croupier.cards import RANKS
from croupier.errors import BetError, CroupierError, IllegalActionError, RulesError
from croupier.money import ZERO, format_amount, parse_amount
from croupier.rl.encoding import RANK_INDEX, Mask, Obs, Observation
from croupier.rl.session import fresh_seed
from croupier.rng import seeded

AGENT = "agent"
OBS_FIELDS: tuple[str, ...] = (
    "coup",
    "remaining",
    *(f"seen_{rank}" for rank in RANKS),
    "winner",
    "player_total",
    "banker_total",
)
"""The observation vector's entries, in order (module docstring)."""
_SEEN = 2
_WINNER = {"player": 1, "banker": 2, "tie": 3}


def bet_choices(
    rules: Rules, spots: Sequence[str] | None, bet_sizes: Sequence[object]
) -> tuple[tuple[Spot, ...], tuple[Decimal, ...]]:
    """The spots an agent may bet (default: every spot the rules offer) and the bet sizes, checked: each
    spot once and offered by the rules, at least one positive size."""
    chosen = tuple(spots) if spots is not None else tuple(rules.spots)
    for spot in chosen:
        if spot not in rules.spots:
            raise RulesError(f"spots: {rules.preset} offers {', '.join(rules.spots)}; not {spot!r}")
    if not chosen or len(set(chosen)) != len(chosen):
        raise RulesError("spots: give each spot once, at least one")
    if not bet_sizes:
        raise RulesError("bet_sizes: give at least one bet size")
    sizes = tuple(parse_amount(size, what="bet size") for size in bet_sizes)
    if any(size <= 0 for size in sizes):
        raise RulesError("bet_sizes: a bet is a positive amount")
    return cast(tuple[Spot, ...], chosen), sizes


class BaccaratEnv(gym.Env[Observation, np.int64]):
    """The betting decisions of a baccarat shoe under ``preset`` and ``rules_overrides``; see the module docstring."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012 (gymnasium's name)

    def __init__(
        self,
        preset: str = "macau",
        rules_overrides: Mapping[str, object] | None = None,
        *,
        bet_sizes: Sequence[object] = (1,),
        spots: Sequence[str] | None = None,
        illegal_action: str = "refuse",
        illegal_penalty: float = 1.0,
        max_steps: int | None = 1000,
        mask_in_obs: bool = False,
        render_mode: str | None = None,
    ) -> None:
        self.rules: Rules = baccarat_rules(preset, rules_overrides)
        rules = self.rules
        self.spots, self.bet_sizes = bet_choices(rules, spots, bet_sizes)
        if illegal_action not in ("refuse", "raise"):
            raise ValueError(f"illegal_action is 'refuse' or 'raise', got {illegal_action!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is None or 'ansi', got {render_mode!r}")
        if max_steps is not None and max_steps < 1:
            raise ValueError(f"max_steps is a positive number of steps or None, got {max_steps!r}")
        self.illegal_action = illegal_action
        self.illegal_penalty = float(illegal_penalty)
        self.max_steps = max_steps
        self.mask_in_obs = mask_in_obs
        self.render_mode = render_mode
        self.actions = spaces.Discrete(1 + len(self.spots) * len(self.bet_sizes))
        self.action_space = self.actions
        cards = rules.decks * 52
        high = [cards // 4 + 1, cards, *([4 * rules.decks] * len(RANKS)), 3, 9, 9]
        vector = spaces.Box(0, np.array(high, dtype=np.int64), (len(OBS_FIELDS),), np.int64)
        mask_space = spaces.Box(0, 1, (self.actions.n,), np.int8)
        self.observation_space: spaces.Space[Any] = (
            spaces.Dict({"observation": vector, "action_mask": mask_space}) if mask_in_obs else vector
        )
        self.seed_used: int | None = None
        self.shoe_number = 0
        self.rounds: list[dict[str, Any]] = []
        self._new_shoe: Any = None
        self._table: BaccaratTable | None = None
        self._orders: list[list[str]] = []
        self._cut: int | None = None
        self._seen = np.zeros(len(RANKS), dtype=np.int64)
        self._read = 0
        self._last: tuple[int, int, int] = (0, 0, 0)
        self._steps = 0
        self._last_text: str | None = None

    # ---------------------------------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """A new shoe; ``seed`` starts a new seeded stream of shoes."""
        super().reset(seed=seed)
        if seed is not None or self._new_shoe is None:
            self.seed_used = seed if seed is not None else fresh_seed()
            self._new_shoe = shuffled_shoes(self.rules, seeded(self.seed_used))
            self.shoe_number = 0
        shoe = self._new_shoe()
        self.shoe_number += 1
        self._table = BaccaratTable(self.rules, shoe)
        self._orders = [[str(card) for card in shoe.drawn() + shoe.remaining_cards()]]
        self._cut = shoe.cut_card
        self.rounds = []
        self._seen[:] = 0
        self._read = 0
        self._last = (0, 0, 0)
        self._steps = 0
        self._last_text = None
        info = self._info()
        info["shoe_seed"] = self.seed_used
        info["shoe"] = self.shoe_number
        return self._wrap(self._observe(), info), info

    def step(self, action: object) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self._step(action)
        self._steps += 1
        if not terminated and self.max_steps is not None and self._steps >= self.max_steps:
            truncated = True  # between coups: nothing is in play
            info["step_limit"] = self.max_steps
        return self._wrap(obs, info), reward, terminated, truncated, info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions now, as booleans (sb3-contrib's ``MaskablePPO`` calls this)."""
        return self._mask().astype(np.bool_)

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self._table is None:
            return None
        return self._last_text or f"shoe {self.shoe_number}: no coup dealt yet"

    def _wrap(self, obs: Obs, info: dict[str, Any]) -> Observation:
        if self.mask_in_obs:
            return {"observation": obs, "action_mask": info["action_mask"].copy()}
        return obs

    def _step(self, action: object) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        table = self.table
        index = int(action)  # type: ignore[call-overload]
        mask = self._mask()
        if not (0 <= index < mask.shape[0] and mask[index]):
            reason = self._reason(index)
            if self.illegal_action == "raise":
                raise IllegalActionError(reason)
            info = self._info()
            info["illegal_action"] = reason
            return self._observe(), -self.illegal_penalty, False, False, info
        bets: list[dict[str, str]] = []
        if index:
            spot, amount = self._bet(index)
            table.apply(PlaceBet(AGENT, spot, amount))
            bets.append({"player": AGENT, "on": spot, "amount": format_amount(amount)})
        table.start_coup()
        result = table.last_result
        assert result is not None
        self.rounds.append({"bets": bets})
        cards = result.cards
        self._last = (_WINNER[cards.winner], cards.player_total, cards.banker_total)
        net = result.net.get(AGENT, ZERO)
        info = self._info()
        info["net"] = format_amount(net)
        info["winner"] = cards.winner
        self._last_text = (
            f"coup {table.coup}: {cards.winner} (player {cards.player_total}, banker {cards.banker_total}); "
            f"agent {format_amount(net)}"
        )
        return self._observe(), float(net), result.last_coup, False, info

    # ---------------------------------------------------------------------------------------------
    @property
    def table(self) -> BaccaratTable:
        if self._table is None:
            raise IllegalActionError("reset the environment first")
        return self._table

    def verify_action(self, action: int) -> None:
        """Raise the engine's reason why ``action`` is refused now, or return."""
        table = self.table
        if not 0 <= action < self.actions.n:
            raise IllegalActionError(f"no action {action}")
        standing = self._standing()
        if action == 0:
            table.verify_start_coup()  # refuses a coup without the bet that stood on a tie (increase_only)
            if standing:
                raise BetError(f"a bet that stood on a tie may only be increased (Art. 18): {standing}")
            return
        spot, amount = self._bet(action)
        table.verify(PlaceBet(AGENT, spot, amount))
        for (_, stood), stake in standing.items():
            if stood != spot or amount < stake:
                raise BetError(
                    f"{self.rules.preset} (tie_bets = increase_only) lets the {stood} bet of {format_amount(stake)} "
                    "that stood on a tie only be increased (Art. 18)"
                )

    def transcript(self) -> dict[str, Any]:
        """The shoe so far as a baccarat transcript (docs/transcript.md); it replays to the same coups."""
        rules = self.rules
        base = PRESETS[rules.preset].describe()
        overrides = {name: value for name, value in rules.describe().items() if base.get(name) != value}
        doc: dict[str, Any] = {"game": "baccarat", "rules": rules.preset}
        if overrides:
            doc["overrides"] = overrides
        doc["shoe"] = self._orders[0]
        if self._cut is not None:
            doc["cut_card"] = self._cut
        doc["rounds"] = list(self.rounds)
        return doc

    # ---------------------------------------------------------------------------------------------
    def _bet(self, action: int) -> tuple[Spot, Decimal]:
        count = len(self.bet_sizes)
        offset = action - 1
        return self.spots[offset // count], self.bet_sizes[offset % count]

    def _standing(self) -> dict[tuple[str, Spot], Decimal]:
        if self.rules.tie_bets != "increase_only":
            return {}
        return self.table.standing_bets

    def _reason(self, index: int) -> str:
        try:
            self.verify_action(index)
        except CroupierError as error:
            return str(error)
        return f"action {index} is not offered now"

    def _mask(self) -> Mask:
        table = self.table
        mask: Mask = np.zeros(self.actions.n, dtype=np.int8)
        if table.phase is not Phase.BETTING:
            return mask
        standing = self._standing()
        mask[0] = not standing
        count = len(self.bet_sizes)
        for s, spot in enumerate(self.spots):
            for k, amount in enumerate(self.bet_sizes):
                if not table.can(PlaceBet(AGENT, spot, amount)):
                    continue
                if any(stood != spot or amount < stake for (_, stood), stake in standing.items()):
                    continue
                mask[1 + s * count + k] = 1
        return mask

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._mask()}

    def _observe(self) -> Obs:
        table = self.table
        operations = table.operations_since(self._read)
        self._read += len(operations)
        for operation in operations:
            if isinstance(operation, CardDealt | FirstCardTurned):
                self._seen[RANK_INDEX[operation.card.rank]] += 1
        shoe = table.shoe
        assert shoe is not None
        obs = np.zeros(len(OBS_FIELDS), dtype=np.int64)
        obs[0] = table.coup
        obs[1] = shoe.remaining
        obs[_SEEN : _SEEN + len(RANKS)] = self._seen
        obs[_SEEN + len(RANKS) :] = self._last
        return obs
