"""cross_entropy_with_softmax, its grad kernel and CrossEntropyWithSoftmaxInferMeta: kernels
called directly against a float64 numpy reference, the grad against central finite differences
of the forward kernel's loss."""

from __future__ import annotations

import numpy as np
import pytest

import phiops.generated as phi
from phiops.generated import backward
from phiops.runtime.common import DataType
from phiops.runtime.tensor.dense_tensor import DenseTensorMeta
from phiops.runtime.tensor.meta_tensor import MetaTensor
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta.binary import cross_entropy_with_softmax_infer_meta
from tests.ops.op_testing import cpu_dtypes, op_test, sample, tolerance
from tests.ops.test_elementwise_grad import FD_TOLERANCE, grad_kernel, numeric_grad

D = DataType
F64 = D.FLOAT64
IGNORE = -100


def log_softmax(x: np.ndarray, axis: int) -> np.ndarray:
    x = x.astype(np.float64)
    shifted = x - x.max(axis=axis, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=axis, keepdims=True))


def reference(x, label, *, soft_label=False, use_softmax=True, ignore_index=IGNORE, axis=-1):
    """(softmax, loss) in float64, written from PaddlePaddle's definition."""
    if use_softmax:
        log_prob = log_softmax(x, axis)
        probabilities = np.exp(log_prob)
    else:
        probabilities = x.astype(np.float64)
        with np.errstate(divide="ignore"):
            log_prob = np.clip(np.log(probabilities), -1e20, 1e20)
    if soft_label:
        return probabilities, -(label * log_prob).sum(axis=axis, keepdims=True)
    ignored = label == ignore_index
    picked = np.take_along_axis(log_prob, np.where(ignored, 0, label), axis=axis)
    return probabilities, np.where(ignored, 0.0, -picked)


def hard_labels(shape, axis, classes, seed=0, ignore_at=None):
    label_shape = list(shape)
    label_shape[axis] = 1
    label = np.random.default_rng(seed).integers(0, classes, size=label_shape).astype(np.int64)
    if ignore_at is not None:
        label[ignore_at] = IGNORE
    return label


def soft_labels(shape, axis, seed=0):
    weights = np.random.default_rng(seed).uniform(0, 1, size=shape)
    return weights / weights.sum(axis=axis, keepdims=True)


def run(
    dtype,
    x,
    label,
    *,
    soft_label=False,
    use_softmax=True,
    numeric_stable_mode=True,
    ignore_index=IGNORE,
    axis=-1,
):
    kernel = grad_kernel("cross_entropy_with_softmax", dtype)
    return kernel(x, label, soft_label, use_softmax, numeric_stable_mode, ignore_index, axis)


def run_grad(
    dtype,
    label,
    softmax,
    loss_grad,
    *,
    soft_label=False,
    use_softmax=True,
    ignore_index=IGNORE,
    axis=-1,
):
    kernel = grad_kernel("cross_entropy_with_softmax_grad", dtype)
    return kernel(label, softmax, loss_grad, soft_label, use_softmax, True, ignore_index, axis)


def assert_close(actual, expected, dtype):
    assert actual.dtype == dtype.numpy_dtype
    assert actual.shape == expected.shape
    np.testing.assert_allclose(actual, expected, **tolerance(dtype))


# -- forward -------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", cpu_dtypes("cross_entropy_with_softmax"))
@pytest.mark.parametrize(
    "shape, axis", [((4, 5), -1), ((4, 5), 1), ((2, 3, 4), 1), ((2, 3, 4), -3), ((6,), 0)]
)
def test_hard_label_loss_is_minus_log_softmax_at_the_label(dtype, shape, axis):
    x = sample(shape, dtype)
    label = hard_labels(shape, axis, shape[axis])
    softmax, loss = run(dtype, x, label, axis=axis)
    expected_softmax, expected_loss = reference(x, label, axis=axis)
    assert_close(softmax, expected_softmax, dtype)
    assert_close(loss, expected_loss, dtype)


@pytest.mark.parametrize("dtype", cpu_dtypes("cross_entropy_with_softmax"))
@pytest.mark.parametrize("shape, axis", [((4, 5), -1), ((2, 3, 4), 1)])
def test_soft_label_loss_is_the_cross_entropy_of_the_distributions(dtype, shape, axis):
    x = sample(shape, dtype)
    label = soft_labels(shape, axis).astype(dtype.numpy_dtype)
    softmax, loss = run(dtype, x, label, soft_label=True, axis=axis)
    expected_softmax, expected_loss = reference(x, label, soft_label=True, axis=axis)
    assert_close(softmax, expected_softmax, dtype)
    assert_close(loss, expected_loss, dtype)


def test_ignored_labels_give_zero_loss():
    x = sample((4, 3), F64)
    label = np.array([[2], [IGNORE], [0], [IGNORE]])
    _, loss = run(F64, x, label)
    assert loss[[1, 3], 0].tolist() == [0.0, 0.0]
    np.testing.assert_allclose(loss, reference(x, label)[1])
    _, loss = run(F64, x, np.array([[2], [1], [0], [1]]), ignore_index=1)
    assert loss[[1, 3], 0].tolist() == [0.0, 0.0] and loss[0, 0] > 0


@pytest.mark.parametrize("soft_label", [False, True])
def test_without_softmax_the_input_is_taken_as_probabilities(soft_label):
    x = soft_labels((3, 4), -1, seed=3)
    label = soft_labels((3, 4), -1) if soft_label else hard_labels((3, 4), -1, 4)
    softmax, loss = run(F64, x, label, soft_label=soft_label, use_softmax=False)
    np.testing.assert_array_equal(softmax, x)
    assert not np.shares_memory(softmax, x)
    np.testing.assert_allclose(
        loss, reference(x, label, soft_label=soft_label, use_softmax=False)[1]
    )


def test_a_log_of_zero_becomes_1e20_and_a_zero_soft_label_cancels_it():
    x = np.array([[0.0, 1.0], [0.5, 0.5]])
    _, loss = run(F64, x, np.array([[0], [1]]), use_softmax=False)
    assert loss[:, 0].tolist() == [1e20, -np.log(0.5)]
    _, loss = run(F64, x, np.array([[0.0, 1.0], [1.0, 0.0]]), soft_label=True, use_softmax=False)
    assert loss[:, 0].tolist() == [0.0, -np.log(0.5)]


def test_numeric_stable_mode_keeps_the_loss_finite_when_a_probability_underflows():
    x = np.array([[0.0, 1000.0]], np.float32)
    label = np.array([[0]])
    _, stable = run(D.FLOAT32, x, label)
    assert stable[0, 0] == 1000.0
    _, unstable = run(D.FLOAT32, x, label, numeric_stable_mode=False)
    assert unstable[0, 0] == np.float32(
        1e20
    )  # log(softmax) of an underflowed 0, as PHI's CPU kernel
    x = sample((3, 4), F64)
    _, stable = run(F64, x, hard_labels((3, 4), -1, 4))
    _, unstable = run(F64, x, hard_labels((3, 4), -1, 4), numeric_stable_mode=False)
    np.testing.assert_allclose(unstable, stable, rtol=1e-12)


@pytest.mark.parametrize("bad", [4, -1, 100])
def test_a_label_outside_the_classes_is_rejected(bad):
    with pytest.raises(
        InvalidArgumentError,
        match=rf"argument 'label' holds {bad}, .*\[0, 4\).*ignore_index \(-100\)",
    ):
        run(F64, sample((2, 4), F64), np.array([[1], [bad]]))


def test_empty_rows_give_empty_outputs_and_an_empty_class_axis_is_rejected():
    softmax, loss = run(D.FLOAT32, np.zeros((0, 3), np.float32), np.zeros((0, 1), np.int64))
    assert (softmax.shape, loss.shape, loss.dtype) == ((0, 3), (0, 1), np.float32)
    with pytest.raises(InvalidArgumentError, match="no classes along axis -1"):
        run(F64, np.zeros((2, 0)), np.zeros((2, 1), np.int64))


# -- grad ----------------------------------------------------------------------------------------

GRAD_CASES = [  # (shape, axis, soft_label, use_softmax)
    ((4, 5), -1, False, True),
    ((2, 3, 4), 1, False, True),
    ((4, 5), -1, True, True),
    ((2, 3, 4), 0, True, True),
    ((4, 5), -1, False, False),
    ((3, 4), 0, True, False),
]


@pytest.mark.parametrize("shape, axis, soft_label, use_softmax", GRAD_CASES)
def test_grad_matches_finite_differences_of_the_loss(shape, axis, soft_label, use_softmax):
    x = sample(shape, F64) if use_softmax else soft_labels(shape, axis, seed=4)
    if soft_label:
        label = soft_labels(shape, axis)
    else:
        label = hard_labels(shape, axis, shape[axis], ignore_at=(0,) * len(shape))
    flags = dict(soft_label=soft_label, use_softmax=use_softmax, axis=axis)
    softmax, loss = run(F64, x, label, **flags)
    loss_grad = sample(loss.shape, F64, seed=1)
    expected = numeric_grad(lambda a: run(F64, a, label, **flags)[1], [x], 0, loss_grad)
    input_grad = run_grad(F64, label, softmax, loss_grad, **flags)
    np.testing.assert_allclose(input_grad, expected, **FD_TOLERANCE)
    if not soft_label:
        # The ignored row has no gradient at all.
        row = [slice(None)] * len(shape)
        for i in range(len(shape)):
            row[i] = 0 if i != (axis % len(shape)) else slice(None)
        assert not input_grad[tuple(row)].any()


@pytest.mark.parametrize("dtype", cpu_dtypes("cross_entropy_with_softmax_grad"))
def test_grad_is_softmax_minus_onehot_times_loss_grad(dtype):
    nd = dtype.numpy_dtype
    softmax = soft_labels((3, 4), -1).astype(nd)
    label = np.array([[1], [IGNORE], [3]])
    loss_grad = np.array([[2.0], [5.0], [-1.0]], nd)
    onehot = np.eye(4)[[1, 0, 3]]
    expected = (softmax - onehot) * loss_grad * np.array([[1.0], [0.0], [1.0]])
    assert_close(run_grad(dtype, label, softmax, loss_grad), expected, dtype)
    soft = soft_labels((3, 4), -1, seed=2).astype(nd)
    assert_close(
        run_grad(dtype, soft, softmax, loss_grad, soft_label=True),
        (softmax - soft) * loss_grad,
        dtype,
    )


def test_grad_without_softmax_is_minus_loss_grad_over_the_probability_at_the_label():
    probabilities = np.array([[0.25, 0.75], [0.5, 0.5]])
    input_grad = run_grad(
        F64, np.array([[1], [IGNORE]]), probabilities, np.array([[3.0], [1.0]]), use_softmax=False
    )
    assert input_grad.tolist() == [[0.0, -4.0], [0.0, 0.0]]


def test_grad_of_an_empty_input_is_empty():
    input_grad = run_grad(
        D.FLOAT32,
        np.zeros((0, 1), np.int64),
        np.zeros((0, 3), np.float32),
        np.zeros((0, 1), np.float32),
    )
    assert (input_grad.shape, input_grad.dtype) == ((0, 3), np.float32)


# -- InferMeta -----------------------------------------------------------------------------------


def meta(dims, dtype=F64):
    return MetaTensor(DenseTensorMeta.get(dtype, tuple(dims)), "t")


def infer(
    input_dims,
    label_dims,
    *,
    label_dtype=D.INT64,
    soft_label=False,
    numeric_stable_mode=True,
    axis=-1,
):
    softmax, loss = MetaTensor(), MetaTensor()
    cross_entropy_with_softmax_infer_meta(
        meta(input_dims),
        meta(label_dims, label_dtype),
        soft_label,
        True,
        numeric_stable_mode,
        IGNORE,
        axis,
        softmax,
        loss,
    )
    return softmax, loss


def test_infer_meta_gives_softmax_like_input_and_loss_with_a_size_1_class_axis():
    softmax, loss = infer((2, 3, 4), (2, 1, 4), axis=1)
    assert (softmax.dims, softmax.dtype, loss.dims, loss.dtype) == ((2, 3, 4), F64, (2, 1, 4), F64)
    _, loss = infer((2, 3), (2, 3), label_dtype=F64, soft_label=True)
    assert loss.dims == (2, 1)


@pytest.mark.parametrize(
    "input_dims, label_dims, options, message",
    [
        ((), (), {}, "argument 'input' must have at least one dimension"),
        (
            (2, 3),
            (2, 1),
            {"axis": 2},
            r"argument 'axis' must be in \[-2, 2\) for argument 'input' of rank 2, got 2",
        ),
        (
            (2, 3),
            (2,),
            {},
            r"argument 'label' with dims \[2\] must have the rank of argument 'input'",
        ),
        (
            (2, 3),
            (4, 1),
            {},
            r"argument 'label' with dims \[4, 1\] must match .* dimension 0 differs \(4 vs 2\)",
        ),
        (
            (2, 3),
            (2, 3),
            {},
            r"argument 'label' .* must have size 1 along axis 1 with soft_label=False",
        ),
        (
            (2, 3),
            (2, 2),
            {"soft_label": True, "label_dtype": F64},
            r"must have 3 entries along axis 1 with soft_label=True",
        ),
        (
            (2, 3),
            (2, 3),
            {"soft_label": True, "label_dtype": D.FLOAT32},
            r"argument 'label' must have the dtype of argument 'input' \(float64\)",
        ),
        (
            (2, 3),
            (2, 1),
            {"label_dtype": F64},
            r"argument 'label' must have an integer dtype with soft_label=False",
        ),
        (
            (2, 3),
            (1, 3),
            {"axis": 0, "numeric_stable_mode": False},
            r"argument 'axis' must be the last dimension",
        ),
    ],
)
def test_infer_meta_rejects_bad_inputs(input_dims, label_dims, options, message):
    with pytest.raises(InvalidArgumentError, match=message):
        infer(input_dims, label_dims, **options)


def test_hard_labels_of_any_integer_dtype_give_the_same_loss():
    x = sample((4, 3), F64)
    label = hard_labels((4, 3), -1, 3)
    _, expected = run(F64, x, label)
    for dtype in (np.int32, np.uint8, np.int16):
        np.testing.assert_array_equal(run(F64, x, label.astype(dtype))[1], expected)


# -- through the generated API and the autograd engine -------------------------------------------


@op_test("cross_entropy_with_softmax", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("cross_entropy_with_softmax"))
def test_the_op_matches_the_reference(dtype):
    x = sample((2, 3, 4), dtype)
    label = hard_labels((2, 3, 4), 1, 3, ignore_at=(1, 0, 2))
    softmax, loss = phi.cross_entropy_with_softmax(phi.to_tensor(x), phi.to_tensor(label), axis=1)
    expected_softmax, expected_loss = reference(x, label, axis=1)
    assert (softmax.dtype, loss.dtype, loss.shape) == (dtype, dtype, [2, 1, 4])
    assert_close(softmax.numpy(), expected_softmax, dtype)
    assert_close(loss.numpy(), expected_loss, dtype)


@op_test("cross_entropy_with_softmax", kind="edge")
def test_the_op_rejects_bad_labels_and_handles_soft_and_empty_inputs():
    x = phi.to_tensor(sample((3, 4), F64))
    with pytest.raises(
        InvalidArgumentError, match=r"cross_entropy_with_softmax\(\): argument 'label'"
    ):
        phi.cross_entropy_with_softmax(x, phi.to_tensor(np.zeros((3, 2), np.int64)))
    soft = soft_labels((3, 4), -1)
    _, loss = phi.cross_entropy_with_softmax(x, phi.to_tensor(soft), soft_label=True)
    np.testing.assert_allclose(loss.numpy(), reference(x.numpy(), soft, soft_label=True)[1])
    empty = phi.to_tensor(np.zeros((0, 4), np.float32))
    softmax, loss = phi.cross_entropy_with_softmax(empty, phi.to_tensor(np.zeros((0, 1), np.int64)))
    assert (softmax.shape, loss.shape) == ([0, 4], [0, 1])


def test_backward_of_the_loss_is_softmax_minus_onehot():
    x = phi.to_tensor(sample((3, 4), F64), stop_gradient=False)
    label = np.array([[0], [IGNORE], [3]])
    softmax, loss = phi.cross_entropy_with_softmax(x, phi.to_tensor(label))
    loss.backward()
    expected = (softmax.numpy() - np.eye(4)[[0, 0, 3]]) * np.array([[1.0], [0.0], [1.0]])
    np.testing.assert_allclose(x.grad.numpy(), expected, rtol=1e-12)
    direct = backward.cross_entropy_with_softmax_grad(
        phi.to_tensor(label), softmax, phi.ones_like(loss), False, True, True, IGNORE, -1
    )
    np.testing.assert_allclose(direct.numpy(), expected, rtol=1e-12)
