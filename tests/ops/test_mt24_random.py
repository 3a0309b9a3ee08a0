"""PaddlePaddle's random numbers (issue 24): after the same ``paddle.seed``, uniform, gaussian,
randint, bernoulli and dropout, and the layers initialised through them, give PaddlePaddle 3.3.1's
CPU numbers bit for bit (recorded by tests/tools/make_mt24_fixtures.py from
tests/tools/mt24_cases.py), with the compiled engine and with numpy's; and the engine is
std::mt19937_64 (the C++ standard's check value)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import phiops as paddle
from phiops.runtime import flags
from phiops.runtime import random as phi_random
from phiops.runtime.kernels import mt19937, native
from tests.tools.mt24_cases import cases

DATA = np.load(Path(__file__).resolve().parents[1] / "data" / "mt24" / "paddle_3_3_1.npz")
ENGINES = [True, False] if native.NATIVE_BUILT else [False]


@pytest.fixture(scope="module", params=ENGINES, ids=lambda c: "compiled" if c else "numpy")
def drawn(request: pytest.FixtureRequest) -> dict[str, np.ndarray]:
    with flags.flags_guard({"use_native_kernels": request.param}):
        return cases(paddle)


def test_every_recorded_case_is_drawn() -> None:
    assert str(DATA["paddle_version"]) == "3.3.1"
    assert len([k for k in DATA.files if k != "paddle_version"]) == 51


@pytest.mark.parametrize("key", [k for k in DATA.files if k != "paddle_version"])
def test_paddle_numbers_bit_for_bit(drawn: dict[str, np.ndarray], key: str) -> None:
    got, expected = drawn[key], DATA[key]
    assert got.dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("compiled", ENGINES)
def test_the_engine_is_mt19937_64(compiled: bool) -> None:
    # [rand.predef]: the 10000th output of a default-constructed mt19937_64
    state = phi_random.engine_state(5489, sequence=False)
    with flags.flags_guard({"use_native_kernels": compiled}):
        words = np.concatenate([mt19937.raw(state, 1), mt19937.raw(state, 9998), mt19937.raw(state, 1)])
    assert int(words[-1]) == 9981545732273789042
    assert int(state[312]) == 10000 % 312


def test_the_compiled_and_numpy_draws_agree_over_many_values() -> None:
    if not native.NATIVE_BUILT:
        pytest.skip("phiops.runtime.kernels._native is not built")
    results = {}
    for compiled in (True, False):
        state = phi_random.engine_state(11)
        with flags.flags_guard({"use_native_kernels": compiled}):
            results[compiled] = [
                mt19937.uniform(state, 1000, -1.0, 2.0, np.float32),
                mt19937.uniform(state, 777, 0.0, 1.0, np.float64),
                mt19937.normal(state, 999, 0.0, 1.0, np.float64),
                mt19937.randint(state, 500, -3, 1000),
                state.copy(),
            ]
    for a, b in zip(results[True], results[False]):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_compiled_samplers_draw_the_python_samplers_numbers(dtype: type) -> None:
    """The rejection samplers (gamma, poisson, binomial) in the compiled extension and in
    Python consume the same engine words and give the same values: integers exactly, gamma to
    the last bits of T's log and pow (the C library's logf/powf against the float64 ones
    rounded to float32)."""
    if not native.NATIVE_BUILT:
        pytest.skip("phiops.runtime.kernels._native is not built")
    rng = np.random.default_rng(5)
    alpha = np.concatenate([rng.uniform(0, 3, 600), rng.uniform(3, 60, 200), [0, -1, 1e-3, 1]])
    rates = np.concatenate([rng.uniform(0, 20, 300), np.geomspace(12, 1e8, 200), [0, -1, np.nan]])
    count = np.concatenate([np.floor(rng.uniform(0, 300, 500)), [0, 5, 1e4, 7.5]])
    prob = np.concatenate([rng.uniform(0, 1, 500), [0.5, 0.0, 0.999, 1.0]])
    results = {}
    for compiled in (True, False):
        state = phi_random.engine_state(23)
        with flags.flags_guard({"use_native_kernels": compiled}):
            results[compiled] = [
                mt19937.gamma(state, alpha.astype(dtype)),
                mt19937.poisson(state, rates),
                mt19937.binomial(state, count.astype(dtype), prob.astype(dtype)),
                state.copy(),
            ]
    gamma_c, *exact_c = results[True]
    gamma_py, *exact_py = results[False]
    assert gamma_c.dtype == dtype and gamma_c.shape == alpha.shape
    np.testing.assert_allclose(gamma_c, gamma_py, rtol=4 * np.finfo(dtype).eps, atol=0)
    for a, b in zip(exact_c, exact_py):
        assert a.dtype == b.dtype
        np.testing.assert_array_equal(a, b)
    assert (gamma_c > 0).all() and (exact_c[1] >= 0).all()


def _untemper(word: int) -> int:
    """The state word whose mt19937_64 tempering gives ``word``."""
    mask = 2**64 - 1
    y = word ^ (word >> 43)
    y ^= (y << 37) & 0xFFF7EEE000000000
    x = y
    for _ in range(4):
        x = y ^ ((x << 17) & 0x71D67FFFEDA60000 & mask)
    y = x
    for _ in range(3):
        x = y ^ ((x >> 29) & 0x5555555555555555)
    return x


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_canonical_rounds_every_word_to_nearest(dtype: type) -> None:
    """std::generate_canonical's conversion of a word to T, rounded to nearest (ties to even),
    on words chosen at the compiled conversion's edges (its bound 2**(digits + 2), ties and
    near-ties at every bit length, words that round up to 2**64): the engine is given a state
    whose next words are these (untempered), and both engines' uniform draws are compared
    with numpy's conversion of the words."""
    digits = np.finfo(dtype).nmant + 1
    words = [0, 1, 2**64 - 1]
    for length in range(digits - 1, 65):
        top = 1 << (length - 1)
        drop = max(length - digits, 0)
        for low in (0, 1, 2, 3):
            words.append(top + low)
            words.append((top | (1 << drop) // 2) + (low if drop > 2 else 0))  # a tie
            words.append(min((1 << length) - 1 - low, 2**64 - 1))
    words = [w for w in dict.fromkeys(words)][:312]
    state = np.zeros(313, np.uint64)
    state[: len(words)] = [_untemper(w) for w in words]
    state[312] = 0
    assert mt19937.raw(state.copy(), len(words)).tolist() == words  # the untempering is right
    expected = np.asarray(words, np.uint64).astype(dtype) * dtype(2.0**-64)
    expected[expected >= 1] = np.nextafter(dtype(1), dtype(0))
    for compiled in ENGINES:
        with flags.flags_guard({"use_native_kernels": compiled}):
            got = mt19937.uniform(state.copy(), len(words), 0.0, 1.0, dtype)
        np.testing.assert_array_equal(got, expected, err_msg=f"compiled={compiled}")
