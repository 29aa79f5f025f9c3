"""Randomness: the operating system's CSPRNG, and deterministic HMAC-SHA256 streams.

docs/rules.md §1 and §5. Game code never touches the global ``random`` module.

* :class:`SystemRandom` draws from ``secrets`` (the OS CSPRNG); it is the default for real shoes.
* :class:`HmacStream` is the provably-fair stream of docs/rules.md §5: the bytes of
  ``HMAC-SHA256(server_seed, f"{client_seed}:{nonce}:{counter}")`` for counter 0, 1, 2, …, read as
  big-endian unsigned 32-bit integers; an integer in ``[0, n)`` is taken by rejection sampling (a
  word ``w`` is rejected when ``w >= 2**32 - 2**32 % n``), so there is no modulo bias.
* :func:`seeded` is the documented seeded generator for simulations and tests: an
  :class:`HmacStream` whose server seed is ``SHA-256(str(seed))`` and whose client seed is
  ``"croupier-seeded"``, nonce 0. The same seed gives the same shuffle on every machine.

:func:`fisher_yates` shuffles in place with any of them (Durstenfeld's form: for ``i`` from the
last index down to 1, swap item ``i`` with item ``randbelow(i + 1)``).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import struct
from typing import Protocol, TypeVar

T = TypeVar("T")

_WORD = 1 << 32


class RandomSource(Protocol):
    def randbelow(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""
        ...


class SystemRandom:
    """The operating system's CSPRNG through :mod:`secrets`."""

    def randbelow(self, n: int) -> int:
        return secrets.randbelow(n)


class HmacStream:
    """Unbiased integers from ``HMAC-SHA256(server_seed, "client_seed:nonce:counter")``."""

    def __init__(self, server_seed: bytes, client_seed: str = "", nonce: int = 0) -> None:
        self.server_seed = server_seed
        self.client_seed = client_seed
        self.nonce = nonce
        self.counter = 0
        self._words: list[int] = []

    def _word(self) -> int:
        if not self._words:
            message = f"{self.client_seed}:{self.nonce}:{self.counter}".encode()
            digest = hmac.new(self.server_seed, message, hashlib.sha256).digest()
            self._words = list(reversed(struct.unpack(">8I", digest)))
            self.counter += 1
        return self._words.pop()

    def randbelow(self, n: int) -> int:
        if not 0 < n <= _WORD:
            raise ValueError(f"randbelow needs 0 < n <= 2**32, got {n}")
        limit = _WORD - _WORD % n
        while True:
            word = self._word()
            if word < limit:
                return word % n


def seeded(seed: int | str | bytes) -> HmacStream:
    """The documented seeded generator for simulations and tests (see the module docstring)."""
    text = seed.hex() if isinstance(seed, bytes) else str(seed)
    return HmacStream(hashlib.sha256(text.encode()).digest(), "croupier-seeded", 0)


def fisher_yates(items: list[T], source: RandomSource) -> list[T]:
    """Shuffle ``items`` in place (and return it) with Durstenfeld's Fisher–Yates."""
    for i in range(len(items) - 1, 0, -1):
        j = source.randbelow(i + 1)
        items[i], items[j] = items[j], items[i]
    return items


def new_server_seed() -> bytes:
    """A fresh 32-byte server seed from the OS CSPRNG."""
    return secrets.token_bytes(32)


def commitment(server_seed: bytes) -> str:
    """The published SHA-256 of a server seed, hex."""
    return hashlib.sha256(server_seed).hexdigest()
