"""PaddlePaddle's random numbers for more ops (issue 24): after the same ``paddle.seed``,
exponential_, uniform_, normal_ (gaussian_inplace), randperm (libstdc++'s std::shuffle),
multinomial, gumbel_softmax, rrelu, uniform_random_batch_size_like and the rnn op's dropout
between layers give PaddlePaddle 3.3.1's CPU numbers, drawing from its engine one op after
another (recorded by tests/tools/make_rng24_fixtures.py, whose ``cases`` this runs with phiops):
integers exactly, floats to float rounding (PHI's logarithms are the C library's)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import phiops as paddle
from phiops.runtime import random as phi_random
from phiops.runtime.kernels import mt19937
from tests.tools.make_rng24_fixtures import SEEDS, cases

DATA = np.load(Path(__file__).resolve().parents[1] / "data" / "rng24" / "paddle_3_3_1.npz")
KEYS = [k for k in DATA.files if k != "paddle_version"]


@pytest.fixture(scope="module")
def drawn() -> dict[str, np.ndarray]:
    return cases(paddle)


def test_every_recorded_case_is_drawn(drawn: dict[str, np.ndarray]) -> None:
    assert str(DATA["paddle_version"]) == "3.3.1"
    assert sorted(drawn) == sorted(KEYS) and len(KEYS) == 31 * len(SEEDS)


@pytest.mark.parametrize("case", sorted({k.split("/", 1)[1] for k in KEYS}))
def test_paddle_numbers(drawn: dict[str, np.ndarray], case: str) -> None:
    for seed in SEEDS:
        key = f"{seed}/{case}"
        got, expected = drawn[key], DATA[key]
        assert got.dtype == expected.dtype and got.shape == expected.shape, key
        if expected.dtype.kind in "iub":
            np.testing.assert_array_equal(got, expected, err_msg=key)
        else:
            tolerance = 4 * np.finfo(expected.dtype).eps
            np.testing.assert_allclose(got, expected, rtol=tolerance, atol=tolerance, err_msg=key)


def _reference_shuffle(words: list[int], n: int) -> list[int]:
    """libstdc++'s std::shuffle one swap per draw (its plain loop), as a check of the paired
    form: for n whose squares fit the engine both consume the same words differently, so this
    is only a permutation check; with n = 2 both draw one word over [0, 2)."""
    values = list(range(n))
    for i in range(1, n):
        span = i + 1
        product = words.pop(0) * span
        values[i], values[product >> 64] = values[product >> 64], values[i]
    return values


def test_shuffle_and_bounded_draws() -> None:
    state = phi_random.engine_state(5)
    words = [int(w) for w in mt19937.raw(state.copy(), 4)]
    assert mt19937.shuffle(state.copy(), 2).tolist() == _reference_shuffle(words, 2)
    permutation = mt19937.shuffle(state.copy(), 1001)
    assert sorted(permutation.tolist()) == list(range(1001))
    # bounded is libstdc++'s uniform_int_distribution: the high word of word * range
    ranges = np.array([3, 10, 2**31 + 5, 2**40 + 3, 7], np.uint64)
    copy = state.copy()
    got = mt19937.bounded(copy, ranges).tolist()
    words = [int(w) for w in mt19937.raw(state, 5)]
    assert got == [(w * int(r)) >> 64 for w, r in zip(words, ranges.tolist())]
    assert (copy == state).all()


def test_samplers_that_would_never_return_are_refused() -> None:
    from phiops import _C_ops
    from phiops.runtime.errors import InvalidArgumentError

    f32 = "float32"
    with pytest.raises(InvalidArgumentError, match="'count' must be below 2\\*\\*63"):
        _C_ops.binomial(
            paddle.to_tensor(np.array([1e30], f32)), paddle.to_tensor(np.array([0.5], f32))
        )
    with pytest.raises(InvalidArgumentError, match="rates below 2e\\+09 can be drawn"):
        _C_ops.poisson(paddle.to_tensor(np.array([1.0, 3e9], f32)))
    # where no draw is needed, PHI's int64 cast: trunc(count), INT64_MIN past int64's range
    # (PaddlePaddle 3.3.1 gives [-2**63, 7] for these, checked in the side venv)
    huge = _C_ops.binomial(
        paddle.to_tensor(np.array([1e30, 7.9], f32)), paddle.to_tensor(np.array([1.0, 1.0], f32))
    )
    assert huge.numpy().tolist() == [-(2**63), 7]
