"""A single-agent Gymnasium blackjack environment on croupier's engine, with the full rules.

One episode is one round: the agent ("agent") plays one box of a :class:`~croupier.blackjack.state.Table`
under any rule set of docs/rules.md §3 (a preset and overrides). Every action is one the engine offers
(stand, hit, double, split, surrender, insurance, even money, and optionally the bet); the shoe is
finite, with its burns and cut card, and carries over from episode to episode until its last round.
The spaces are described in :mod:`croupier.rl.encoding` and docs/rl.md.

>>> env = BlackjackEnv("macau-1983")
>>> obs, info = env.reset(seed=7)
>>> int(obs[0])  # phase 2: a play decision
2
>>> [ACTION_NAMES[a] for a in np.flatnonzero(info["action_mask"])]
['stand', 'hit', 'split', 'surrender']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import ROUND_DOWN, Decimal
from typing import Any, Literal

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from croupier.blackjack import actions as op
from croupier.blackjack import moves
from croupier.blackjack.presets import blackjack_rules
from croupier.blackjack.replay import round_result
from croupier.blackjack.rules import Rules
from croupier.blackjack.state import Round
from croupier.errors import CroupierError, IllegalActionError
from croupier.money import MAX_PLACES, ZERO, format_amount
from croupier.rl.encoding import (
    ACKNOWLEDGE,
    ACTION_NAMES,
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
    PLAY_INDEX,
    REMAINING,
    SEEN,
    Mask,
    Obs,
    Observation,
    default_bet,
    engine_action,
    observation_space,
    read_bet_sizes,
    up_value,
    write_hand,
)
from croupier.rl.session import TableSession, fresh_seed
from croupier.rl.values import ExactValues

AGENT = "agent"
"""The player name the agent bets and decides under (in transcripts too)."""

IllegalPolicy = Literal["refuse", "raise"]


class BlackjackEnv(gym.Env[Observation, np.int64]):
    """One box of a blackjack table under ``preset`` and ``rules_overrides``; see the module docstring.

    ``bet_sizes``: when given, each episode begins with the bet (action ``9 + k`` bets
    ``bet_sizes[k]``); otherwise every round is bet ``bet`` (default one unit, or the table minimum)
    and ``reset`` deals it. ``box``: the agent's box (1-``rules.boxes``). ``illegal_action``: an
    action outside the mask is refused (``"refuse"``: the state is unchanged, the reward is
    ``illegal_penalty`` and ``info["illegal_action"]`` holds the engine's reason) or raises the
    engine's :class:`~croupier.errors.IllegalActionError` (``"raise"``). The penalty defaults to one
    table unit, so that an agent that ignores the mask cannot stall a losing game for free.
    ``max_steps``: the most steps of an episode (refused ones count); the step that reaches it
    truncates the episode and voids the round in play (Art. 2.1: its stakes are returned, so what
    it paid is taken back in that step's reward); ``None``: no limit. ``mask_in_obs``: the
    observation is ``{"observation": vector, "action_mask": mask}`` (a ``Dict`` space) instead of
    the vector alone; :meth:`action_masks` gives the mask either way (sb3-contrib's convention).
    ``action_values``: every ``info`` carries ``"action_values"``, the exact expected net of each
    legal action at the round's first decision for the cards the agent has not seen (NaN elsewhere:
    :mod:`croupier.rl.values`), and ``reset``'s info ``"round_ev"``, the exact EV of the round per
    unit of bet before its deal; each new composition costs one exact analysis (about 0.1 s).

    Rewards are in table units: each step's reward is the change of the agent's net this round, so
    an episode's return is the round's net (insurance, bonuses and surrender included). No reward
    is ever given outside a step: without ``bet_sizes``, a round that the deal settles before the
    agent is asked anything (a natural without an ace up, a dealer natural found by the peek) is a
    one-step episode: ``reset`` shows it settled (phase ``over``) with one legal action,
    :data:`~croupier.rl.encoding.ACKNOWLEDGE` (action 0), whose step delivers the round's net and
    terminates. So every round is an episode and every episode's return is its round's net, which
    is what ``gymnasium.wrappers.RecordEpisodeStatistics`` reports.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012 (gymnasium's name)

    def __init__(
        self,
        preset: str = "macau-1983",
        rules_overrides: Mapping[str, object] | None = None,
        *,
        bet_sizes: Sequence[object] | None = None,
        bet: object | None = None,
        box: int = 1,
        illegal_action: IllegalPolicy = "refuse",
        illegal_penalty: float = 1.0,
        max_steps: int | None = 100,
        mask_in_obs: bool = False,
        action_values: bool = False,
        render_mode: str | None = None,
    ) -> None:
        self.rules: Rules = blackjack_rules(preset, rules_overrides)
        rules = self.rules
        if not 1 <= box <= rules.boxes:
            raise IllegalActionError(f"{rules.preset} has boxes 1-{rules.boxes} (Art. 2.3); no box {box}")
        if illegal_action not in ("refuse", "raise"):
            raise ValueError(f"illegal_action is 'refuse' or 'raise', got {illegal_action!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is None or 'ansi', got {render_mode!r}")
        if max_steps is not None and max_steps < 1:
            raise ValueError(f"max_steps is a positive number of steps or None, got {max_steps!r}")
        self.box = box
        self.bet_sizes: tuple[Decimal, ...] = read_bet_sizes(rules, bet_sizes) if bet_sizes is not None else ()
        self.fixed_bet: Decimal = read_bet_sizes(rules, [bet])[0] if bet is not None else default_bet(rules)
        self.illegal_action = illegal_action
        self.illegal_penalty = float(illegal_penalty)
        self.max_steps = max_steps
        self.mask_in_obs = mask_in_obs
        self.render_mode = render_mode
        self.action_space = spaces.Discrete(FIRST_BET + len(self.bet_sizes))
        self.observation_space = observation_space(rules, int(self.action_space.n), mask_in_obs)
        self.session = TableSession(rules)
        self._round: Round | None = None
        self._obs: Obs = np.zeros(OBS_SIZE, dtype=np.int64)
        self._mask: Mask = np.zeros(self.action_space.n, dtype=np.int8)
        self._paid = 0
        self._given = 0.0
        self._seated = {box: AGENT}
        self._unacknowledged = False
        self._steps = 0
        self.values = ExactValues(rules) if action_values else None
        self._unseen: tuple[int, ...] = ()

    # ---------------------------------------------------------------------------------------------
    # gymnasium
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """A new round; ``seed`` starts a new seeded stream of shoes; ``options={"new_shoe": True}`` shuffles anew."""
        super().reset(seed=seed)
        session = self.session
        if seed is not None:
            session.start(seed)
        elif not session.started:
            session.start(fresh_seed())
        elif options and options.get("new_shoe"):
            session.new_shoe()
        voided = 0
        while True:
            current = self._open()
            if self.bet_sizes:
                break
            current.bet(AGENT, self.box, self.fixed_bet)
            self._deal(current)
            if not current.voided:
                break
            voided += 1  # the shoe ran out in the deal: every stake is returned (Art. 2.1), nothing to pay
        self._unacknowledged = current.ended  # settled by the deal: the next step delivers its net
        info = self._info()
        info["shoe_seed"] = session.seed
        info["shoe"] = session.shoe_number
        info["round"] = session.table.rounds_in_shoe + (0 if current.ended else 1)
        if voided:
            info["voided_rounds"] = voided
        if self.values is not None:
            analysis = self.values.analysis(self._unseen)
            info["round_ev"] = float("nan") if analysis is None else analysis.ev
        self._steps = 0
        return self._wrap(self._observe()), info

    def step(self, action: object) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self._step(action)
        self._steps += 1
        if not (terminated or truncated) and self.max_steps is not None and self._steps >= self.max_steps:
            reward += self._cut_short()
            truncated = True
            info = self._info()
            info["step_limit"] = self.max_steps
            info["net"] = format_amount(self.round.net().get(AGENT, ZERO))
            obs = self._observe()
        return self._wrap(obs), reward, terminated, truncated, info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions now, as booleans (sb3-contrib's ``MaskablePPO`` calls this)."""
        return self._mask.astype(np.bool_)

    def _cut_short(self) -> float:
        """End the episode at the step limit: a round the deal settled pays its net now; a round in
        play is void (Art. 2.1), its stakes returned, so the reward takes back what it paid."""
        current = self.round
        if self._unacknowledged:
            self._unacknowledged = False
            return float(current.net().get(AGENT, ZERO))
        if current.ended or current.voided:
            return 0.0
        self.session.abandon(current, f"the episode reached its step limit ({self.max_steps})")
        taken, self._given = self._given, 0.0
        return -taken

    def _wrap(self, obs: Obs) -> Observation:
        if self.mask_in_obs:
            return {"observation": obs, "action_mask": self._mask.copy()}
        return obs

    def _step(self, action: object) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        current = self._round
        if current is None:
            raise IllegalActionError("reset the environment before the first step")
        index = int(action)  # type: ignore[call-overload]
        if self._unacknowledged:
            if index != ACKNOWLEDGE:
                return self._refuse(index)
            return self._acknowledge(current)
        if current.ended or current.voided:
            raise IllegalActionError("the round is over: reset the environment for the next one")
        if not (0 <= index < self._mask.shape[0] and self._mask[index]):
            return self._refuse(index)
        self._perform(current, index)
        paid = current.payments
        reward = 0.0
        if len(paid) > self._paid:
            reward = float(sum(p.amount for p in paid[self._paid :] if p.player == AGENT))
            self._paid = len(paid)
        truncated = current.voided
        if truncated:  # the shoe ran out: every stake is returned (Art. 2.1)
            reward = -self._given
        self._given += reward
        terminated = current.ended
        info = self._info()
        if terminated or truncated:
            info["net"] = format_amount(current.net().get(AGENT, ZERO))
        return self._observe(), reward, terminated, truncated, info

    def _acknowledge(self, current: Round) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        """The one step of a round the deal settled: its net is the reward, and the episode ends."""
        self._unacknowledged = False
        reward = float(sum((p.amount for p in current.payments if p.player == AGENT), ZERO))
        self._paid = len(current.payments)
        self._given = reward
        info = self._info()
        info["net"] = format_amount(current.net().get(AGENT, ZERO))
        return self._observe(), reward, True, False, info

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self._round is None:
            return None
        return describe_round(self._round)

    # ---------------------------------------------------------------------------------------------
    # what the engine says
    def verify_action(self, action: int) -> None:
        """Raise the engine's reason why ``action`` is refused now (its ``verify_`` face), or return."""
        current = self._round
        if current is None:
            raise IllegalActionError("reset the environment before the first step")
        if self._unacknowledged:
            if action != ACKNOWLEDGE:
                raise IllegalActionError(f"the deal settled the round: acknowledge it ({ACKNOWLEDGE}), not {action}")
            return
        verify_action(current, action, self.box, AGENT, self.bet_sizes, single=True)

    @property
    def round(self) -> Round:
        """The round in play (the episode's round)."""
        if self._round is None:
            raise IllegalActionError("reset the environment first")
        return self._round

    def transcript(self) -> dict[str, Any]:
        """The shoe in play up to the latest settled round, as a transcript that ``croupier replay`` replays.

        The last round of the document is the latest finished episode (rounds that ended inside
        ``reset`` included); replaying gives the same cards, decisions and payments.
        """
        return self.session.transcript()

    def result(self) -> dict[str, Any]:
        """The episode's round as the replay's result document writes it (docs/transcript.md "Output")."""
        return round_result(self.round)

    # ---------------------------------------------------------------------------------------------
    # internals
    def _open(self) -> Round:
        current = self.session.open_round(self._seated)
        if self.values is not None:  # what the agent has not seen before this round's deal
            self._unseen = self.values.unseen(self.session.seen)
        self._round = current
        self._paid = 0
        self._given = 0.0
        return current

    def _deal(self, current: Round) -> None:
        current.deal()
        self._advance(current)

    def _advance(self, current: Round) -> None:
        """Run the round to the agent's next decision (closing an insurance offer it has answered)."""
        while True:
            pending = current.pending
            kind = type(pending)
            if kind is op.AwaitDecision or pending is None:
                break
            if kind is op.AwaitInsurance:
                if any(a.player == AGENT for a in current.legal_actions() if a.type is not moves.CloseInsurance):
                    break
                current.close_insurance()
                continue
            if kind is op.AwaitCard:
                self.session.ran_out(current)
                break
            raise IllegalActionError(f"the environment cannot go on: the round waits for {pending}")
        if current.ended:
            self.session.finished(current)

    def _perform(self, current: Round, index: int) -> None:
        box = self.box
        if index < FIRST_BET:
            cap = insurance_cap(current, AGENT, box) if index == INSURANCE else None
            current.apply(engine_action(index, box, AGENT, cap))
        else:
            current.bet(AGENT, box, self.bet_sizes[index - FIRST_BET])
            current.deal()
        self._advance(current)

    def _refuse(self, index: int) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        try:
            self.verify_action(index)
            reason = f"action {index} is not offered now"
        except CroupierError as error:
            if self.illegal_action == "raise":
                raise
            reason = str(error)
        if self.illegal_action == "raise":
            raise IllegalActionError(reason)
        info = self._info()
        info["illegal_action"] = reason
        return self._observe(), -self.illegal_penalty, False, False, info

    def _info(self) -> dict[str, Any]:
        current = self._round
        assert current is not None
        mask = self._mask
        mask[:] = 0
        pending = current.pending
        kind = type(pending)
        if self._unacknowledged:
            mask[ACKNOWLEDGE] = 1
        elif kind is op.AwaitDecision:
            for action in current.legal_actions():
                play = action.type
                if play is not None and play in PLAY_INDEX:  # not the even-money offers open to naturals (Art. 6)
                    mask[PLAY_INDEX[play]] = 1
        elif kind is op.AwaitInsurance:
            for action in current.legal_actions():
                if action.player == AGENT:
                    mask[INSURANCE if action.type is moves.Insure else EVEN_MONEY] = 1
                    mask[NO_INSURANCE] = 1
        elif kind is op.AwaitBets:
            for k, size in enumerate(self.bet_sizes):
                if current.can_bet(AGENT, self.box, size):
                    mask[FIRST_BET + k] = 1
        info: dict[str, Any] = {"action_mask": mask.copy()}
        if self.values is not None:
            info["action_values"] = self._action_values(current, pending)
        return info

    def _action_values(self, current: Round, pending: object) -> npt.NDArray[np.float64]:
        """The exact value of each legal action at the round's first decision (croupier.rl.values), else NaN."""
        values = self.values
        assert values is not None
        n = self._mask.shape[0]
        if self._unacknowledged or not isinstance(pending, op.AwaitDecision) or pending.hand != 0:
            return np.full(n, np.nan)
        hands = current.hands[self.box]
        cards = hands[0].cards
        up = current.up_card
        if len(hands) != 1 or len(cards) != 2 or up is None:
            return np.full(n, np.nan)
        bet = current.bets[self.box][AGENT]
        found = values.action_values(self._unseen, up, cards[0], cards[1], bet, n)
        return np.where(self._mask.astype(np.bool_), found, np.nan)

    def _observe(self) -> Obs:
        current = self._round
        assert current is not None
        obs = self._obs
        session = self.session
        session.update_seen(current)
        obs[SEEN:REMAINING] = session.seen
        obs[REMAINING] = current.shoe.remaining
        pending = current.pending
        kind = type(pending)
        obs[9] = self.box
        if kind is op.AwaitDecision:
            assert isinstance(pending, op.AwaitDecision)
            obs[0] = PHASE_DECISION
            hands = current.hands[self.box]
            write_hand(obs, hands[pending.hand], pending.hand, len(hands), up_value(up_rank(current)))
        elif kind is op.AwaitBets:
            obs[0] = PHASE_BET
            write_hand(obs, None, 0, 0, 0)
        else:
            obs[0] = PHASE_INSURANCE if kind is op.AwaitInsurance else PHASE_OVER
            played = current.hands.get(self.box)
            if played:
                last = len(played) - 1
                write_hand(obs, played[last], last, len(played), up_value(up_rank(current)))
            else:
                write_hand(obs, None, 0, 0, 0)
        return obs.copy()


# -------------------------------------------------------------------------------------------------
# shared with the multi-seat environment


def up_rank(current: Round) -> str | None:
    """The rank of the dealer's up-card, None before the deal."""
    up = current.up_card
    return None if up is None else up.rank


def insurance_cap(current: Round, player: str, box: int) -> Decimal:
    """The most ``player`` may insure on ``box``: half the bet, as :meth:`Round.legal_actions` offers it."""
    for action in current.legal_actions():
        if action.type is moves.Insure and action.player == player and action.box == box:
            assert action.max_amount is not None
            return action.max_amount
    raise IllegalActionError(f"insurance for {player} on box {box} is not offered now")


def verify_action(
    current: Round, action: int, box: int | None, player: str, bet_sizes: Sequence[Decimal], *, single: bool
) -> None:
    """Ask the engine's ``verify_`` face whether ``player`` may take ``action`` now; raise its reason if not.

    ``box`` is the player's box (None: no bet yet, multi-seat). Bets name their box in the action
    (multi-seat) or bet on ``box`` (single agent).
    """
    if action < 0:
        raise IllegalActionError(f"no action {action}: actions are numbered from 0 (croupier.rl.encoding)")
    if action == NO_BET:
        if single:
            raise IllegalActionError("the single-agent table plays every round: the agent must bet")
        if not isinstance(current.pending, op.AwaitBets):
            raise IllegalActionError("no bet: betting is closed")
        if box is not None:
            raise IllegalActionError(f"no bet: {player} has already bet on box {box}")
        return
    if action >= FIRST_BET:
        count = len(bet_sizes)
        if count == 0:
            raise IllegalActionError("this environment takes no bet decisions (no bet_sizes)")
        offset = action - FIRST_BET
        target = box if single else offset // count + 1
        if target is None or offset >= (count if single else count * current.rules.boxes):
            raise IllegalActionError(f"no action {action}")
        if not single and box is not None:
            raise IllegalActionError(f"{player} bets once a round (one box or behind one); already on box {box}")
        current.verify_bet(player, target, bet_sizes[offset % count])
        return
    if box is None:
        raise IllegalActionError(f"{ACTION_NAMES[action]}: {player} has no bet this round")
    amount = None
    if action == INSURANCE:
        stake = current.bets.get(box, {}).get(player)
        amount = _quantized(stake / 2 if stake is not None else Decimal(1))
    current.verify(engine_action(action, box, player, amount))
    if action == NO_INSURANCE and not any(
        a.player == player for a in current.legal_actions() if a.type in (moves.Insure, moves.TakeEvenMoney)
    ):
        raise IllegalActionError(f"no insurance: {player} has no insurance or even money offer on box {box}")


def _quantized(amount: Decimal) -> Decimal:
    least = Decimal(1).scaleb(-MAX_PLACES)
    return amount.quantize(least, rounding=ROUND_DOWN) if amount >= least else amount


def describe_round(current: Round) -> str:
    """A short text picture of a round: the dealer's cards and each box's hands."""
    dealer = " ".join(str(card) for card in current.dealer_cards) or "-"
    lines = [f"dealer {dealer}" + (" + hole card" if current.dealer_has_hole_card else "")]
    for box in current.boxes:
        for index, hand in enumerate(current.hands.get(box, [])):
            cards = " ".join(str(card) for card in hand.cards)
            outcome = f" {hand.outcome}" if hand.outcome else ""
            lines.append(f"box {box}.{index} {cards} = {hand.total}{outcome}")
    if current.ended:
        net = ", ".join(f"{player} {format_amount(amount)}" for player, amount in current.net().items())
        lines.append(f"net {net}")
    return "\n".join(lines)
