"""The simulators' documented generator: xoshiro256**, one stream per chunk, seeded by SplitMix64.

A run's seed (an int or a string) gives two 64-bit words: the first 16 bytes of SHA-256(str(seed)),
little-endian (:func:`seed_words`). Chunk ``i`` starts from :func:`seed_state` of those words and
``i``, so every chunk is reproducible on its own, on any core or cluster worker. Bounded integers use
Lemire's method with rejection (:func:`below`): no modulo bias. Both simulators
(:mod:`croupier.sim.kernels`, :mod:`croupier.sim.baccarat_kernels`) draw from here.
"""

from __future__ import annotations

import hashlib

import numpy as np
import numpy.typing as npt
from numba import njit


def seed_words(seed: int | str, error: type[Exception] = ValueError) -> npt.NDArray[np.uint64]:
    """The generator's two seed words: the first 16 bytes of SHA-256(str(seed)), little-endian."""
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise error(f"seed: expected an int or a string, got {seed!r}")
    digest = hashlib.sha256(str(seed).encode()).digest()
    return np.array([int.from_bytes(digest[0:8], "little"), int.from_bytes(digest[8:16], "little")], dtype=np.uint64)


@njit(cache=True)
def _splitmix(x):  # type: ignore[no-untyped-def]
    z = x + np.uint64(0x9E3779B97F4A7C15)
    r = z
    r = (r ^ (r >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    r = (r ^ (r >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    r = r ^ (r >> np.uint64(31))
    return z, r


@njit(cache=True)
def seed_state(seed, chunk):  # type: ignore[no-untyped-def]
    """xoshiro256** state for ``chunk`` of a run seeded with ``seed`` (two 64-bit words), by SplitMix64."""
    s = np.zeros(4, dtype=np.uint64)
    x = np.uint64(seed[0]) ^ (np.uint64(seed[1]) * np.uint64(0xD1B54A32D192ED03))
    x = x ^ (np.uint64(chunk) * np.uint64(0x9E3779B97F4A7C15))
    for i in range(4):
        x, r = _splitmix(x)
        s[i] = r
    return s


@njit(cache=True)
def _next(s):  # type: ignore[no-untyped-def]
    """xoshiro256**: the next 64-bit word."""
    s1 = s[1]
    t = s1 * np.uint64(5)
    result = ((t << np.uint64(7)) | (t >> np.uint64(57))) * np.uint64(9)
    t = s1 << np.uint64(17)
    s[2] ^= s[0]
    s[3] ^= s1
    s[1] = s1 ^ s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s3 = s[3]
    s[3] = (s3 << np.uint64(45)) | (s3 >> np.uint64(19))
    return result


@njit(cache=True)
def below(s, n):  # type: ignore[no-untyped-def]
    """A uniform integer in ``[0, n)`` for ``0 < n < 2**32``: Lemire's method, without bias."""
    bound = np.uint64(n)
    m = (_next(s) >> np.uint64(32)) * bound
    low = m & np.uint64(0xFFFFFFFF)
    if low < bound:
        threshold = (np.uint64(0x100000000) - bound) % bound
        while low < threshold:
            m = (_next(s) >> np.uint64(32)) * bound
            low = m & np.uint64(0xFFFFFFFF)
    return np.int64(m >> np.uint64(32))
