"""The RNN-T loss of issue 24 (rnnt24 family): the op warprnnt (+ warprnnt_grad) and
F.rnnt_loss / nn.RNNTLoss: every registered dtype against a numpy reference written here from
the transducer lattice's definition (a cell-by-cell loop, with warp-transducer's gradient), the
registrations against PaddlePaddle 3.3.1's, edges (padding, empty label sequences, one frame,
a nonzero blank, non-contiguous input, FastEmit, the reductions) and bad input.
tests/ops/test_rnnt24_paddle.py compares PaddlePaddle 3.3.1's recorded results."""

from __future__ import annotations

import numpy as np
import pytest

import phiops
import phiops._C_ops as C
import phiops.nn as nn
import phiops.nn.functional as F
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError, NotFoundError
from phiops.runtime.kernels.coverage import paddle_data
from tests.ops.op_testing import cpu_dtypes, op_test

OPS = ("warprnnt",)
GRADS = ("warprnnt_grad",)


def t(values, dtype=None) -> phiops.Tensor:
    return phiops.to_tensor(np.asarray(values, dtype))


def i32(values) -> phiops.Tensor:
    return phiops.to_tensor(np.asarray(values, np.int32))


def test_registrations_are_paddles() -> None:
    kernels = paddle_data()["kernels"]
    for op in OPS + GRADS:
        assert sorted(d.name.lower() for d in cpu_dtypes(op)) == sorted(kernels[op]), op


def rnnt_reference(x, labels, times, sizes, blank, lam=0.0):
    """(loss [B], gradient like x) in float64, cell by cell: alpha/beta of the (T, U + 1)
    lattice over the given log-probabilities, and warp-transducer's gradient (the blank's,
    then the label's written over it, the latter times 1 + lam)."""
    x = np.asarray(x, np.float64)
    batch, _, _, _ = x.shape
    loss = np.zeros(batch)
    grad = np.zeros_like(x)
    for b in range(batch):
        T, U = int(times[b]), int(sizes[b]) + 1
        lab = [int(v) for v in labels[b][: U - 1]]
        alpha = np.full((T, U), -np.inf)
        beta = np.full((T, U), -np.inf)
        for tt in range(T):
            for u in range(U):
                if tt == 0 and u == 0:
                    alpha[tt, u] = 0.0
                    continue
                terms = []
                if tt > 0:
                    terms.append(alpha[tt - 1, u] + x[b, tt - 1, u, blank])
                if u > 0:
                    terms.append(alpha[tt, u - 1] + x[b, tt, u - 1, lab[u - 1]])
                alpha[tt, u] = np.logaddexp.reduce(terms)
        for tt in range(T - 1, -1, -1):
            for u in range(U - 1, -1, -1):
                if tt == T - 1 and u == U - 1:
                    beta[tt, u] = x[b, tt, u, blank]
                    continue
                terms = []
                if tt + 1 < T:
                    terms.append(beta[tt + 1, u] + x[b, tt, u, blank])
                if u + 1 < U:
                    terms.append(beta[tt, u + 1] + x[b, tt, u, lab[u]])
                beta[tt, u] = np.logaddexp.reduce(terms)
        ll = beta[0, 0]
        np.testing.assert_allclose(ll, alpha[T - 1, U - 1] + x[b, T - 1, U - 1, blank])
        loss[b] = -ll
        for tt in range(T):
            for u in range(U):
                after = (
                    0.0
                    if (tt, u) == (T - 1, U - 1)
                    else (beta[tt + 1, u] if tt + 1 < T else -np.inf)
                )
                grad[b, tt, u, blank] = -np.exp(alpha[tt, u] + x[b, tt, u, blank] + after - ll)
                if u < U - 1:
                    grad[b, tt, u, lab[u]] = -(1 + lam) * np.exp(
                        alpha[tt, u] + x[b, tt, u, lab[u]] + beta[tt, u + 1] - ll
                    )
    return loss, grad


def log_softmax(values: np.ndarray) -> np.ndarray:
    return values - np.log(np.exp(values).sum(-1, keepdims=True))


def sample(shape, seed, normalise=True) -> np.ndarray:
    values = np.random.default_rng(seed).uniform(-2.0, 2.0, shape)
    return log_softmax(values) if normalise else values


LABELS = np.array([[1, 2, 3], [3, 3, 0]], np.int32)
TIMES, SIZES = np.array([4, 3], np.int32), np.array([3, 2], np.int32)


def run_op(x, labels, times, sizes, blank=0, lam=0.0, dtype="float64"):
    """(loss, input gradient for the loss gradient 1) of the op."""
    inp = t(x, dtype)
    inp.stop_gradient = False
    loss = C.warprnnt(inp, i32(labels), i32(times), i32(sizes), blank, lam)
    (grad,) = phiops.grad([loss], [inp])
    return loss.numpy(), grad.numpy()


@op_test("warprnnt", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("warprnnt"), ids=lambda d: d.name.lower())
def test_warprnnt_matches_the_lattice_reference(dtype: DataType) -> None:
    name = dtype.name.lower()
    x = sample((2, 4, 4, 5), 1)
    loss, grad = run_op(x, LABELS, TIMES, SIZES, 0, 0.0, name)
    want_loss, want_grad = rnnt_reference(x.astype(name), LABELS, TIMES, SIZES, 0)
    tol = 1e-5 if name == "float32" else 1e-12
    assert loss.dtype == np.dtype(name) and loss.shape == (2,)
    assert grad.dtype == np.dtype(name) and grad.shape == x.shape
    np.testing.assert_allclose(loss, want_loss, rtol=tol, atol=tol)
    np.testing.assert_allclose(grad, want_grad, rtol=tol, atol=tol)


@op_test("warprnnt", kind="edge")
def test_warprnnt_edges() -> None:
    # a nonzero blank, FastEmit, unnormalised scores (used as they are: no softmax inside)
    x = sample((2, 4, 4, 5), 2, normalise=False)
    labels = np.array([[0, 1, 4], [4, 0, 0]], np.int32)
    loss, grad = run_op(x, labels, TIMES, SIZES, blank=2, lam=0.25)
    want_loss, want_grad = rnnt_reference(x, labels, TIMES, SIZES, 2, 0.25)
    np.testing.assert_allclose(loss, want_loss, rtol=1e-12)
    np.testing.assert_allclose(grad, want_grad, rtol=1e-12, atol=1e-14)
    # FastEmit leaves the loss as it is
    np.testing.assert_allclose(run_op(x, labels, TIMES, SIZES, blank=2)[0], loss, rtol=1e-14)
    # empty label sequences, one frame, a label equal to the blank (its gradient overwrites)
    x = sample((3, 3, 3, 3), 3)
    labels = np.array([[-1, 9], [1, 2], [0, 1]], np.int32)  # padding past a length is not read
    times, sizes = np.array([3, 1, 2], np.int32), np.array([0, 2, 2], np.int32)
    loss, grad = run_op(x, labels, times, sizes)
    want_loss, want_grad = rnnt_reference(x, labels, times, sizes, 0)
    np.testing.assert_allclose(loss, want_loss, rtol=1e-12)
    np.testing.assert_allclose(grad, want_grad, rtol=1e-12, atol=1e-14)
    # an empty label sequence is the sum of the blanks along t
    np.testing.assert_allclose(loss[0], -x[0, :, 0, 0].sum(), rtol=1e-12)
    # padding past the lengths gets no gradient and changes nothing
    assert not grad[1, 1:].any() and not grad[0, :, 1:].any()
    x2 = x.copy()
    x2[1, 1:] = 7.0
    np.testing.assert_allclose(run_op(x2, labels, times, sizes)[0], loss, rtol=1e-14)
    # a label tensor with no columns (U + 1 = 1): the sum of the blanks
    x = sample((1, 3, 1, 2), 4)
    loss, _ = run_op(x, np.zeros((1, 0), np.int32), [3], [0])
    np.testing.assert_allclose(loss, [-x[0, :, 0, 0].sum()], rtol=1e-12)
    # non-contiguous input
    base = sample((2, 4, 4, 10), 5)
    strided = t(base)[:, :, :, ::2]
    want_loss, _ = rnnt_reference(base[..., ::2], LABELS, TIMES, SIZES, 0)
    got = C.warprnnt(strided, i32(LABELS), i32(TIMES), i32(SIZES), 0, 0.0)
    np.testing.assert_allclose(got.numpy(), want_loss, rtol=1e-12)
    # the incoming loss gradient scales each sequence's gradient
    inp = t(sample((2, 4, 4, 5), 6))
    inp.stop_gradient = False
    loss = C.warprnnt(inp, i32(LABELS), i32(TIMES), i32(SIZES), 0, 0.0)
    (g,) = phiops.grad([loss], [inp], grad_outputs=[t([2.0, -0.5])])
    _, want = rnnt_reference(inp.numpy(), LABELS, TIMES, SIZES, 0)
    np.testing.assert_allclose(g.numpy(), want * np.array([2.0, -0.5])[:, None, None, None])


def test_warprnnt_rejects_bad_input() -> None:
    x = t(sample((2, 4, 4, 5), 7))
    good = (i32(LABELS), i32(TIMES), i32(SIZES))
    bad = [
        ((t(sample((4, 4, 5), 7)),) + good, 0, "input"),
        ((t(np.zeros((0, 4, 4, 5))), i32(np.zeros((0, 3))), i32([]), i32([])), 0, "input"),
        ((x, i32(LABELS[:, :2]), good[1], good[2]), 0, "label"),
        ((x, t(LABELS, "int64"), good[1], good[2]), 0, "label"),
        ((x, good[0], t(TIMES, "int64"), good[2]), 0, "input_lengths"),
        ((x, good[0], good[1], i32([3, 2, 1])), 0, "label_lengths"),
        ((x,) + good, 5, "blank"),
        ((x,) + good, -1, "blank"),
        ((x, good[0], i32([5, 3]), good[2]), 0, "input_lengths"),
        ((x, good[0], i32([0, 3]), good[2]), 0, "input_lengths"),
        ((x, good[0], good[1], i32([4, 1])), 0, "label_lengths"),
        ((x, i32([[1, 2, 5], [0, 0, 0]]), good[1], good[2]), 0, "label"),
    ]
    for args, blank, argument in bad:
        with pytest.raises(InvalidArgumentError, match=f"warprnnt.*'{argument}'"):
            C.warprnnt(*args, blank, 0.0)
    # an integer input has no kernel (3.3.1 registers float32 and float64 only)
    with pytest.raises(NotFoundError, match="warprnnt.*INT32"):
        C.warprnnt(t(sample((2, 4, 4, 5), 7), "int32"), *good, 0, 0.0)


def test_rnnt_loss_reductions_and_layer() -> None:
    x = sample((2, 4, 4, 5), 8)
    want, _ = rnnt_reference(x, LABELS, TIMES, SIZES, 0)
    args = (t(x), i32(LABELS), i32(TIMES), i32(SIZES))
    np.testing.assert_allclose(F.rnnt_loss(*args, reduction="none").numpy(), want, rtol=1e-12)
    np.testing.assert_allclose(F.rnnt_loss(*args, reduction="sum").numpy(), want.sum(), rtol=1e-12)
    mean = F.rnnt_loss(*args)
    assert mean.shape == [] and mean.dtype == phiops.float64
    np.testing.assert_allclose(mean.numpy(), want.sum() / 2, rtol=1e-12)
    layer = nn.RNNTLoss(blank=0, fastemit_lambda=0.0, reduction="sum")
    np.testing.assert_allclose(layer(*args).numpy(), want.sum(), rtol=1e-12)
    with pytest.raises(InvalidArgumentError, match="rnnt_loss.*'reduction'"):
        F.rnnt_loss(*args, reduction="max")
    with pytest.raises(InvalidArgumentError, match="rnnt_loss.*'input_lengths'"):
        F.rnnt_loss(args[0], args[1], None, args[3])
