"""croupier: casino table games run exactly as their rules are written."""

__version__ = "0.1.0"
