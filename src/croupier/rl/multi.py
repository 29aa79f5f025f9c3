"""A multi-seat PettingZoo (AEC) blackjack environment: up to seven agents at one table.

Agents ``seat_1`` … ``seat_n`` sit at boxes 1 … n; agents ``behind_1`` … have no box and bet behind
a box where the rules allow it (``bet_behind``, Art. 13; online §4.5 refuses). An episode is one
round, played in the rules' order:

1. the bets: each agent in turn (seats by box, then the agents behind) bets one of ``bet_sizes`` on
   one box (its own, an empty one, or behind another where the engine allows it) or sits out
   (action 8); a round with no bet is not dealt;
2. insurance and even money against an ace: each bettor with an offer answers in turn (Art. 6, 8);
3. the play decisions, box 1 first; a box's decisions belong to its deciding bettor, the highest
   bet (Art. 13: :meth:`Round.decider`): the engine names who acts, and that agent is selected;
4. the dealer and the settlement; every agent is then terminated with its reward.

Spaces, masks and encodings are those of :mod:`croupier.rl.encoding` (multi-seat bet layout). As in
PettingZoo's classic environments, :meth:`BlackjackAEC.observe` gives
``{"observation": vector, "action_mask": mask}`` (the mask is all zeros for an agent not to act);
``mask_in_obs=False`` gives the vector alone. The mask is also in ``infos[agent]["action_mask"]``.
Each step's reward to every agent is the change of its net this round; an agent's return over the
episode is its net for the round. The shoe carries over between episodes as in the single-agent
environment, and :meth:`BlackjackAEC.transcript` writes the shoe's rounds for ``croupier replay``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

import numpy as np
from gymnasium import spaces

from croupier.extras import missing_extra_message

try:
    from pettingzoo import AECEnv  # type: ignore[import-untyped]
except ModuleNotFoundError as error:  # name the extra, not just the module
    raise ModuleNotFoundError(
        missing_extra_message(error, "croupier.rl.multi") or str(error), name=error.name
    ) from error

from croupier.blackjack import actions as op
from croupier.blackjack import moves
from croupier.blackjack.presets import blackjack_rules
from croupier.blackjack.rules import Rules
from croupier.blackjack.state import Round
from croupier.errors import CroupierError, IllegalActionError, RulesError
from croupier.money import ZERO, format_amount
from croupier.rl.blackjack import describe_round, insurance_cap, up_rank, verify_action
from croupier.rl.encoding import (
    EVEN_MONEY,
    FIRST_BET,
    INSURANCE,
    NO_BET,
    NO_INSURANCE,
    OBS_SIZE,
    PHASE_BET,
    PHASE_DECISION,
    PHASE_INSURANCE,
    PHASE_OVER,
    PHASE_WAIT,
    PLAY_INDEX,
    REMAINING,
    SEEN,
    Mask,
    Obs,
    Observation,
    engine_action,
    observation_space,
    read_bet_sizes,
    up_value,
    write_hand,
)
from croupier.rl.session import TableSession, fresh_seed

MAX_AGENTS = 7
"""The most agents at one table."""


class BlackjackAEC(AECEnv):  # type: ignore[misc]
    """Several agents at one blackjack table; see the module docstring.

    ``seats``: agents with a box (1-``rules.boxes``); ``behind``: agents without one, who bet behind
    (needs ``bet_behind``); seven agents at most. ``bet_sizes``: the amounts an agent may bet.
    An action outside the agent's mask is refused: nothing else changes, the agent stays selected, its
    reward is ``-illegal_penalty`` (one table unit by default) and its ``info["illegal_action"]`` holds
    the engine's reason (``illegal_action="raise"`` raises it).
    """

    metadata: dict[str, Any] = {"name": "croupier_blackjack_v0", "render_modes": ["ansi"], "is_parallelizable": False}  # noqa: RUF012

    def __init__(
        self,
        preset: str = "macau-1983",
        rules_overrides: Mapping[str, object] | None = None,
        *,
        seats: int = 3,
        behind: int = 0,
        bet_sizes: Sequence[object] = (1,),
        illegal_action: str = "refuse",
        illegal_penalty: float = 1.0,
        mask_in_obs: bool = True,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.rules: Rules = blackjack_rules(preset, rules_overrides)
        rules = self.rules
        if not 1 <= seats <= rules.boxes:
            raise RulesError(f"seats: {rules.preset} has boxes 1-{rules.boxes} (Art. 2.3); asked for {seats}")
        if behind < 0 or seats + behind > MAX_AGENTS:
            raise RulesError(f"at most {MAX_AGENTS} agents at one table; asked for {seats} seats and {behind} behind")
        if behind and not rules.bet_behind:
            raise RulesError(f"{rules.preset} takes no bets behind (online §4.5; bet_behind=false)")
        if illegal_action not in ("refuse", "raise"):
            raise ValueError(f"illegal_action is 'refuse' or 'raise', got {illegal_action!r}")
        self.bet_sizes: tuple[Decimal, ...] = read_bet_sizes(rules, bet_sizes)
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self.possible_agents: list[str] = [f"seat_{i}" for i in range(1, seats + 1)]
        self.possible_agents += [f"behind_{i}" for i in range(1, behind + 1)]
        self.seated: dict[int, str] = {i: f"seat_{i}" for i in range(1, seats + 1)}
        size = FIRST_BET + rules.boxes * len(self.bet_sizes)
        self.action_spaces = {agent: spaces.Discrete(size) for agent in self.possible_agents}
        self.mask_in_obs = mask_in_obs
        self.illegal_penalty = float(illegal_penalty)
        self.observation_spaces = {agent: observation_space(rules, size, mask_in_obs) for agent in self.possible_agents}
        self.session = TableSession(rules)
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection: str = self.possible_agents[0]
        self._round: Round | None = None
        self._betting: list[str] = []
        self._insurance: list[str] | None = None
        self._boxes: dict[str, int] = {}
        self._paid = 0
        self._given: dict[str, float] = {}
        self._obs: Obs = np.zeros(OBS_SIZE, dtype=np.int64)

    # ---------------------------------------------------------------------------------------------
    # the PettingZoo API
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        session = self.session
        if seed is not None:
            session.start(seed)
        elif not session.started:
            session.start(fresh_seed())
        elif options and options.get("new_shoe"):
            session.new_shoe()
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self._given = dict.fromkeys(self.agents, 0.0)
        self._round = session.open_round(self.seated)
        self._betting = list(self.agents)
        self._insurance = None
        self._boxes = {}
        self._paid = 0
        self._select(self._betting[0])

    def observe(self, agent: str) -> Observation:
        vector = self._vector(agent)
        if not self.mask_in_obs:
            return vector
        mask = self.infos.get(agent, {}).get("action_mask")
        live = agent == self.agent_selection and not (self.terminations[agent] or self.truncations[agent])
        if mask is None or not live:
            mask = np.zeros(self.action_spaces[agent].n, dtype=np.int8)
        return {"observation": vector, "action_mask": mask.copy()}

    def _vector(self, agent: str) -> Obs:
        current = self.round
        obs = self._obs
        session = self.session
        session.update_seen(current)
        obs[SEEN:REMAINING] = session.seen
        obs[REMAINING] = current.shoe.remaining
        box = self._boxes.get(agent, 0)
        obs[9] = box
        pending = current.pending
        hands = current.hands.get(box) if box else None
        selected = agent == self.agent_selection and not (self.terminations[agent] or self.truncations[agent])
        up = up_value(up_rank(current))
        if current.ended or current.voided or not self.agents:
            obs[0] = PHASE_OVER
        elif not selected:
            obs[0] = PHASE_WAIT
        elif isinstance(pending, op.AwaitBets):
            obs[0] = PHASE_BET
        elif isinstance(pending, op.AwaitInsurance):
            obs[0] = PHASE_INSURANCE
        else:
            obs[0] = PHASE_DECISION
        if isinstance(pending, op.AwaitDecision) and pending.box == box and hands:
            write_hand(obs, hands[pending.hand], pending.hand, len(hands), up)
        elif hands:
            last = len(hands) - 1
            write_hand(obs, hands[last], last, len(hands), up)
        else:
            write_hand(obs, None, 0, 0, up)
        return obs.copy()

    def step(self, action: object) -> None:
        agent = self.agent_selection
        if self.terminations.get(agent) or self.truncations.get(agent):
            self._was_dead_step(action)
            return
        current = self.round
        index = int(action)  # type: ignore[call-overload]
        mask = self.infos[agent]["action_mask"]
        if not (0 <= index < mask.shape[0] and mask[index]):
            self._refuse(agent, index)
            return
        self._cumulative_rewards[agent] = 0.0
        for name in self.rewards:
            self.rewards[name] = 0.0
        self.infos[agent] = {}
        self._perform(current, agent, index)
        paid = current.payments
        if len(paid) > self._paid:
            for payment in paid[self._paid :]:
                self.rewards[payment.player] += float(payment.amount)
            self._paid = len(paid)
        if current.voided and current.cards_drawn:  # the shoe ran out: every stake is returned (Art. 2.1)
            for name in self.agents:
                self.rewards[name] = -self._given[name]
        for name in self.agents:
            self._given[name] += self.rewards[name]
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self._round is None:
            return None
        return describe_round(self._round)

    def close(self) -> None:
        pass

    # ---------------------------------------------------------------------------------------------
    # what the engine says
    @property
    def round(self) -> Round:
        if self._round is None:
            raise IllegalActionError("reset the environment first")
        return self._round

    def verify_action(self, agent: str, action: int) -> None:
        """Raise the engine's reason why ``agent`` may not take ``action`` now (its ``verify_`` faces), or return."""
        current = self.round
        if agent != self.agent_selection:
            raise IllegalActionError(f"{agent} is not to act; {self.agent_selection} is")
        verify_action(current, action, self._boxes.get(agent), agent, self.bet_sizes, single=False)

    def transcript(self) -> dict[str, Any]:
        """The shoe in play up to its latest settled round, as a transcript (docs/transcript.md)."""
        return self.session.transcript()

    # ---------------------------------------------------------------------------------------------
    # internals
    def _perform(self, current: Round, agent: str, index: int) -> None:
        if index >= FIRST_BET or index == NO_BET:
            if index != NO_BET:
                count = len(self.bet_sizes)
                box = (index - FIRST_BET) // count + 1
                current.bet(agent, box, self.bet_sizes[(index - FIRST_BET) % count])
                self._boxes[agent] = box
            self._betting.pop(0)
            if self._betting:
                self._select(self._betting[0])
                return
            if not current.bets:  # nobody bet: the round is not dealt
                current.void("no bets")
                self._end(truncated=False)
                return
            current.deal()
        elif index in (INSURANCE, EVEN_MONEY, NO_INSURANCE):
            box = self._boxes[agent]
            if index != NO_INSURANCE:  # declining closes nothing: another seat may still answer
                cap = insurance_cap(current, agent, box) if index == INSURANCE else None
                current.apply(engine_action(index, box, agent, cap))
            assert self._insurance is not None
            self._insurance.pop(0)
        else:
            current.apply(engine_action(index, self._boxes[agent], agent))
        self._advance(current)

    def _advance(self, current: Round) -> None:
        while True:
            pending = current.pending
            if pending is None:
                self.session.finished(current)
                self._end(truncated=False)
                return
            if isinstance(pending, op.AwaitDecision):
                self._select(pending.player)
                return
            if isinstance(pending, op.AwaitInsurance):
                if self._insurance is None:
                    offered = [
                        a.player
                        for a in current.legal_actions()
                        if a.type in (moves.Insure, moves.TakeEvenMoney) and a.player is not None
                    ]
                    self._insurance = list(dict.fromkeys(offered))
                if self._insurance:
                    self._select(self._insurance[0])
                    return
                current.close_insurance()
                continue
            if isinstance(pending, op.AwaitCard):
                self.session.ran_out(current)
                self._end(truncated=True)
                return
            raise IllegalActionError(f"the environment cannot go on: the round waits for {pending}")

    def _end(self, *, truncated: bool) -> None:
        for agent in self.agents:
            if truncated:
                self.truncations[agent] = True
            else:
                self.terminations[agent] = True
            self.infos[agent] = {"action_mask": np.zeros(self.action_spaces[agent].n, dtype=np.int8)}
            if self._round is not None:
                self.infos[agent]["net"] = format_amount(self._round.net().get(agent, ZERO))
        self.agent_selection = self.agents[0]

    def _select(self, agent: str) -> None:
        self.agent_selection = agent
        self.infos[agent] = {"action_mask": self._mask(agent)}

    def _mask(self, agent: str) -> Mask:
        current = self.round
        mask: Mask = np.zeros(self.action_spaces[agent].n, dtype=np.int8)
        pending = current.pending
        if isinstance(pending, op.AwaitDecision):
            for action in current.legal_actions():
                play = action.type
                if play is not None and play in PLAY_INDEX:  # not the even-money offers open to naturals (Art. 6)
                    mask[PLAY_INDEX[play]] = 1
        elif isinstance(pending, op.AwaitInsurance):
            for action in current.legal_actions():
                if action.player == agent:
                    mask[INSURANCE if action.type is moves.Insure else EVEN_MONEY] = 1
                    mask[NO_INSURANCE] = 1
        elif isinstance(pending, op.AwaitBets):
            mask[NO_BET] = 1
            count = len(self.bet_sizes)
            for box in range(1, self.rules.boxes + 1):
                for k, size in enumerate(self.bet_sizes):
                    if current.can_bet(agent, box, size):
                        mask[FIRST_BET + (box - 1) * count + k] = 1
        return mask

    def _refuse(self, agent: str, index: int) -> None:
        try:
            self.verify_action(agent, index)
            reason = f"action {index} is not offered now"
        except CroupierError as error:
            if self.illegal_action == "raise":
                raise
            reason = str(error)
        if self.illegal_action == "raise":
            raise IllegalActionError(reason)
        self._cumulative_rewards[agent] = 0.0
        for name in self.rewards:
            self.rewards[name] = 0.0
        self.rewards[agent] = -self.illegal_penalty
        self._accumulate_rewards()
        self.infos[agent]["illegal_action"] = reason


def blackjack_aec(
    preset: str = "macau-1983", rules_overrides: Mapping[str, object] | None = None, **kwargs: Any
) -> BlackjackAEC:
    """The multi-seat environment (``seats``, ``behind``, ``bet_sizes``, ``illegal_action``, ``render_mode``)."""
    return BlackjackAEC(preset, rules_overrides, **kwargs)
