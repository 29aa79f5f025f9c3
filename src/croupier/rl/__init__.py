"""Reinforcement-learning environments on croupier's engines (the optional extra ``rl``; docs/rl.md).

Importing this package registers the Gymnasium environments:

* ``croupier/Blackjack-macau-1983-v0`` and ``croupier/Blackjack-live-online-v0``: one box of a
  blackjack table under the preset (:class:`~croupier.rl.blackjack.BlackjackEnv`); rule overrides
  by name with ``gymnasium.make(id, rules_overrides={"decks": 2})``, bets as a first decision with
  ``bet_sizes=(1, 2, 5)``;
* ``croupier/Baccarat-macau-v0``: the betting decisions of a baccarat shoe
  (:class:`~croupier.rl.baccarat.BaccaratEnv`).

The multi-seat PettingZoo environment is :func:`croupier.rl.multi.blackjack_aec`.

Gymnasium 1.x loads no plugins by entry point, so from a fresh interpreter name this module in the
id: ``gymnasium.make("croupier.rl:croupier/Blackjack-macau-1983-v0")`` imports it and makes the
environment in one call.
"""

from __future__ import annotations

from croupier.blackjack.presets import PRESETS
from croupier.extras import missing_extra_message

try:
    import gymnasium
except ModuleNotFoundError as error:  # name the extra, not just the module
    raise ModuleNotFoundError(missing_extra_message(error, "croupier.rl") or str(error), name=error.name) from error

BLACKJACK_IDS: dict[str, str] = {preset: f"croupier/Blackjack-{preset}-v0" for preset in PRESETS}
"""The registered blackjack environment of each preset."""
BACCARAT_ID = "croupier/Baccarat-macau-v0"


def _register() -> None:
    registered = gymnasium.registry
    for preset, env_id in BLACKJACK_IDS.items():
        if env_id not in registered:
            gymnasium.register(
                env_id,
                entry_point="croupier.rl.blackjack:BlackjackEnv",
                vector_entry_point="croupier.rl.blackjack_vector:BlackjackVectorEnv",
                kwargs={"preset": preset},
            )
    if BACCARAT_ID not in registered:
        gymnasium.register(
            BACCARAT_ID,
            entry_point="croupier.rl.baccarat:BaccaratEnv",
            vector_entry_point="croupier.rl.baccarat_vector:BaccaratVectorEnv",
            kwargs={"preset": "macau"},
        )


_register()

__all__ = ["BACCARAT_ID", "BLACKJACK_IDS"]
