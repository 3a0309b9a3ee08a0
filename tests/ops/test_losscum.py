"""The loss ops of issue 24 (bce_loss, sigmoid_cross_entropy_with_logits, kldiv_loss, huber_loss,
nll_loss, log_loss, hinge_loss, label_smooth, identity_loss, mean_all): every registered dtype
against numpy, the registrations against PaddlePaddle 3.3.1's, 0-D, empty and non-contiguous
inputs, the edges (clamped logs, ignored labels, the Huber threshold) and bad input; and the
paddle.nn.functional losses and paddle.nn loss layers over them. Edge values written here are
PaddlePaddle 3.3.1's (tests/ops/test_losscum_paddle.py compares many more)."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import phiops
import phiops._C_ops as C
import phiops.generated as phi
import phiops.nn as nn
import phiops.nn.functional as F
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.coverage import paddle_data
from tests.ops.op_testing import cpu_dtypes, op_test, sample, tolerance

D = DataType

LOSS_OPS = (
    "bce_loss",
    "sigmoid_cross_entropy_with_logits",
    "kldiv_loss",
    "huber_loss",
    "nll_loss",
    "log_loss",
    "hinge_loss",
    "label_smooth",
    "identity_loss",
    "mean_all",
)


def t(values, dtype=None) -> phiops.Tensor:
    return phi.to_tensor(np.asarray(values, dtype))


def f32(value: float) -> float:
    return float(np.float32(value))


# -- numpy references, in float64 ------------------------------------------------------------


def bce_reference(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore"):
        return -(y * np.maximum(np.log(x), -100) + (1 - y) * np.maximum(np.log(1 - x), -100))


def sce_reference(x, label, pos_weight=None, normalize=False, ignore_index=-100):
    weight = 1.0 if pos_weight is None else pos_weight
    loss = (1 - label) * x + weight * (np.log1p(np.exp(-np.abs(x))) + np.maximum(-x, 0))
    ignored = label.astype(np.int64) == ignore_index
    loss = np.where(ignored, 0.0, loss)
    return loss / max((~ignored).sum(), 1e-5) if normalize else loss


def kldiv_reference(x, label, reduction, log_target):
    if log_target:
        loss = np.exp(label) * (label - x)
    else:
        loss = np.where(label > 0, label * (np.log(np.where(label > 0, label, 1)) - x), 0.0)
    return {
        "none": loss,
        "sum": loss.sum(),
        "mean": loss.mean(),
        "batchmean": loss.sum() / x.shape[0],
    }[reduction]


def huber_reference(x, y, delta):
    r = y - x
    return np.where(np.abs(r) <= delta, 0.5 * r * r, delta * (np.abs(r) - 0.5 * delta))


def nll_reference(x, label, weight, ignore_index, reduction):
    classes = x.shape[1]
    weight = np.ones(classes) if weight is None else weight
    flat_label = label.reshape(x.shape[:1] + x.shape[2:])
    kept = flat_label != ignore_index
    index = np.where(kept, flat_label, 0)
    picked = np.take_along_axis(x, index[:, None], axis=1)[:, 0]
    weights = np.where(kept, weight[index], 0.0)
    losses = -picked * weights
    if reduction == "none":
        return losses
    if reduction == "sum":
        return losses.sum()
    return losses.sum() / weights.sum() if weights.sum() else 0.0


# -- forward, every registered dtype ----------------------------------------------------------


def test_registrations_are_paddles() -> None:
    kernels = paddle_data()["kernels"]
    for op in LOSS_OPS:
        for name in (op, f"{op}_grad"):
            assert sorted(d.name.lower() for d in cpu_dtypes(name)) == sorted(kernels[name]), name


@op_test("bce_loss", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("bce_loss"), ids=lambda d: d.name.lower())
def test_bce_loss_matches_numpy(dtype: DataType) -> None:
    x = sample((3, 4), dtype, seed=1, low=0.01, high=0.99)
    y = sample((3, 4), dtype, seed=2, low=0, high=1)
    out = C.bce_loss(t(x), t(y))
    assert out.dtype == dtype and out.shape == [3, 4]
    np.testing.assert_allclose(out.numpy(), bce_reference(x, y), **tolerance(dtype))


@op_test("bce_loss", kind="edge")
def test_bce_loss_clamps_logs_and_refuses_values_outside_0_1() -> None:
    # PaddlePaddle 3.3.1: 100 at the ends (each log clamped at -100), grads +-1e12 there
    x = t([[0.0, 1.0], [0.5, 1.0]], "float32")
    x.stop_gradient = False
    out = C.bce_loss(x, t([[1.0, 0.0], [0.5, 1.0]], "float32"))
    np.testing.assert_allclose(out.numpy(), [[100.0, 100.0], [0.6931472, 0.0]], rtol=1e-6)
    (grad,) = phi.grad(out, [x], grad_outputs=phi.ones_like(out))
    np.testing.assert_allclose(grad.numpy(), [[-1e12, 1e12], [0.0, 0.0]], rtol=1e-6)
    assert C.bce_loss(t(0.25, "float64"), t(1.0, "float64")).shape == []
    assert C.bce_loss(t(np.zeros((0, 3)), "float64"), t(np.zeros((0, 3)), "float64")).shape == [
        0,
        3,
    ]
    with pytest.raises(InvalidArgumentError, match="bce_loss.*argument 'input'.*1.5"):
        C.bce_loss(t([1.5], "float32"), t([1.0], "float32"))
    with pytest.raises(InvalidArgumentError, match="bce_loss.*argument 'input'.*nan"):
        C.bce_loss(t([np.nan], "float32"), t([1.0], "float32"))
    with pytest.raises(InvalidArgumentError, match="bce_loss.*'label' must have the rank"):
        C.bce_loss(t(np.full((2, 3), 0.5), "float32"), t([1.0, 0.0, 1.0], "float32"))
    with pytest.raises(InvalidArgumentError, match="bce_loss.*'label' must have the dims"):
        C.bce_loss(t(np.full((2, 3), 0.5), "float32"), t([[1.0], [0.0]], "float32"))


@op_test("sigmoid_cross_entropy_with_logits", kind="dtypes")
@pytest.mark.parametrize(
    "dtype", cpu_dtypes("sigmoid_cross_entropy_with_logits"), ids=lambda d: d.name.lower()
)
def test_sigmoid_cross_entropy_with_logits_matches_numpy(dtype: DataType) -> None:
    x = sample((3, 4), dtype, seed=3, low=-30, high=30)
    label = sample((3, 4), dtype, seed=4, low=0, high=1)
    pos_weight = sample((3, 4), dtype, seed=5, low=0.1, high=3)
    for weight in (None, pos_weight):
        for normalize in (False, True):
            out = C.sigmoid_cross_entropy_with_logits(
                t(x), t(label), None if weight is None else t(weight), normalize, -100
            )
            assert out.dtype == dtype
            expected = sce_reference(x, label, weight, normalize)
            np.testing.assert_allclose(out.numpy(), expected, **tolerance(dtype))


@op_test("sigmoid_cross_entropy_with_logits", kind="edge")
def test_sigmoid_cross_entropy_with_logits_ignores_labels_and_checks_shapes() -> None:
    x = t([[-2.0, 0.5, 3.0], [1.0, -1.0, 0.0]], "float64")
    label = t([[0.0, 1.0, -100.0], [1.0, 0.3, 1.0]], "float64")
    out = C.sigmoid_cross_entropy_with_logits(x, label, None, True, -100)
    # PaddlePaddle 3.3.1's values: the ignored entry is 0 and the others are divided by 5
    np.testing.assert_allclose(
        out.numpy(),
        [
            [0.02538560220859452, 0.09481539683602133, 0.0],
            [0.06265233750364457, 0.12265233750364457, 0.13862943611198905],
        ],
        rtol=1e-13,
    )
    all_ignored = C.sigmoid_cross_entropy_with_logits(
        t([1.0, 2.0]), t([-100.0, -100.0]), None, True, -100
    )
    np.testing.assert_array_equal(all_ignored.numpy(), [0.0, 0.0])
    assert C.sigmoid_cross_entropy_with_logits(t(1.0), t(1.0), None, False, -100).shape == []
    with pytest.raises(InvalidArgumentError, match="'pos_weight' must have the rank"):
        C.sigmoid_cross_entropy_with_logits(x, label, t([1.0, 2.0, 3.0], "float64"), False, -100)
    with pytest.raises(InvalidArgumentError, match="'label' must have the dims"):
        C.sigmoid_cross_entropy_with_logits(x, t([[1.0], [0.0]], "float64"), None, False, -100)


@op_test("kldiv_loss", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("kldiv_loss"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("reduction", ["none", "mean", "sum", "batchmean"])
@pytest.mark.parametrize("log_target", [False, True])
def test_kldiv_loss_matches_numpy(dtype: DataType, reduction: str, log_target: bool) -> None:
    x = sample((3, 4), dtype, seed=6, low=-3, high=0)
    label = sample((3, 4), dtype, seed=7, low=-0.5, high=1)
    out = C.kldiv_loss(t(x), t(label), reduction, log_target)
    assert out.dtype == dtype and out.shape == ([3, 4] if reduction == "none" else [])
    expected = kldiv_reference(
        x.astype(np.float64), label.astype(np.float64), reduction, log_target
    )
    np.testing.assert_allclose(out.numpy(), expected, **tolerance(dtype))


@op_test("kldiv_loss", kind="edge")
def test_kldiv_loss_edges() -> None:
    # a non-positive target contributes 0 (PaddlePaddle 3.3.1), a 0-D batchmean is the sum
    out = C.kldiv_loss(t([-1.0, -2.0], "float32"), t([0.0, -1.0], "float32"), "none", False)
    np.testing.assert_array_equal(out.numpy(), [0.0, 0.0])
    zero_d = C.kldiv_loss(t(-1.0, "float64"), t(0.5, "float64"), "batchmean", False)
    np.testing.assert_allclose(zero_d.numpy(), 0.5 * (np.log(0.5) + 1.0), rtol=1e-15)
    empty = C.kldiv_loss(
        t(np.zeros((0, 2)), "float64"), t(np.zeros((0, 2)), "float64"), "sum", False
    )
    assert empty.shape == [] and empty.item() == 0.0
    with pytest.raises(InvalidArgumentError, match="kldiv_loss.*'reduction'.*'foo'"):
        C.kldiv_loss(t([-1.0]), t([0.5]), "foo", False)
    with pytest.raises(InvalidArgumentError, match="kldiv_loss.*'label' must have the rank"):
        C.kldiv_loss(t([[-1.0, -2.0]]), t([0.5, 0.5]), "none", False)


@op_test("huber_loss", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("huber_loss"), ids=lambda d: d.name.lower())
def test_huber_loss_matches_numpy(dtype: DataType) -> None:
    x = sample((4, 5), dtype, seed=8)
    y = sample((4, 5), dtype, seed=9)
    for delta in (0.3, 1.0, 5.0):
        out = C.huber_loss(t(x), t(y), delta)
        assert out.dtype == dtype and out.shape == [4, 5]
        np.testing.assert_allclose(
            out.numpy(), huber_reference(x, y, f32(delta)), **tolerance(dtype)
        )


@op_test("huber_loss", kind="edge")
def test_huber_loss_edges() -> None:
    # |r| == delta is on the quadratic side
    out = C.huber_loss(t([0.0, 0.0], "float64"), t([1.0, -3.0], "float64"), 1.0)
    np.testing.assert_array_equal(out.numpy(), [0.5, 2.5])
    assert C.huber_loss(t(1.0), t(2.0), 1.0).shape == []
    assert C.huber_loss(t(np.zeros((0, 2))), t(np.zeros((0, 2))), 1.0).shape == [0, 2]
    transposed = np.arange(6.0).reshape(2, 3)
    out = C.huber_loss(t(transposed).transpose([1, 0]), t(np.zeros((3, 2))), 2.0)
    np.testing.assert_allclose(out.numpy(), huber_reference(transposed.T, np.zeros((3, 2)), 2.0))
    with pytest.raises(InvalidArgumentError, match="huber_loss.*'label' must have the dims"):
        C.huber_loss(t(np.zeros((2, 3))), t(np.zeros((2, 1))), 1.0)


@op_test("nll_loss", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("nll_loss"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("rank", [2, 4])
def test_nll_loss_matches_numpy(dtype: DataType, reduction: str, rank: int) -> None:
    shape = (5, 4) if rank == 2 else (2, 4, 3, 2)
    x = sample(shape, dtype, seed=10)
    label = np.random.default_rng(11).integers(0, 4, (shape[0],) + shape[2:])
    label.reshape(-1)[1] = -100
    weight = sample((4,), dtype, seed=12, low=0.1, high=2)
    for w in (None, weight):
        out, total = C.nll_loss(t(x), t(label), None if w is None else t(w), -100, reduction)
        assert out.dtype == dtype and total.shape == []
        expected = nll_reference(x, label, w, -100, reduction)
        np.testing.assert_allclose(out.numpy(), expected, **tolerance(dtype))


@op_test("nll_loss", kind="edge")
def test_nll_loss_edges() -> None:
    x = t(np.log([[0.2, 0.8], [0.5, 0.5]]), "float32")
    out, total = C.nll_loss(x, t([-100, -100], "int64"), None, -100, "mean")
    assert out.item() == 0.0 and total.item() == 0.0  # every entry ignored: 0 (PaddlePaddle 3.3.1)
    out, total = C.nll_loss(x, t([1, 0], "int64"), None, -100, "none")
    assert total.item() == 0.0 and out.shape == [2]
    empty, _ = C.nll_loss(
        t(np.zeros((0, 3)), "float32"), t(np.zeros(0, np.int64)), None, -100, "mean"
    )
    assert empty.item() == 0.0
    with pytest.raises(InvalidArgumentError, match="nll_loss: argument 'label' holds 2"):
        C.nll_loss(x, t([2, 0], "int64"), None, -100, "mean")
    with pytest.raises(InvalidArgumentError, match="nll_loss.*'input' must have rank 2"):
        C.nll_loss(t(np.zeros((2, 3, 4))), t(np.zeros((2, 4), np.int64)), None, -100, "mean")
    with pytest.raises(InvalidArgumentError, match="nll_loss.*'label' must have dims \\[2\\]"):
        C.nll_loss(x, t([0, 1, 0], "int64"), None, -100, "mean")
    with pytest.raises(InvalidArgumentError, match="nll_loss.*'weight' must have dims \\[2\\]"):
        C.nll_loss(x, t([0, 1], "int64"), t([1.0, 2.0, 3.0], "float32"), -100, "mean")
    with pytest.raises(InvalidArgumentError, match="nll_loss.*'label' must be int64"):
        C.nll_loss(x, t([0, 1], "int32"), None, -100, "mean")
    with pytest.raises(InvalidArgumentError, match="nll_loss.*'reduction'"):
        C.nll_loss(x, t([0, 1], "int64"), None, -100, "avg")


@op_test("log_loss", "hinge_loss", kind="dtypes")
def test_log_loss_and_hinge_loss_match_numpy() -> None:
    assert cpu_dtypes("log_loss") == cpu_dtypes("hinge_loss") == [D.FLOAT32]
    x = sample((6, 1), D.FLOAT32, seed=13, low=0.01, high=0.99)
    y = (sample((6, 1), D.FLOAT32, seed=14, low=0, high=1) > 0.5).astype(np.float32)
    eps = f32(1e-4)
    expected = -y * np.log(x + eps) - (1 - y) * np.log(1 - x + eps)
    np.testing.assert_allclose(C.log_loss(t(x), t(y), 1e-4).numpy(), expected, rtol=1e-6)
    logits = sample((6, 1), D.FLOAT32, seed=15)
    expected = np.maximum(0, 1 - logits * (2 * y - 1))
    np.testing.assert_allclose(C.hinge_loss(t(logits), t(y)).numpy(), expected, rtol=1e-6)


@op_test("log_loss", "hinge_loss", kind="edge")
def test_log_loss_and_hinge_loss_take_one_column() -> None:
    # PaddlePaddle 3.3.1: log(0 + 1e-4) at the end, a margin of exactly 0 at logits 1
    out = C.log_loss(t([[0.0]], "float32"), t([[1.0]], "float32"), 1e-4)
    np.testing.assert_allclose(out.numpy(), [[9.21034049987793]], rtol=1e-7)
    np.testing.assert_array_equal(
        C.hinge_loss(t([[1.0]], "float32"), t([[1.0]], "float32")).numpy(), [[0.0]]
    )
    assert C.log_loss(
        t(np.zeros((0, 1)), "float32"), t(np.zeros((0, 1)), "float32"), 1e-4
    ).shape == [0, 1]
    for op, args in (("log_loss", (1e-4,)), ("hinge_loss", ())):
        with pytest.raises(InvalidArgumentError, match=f"{op}.*must have dims \\[N, 1\\]"):
            getattr(C, op)(t(np.zeros((3, 2)), "float32"), t(np.zeros((3, 2)), "float32"), *args)
        with pytest.raises(InvalidArgumentError, match=f"{op}.*must have rank 2"):
            getattr(C, op)(t(np.zeros(3), "float32"), t(np.zeros(3), "float32"), *args)


@op_test("label_smooth", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("label_smooth"), ids=lambda d: d.name.lower())
def test_label_smooth_matches_numpy(dtype: DataType) -> None:
    label = np.eye(4, dtype=dtype.numpy_dtype)[[0, 2, 3]]
    prior = sample((1, 4), dtype, seed=16, low=0, high=1)
    # 1 - epsilon and epsilon / C are computed in float, as PaddlePaddle's kernel does
    eps = np.float32(0.1)
    keep, uniform = float(np.float32(1) - eps), float(eps / np.float32(4))
    out = C.label_smooth(t(label), None, 0.1)
    np.testing.assert_allclose(out.numpy(), keep * label + uniform, **tolerance(dtype))
    out = C.label_smooth(t(label), t(prior), 0.1)
    np.testing.assert_allclose(out.numpy(), keep * label + float(eps) * prior, **tolerance(dtype))


@op_test("label_smooth", kind="edge")
def test_label_smooth_edges() -> None:
    # float64 sees epsilon 0.1 rounded to float32: PaddlePaddle 3.3.1's 0.03333333507180214
    out = C.label_smooth(t([[0.0, 1.0, 0.0]], "float64"), None, 0.1)
    np.testing.assert_array_equal(
        out.numpy(), [[0.03333333507180214, 0.9333333112299442, 0.03333333507180214]]
    )
    assert C.label_smooth(t(1.0), None, 0.5).item() == 1.0  # 0-D: one class
    assert C.label_smooth(t(np.zeros((0, 3))), None, 0.1).shape == [0, 3]


@op_test("identity_loss", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("identity_loss"), ids=lambda d: d.name.lower())
def test_identity_loss_matches_numpy(dtype: DataType) -> None:
    x = sample((3, 4), dtype, seed=17)
    np.testing.assert_allclose(C.identity_loss(t(x), 0).numpy(), x.sum(), **tolerance(dtype))
    np.testing.assert_allclose(C.identity_loss(t(x), 1).numpy(), x.mean(), **tolerance(dtype))
    np.testing.assert_array_equal(C.identity_loss(t(x), 2).numpy(), x)


@op_test("identity_loss", kind="edge")
def test_identity_loss_edges() -> None:
    assert C.identity_loss(t(np.zeros(0)), 0).item() == 0.0
    assert np.isnan(C.identity_loss(t(np.zeros(0)), 1).item())
    assert C.identity_loss(t(2.0), 1).shape == []
    with pytest.raises(InvalidArgumentError, match="identity_loss.*'reduction'.*got 3"):
        C.identity_loss(t([1.0]), 3)


@op_test("mean_all", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("mean_all"), ids=lambda d: d.name.lower())
def test_mean_all_matches_numpy(dtype: DataType) -> None:
    x = sample((3, 5), dtype, seed=18)
    out = C.mean_all(t(x))
    assert out.dtype == dtype and out.shape == []
    wide = x.astype(np.float64) if x.dtype == ml_dtypes.bfloat16 else x
    np.testing.assert_allclose(np.asarray(out.numpy(), wide.dtype), wide.mean(), **tolerance(dtype))


@op_test("mean_all", kind="edge")
def test_mean_all_edges() -> None:
    assert np.isnan(C.mean_all(t(np.zeros((0, 3)), "float32")).item())
    assert C.mean_all(t(2.5, "float64")).item() == 2.5
    strided = t(np.arange(12.0).reshape(3, 4))[:, ::2]
    assert C.mean_all(strided).item() == np.arange(12.0).reshape(3, 4)[:, ::2].mean()


# -- paddle.nn.functional and paddle.nn -------------------------------------------------------


def test_functional_losses_reduce_as_paddle_does() -> None:
    x = sample((2, 3), D.FLOAT64, seed=19, low=0.05, high=0.95)
    y = sample((2, 3), D.FLOAT64, seed=20, low=0, high=1)
    w = np.array([0.5, 2.0, 1.0])
    for reduction, reduce in (("mean", np.mean), ("sum", np.sum), ("none", lambda a: a)):
        out = F.binary_cross_entropy(t(x), t(y), t(w), reduction)
        np.testing.assert_allclose(out.numpy(), reduce(bce_reference(x, y) * w), rtol=1e-12)
        out = F.smooth_l1_loss(t(x), t(y), reduction, delta=0.1, is_huber=False)
        np.testing.assert_allclose(
            out.numpy(), reduce(huber_reference(x, y, f32(0.1)) / 0.1), rtol=1e-7
        )
    pos = np.array([1.0, 3.0, 0.25])
    out = F.binary_cross_entropy_with_logits(t(x), t(y), None, "none", t(pos))
    np.testing.assert_allclose(out.numpy(), sce_reference(x, y, y * (pos - 1) + 1), rtol=1e-12)
    out = F.kl_div(t(np.log(x)), t(y), "batchmean")
    np.testing.assert_allclose(
        out.numpy(), kldiv_reference(np.log(x), y, "batchmean", False), rtol=1e-12
    )
    # float32 input with a float64 label is computed in float64, as in PaddlePaddle
    assert F.kl_div(t(np.log(x), "float32"), t(y)).dtype == D.FLOAT64


def test_functional_nll_loss_reshapes_other_ranks() -> None:
    x = sample((2, 3, 5), D.FLOAT64, seed=21)
    label = np.random.default_rng(22).integers(0, 3, (2, 5))
    out = F.nll_loss(t(x), t(label), reduction="none")
    assert out.shape == [2, 5]
    np.testing.assert_allclose(out.numpy(), -np.take_along_axis(x, label[:, None], 1)[:, 0])
    with pytest.raises(InvalidArgumentError, match="nll_loss: argument 'label' must have rank"):
        F.nll_loss(t(x), t(np.zeros(2, np.int64)))
    with pytest.raises(InvalidArgumentError, match="nll_loss: argument 'reduction'"):
        F.nll_loss(t(x), t(label), reduction="avg")


def test_functional_hinge_embedding_loss_label_smooth_and_log_loss() -> None:
    x = np.array([[0.3, -0.5, 2.0], [0.9, 1.5, -1.0]])
    label = np.array([[1.0, -1.0, -1.0], [1.0, -1.0, -1.0]])
    expected = np.where(label == 1, x, 0) + np.where(label == -1, np.maximum(0, 1.0 - x), 0)
    out = F.hinge_embedding_loss(t(x), t(label), reduction="none")
    np.testing.assert_allclose(out.numpy(), expected)
    assert F.hinge_embedding_loss(t(x), t(label)).item() == pytest.approx(expected.mean())
    smoothed = F.label_smooth(t(np.eye(3)), epsilon=0.3)
    keep, uniform = float(np.float32(1) - np.float32(0.3)), float(np.float32(0.3) / np.float32(3))
    np.testing.assert_allclose(smoothed.numpy(), keep * np.eye(3) + uniform)
    with pytest.raises(InvalidArgumentError, match="label_smooth: argument 'epsilon'"):
        F.label_smooth(t(np.eye(3)), epsilon=1.5)
    out = F.log_loss(t([[0.5]], "float32"), t([[1.0]], "float32"))
    np.testing.assert_allclose(out.numpy(), -np.log(0.5 + f32(1e-4)), rtol=1e-6)


def test_loss_layers_call_their_functions() -> None:
    x = sample((2, 3), D.FLOAT64, seed=23, low=0.05, high=0.95)
    y = sample((2, 3), D.FLOAT64, seed=24, low=0, high=1)
    pairs = (
        (nn.BCELoss(reduction="sum"), F.binary_cross_entropy(t(x), t(y), reduction="sum")),
        (nn.BCEWithLogitsLoss(), F.binary_cross_entropy_with_logits(t(x), t(y))),
        (nn.KLDivLoss("batchmean"), F.kl_div(t(x), t(y), "batchmean")),
        (nn.SmoothL1Loss(delta=0.5), F.smooth_l1_loss(t(x), t(y), delta=0.5)),
        (nn.HingeEmbeddingLoss(margin=0.5), F.hinge_embedding_loss(t(x), t(np.sign(y - 0.5)), 0.5)),
    )
    for index, (layer, expected) in enumerate(pairs):
        label = t(np.sign(y - 0.5)) if index == 4 else t(y)
        np.testing.assert_array_equal(layer(t(x), label).numpy(), expected.numpy())
    logp = np.log(sample((3, 4), D.FLOAT64, seed=25, low=0.1, high=1))
    label = np.array([0, 3, -100])
    np.testing.assert_array_equal(
        nn.NLLLoss(ignore_index=-100)(t(logp), t(label)).numpy(),
        nll_reference(logp, label, None, -100, "mean"),
    )
    with pytest.raises(InvalidArgumentError, match="BCELoss: argument 'reduction'"):
        nn.BCELoss(reduction="avg")
