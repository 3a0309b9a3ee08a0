"""The train24 ops of issue 24 (AMP, metrics and training-side ops) against numpy references
for each dtype PaddlePaddle 3.3.1 registers on CPU, their edges (0-D and empty tensors, a
non-finite value in each position of a list, each counter's limit) and bad input.
PaddlePaddle's own results are in test_train24_paddle.py."""

from __future__ import annotations

import numpy as np
import pytest

import phiops
import phiops._C_ops as C
import phiops.generated.backward as phi_backward
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError, PreconditionNotMetError
from phiops.runtime.kernels.coverage import paddle_data
from tests.ops.op_testing import cpu_dtypes, op_test


def t(values, dtype=None) -> phiops.Tensor:
    return phiops.to_tensor(np.asarray(values, dtype))


def test_registrations_are_paddles() -> None:
    kernels = paddle_data()["kernels"]
    for kernel in (
        "check_finite_and_unscale", "update_loss_scaling", "clip_by_norm", "norm", "norm_grad",
        "accuracy", "accuracy_check", "auc",
    ):  # fmt: skip
        assert sorted(d.name.lower() for d in cpu_dtypes(kernel)) == sorted(kernels[kernel])


# -- check_finite_and_unscale_ -----------------------------------------------------------------


def ref_unscale(xs: list[np.ndarray], scale: float) -> tuple[list[np.ndarray], bool]:
    """PHI's loop: 1/scale in double rounded to x's dtype; from the first non-finite tensor on,
    x * 0."""
    inverse = np.asarray(1.0 / np.float64(scale)).astype(xs[0].dtype)
    found, outs = False, []
    for x in xs:
        found = found or not np.isfinite(x).all()
        with np.errstate(invalid="ignore"):
            outs.append(x * (np.zeros((), x.dtype) if found else inverse))
    return outs, found


@op_test("check_finite_and_unscale_", kind="dtypes")
@pytest.mark.parametrize(
    "dtype", cpu_dtypes("check_finite_and_unscale"), ids=lambda d: d.name.lower()
)
@pytest.mark.parametrize("bad_at", [None, 0, 1])
def test_check_finite_and_unscale_matches_numpy(dtype: DataType, bad_at) -> None:
    kind = dtype.name.lower()
    rng = np.random.default_rng(3)
    xs = [rng.normal(0, 500, (2, 3)).astype(kind), rng.normal(0, 500, (4,)).astype(kind)]
    if bad_at is not None:
        xs[bad_at][(1,) * xs[bad_at].ndim] = np.inf
    tensors = [t(x) for x in xs]
    outs, found = C.check_finite_and_unscale_(tensors, t([3.0], kind))
    want, want_found = ref_unscale(xs, 3.0)
    for tensor, out, expected in zip(tensors, outs, want):
        assert out is tensor  # in place
        assert out.numpy().dtype == np.dtype(kind)
        np.testing.assert_array_equal(out.numpy(), expected)
    assert found.shape == [1] and found.numpy().dtype == np.bool_
    assert bool(found.numpy()[0]) is want_found


@op_test("check_finite_and_unscale_", kind="edge")
def test_check_finite_and_unscale_edges() -> None:
    zero_d, empty = t(6.0, "float32"), t(np.zeros((0, 2)), "float32")
    outs, found = C.check_finite_and_unscale_([empty, zero_d], t([4.0], "float32"))
    assert outs[0].shape == [0, 2] and outs[1].shape == [] and float(outs[1]) == 1.5
    assert not bool(found)
    nan_first = t([np.nan, 2.0], "float64")
    later = t([-4.0], "float64")
    outs, found = C.check_finite_and_unscale_([nan_first, later], t([2.0], "float64"))
    assert bool(found)
    assert np.isnan(outs[0].numpy()[0]) and outs[0].numpy()[1] == 0.0
    np.testing.assert_array_equal(outs[1].numpy(), [-0.0])
    assert np.signbit(outs[1].numpy()[0])  # x * 0 keeps the sign, as PHI's product does
    (out,), _ = C.check_finite_and_unscale_([t([1.0, 0.0], "float32")], t([0.0], "float32"))
    assert np.isinf(out.numpy()[0]) and np.isnan(out.numpy()[1])  # 1/0 = inf, 0 * inf = NaN


@op_test("check_finite_and_unscale_", kind="edge")
def test_check_finite_and_unscale_rejects_bad_input() -> None:
    with pytest.raises(InvalidArgumentError, match="check_finite_and_unscale_.*'x'.*empty list"):
        C.check_finite_and_unscale_([], t([1.0], "float32"))
    with pytest.raises(InvalidArgumentError, match="'x'.*one dtype.*x\\[1\\] is float64"):
        C.check_finite_and_unscale_([t([1.0], "float32"), t([1.0], "float64")], t([1.0], "float32"))
    with pytest.raises(InvalidArgumentError, match="'scale'.*exactly one element"):
        C.check_finite_and_unscale_([t([1.0], "float32")], t([1.0, 2.0], "float32"))


# -- update_loss_scaling_ ----------------------------------------------------------------------


def ref_update(found, prev, good, bad, incr_n, decr_n, incr, decr, stop, dtype):
    """PHI's Update(): the ratios are float32 attributes; the product in the factor's dtype."""
    prev = np.asarray(prev, dtype)
    if stop:
        return prev, good, bad
    if found:
        good, bad = 0, bad + 1
        if bad == decr_n:
            prev, bad = np.maximum(prev * np.asarray(np.float32(decr), dtype), 1), 0
    else:
        good, bad = good + 1, 0
        if good == incr_n:
            with np.errstate(over="ignore"):
                grown = prev * np.asarray(np.float32(incr), dtype)
            prev, good = (grown if np.isfinite(grown) else prev), 0
    return prev, good, bad


UPDATES = [
    (False, 1024.0, 3, 1, 1000, 2, 2.0, 0.5, False),  # counts a good step
    (False, 1000.0, 4, 0, 5, 2, 1.1, 0.5, False),  # grows by float32(1.1)
    (False, 3.0e38, 0, 0, 1, 2, 2.0, 0.5, False),  # float32 overflow: kept
    (True, 1024.0, 7, 0, 1000, 2, 2.0, 0.5, False),  # counts a bad step
    (True, 1000.0, 7, 0, 1000, 1, 2.0, 0.3, False),  # shrinks by float32(0.3)
    (True, 1.5, 0, 0, 1000, 1, 2.0, 0.5, False),  # clamped at 1
    (True, 1024.0, 7, 1, 1000, 2, 2.0, 0.5, True),  # stop_update: x zeroed only
]


@op_test("update_loss_scaling_", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("update_loss_scaling"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("setting", UPDATES, ids=range(len(UPDATES)))
def test_update_loss_scaling_matches_numpy(dtype: DataType, setting) -> None:
    kind = dtype.name.lower()
    found, prev, good, bad, incr_n, decr_n, incr, decr, stop = setting
    x = np.arange(6, dtype=kind).reshape(2, 3) - 2.5
    tensors = [t(x), t([found]), t([prev], kind), t([good], "int32"), t([bad], "int32")]
    outs = C.update_loss_scaling_([tensors[0]], *tensors[1:], incr_n, decr_n, incr, decr, stop)
    (out,), scaling, good_out, bad_out = outs
    assert out is tensors[0] and scaling is tensors[2]  # in place
    assert good_out is tensors[3] and bad_out is tensors[4]
    np.testing.assert_array_equal(out.numpy(), np.zeros_like(x) if found else x)
    want = ref_update(found, prev, good, bad, incr_n, decr_n, incr, decr, stop, kind)
    assert scaling.numpy().dtype == np.dtype(kind)
    np.testing.assert_array_equal(scaling.numpy(), [want[0]])
    assert good_out.numpy().tolist() == [want[1]] and bad_out.numpy().tolist() == [want[2]]
    assert good_out.numpy().dtype == np.int32


@op_test("update_loss_scaling_", kind="edge")
def test_update_loss_scaling_edges() -> None:
    zero_d, empty = t(2.5, "float32"), t(np.zeros((0, 3)), "float32")
    (a, b), scaling, good, bad = C.update_loss_scaling_(
        [zero_d, empty], t([True]), t([8.0], "float32"), t([0], "int32"), t([0], "int32"),
        10, 1, 2.0, 0.5, False,
    )  # fmt: skip
    assert a.shape == [] and float(a) == 0.0 and b.shape == [0, 3]
    assert scaling.numpy().tolist() == [4.0] and good.numpy().tolist() == [0]
    # stop_update may come as a one-element bool tensor (a Scalar)
    _, scaling, good, _ = C.update_loss_scaling_(
        [t([1.0], "float64")], t([False]), t([8.0], "float64"), t([0], "int32"),
        t([0], "int32"), 1, 1, 2.0, 0.5, t([True]),
    )  # fmt: skip
    assert scaling.numpy().tolist() == [8.0] and good.numpy().tolist() == [0]


@op_test("update_loss_scaling_", kind="edge")
def test_update_loss_scaling_rejects_bad_input() -> None:
    x, f, s = [t([1.0], "float32")], t([False]), t([8.0], "float32")
    steps = t([0], "int32")
    with pytest.raises(InvalidArgumentError, match="update_loss_scaling_.*'found_infinite'.*bool"):
        C.update_loss_scaling_(x, t([0.0], "float32"), s, steps, steps, 1, 1, 2.0, 0.5)
    with pytest.raises(InvalidArgumentError, match="'prev_loss_scaling'.*float32.*got float64"):
        C.update_loss_scaling_(x, f, t([8.0], "float64"), steps, steps, 1, 1, 2.0, 0.5)
    with pytest.raises(InvalidArgumentError, match="'in_good_steps'.*int32.*got int64"):
        C.update_loss_scaling_(x, f, s, t([0], "int64"), steps, 1, 1, 2.0, 0.5)
    with pytest.raises(InvalidArgumentError, match="'in_bad_steps'.*exactly one element"):
        C.update_loss_scaling_(x, f, s, steps, t([0, 0], "int32"), 1, 1, 2.0, 0.5)
    with pytest.raises(InvalidArgumentError, match="'x'.*empty list"):
        C.update_loss_scaling_([], f, s, steps, steps, 1, 1, 2.0, 0.5)


# -- clip_by_norm ------------------------------------------------------------------------------


def ref_clip_by_norm(x: np.ndarray, max_norm: float) -> np.ndarray:
    norm = np.sqrt(np.sum(x.astype(np.float64) ** 2))
    return x if norm <= max_norm else (x * (max_norm / norm)).astype(x.dtype)


@op_test("clip_by_norm", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("clip_by_norm"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("max_norm", [0.5, 100.0])
def test_clip_by_norm_matches_numpy(dtype: DataType, max_norm: float) -> None:
    x = np.random.default_rng(5).normal(size=(2, 3)).astype(dtype.name.lower())
    out = C.clip_by_norm(t(x), max_norm)
    assert out.numpy().dtype == x.dtype and out.shape == [2, 3]
    np.testing.assert_allclose(out.numpy(), ref_clip_by_norm(x, max_norm), rtol=2e-7)


@op_test("clip_by_norm", kind="edge")
def test_clip_by_norm_edges() -> None:
    np.testing.assert_array_equal(C.clip_by_norm(t(-3.5, "float32"), 2.0).numpy(), -2.0)
    assert C.clip_by_norm(t(np.zeros((0, 2)), "float32"), 1.0).shape == [0, 2]
    np.testing.assert_array_equal(C.clip_by_norm(t(np.zeros(3), "float32"), 1.0).numpy(), 0.0)
    strided = t(np.arange(12, dtype="float32").reshape(3, 4))[:, ::2]  # non-contiguous
    np.testing.assert_allclose(
        C.clip_by_norm(strided, 1.0).numpy(),
        ref_clip_by_norm(np.arange(12, dtype="float32").reshape(3, 4)[:, ::2], 1.0),
        rtol=2e-7,
    )
    out = C.clip_by_norm(t([1.0, np.inf, 0.0], "float32"), 1.0).numpy()
    # x * (1 / inf), as in PaddlePaddle 3.3.1: 0 where x is finite, inf * 0 = NaN where not
    np.testing.assert_array_equal(out, [0.0, np.nan, 0.0])
    with pytest.raises(InvalidArgumentError, match="clip_by_norm.*'max_norm'.*greater than 0"):
        C.clip_by_norm(t([1.0], "float32"), 0.0)


# -- norm ---------------------------------------------------------------------------------------


def ref_norm(x: np.ndarray, axis: int, epsilon: float) -> tuple[np.ndarray, np.ndarray]:
    norm = np.sqrt(np.sum(x * x, axis=axis, keepdims=True) + x.dtype.type(np.float32(epsilon)))
    return x / norm, norm


@op_test("norm", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("norm"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_norm_matches_numpy(dtype: DataType, axis: int) -> None:
    x = np.random.default_rng(6).normal(size=(2, 3, 4)).astype(dtype.name.lower())
    out, norm = C.norm(t(x), axis, 1e-10, False)
    want_out, want_norm = ref_norm(x, axis, 1e-10)
    assert out.numpy().dtype == x.dtype and norm.shape == list(want_norm.shape)
    np.testing.assert_array_equal(out.numpy(), want_out)
    np.testing.assert_array_equal(norm.numpy(), want_norm)


@op_test("norm", kind="edge")
def test_norm_edges() -> None:
    out, norm = C.norm(t([[0.0, 0.0], [3.0, 4.0]], "float64"), 1, 1.0, False)
    np.testing.assert_allclose(out.numpy(), [[0.0, 0.0], [3 / np.sqrt(26), 4 / np.sqrt(26)]])
    np.testing.assert_allclose(norm.numpy(), [[1.0], [np.sqrt(26)]])
    out, norm = C.norm(t(np.zeros((0, 3)), "float32"), 1, 1e-10, False)
    assert out.shape == [0, 3] and norm.shape == [0, 1]
    out, norm = C.norm(t([[1.0, 2.0], [2.0, 2.0]], "float32"), -1, 0.0, True)
    assert norm.shape == [0]  # is_test: PaddlePaddle 3.3.1 leaves norm unset (dims [0])
    np.testing.assert_allclose(out.numpy()[1], [np.sqrt(0.5)] * 2, rtol=1e-7)
    strided = t(np.arange(1.0, 13.0).reshape(3, 4))[:, 1::2]  # non-contiguous
    np.testing.assert_array_equal(
        C.norm(strided, 0, 1e-10, False)[0].numpy(),
        ref_norm(np.arange(1.0, 13.0).reshape(3, 4)[:, 1::2], 0, 1e-10)[0],
    )
    with pytest.raises(InvalidArgumentError, match="norm.*'axis'.*\\[-2, 2\\).*got 2"):
        C.norm(t(np.ones((2, 3)), "float32"), 2, 1e-10, False)
    with pytest.raises(InvalidArgumentError, match="norm.*'axis'.*at least one dimension"):
        C.norm(t(1.0, "float32"), 0, 1e-10, False)


def test_norm_grad_is_the_quotient_rule() -> None:
    x = np.random.default_rng(8).normal(size=(3, 2))
    xt = t(x)
    xt.stop_gradient = False
    out, _ = C.norm(xt, 0, 1e-10, False)
    dy = np.linspace(-1.0, 1.0, 6).reshape(3, 2)
    (grad,) = phiops.grad([out], [xt], grad_outputs=[t(dy)])
    n = np.sqrt((x * x).sum(0, keepdims=True) + np.float32(1e-10))
    np.testing.assert_allclose(grad.numpy(), dy / n - x * (x * dy).sum(0, keepdims=True) / n**3)


def test_norm_grad_needs_the_forward_norm() -> None:
    with pytest.raises(InvalidArgumentError, match="norm_grad.*'norm'.*is_test=False"):
        phi_backward.norm_grad(t(np.ones((2, 3))), t(np.ones(0)), t(np.ones((2, 3))), 1, 0.0, True)


# -- accuracy -----------------------------------------------------------------------------------


@op_test("accuracy", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("accuracy"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("k", [1, 2])
def test_accuracy_matches_numpy(dtype: DataType, k: int) -> None:
    rng = np.random.default_rng(9)
    scores = rng.uniform(size=(6, 4))
    label = rng.integers(0, 4, size=(6, 1))
    indices = np.argsort(-scores, axis=1)[:, :k]
    top = np.take_along_axis(scores, indices, 1).astype(dtype.name.lower())
    accuracy, correct, total = C.accuracy(t(top), t(indices, "int64"), t(label, "int64"))
    hits = int((indices == label).any(axis=1).sum())
    assert correct.numpy().dtype == np.int32 and correct.shape == [] and int(correct) == hits
    assert total.numpy().dtype == np.int32 and int(total) == 6
    assert accuracy.numpy().dtype == np.float32
    assert accuracy.numpy() == np.float32(hits) / np.float32(6)


@op_test("accuracy", kind="edge")
def test_accuracy_edges_and_bad_input() -> None:
    empty = C.accuracy(
        t(np.zeros((0, 2)), "float32"), t(np.zeros((0, 2)), "int64"), t(np.zeros((0, 1)), "int64")
    )
    assert [float(v) for v in empty] == [0.0, 0.0, 0.0]  # 3.3.1 leaves correct, total unset
    x, idx = t(np.ones((2, 1)), "float64"), t([[1], [0]], "int64")
    with pytest.raises(InvalidArgumentError, match="accuracy.*'label'.*>= 0.*label\\[1\\] = -1"):
        C.accuracy(x, idx, t([[1], [-1]], "int64"))
    with pytest.raises(InvalidArgumentError, match="accuracy.*'label'.*int64.*got int32"):
        C.accuracy(x, idx, t([[1], [0]], "int32"))
    with pytest.raises(InvalidArgumentError, match="accuracy.*'label'.*dims \\[N, 1\\]"):
        C.accuracy(x, idx, t([1, 0], "int64"))
    with pytest.raises(InvalidArgumentError, match="accuracy.*'indices'.*x's dims"):
        C.accuracy(x, t([[1, 0], [0, 1]], "int64"), t([[1], [0]], "int64"))
    with pytest.raises(InvalidArgumentError, match="accuracy.*'x'.*\\[N, k\\]"):
        C.accuracy(t([1.0, 2.0], "float32"), idx, t([[1], [0]], "int64"))


# -- accuracy_check -----------------------------------------------------------------------------


def _agree(a: np.ndarray, b: np.ndarray, rtol: float, atol: float, equal_nan: bool) -> np.ndarray:
    a, b = a.astype(np.float64), b.astype(np.float64)
    with np.errstate(invalid="ignore"):
        left, right = np.abs(a - b), atol + rtol * np.abs(b)
        close = (a == b) | (left <= right) | (np.abs(left - right) <= 1e-10)
    nan = np.isnan(a) | np.isnan(b)
    return np.where(nan, equal_nan & (np.isnan(a) == np.isnan(b)), close)


@op_test("accuracy_check", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("accuracy_check"), ids=lambda d: d.name.lower())
def test_accuracy_check_passes_and_fails_as_numpy_says(dtype: DataType) -> None:
    kind = dtype.name.lower()
    x = phiops.to_tensor(np.array([[1, 0, 1], [0, 1, 1]])).astype(kind)
    out = C.accuracy_check(x, x.clone(), "same", 1e-5, 1e-8, False)
    assert out.shape == [2, 3] and out.numpy().dtype == np.bool_ and out.numpy().all()
    y = phiops.to_tensor(np.array([[1, 0, 1], [0, 0, 1]])).astype(kind)
    numpy_x = np.array([[1, 0, 1], [0, 1, 1]], np.float64)
    first = int(np.argmin(_agree(numpy_x, np.array([[1, 0, 1], [0, 0, 1]]), 1e-5, 1e-8, False)))
    with pytest.raises(PreconditionNotMetError, match=f"kernel name other, res index {first}"):
        C.accuracy_check(x, y, "other", 1e-5, 1e-8, False)


@op_test("accuracy_check", kind="edge")
def test_accuracy_check_tolerances_nan_and_bad_input() -> None:
    x = t([1.0, 2.0, np.nan], "float32")
    near = t([1.0, 2.00001, np.nan], "float32")
    assert C.accuracy_check(x, near, "f", 1e-5, 1e-8, True).numpy().all()
    with pytest.raises(PreconditionNotMetError, match="res index 2"):  # NaN, equal_nan false
        C.accuracy_check(x, near, "f", 1e-5, 1e-8, False)
    with pytest.raises(PreconditionNotMetError, match="res index 1"):
        C.accuracy_check(x, near, "f", 1e-7, 1e-8, True)
    assert C.accuracy_check(t(3.0, "float64"), t(3.0, "float64"), "f").shape == []
    assert C.accuracy_check(
        t(np.zeros((0, 2)), "int32"), t(np.zeros((0, 2)), "int32"), "f"
    ).shape == [0, 2]
    # complex: a NaN that does not agree fails only as the last element (index -1), as PHI's loop
    c = t([np.nan + 0j, 1 + 1j], "complex64")
    assert C.accuracy_check(c, t([1 + 0j, 1 + 1j], "complex64"), "f").numpy().all()
    with pytest.raises(PreconditionNotMetError, match="res index -1"):
        C.accuracy_check(t([1 + 1j, np.nan], "complex64"), t([1 + 1j, 1], "complex64"), "f")
    with pytest.raises(InvalidArgumentError, match="accuracy_check"):
        C.accuracy_check(t([1.0, 2.0], "float32"), t([1.0], "float32"), "f")


# -- auc ----------------------------------------------------------------------------------------


def ref_auc(scores, labels, pos, neg, thresholds):
    """PHI's statAuc and calcAuc for slide_steps 0, one sample and one bucket at a time."""
    pos, neg = list(pos), list(neg)
    for score, label in zip(scores, labels):
        bucket = int(np.float32(score) * np.float32(thresholds))
        if label > 0:
            pos[bucket] += 1
        elif label == 0:
            neg[bucket] += 1
    area = tot_pos = tot_neg = 0.0
    for index in range(thresholds, -1, -1):
        prev_pos, prev_neg = tot_pos, tot_neg
        tot_pos += pos[index]
        tot_neg += neg[index]
        area += abs(tot_neg - prev_neg) * (tot_pos + prev_pos) / 2.0
    if tot_pos > 0 and tot_neg > 0:
        area = area / tot_pos / tot_neg
    return area, pos, neg


@op_test("auc", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("auc"), ids=lambda d: d.name.lower())
def test_auc_matches_numpy(dtype: DataType) -> None:
    rng = np.random.default_rng(11)
    scores = rng.uniform(size=12).astype(dtype.name.lower())
    labels = rng.integers(0, 2, size=12)
    pos, neg = [1, 0, 2, 0, 3, 1], [0, 2, 1, 1, 0, 4]
    auc, pos_out, neg_out = C.auc(
        t(np.stack([1 - scores, scores], 1)), t(labels.reshape(12, 1), "int64"),
        t([pos], "int64"), t([neg], "int64"), None, "ROC", 5, 0,
    )  # fmt: skip
    want, want_pos, want_neg = ref_auc(scores, labels, pos, neg, 5)
    assert auc.shape == [] and auc.numpy().dtype == np.float64 and float(auc) == want
    assert pos_out.shape == [1, 6] and pos_out.numpy().tolist() == [want_pos]
    assert neg_out.numpy().tolist() == [want_neg]


@op_test("auc", kind="edge")
def test_auc_sliding_window_fake_data_and_bad_input() -> None:
    x, label = t([[0.25], [0.75]], "float32"), t([[0], [1]], "int64")
    # one slot of 3 buckets, the sum, and the step counter
    pos, neg = t([5, 0, 0, 9, 0, 1, 7], "int64"), t([0, 0, 4, 0, 0, 8, 7], "int64")
    auc, pos_out, neg_out = C.auc(x, label, pos, neg, None, "ROC", 2, 1)
    # the slot's old counts leave the sum and this batch's enter it (0.75 -> bucket 1, 0.25 ->
    # bucket 0): sum [9, 0, 1] - [5, 0, 0] + [0, 1, 0]; the counter counts the step
    assert pos_out.numpy().tolist() == [0, 1, 0, 4, 1, 1, 8]
    assert neg_out.numpy().tolist() == [1, 0, 0, 1, 0, 4, 8]
    assert float(auc) == ref_auc([], [], [4, 1, 1], [1, 0, 4], 2)[0]
    fake = t([0.0], "float32")
    auc, pos_out, _ = C.auc(
        x, label, t([[1, 2, 3]], "int64"), t([[0, 0, 1]], "int64"), fake, "ROC", 2, 0
    )
    assert float(auc) == 0.0 and pos_out.numpy().tolist() == [[1, 2, 3]]
    with pytest.raises(PreconditionNotMetError, match="auc.*less or equal 1"):
        C.auc(
            t([[1.5]], "float32"),
            t([[1]], "int64"),
            t([[0, 0, 0]], "int64"),
            t([[0, 0, 0]], "int64"),
            None,
            "ROC",
            2,
            0,
        )
    with pytest.raises(InvalidArgumentError, match="auc.*'stat_pos'.*at least 7 elements"):
        C.auc(x, label, t([[0, 0, 0]], "int64"), pos, None, "ROC", 2, 1)
    with pytest.raises(InvalidArgumentError, match="auc.*'x'.*1 or 2 columns"):
        C.auc(t(np.full((2, 3), 0.5), "float32"), label, pos, neg, None, "ROC", 2, 1)
    with pytest.raises(InvalidArgumentError, match="auc.*'label'.*int64"):
        C.auc(x, t([[0], [1]], "int32"), pos, neg, None, "ROC", 2, 1)
    with pytest.raises(InvalidArgumentError, match="auc.*'label'.*2 rows"):
        C.auc(x, t([[0]], "int64"), pos, neg, None, "ROC", 2, 1)
