"""Integer codes shared by the compiled kernels (analysis, simulators) and the code that reads them.

The kernels work on integers only; these are the one definition of each code, imported by
:mod:`croupier.math.bj_kernels`, :mod:`croupier.sim.kernels`, :mod:`croupier.sim.charts` and the RL
encodings, never copied.
"""

from __future__ import annotations

# a player's options at a decision (the order of the analysis' value arrays and the simulators' charts)
STAND, HIT, DOUBLE, SPLIT, SURRENDER = 0, 1, 2, 3, 4
OPTIONS = 5
"""How many options there are: the length of an array of option values."""

OPTION_CODES: dict[str, int] = {"stand": STAND, "hit": HIT, "double": DOUBLE, "split": SPLIT, "surrender": SURRENDER}
"""Each option's code by the name the engine's actions use."""

# card values 0-9 for A, 2, ..., 9 and the ten-value cards
ACE, TEN = 0, 9
SIX, SEVEN, EIGHT = 5, 6, 7
