"""CPython's ``random.Random`` in numba, as far as alpha-beta's ``random_order`` uses it: the
Mersenne Twister seeded from an integer (``init_by_array`` on the integer's 32-bit words) and
``shuffle`` (``_randbelow`` by ``getrandbits``), so a compiled search shuffles every node's moves
exactly as the Python searcher's ``py_random(rng).shuffle`` does.

The state is one int64 array of 625 entries: the 624 words, then the index of the next word.
Words are kept in int64 masked to 32 bits (the project's one integer type in kernels).
"""

from __future__ import annotations

import numpy as np

from mindgames.compiled.hot import hot

N, M = 624, 397
MASK = 0xFFFFFFFF
UPPER, LOWER = 0x80000000, 0x7FFFFFFF
MATRIX = 0x9908B0DF


def seeded(seed: int) -> np.ndarray:
    """The state of ``random.Random(seed)`` for a non-negative ``seed`` below 2**64."""
    words = [seed & MASK, seed >> 32] if seed >> 32 else [seed & MASK]
    state = np.zeros(N + 1, dtype=np.int64)
    init_by_array(state, np.array(words, dtype=np.int64))
    return state


@hot
def init_by_array(mt, key):
    """CPython's ``init_by_array`` (after ``init_genrand(19650218)``)."""
    mt[0] = 19650218
    for i in range(1, N):
        mt[i] = (1812433253 * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i) & MASK
    i, j = 1, 0
    for _ in range(max(N, key.shape[0])):
        mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525)) + key[j] + j) & MASK
        i += 1
        j += 1
        if i >= N:
            mt[0] = mt[N - 1]
            i = 1
        if j >= key.shape[0]:
            j = 0
    for _ in range(N - 1):
        mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941)) - i) & MASK
        i += 1
        if i >= N:
            mt[0] = mt[N - 1]
            i = 1
    mt[0] = 0x80000000
    mt[N] = N


@hot
def genrand(mt):
    """The next 32-bit word."""
    if mt[N] >= N:
        for kk in range(N):
            y = (mt[kk] & UPPER) | (mt[(kk + 1) % N] & LOWER)
            mt[kk] = mt[(kk + M) % N] ^ (y >> 1) ^ (MATRIX if y & 1 else 0)
        mt[N] = 0
    y = mt[mt[N]]
    mt[N] += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y & MASK


@hot
def below(mt, n):
    """``random._randbelow(n)`` for 2 <= n < 2**32: rejection on ``getrandbits(bits of n)``."""
    k = 0
    while (n >> k) > 0:
        k += 1
    r = genrand(mt) >> (32 - k)
    while r >= n:
        r = genrand(mt) >> (32 - k)
    return r


@hot
def shuffle(mt, seq, start, n):
    """``random.shuffle`` of ``seq[start:start + n]`` in place."""
    for i in range(n - 1, 0, -1):
        j = below(mt, i + 1)
        seq[start + i], seq[start + j] = seq[start + j], seq[start + i]
