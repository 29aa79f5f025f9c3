"""The environment tests need the optional extra ``rl`` (gymnasium, pettingzoo); without it they are not collected."""

from __future__ import annotations

import importlib.util

_HAVE_RL = all(importlib.util.find_spec(name) is not None for name in ("gymnasium", "pettingzoo"))
collect_ignore_glob = [] if _HAVE_RL else ["test_*.py"]
