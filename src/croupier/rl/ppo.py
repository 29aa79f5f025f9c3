"""A deep-RL baseline in NumPy: PPO with action masks (the clipped objective of MaskablePPO), trained on a
batch of blackjack tables (:class:`~croupier.rl.blackjack_vector.BlackjackVectorEnv`).

The network is a small multilayer perceptron (two hidden layers of ``hidden`` tanh units, shared) with a
policy head (one logit per action; an illegal action's logit is -inf, so it has probability 0, as in
sb3-contrib's ``MaskablePPO``) and a value head. Its input is the hand as the strategy chart reads it
(:func:`features`: phase, total, soft, pair value, two cards or more, split hand, hands of the box still
to play after it, up-card, each one-hot; no count). Training is PPO as Schulman et al. (2017) give it:
rollouts of ``steps`` steps at each of the batch's tables, advantages by GAE (no discount: a round is
short; ``lam`` 0.95), normalised per minibatch, ``epochs`` passes of minibatches over each rollout with
the clipped surrogate (``clip`` 0.2), the value's squared error and an entropy bonus, gradients by hand
(backpropagation through the two layers) clipped to a global norm, and Adam. PyTorch is not needed:
the network is small enough for NumPy, and the ``rl`` extra pulls no deep-learning library.

The batch's autoreset is next-step: the step after a table's round ended deals its next round and
ignores the action; those steps are left out of the loss. The learned policy (:meth:`MaskedPPO.greedy`,
the most probable legal action) is measured against the exact strategy by
:func:`croupier.rl.values.regret` (benchmarks/rl_ppo.py). Randomness: the weights' initialisation and
the sampling come from a NumPy generator seeded by ``seed`` (a documented generator, as in simulations).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from croupier.rl.blackjack_vector import BlackjackVectorEnv
from croupier.rl.encoding import OBS_FIELDS, Mask, Obs

Floats = npt.NDArray[np.float64]

_PHASE, _TOTAL, _SOFT, _PAIR, _CARDS, _HAND, _HANDS, _SPLIT, _UP = (
    OBS_FIELDS.index(name) for name in ("phase", "total", "soft", "pair", "cards", "hand", "hands", "from_split", "up")
)
_SIZES = (5, 31, 2, 11, 2, 2, 4, 11)  # phase, total, soft, pair, two cards, split hand, hands to come, up-card
FEATURES = sum(_SIZES)
"""The length of :func:`features`' rows."""


def features(obs: npt.NDArray[np.int64]) -> Floats:
    """Rows of one-hot features (the chart's reading of the hand, no count) for observations ``obs`` (one
    per row, or a single observation)."""
    rows = np.atleast_2d(obs)
    to_come = np.where(rows[:, _HANDS] > 0, rows[:, _HANDS] - rows[:, _HAND] - 1, 0)
    parts = (
        rows[:, _PHASE],
        rows[:, _TOTAL],
        rows[:, _SOFT],
        rows[:, _PAIR],
        (rows[:, _CARDS] == 2).astype(np.int64),
        rows[:, _SPLIT],
        np.clip(to_come, 0, 3),
        rows[:, _UP],
    )
    out = np.zeros((rows.shape[0], FEATURES))
    offset = 0
    for values, size in zip(parts, _SIZES, strict=True):
        out[np.arange(rows.shape[0]), offset + np.clip(values, 0, size - 1)] = 1.0
        offset += size
    return out


@dataclass
class Network:
    """The shared trunk and the two heads; ``params`` by name, and Adam's moments for each."""

    params: dict[str, Floats]
    moments: dict[str, tuple[Floats, Floats]] = field(default_factory=dict)
    updates: int = 0

    @classmethod
    def initial(cls, inputs: int, hidden: int, actions: int, rng: np.random.Generator) -> Network:
        def layer(fan_in: int, fan_out: int, gain: float) -> Floats:  # orthogonal, as PPO's implementations do
            q, _r = np.linalg.qr(rng.standard_normal((max(fan_in, fan_out), min(fan_in, fan_out))))
            weights = q if fan_in >= fan_out else q.T
            return np.asarray(gain * weights[:fan_in, :fan_out], dtype=np.float64)

        params = {
            "w1": layer(inputs, hidden, math.sqrt(2)),
            "b1": np.zeros(hidden),
            "w2": layer(hidden, hidden, math.sqrt(2)),
            "b2": np.zeros(hidden),
            "wp": layer(hidden, actions, 0.01),
            "bp": np.zeros(actions),
            "wv": layer(hidden, 1, 1.0),
            "bv": np.zeros(1),
        }
        return cls(params, {name: (np.zeros_like(p), np.zeros_like(p)) for name, p in params.items()})

    def forward(self, x: Floats) -> tuple[Floats, Floats, Floats, Floats]:
        """(first hidden layer, second hidden layer, logits, values) for feature rows ``x``."""
        p = self.params
        h1 = np.tanh(x @ p["w1"] + p["b1"])
        h2 = np.tanh(h1 @ p["w2"] + p["b2"])
        return h1, h2, h2 @ p["wp"] + p["bp"], (h2 @ p["wv"] + p["bv"])[:, 0]

    def adam(self, grads: dict[str, Floats], rate: float, beta1: float = 0.9, beta2: float = 0.999) -> None:
        self.updates += 1
        for name, grad in grads.items():
            m, v = self.moments[name]
            m *= beta1
            m += (1 - beta1) * grad
            v *= beta2
            v += (1 - beta2) * grad * grad
            m_hat = m / (1 - beta1**self.updates)
            v_hat = v / (1 - beta2**self.updates)
            self.params[name] -= rate * m_hat / (np.sqrt(v_hat) + 1e-8)


def masked_log_probs(logits: Floats, masks: npt.NDArray[np.bool_]) -> Floats:
    """Log-probabilities of a softmax over the legal actions only (an illegal one's is -inf)."""
    z = np.where(masks, logits, -np.inf)
    top = z.max(axis=1, keepdims=True)
    shifted = z - top
    return np.asarray(shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True)), dtype=np.float64)


@dataclass
class MaskedPPO:
    """PPO with action masks; see the module docstring. ``rate``: Adam's step size."""

    actions: int
    seed: int = 0
    hidden: int = 64
    rate: float = 1e-3
    clip: float = 0.2
    lam: float = 0.95
    epochs: int = 4
    minibatch: int = 4096
    value_weight: float = 0.5
    entropy_weight: float = 0.003
    max_norm: float = 0.5
    net: Network = field(init=False)
    rng: np.random.Generator = field(init=False)

    def __post_init__(self) -> None:
        self.rng = np.random.default_rng(self.seed)
        self.net = Network.initial(FEATURES, self.hidden, self.actions, self.rng)

    # acting -------------------------------------------------------------------------------------
    def act(
        self, obs: npt.NDArray[np.int64], masks: npt.NDArray[np.bool_]
    ) -> tuple[npt.NDArray[np.int64], Floats, Floats]:
        """An action sampled from the policy for each row (legal by construction), its log-probability and
        the state's value."""
        _h1, _h2, logits, values = self.net.forward(features(obs))
        logp = masked_log_probs(logits, masks)
        u = self.rng.random((logp.shape[0], 1))
        chosen = (np.exp(logp).cumsum(axis=1) < u).sum(axis=1)
        chosen = np.minimum(chosen, self.actions - 1)
        illegal = ~masks[np.arange(len(chosen)), chosen]  # rounding at the top of the sum: the last legal one
        if illegal.any():
            chosen[illegal] = self.actions - 1 - np.argmax(masks[illegal][:, ::-1], axis=1)
        return chosen.astype(np.int64), logp[np.arange(len(chosen)), chosen], values

    def greedy(self, obs: Obs, mask: Mask) -> int:
        """The most probable legal action for one observation (the policy :func:`~croupier.rl.values.regret`
        measures)."""
        _h1, _h2, logits, _v = self.net.forward(features(obs))
        return int(np.argmax(np.where(mask.astype(np.bool_), logits[0], -np.inf)))

    # learning -----------------------------------------------------------------------------------
    def update(
        self,
        obs: npt.NDArray[np.int64],
        masks: npt.NDArray[np.bool_],
        actions: npt.NDArray[np.int64],
        old_logp: Floats,
        advantages: Floats,
        returns: Floats,
    ) -> None:
        """``epochs`` passes of clipped-objective minibatch steps over one rollout's transitions."""
        x = features(obs)
        n = len(actions)
        for _epoch in range(self.epochs):
            order = self.rng.permutation(n)
            for start in range(0, n, self.minibatch):
                take = order[start : start + self.minibatch]
                grads = self.gradients(
                    x[take], masks[take], actions[take], old_logp[take], advantages[take], returns[take]
                )
                self.net.adam(grads, self.rate)

    def loss(
        self,
        x: Floats,
        masks: npt.NDArray[np.bool_],
        actions: npt.NDArray[np.int64],
        old_logp: Floats,
        adv: Floats,
        ret: Floats,
    ) -> float:
        """The minibatch loss whose gradient :meth:`gradients` gives: the clipped surrogate's negative mean,
        plus ``value_weight`` times the value's mean squared error, less ``entropy_weight`` times the mean
        entropy of the masked policy."""
        rows = np.arange(len(actions))
        _h1, _h2, logits, values = self.net.forward(x)
        logp = masked_log_probs(logits, masks)
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        ratio = np.exp(logp[rows, actions] - old_logp)
        surrogate = np.minimum(ratio * adv, np.clip(ratio, 1 - self.clip, 1 + self.clip) * adv)
        entropy = -np.where(masks, np.exp(logp) * np.where(masks, logp, 0.0), 0.0).sum(axis=1)
        return float(
            -surrogate.mean() + self.value_weight * ((values - ret) ** 2).mean() - self.entropy_weight * entropy.mean()
        )

    def gradients(
        self,
        x: Floats,
        masks: npt.NDArray[np.bool_],
        actions: npt.NDArray[np.int64],
        old_logp: Floats,
        adv: Floats,
        ret: Floats,
    ) -> dict[str, Floats]:
        """The gradient of :meth:`loss` for each parameter, by backpropagation, clipped to ``max_norm``."""
        p = self.net.params
        n = len(actions)
        rows = np.arange(n)
        h1, h2, logits, values = self.net.forward(x)
        logp = masked_log_probs(logits, masks)
        probs = np.exp(logp)
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        ratio = np.exp(logp[rows, actions] - old_logp)
        unclipped = ratio * adv <= np.clip(ratio, 1 - self.clip, 1 + self.clip) * adv  # where the gradient flows
        d_logp = -(adv * ratio * unclipped) / n  # d loss / d log π(a|s)
        d_logits = -probs * d_logp[:, None]
        d_logits[rows, actions] += d_logp
        plogp = np.where(masks, probs * np.where(masks, logp, 0.0), 0.0)
        entropy = -plogp.sum(axis=1)
        d_entropy = -(plogp + probs * entropy[:, None])  # d H / d logits (0 for an illegal action)
        d_logits -= self.entropy_weight * d_entropy / n
        d_values = 2 * self.value_weight * (values - ret) / n
        grads = {
            "wp": h2.T @ d_logits,
            "bp": d_logits.sum(axis=0),
            "wv": h2.T @ d_values[:, None],
            "bv": np.array([d_values.sum()]),
        }
        d_h2 = d_logits @ p["wp"].T + d_values[:, None] @ p["wv"].T
        d_z2 = d_h2 * (1 - h2 * h2)
        grads["w2"], grads["b2"] = h1.T @ d_z2, d_z2.sum(axis=0)
        d_z1 = (d_z2 @ p["w2"].T) * (1 - h1 * h1)
        grads["w1"], grads["b1"] = x.T @ d_z1, d_z1.sum(axis=0)
        norm = math.sqrt(sum(float((g * g).sum()) for g in grads.values()))
        if norm > self.max_norm:
            grads = {name: g * (self.max_norm / norm) for name, g in grads.items()}
        return grads


@dataclass
class Rollouts:
    """A training run's state between rollouts: the batch's last observation and masks, and which tables'
    last step ended a round (their next step is an autoreset, left out of the loss)."""

    env: BlackjackVectorEnv
    obs: npt.NDArray[np.int64]
    masks: npt.NDArray[np.bool_]
    ended: npt.NDArray[np.bool_]
    rounds: int = 0
    returns: float = 0.0

    @classmethod
    def start(cls, env: BlackjackVectorEnv, seed: int) -> Rollouts:
        obs, info = env.reset(seed=seed)
        return cls(env, obs, info["action_mask"].astype(np.bool_), np.zeros(env.num_envs, dtype=np.bool_))


def train(agent: MaskedPPO, run: Rollouts, steps: int) -> int:
    """One PPO iteration: ``steps`` steps at every table, then :meth:`MaskedPPO.update`; the rounds finished."""
    env = run.env
    n = env.num_envs
    obs = np.zeros((steps, n, run.obs.shape[1]), dtype=np.int64)
    masks = np.zeros((steps, n, run.masks.shape[1]), dtype=np.bool_)
    actions = np.zeros((steps, n), dtype=np.int64)
    logps, values, rewards = np.zeros((steps, n)), np.zeros((steps, n)), np.zeros((steps, n))
    done, valid = np.zeros((steps, n), dtype=np.bool_), np.zeros((steps, n), dtype=np.bool_)
    finished = 0
    for t in range(steps):
        obs[t], masks[t], valid[t] = run.obs, run.masks, ~run.ended
        actions[t], logps[t], values[t] = agent.act(run.obs, run.masks)
        run.obs, reward, terminated, truncated, info = env.step(actions[t])
        rewards[t] = reward
        done[t] = (terminated | truncated) & valid[t]
        run.masks = info["action_mask"].astype(np.bool_)
        run.ended = terminated | truncated
        finished += int(done[t].sum())
        run.returns += float(reward[valid[t]].sum())
    _h1, _h2, _logits, last = agent.net.forward(features(run.obs))
    advantages = np.zeros((steps, n))
    carry = np.zeros(n)
    for t in reversed(range(steps)):
        following = last if t == steps - 1 else values[t + 1]
        going_on = ~done[t]
        delta = rewards[t] + following * going_on - values[t]
        carry = delta + agent.lam * going_on * carry
        carry = np.where(valid[t], carry, 0.0)  # an autoreset step: no advantage, and it carries none back
        advantages[t] = carry
    keep = valid.reshape(-1)
    flat = steps * n
    agent.update(
        obs.reshape(flat, -1)[keep],
        masks.reshape(flat, -1)[keep],
        actions.reshape(flat)[keep],
        logps.reshape(flat)[keep],
        advantages.reshape(flat)[keep],
        (advantages + values).reshape(flat)[keep],
    )
    run.rounds += finished
    return finished
