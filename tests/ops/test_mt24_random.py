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
