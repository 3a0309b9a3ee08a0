"""The nnmisc ops: warpctc (the CTC loss) and warpctc_grad, for every registered dtype against a
brute-force numpy reference (every alignment of a short input enumerated and collapsed), the
edges warp-ctc has (inputs too short for their labels give 0, empty labels, frames past the
lengths ignored, the blank anywhere, non-contiguous logits, an empty batch) and bad input.
PaddlePaddle 3.3.1's values are compared in tests/nn/test_nnmisc_losses.py and
tests/parity/test_nnmisc_parity_paddle.py."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import phiops
import phiops._C_ops as C
from phiops.generated import backward
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError, NotFoundError, UnimplementedError
from tests.ops.op_testing import cpu_dtypes, op_test


def t(values, dtype=None) -> phiops.Tensor:
    return phiops.to_tensor(np.asarray(values, dtype=dtype))


def softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def collapse(path: tuple[int, ...], blank: int) -> list[int]:
    out, previous = [], None
    for symbol in path:
        if symbol != previous and symbol != blank:
            out.append(symbol)
        previous = symbol
    return out


def brute_force_loss(logits: np.ndarray, label: list[int], blank: int) -> float:
    """-log of the summed probability of every path over ``logits`` ([T, C]) that collapses to
    ``label``; 0 when none does (warp-ctc's value for an input too short)."""
    probs = softmax(logits.astype(np.float64))
    total = 0.0
    for path in itertools.product(range(probs.shape[1]), repeat=probs.shape[0]):
        if collapse(path, blank) == label:
            total += np.prod(probs[np.arange(len(path)), path])
    return -np.log(total) if total > 0 else 0.0


RNG = np.random.default_rng(7)
LOGITS = RNG.standard_normal((4, 3, 3))
LABEL = np.array([[1, 2], [1, 1], [2, 0]], np.int32)
LOGITS_LEN = np.array([4, 4, 3], np.int64)
LABEL_LEN = np.array([2, 2, 1], np.int64)


def warpctc(logits, label=LABEL, logits_len=LOGITS_LEN, label_len=LABEL_LEN, blank=0, norm=False):
    return C.warpctc(t(logits), t(label), t(logits_len), t(label_len), blank, norm)


def reference(logits: np.ndarray, label=LABEL, logits_len=LOGITS_LEN, label_len=LABEL_LEN, blank=0):
    return np.array(
        [
            brute_force_loss(logits[: logits_len[b], b], list(label[b, : label_len[b]]), blank)
            for b in range(logits.shape[1])
        ]
    )


@op_test("warpctc", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("warpctc"), ids=lambda d: d.name.lower())
def test_warpctc_matches_every_alignment_summed_for_each_dtype(dtype: DataType) -> None:
    logits = LOGITS.astype(dtype.numpy_dtype)
    loss = warpctc(logits)
    assert loss.dtype == dtype and loss.shape == [3, 1]
    rtol = 1e-5 if dtype is DataType.FLOAT32 else 1e-12
    np.testing.assert_allclose(loss.numpy()[:, 0], reference(logits), rtol=rtol)


@op_test("warpctc", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("warpctc_grad"), ids=lambda d: d.name.lower())
def test_warpctc_grad_is_softmax_minus_the_posterior_for_each_dtype(dtype: DataType) -> None:
    logits = LOGITS.astype(dtype.numpy_dtype)
    x = t(logits)
    x.stop_gradient = False
    loss = C.warpctc(x, t(LABEL), t(LOGITS_LEN), t(LABEL_LEN), 0, False)
    weights = np.array([[0.5], [1.0], [2.0]], dtype.numpy_dtype)
    (loss * t(weights)).sum().backward()
    assert x.grad.dtype == dtype
    # central differences of the brute-force loss, in float64
    step, expected = 1e-6, np.zeros(LOGITS.shape)
    for index in np.ndindex(LOGITS.shape):
        up, down = LOGITS.copy(), LOGITS.copy()
        up[index] += step
        down[index] -= step
        expected[index] = ((reference(up) - reference(down)) * weights[:, 0]).sum() / (2 * step)
    atol = 1e-5 if dtype is DataType.FLOAT32 else 1e-7
    np.testing.assert_allclose(x.grad.numpy(), expected, atol=atol)


@op_test("warpctc", kind="edge")
def test_warpctc_edges() -> None:
    # too short: 1 frame for labels [1, 1] (needs 3: 1, blank, 1) gives 0, as warp-ctc
    loss = warpctc(LOGITS, logits_len=np.array([1, 2, 3], np.int64))
    assert loss.numpy()[0, 0] == 0.0 and loss.numpy()[1, 0] == 0.0
    # empty label: every frame blank
    loss = warpctc(LOGITS, label_len=np.array([0, 2, 1], np.int64))
    np.testing.assert_allclose(loss.numpy()[0, 0], -np.log(softmax(LOGITS[:, 0])[:, 0]).sum())
    # frames past a sequence's length do not count
    changed = LOGITS.copy()
    changed[3, 2] += 5.0
    np.testing.assert_allclose(warpctc(changed).numpy(), warpctc(LOGITS).numpy())
    # the blank as the last class, and log-probabilities instead of logits
    label = np.array([[0, 1], [1, 1], [0, 0]], np.int32)
    np.testing.assert_allclose(
        warpctc(LOGITS, label, blank=2).numpy()[:, 0], reference(LOGITS, label, blank=2)
    )
    log_probs = np.log(softmax(LOGITS))
    np.testing.assert_allclose(warpctc(log_probs).numpy(), warpctc(LOGITS).numpy(), rtol=1e-12)
    # non-contiguous logits (a transposed view)
    view = t(np.ascontiguousarray(LOGITS.transpose(1, 0, 2))).transpose([1, 0, 2])
    loss = C.warpctc(view, t(LABEL), t(LOGITS_LEN), t(LABEL_LEN), 0, False)
    np.testing.assert_allclose(loss.numpy(), warpctc(LOGITS).numpy())
    # an empty batch
    empty = C.warpctc(
        t(np.zeros((4, 0, 3))),
        t(np.zeros((0, 2), np.int32)),
        t(np.zeros(0, np.int64)),
        t(np.zeros(0, np.int64)),
        0,
        False,
    )
    assert empty.shape == [0, 1]


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: warpctc(LOGITS[0]), InvalidArgumentError, "'logits' must have rank 3"),
        (lambda: warpctc(LOGITS, LABEL.astype(np.int64)), InvalidArgumentError, "int32 class ids"),
        (lambda: warpctc(LOGITS, LABEL[:2]), InvalidArgumentError, "'label' must have dims"),
        (
            lambda: warpctc(LOGITS, logits_len=LOGITS_LEN.astype(np.int32)),
            InvalidArgumentError,
            "'logits_length' must be int64",
        ),
        (
            lambda: warpctc(LOGITS, label_len=LABEL_LEN[:2]),
            InvalidArgumentError,
            "'labels_length' must have dims",
        ),
        (lambda: warpctc(LOGITS, blank=3), InvalidArgumentError, "'blank' must be in \\[0, 3\\)"),
        (
            lambda: warpctc(LOGITS, logits_len=np.array([5, 4, 3], np.int64)),
            InvalidArgumentError,
            "'logits_length': entry 0 is 5",
        ),
        (
            lambda: warpctc(LOGITS, np.array([[1, 3], [1, 1], [2, 0]], np.int32)),
            InvalidArgumentError,
            "class ids must be in",
        ),
        (
            lambda: warpctc(LOGITS.astype(np.int32)),
            NotFoundError,
            "kernel 'warpctc' has no registration for \\(CPU, NCHW, INT32\\)",
        ),
        (
            lambda: C.warpctc(t(LOGITS), t(LABEL), None, None, 0, False),
            UnimplementedError,
            "LoD form",
        ),
    ],
)
def test_warpctc_bad_input_names_the_argument(call, error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        call()


@op_test("warpctc", kind="edge")
def test_warpctc_grad_edges() -> None:
    x = t(LOGITS)
    x.stop_gradient = False
    logits_len = np.array([4, 2, 1], np.int64)  # sequence 1 too short, sequence 2: one frame
    loss = C.warpctc(x, t(LABEL), t(logits_len), t(LABEL_LEN), 0, True)
    loss.sum().backward()
    grad = x.grad.numpy()
    assert not grad[2:, 1].any() and not grad[1:, 2].any()  # past each length: 0
    assert not grad[:, 1].any()  # infeasible: 0
    # norm_by_times divides each sequence's gradient by its length
    y = t(LOGITS)
    y.stop_gradient = False
    C.warpctc(y, t(LABEL), t(logits_len), t(LABEL_LEN), 0, False).sum().backward()
    np.testing.assert_allclose(grad[:, 0], y.grad.numpy()[:, 0] / 4)
    np.testing.assert_allclose(grad[:, 2], y.grad.numpy()[:, 2] / 1)
    # the grad op itself: warpctcgrad scaled by each sequence's loss gradient
    saved = np.arange(4 * 3 * 3, dtype=np.float64).reshape(4, 3, 3)
    out = backward.warpctc_grad(
        t(LOGITS), t(LOGITS_LEN), t(saved), t(np.array([[1.0], [0.0], [-2.0]])), 0, True
    )
    expected = saved * np.array([1.0, 0.0, -2.0])[None, :, None] / LOGITS_LEN[None, :, None]
    np.testing.assert_allclose(out.numpy(), expected)
