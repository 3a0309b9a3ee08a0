"""The quant24b ops of issue 24 against numpy references: average_accumulates_ (the running
sums of ModelAverage) dpsgd (its noise from the C++ standard's minstd_rand) and
dgc_clip_by_norm for each dtype PaddlePaddle 3.3.1 registers on CPU, its branches (the
16384th update, the window closing by each of its three limits), in-place updates, 0-D and
empty parameters, and bad input. PaddlePaddle's own results are in test_quant24b_paddle.py."""

from __future__ import annotations

import numpy as np
import pytest

import phiops
import phiops._C_ops as C
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.coverage import paddle_data
from tests.ops.op_testing import cpu_dtypes, op_test

I64 = np.int64
INT64_MAX = 2**63 - 1


def t(values, dtype=None) -> phiops.Tensor:
    return phiops.to_tensor(np.asarray(values, dtype))


def ref_average_accumulates(param, s1, s2, s3, acc, old, updates, window, max_w, min_w):
    """The in-place call's result, from PHI's kernel read with in_sum_1/in_sum_2 aliased."""
    updates, acc = updates + 1, acc + 1
    s1 = s1 + param
    if updates % 16384 == 0:
        s2, s1 = s2 + s1, np.zeros_like(s1)
    limit = min(max_w, int(np.float32(updates) * np.float32(window)))
    if acc >= min_w and acc >= limit:
        s3, s1, s2 = s1 + s2, np.zeros_like(s1), np.zeros_like(s2)
        old, acc = acc, 0
    return s1, s2, s3, acc, old, updates


def test_registrations_are_paddles() -> None:
    kernels = paddle_data()["kernels"]
    for kernel in ("average_accumulates", "dpsgd", "dgc_clip_by_norm"):
        assert sorted(d.name.lower() for d in cpu_dtypes(kernel)) == sorted(kernels[kernel])


def _call(param, sums, counters, window, max_w, min_w):
    tensors = [t(s) for s in sums] + [t([c], I64) for c in counters]
    outs = C.average_accumulates_(t(param), *tensors, window, max_w, min_w)
    return tensors, outs


@op_test("average_accumulates_", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("average_accumulates"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize(
    "counters, windows",
    [
        ((3, 5, 20), (0.0, INT64_MAX, 10000)),  # an ordinary step
        ((3, 5, 16383), (0.0, INT64_MAX, 10000)),  # sum_1 moves into sum_2
        ((9, 5, 20), (0.0, INT64_MAX, 10)),  # closes at min_average_window
        ((4, 5, 20), (0.25, INT64_MAX, 2)),  # closes at int(21 * 0.25) = 5
        ((3, 5, 20), (0.25, INT64_MAX, 2)),  # 4 < 5: stays open
        ((6, 5, 20), (1.0, 7, 2)),  # closes at max_average_window
        ((9, 5, 16383), (0.0, 100, 10)),  # both at once
    ],
)
def test_average_accumulates_matches_numpy(dtype: DataType, counters, windows) -> None:
    kind = dtype.name.lower()
    rng = np.random.default_rng(7)
    param, *sums = (rng.normal(size=(2, 3)).astype(kind) for _ in range(4))
    tensors, outs = _call(param, sums, counters, *windows)
    want = ref_average_accumulates(param, *sums, *counters, *windows)
    for got, expected in zip(outs[:3], want[:3]):
        assert got.dtype == phiops.to_tensor(np.zeros(1, kind)).dtype
        np.testing.assert_array_equal(got.numpy(), expected)
    assert [int(o.numpy()[0]) for o in outs[3:]] == list(want[3:])
    for out in outs[3:]:
        assert out.numpy().dtype == np.int64 and out.shape == [1]
    for tensor, out in zip(tensors, outs):  # in place: the inputs hold the results
        assert tensor is out


@op_test("average_accumulates_", kind="edge")
def test_average_accumulates_edges() -> None:
    f32 = np.float32
    # 0-D parameter and sums; a 0-D counter becomes [1], as PHI's InferMeta sets it
    count = t(I64(3))
    s1, s2, s3 = t(f32(1)), t(f32(2)), t(f32(3))
    C.average_accumulates_(t(f32(0.5)), s1, s2, s3, count, t([0], I64), t([4], I64))
    assert float(s1) == 1.5 and float(s2) == 2.0 and float(s3) == 3.0
    assert s1.shape == [] and count.shape == [1] and int(count.numpy()[0]) == 4
    # empty parameter: only the counters move
    empty = np.zeros((0, 2), f32)
    _, outs = _call(empty, [empty] * 3, (0, 0, 0), 0.0, 10, 1)
    assert outs[0].shape == [0, 2] and [int(o.numpy()[0]) for o in outs[3:]] == [0, 1, 1]
    # the defaults never close a window before 10000 steps
    _, outs = _call(np.ones(2, f32), [np.zeros(2, f32)] * 3, (9998, 0, 9998), 0.0, INT64_MAX, 10000)
    assert [int(o.numpy()[0]) for o in outs[3:]] == [9999, 0, 9999]
    # non-contiguous parameter
    base = np.arange(12, dtype=f32).reshape(3, 4)
    _, outs = _call(base.T, [np.zeros((4, 3), f32)] * 3, (0, 0, 0), 0.0, 100, 50)
    np.testing.assert_array_equal(outs[0].numpy(), base.T)
    # bad input
    two = np.zeros(2, f32)
    with pytest.raises(
        InvalidArgumentError, match="average_accumulates_.*'in_sum_2' with dims \\[3\\]"
    ):
        _call(two, [two, np.zeros(3, f32), two], (0, 0, 0), 0.0, 10, 1)
    with pytest.raises(InvalidArgumentError, match="'in_sum_3' must have param's dtype float32"):
        _call(two, [two, two, np.zeros(2, np.float64)], (0, 0, 0), 0.0, 10, 1)
    with pytest.raises(InvalidArgumentError, match="'in_num_updates' must be an int64 counter"):
        C.average_accumulates_(t(two), t(two), t(two), t(two), t([0], I64), t([0], I64),
                               t([0], np.int32), 0.0, 10, 1)  # fmt: skip
    with pytest.raises(InvalidArgumentError, match="'in_num_accumulates' must hold exactly one"):
        C.average_accumulates_(t(two), t(two), t(two), t(two), t([0, 0], I64), t([0], I64),
                               t([0], I64), 0.0, 10, 1)  # fmt: skip
    with pytest.raises(InvalidArgumentError, match="'min_average_window' \\(11\\) must not exceed"):
        _call(two, [two] * 3, (0, 0, 0), 0.0, 10, 11)


# -- dpsgd ------------------------------------------------------------------------------------


def minstd_uniforms(seed: int, count: int, draws: int) -> list[float]:
    """libstdc++'s uniform_real_distribution over std::minstd_rand, written from the C++
    standard (x -> 48271 x mod 2^31 - 1; generate_canonical sums `draws` values in base
    2^31 - 2); computed in Python floats, so exact for float32's one draw and near for
    float64's two."""
    m, r = 2**31 - 1, 2**31 - 2
    state = (seed % 2**32) % m or 1
    out = []
    for _ in range(count):
        total, scale = 0, 1
        for _ in range(draws):
            state = state * 48271 % m
            total += (state - 1) * scale
            scale *= r
        out.append(total / scale)
    return out


def ref_noise(seed: int, sigma: float, draws: int) -> float:
    """The polar Box-Muller draw (https://en.wikipedia.org/wiki/Marsaglia_polar_method)."""
    uniforms = minstd_uniforms(seed, 40, draws)
    for u1, u2 in zip(uniforms[::2], uniforms[1::2]):
        v1, v2 = 2 * u1 - 1, 2 * u2 - 1
        s = v1 * v1 + v2 * v2
        if 0 < s < 1:
            return v1 * np.sqrt(-2 * np.log(s) / s) * sigma
    raise AssertionError("no draw in 20 tries")


@op_test("dpsgd", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("dpsgd"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize(
    "grad_scale, clip, seed", [(0.1, 10.0, 1), (3.0, 1.0, 12345), (1.0, 2.0, -3)]
)
def test_dpsgd_matches_numpy(dtype: DataType, grad_scale: float, clip: float, seed: int) -> None:
    kind = dtype.name.lower()
    rng = np.random.default_rng(11)
    param = rng.normal(size=(2, 3)).astype(kind)
    grad = (rng.normal(size=(2, 3)) * grad_scale).astype(kind)
    got = C.dpsgd(t(param), t(grad), t([0.1], kind), clip, 4.0, 1.5, seed).numpy()
    norm = np.sqrt((grad.astype(np.float64) ** 2).sum())
    scale = norm / clip if norm > clip else 1.0
    noise = ref_noise(seed, 1.5, 1 if kind == "float32" else 2)
    want = param.astype(np.float64) - 0.1 * (grad / scale + noise / 4.0)
    assert got.dtype == np.dtype(kind)
    np.testing.assert_allclose(got, want, rtol=2e-6, atol=2e-6)


@op_test("dpsgd", kind="edge")
def test_dpsgd_edges() -> None:
    f32 = np.float32
    # the seed decides the noise: the same seed gives the same step, another seed another
    args = (t(np.zeros(4, f32)), t(np.zeros(4, f32)), t([1.0], f32), 10.0, 1.0, 1.0)
    first, again, other = (C.dpsgd(*args, s).numpy() for s in (5, 5, 6))
    np.testing.assert_array_equal(first, again)
    assert not np.array_equal(first, other)
    # one noise value for the whole step: every element moves alike
    assert np.all(first == first[0]) and first[0] != 0
    # sigma 0: plain clipped SGD; a gradient of norm 5 clipped to 1 is divided by 5
    grad = np.array([3.0, 4.0], f32)
    got = C.dpsgd(t(np.ones(2, f32)), t(grad), t([0.5], f32), 1.0, 16.0, 0.0, 9).numpy()
    np.testing.assert_allclose(got, 1 - 0.5 * grad / 5, rtol=1e-7)
    # 0-D and empty parameters
    out = C.dpsgd(t(f32(1)), t(f32(2)), t([0.5], f32), 10.0, 16.0, 0.0, 1)
    assert out.shape == [] and float(out) == 0.0
    assert C.dpsgd(t(np.zeros((0, 3), f32)), t(np.zeros((0, 3), f32)), t([0.5], f32)).shape == [
        0,
        3,
    ]
    # seed 0 (the default) draws from the time: still one finite value for every element
    out = C.dpsgd(t(np.zeros(3, f32)), t(np.zeros(3, f32)), t([1.0], f32)).numpy()
    assert np.all(np.isfinite(out)) and np.all(out == out[0])
    # noise is normal: over many seeds its mean is near 0 and its deviation near sigma
    draws = np.array(
        [
            float(C.dpsgd(t(f32(0)), t(f32(0)), t([1.0], f32), 1.0, 1.0, 2.0, s))
            for s in range(1, 201)
        ]
    )
    assert abs(draws.mean()) < 0.5 and 1.6 < draws.std() < 2.4
    # bad input
    with pytest.raises(InvalidArgumentError, match="dpsgd.*'grad' with dims \\[3\\] must have"):
        C.dpsgd(t(np.zeros(2, f32)), t(np.zeros(3, f32)), t([0.5], f32))
    with pytest.raises(InvalidArgumentError, match="'learning_rate' must hold exactly one"):
        C.dpsgd(t(np.zeros(2, f32)), t(np.zeros(2, f32)), t([0.5, 0.5], f32))
    with pytest.raises(InvalidArgumentError, match="'learning_rate' must have param's dtype"):
        C.dpsgd(t(np.zeros(2, f32)), t(np.zeros(2, f32)), t([0.5], np.float64))


# -- dgc_clip_by_norm -------------------------------------------------------------------------


@op_test("dgc_clip_by_norm", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("dgc_clip_by_norm"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("max_norm", [0.5, 3.0, 100.0])
def test_dgc_clip_by_norm_matches_numpy(dtype: DataType, max_norm: float) -> None:
    kind = dtype.name.lower()
    x = np.random.default_rng(12).normal(size=(3, 4)).astype(kind)
    got = C.dgc_clip_by_norm(t(x), t([5.0], kind), max_norm, 2.0).numpy()
    norm = np.sqrt((x.astype(np.float64) ** 2).sum())
    want = x * (max_norm / norm) if norm > max_norm else x
    np.testing.assert_allclose(got, want, rtol=1e-6)


@op_test("dgc_clip_by_norm", kind="edge")
def test_dgc_clip_by_norm_edges() -> None:
    f32 = np.float32
    x = np.array([[3.0, 4.0], [0.0, 0.0]], f32)  # norm 5
    # before the ramp-up (or with it off) x passes unchanged; PaddlePaddle leaves out unset
    for step, begin in ((1.0, 2.0), (1.9, 2.0), (5.0, -1.0)):
        got = C.dgc_clip_by_norm(t(x), t([step], f32), 1.0, begin).numpy()
        np.testing.assert_array_equal(got, x)
    # at the step it begins (2.9 truncates to 2): clipped to norm 1
    got = C.dgc_clip_by_norm(t(x), t([2.9], f32), 1.0, 2.0).numpy()
    np.testing.assert_allclose(got, x / 5, rtol=1e-7)
    # 0-D, empty, all zeros (no division by zero)
    assert float(C.dgc_clip_by_norm(t(f32(-4)), t([0.0], f32), 2.0, 0.0)) == -2.0
    assert C.dgc_clip_by_norm(t(np.zeros((0, 3), f32)), t([0.0], f32), 2.0, 0.0).shape == [0, 3]
    zeros = C.dgc_clip_by_norm(t(np.zeros(3, f32)), t([0.0], f32), 2.0, 0.0).numpy()
    assert zeros.tolist() == [0.0, 0.0, 0.0]
    # non-contiguous
    base = np.arange(12, dtype=f32).reshape(3, 4)
    got = C.dgc_clip_by_norm(t(base.T), t([0.0], f32), 1.0, 0.0).numpy()
    np.testing.assert_allclose(got, base.T / np.sqrt((base**2).sum()), rtol=1e-6)
    # bad input
    with pytest.raises(InvalidArgumentError, match="dgc_clip_by_norm.*'max_norm' must be greater"):
        C.dgc_clip_by_norm(t(x), t([0.0], f32), 0.0, 0.0)
    with pytest.raises(InvalidArgumentError, match="'current_step' must be one element"):
        C.dgc_clip_by_norm(t(x), t([0.0, 1.0], f32), 1.0, 0.0)
    with pytest.raises(InvalidArgumentError, match="'rampup_begin_step' must be finite"):
        C.dgc_clip_by_norm(t(x), t([0.0], f32), 1.0, float("nan"))
