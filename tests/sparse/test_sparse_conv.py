"""phiops.sparse.nn's 3-D convolutions, max pooling and batch norm (runtime/sparse/conv.py,
norm.py) against their dense equivalents: the input densified, phiops's dense ``conv3d`` /
``max_pool3d`` in NDHWC, compared at the output's indices (the indices from the occupancy of
the dense input, independently); a submanifold conv against the dense conv masked to the
input's positions; the batch norm against numpy's formula on the values. Gradients against
central finite differences in float64; bad input as named errors."""

from __future__ import annotations

import numpy as np
import pytest

import phiops
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError

from tests.sparse.sparse_conv_cases import dense_array, sparse_input

F = phiops.sparse.nn.functional


def coo(indices, values, shape, grad=False):
    leaf = phiops.to_tensor(values)
    leaf.stop_gradient = not grad
    x = phiops.sparse.sparse_coo_tensor(
        phiops.to_tensor(indices), leaf, list(shape), stop_gradient=not grad
    )
    return x, leaf


def densify(indices, values, shape, fill=0.0):
    array = np.full(shape, fill, dtype=values.dtype)
    array[tuple(indices)] = values
    return array


def dense_conv(array, weight, stride, padding, dilation):
    """phiops's dense conv3d in NDHWC with a [kD, kH, kW, C, M] weight."""
    out = phiops.nn.functional.conv3d(
        phiops.to_tensor(array),
        phiops.to_tensor(np.ascontiguousarray(weight.transpose(4, 3, 0, 1, 2))),
        stride=stride,
        padding=padding,
        dilation=dilation,
        data_format="NDHWC",
    )
    return out.numpy()


def reached(indices, shape, kernel, stride, padding, dilation):
    """The output positions some input entry reaches: a dense conv of the occupancy with a
    kernel of ones, nonzero (sorted, row-major)."""
    occupancy = densify(indices, np.ones((indices.shape[1], 1)), (*shape[:4], 1))
    ones = np.ones((*kernel, 1, 1))
    hits = dense_conv(occupancy, ones, stride, padding, dilation)[..., 0] > 0.5
    return np.stack(np.nonzero(hits)).astype(np.int64)


CONV_CASES = [
    # shape, nnz, kernel, out channels, stride, padding, dilation
    ((2, 4, 4, 4, 2), 10, (3, 3, 3), 3, 1, 0, 1),
    ((1, 5, 6, 5, 3), 15, (3, 2, 3), 2, [2, 1, 2], 1, 1),
    ((2, 6, 5, 4, 2), 12, (2, 3, 1), 2, 1, [1, 0, 1], [2, 1, 1]),
    ((1, 4, 4, 4, 1), 64, (2, 2, 2), 2, 2, 0, 1),  # every position stored
]


@pytest.mark.parametrize("case", CONV_CASES, ids=range(len(CONV_CASES)))
def test_conv3d_equals_dense_conv_at_the_reached_positions(case):
    shape, nnz, kernel, out_channels, stride, padding, dilation = case
    indices, values = sparse_input(11, shape, nnz, "float64", shuffle=True)
    weight = dense_array(12, (*kernel, shape[4], out_channels), "float64")
    bias = dense_array(13, (out_channels,), "float64")
    x, _ = coo(indices, values, shape)
    out = F.conv3d(x, phiops.to_tensor(weight), phiops.to_tensor(bias), stride, padding, dilation)
    want = dense_conv(densify(indices, values, shape), weight, stride, padding, dilation) + bias
    assert list(out.shape) == list(want.shape)
    want_indices = reached(indices, shape, kernel, stride, padding, dilation)
    np.testing.assert_array_equal(out.indices().numpy(), want_indices)
    np.testing.assert_allclose(
        out.values().numpy(), want[tuple(want_indices)], rtol=1e-10, atol=1e-12
    )
    assert out.is_coalesced()


@pytest.mark.parametrize("kernel", [(3, 3, 3), (1, 3, 5), (1, 1, 1)])
def test_subm_conv3d_equals_dense_conv_masked_to_the_input(kernel):
    shape = (2, 5, 4, 5, 3)
    indices, values = sparse_input(21, shape, 16, "float64", shuffle=True)
    weight = dense_array(22, (*kernel, 3, 4), "float64")
    x, _ = coo(indices, values, shape)
    out = F.subm_conv3d(x, phiops.to_tensor(weight), stride=2, padding=0, key="k")
    want = dense_conv(densify(indices, values, shape), weight, 1, [k // 2 for k in kernel], 1)
    assert list(out.shape) == [*shape[:4], 4]
    order = np.argsort(np.ravel_multi_index(tuple(indices), shape[:4]))
    np.testing.assert_array_equal(out.indices().numpy(), indices[:, order])
    np.testing.assert_allclose(
        out.values().numpy(), want[tuple(indices[:, order])], rtol=1e-10, atol=1e-12
    )


POOL_CASES = [
    ((2, 4, 4, 4, 3), 14, 2, None, 0),
    ((1, 5, 6, 5, 2), 16, 3, 2, 1),
    ((2, 3, 4, 4, 2), 10, [2, 1, 3], 1, 0),
]


@pytest.mark.parametrize("case", POOL_CASES, ids=range(len(POOL_CASES)))
def test_max_pool3d_equals_dense_max_pool_of_the_stored_entries(case):
    shape, nnz, kernel, stride, padding = case
    indices, values = sparse_input(31, shape, nnz, "float64", shuffle=True)
    x, _ = coo(indices, values, shape)
    out = F.max_pool3d(x, kernel, stride, padding)
    # absent entries are not zeros: the dense input holds -inf there
    want = phiops.nn.functional.max_pool3d(
        phiops.to_tensor(densify(indices, values, shape, -np.inf)),
        kernel,
        stride,
        padding,
        data_format="NDHWC",
    ).numpy()
    kernel3 = [kernel] * 3 if isinstance(kernel, int) else kernel
    stride3 = kernel3 if stride is None else ([stride] * 3 if isinstance(stride, int) else stride)
    want_indices = reached(indices, shape, kernel3, stride3, padding, 1)
    assert list(out.shape) == list(want.shape)
    np.testing.assert_array_equal(out.indices().numpy(), want_indices)
    np.testing.assert_array_equal(out.values().numpy(), want[tuple(want_indices)])


# --- gradients against finite differences ----------------------------------------------------


def numeric_grad(function, array, step=1e-6):
    grad = np.zeros_like(array)
    flat, out = array.reshape(-1), grad.reshape(-1)
    for i in range(flat.size):
        saved = flat[i]
        flat[i] = saved + step
        high = function()
        flat[i] = saved - step
        low = function()
        flat[i] = saved
        out[i] = (high - low) / (2 * step)
    return grad


def check_gradients(run, arrays):
    """``run(*tensors)`` gives a sparse output; the gradients of sum(values * upstream) with
    respect to each of ``arrays`` against central differences."""
    tensors = []
    for array in arrays:
        tensor = phiops.to_tensor(array)
        tensor.stop_gradient = False
        tensors.append(tensor)
    out = run(*tensors)
    upstream = dense_array(99, tuple(out.values().shape), "float64", 1.0)
    (out.values() * phiops.to_tensor(upstream)).sum().backward()

    def loss():
        with phiops.no_grad():
            result = run(*(phiops.to_tensor(a) for a in arrays))
        return float((result.values().numpy() * upstream).sum())

    for tensor, array in zip(tensors, arrays):
        np.testing.assert_allclose(
            tensor.grad.numpy(), numeric_grad(loss, array), rtol=1e-6, atol=1e-7
        )


@pytest.mark.parametrize("subm", [False, True])
def test_conv_gradients_against_finite_differences(subm):
    shape = (1, 3, 4, 3, 2)
    indices, values = sparse_input(41, shape, 7, "float64", shuffle=True)
    weight = dense_array(42, (3, 3, 3, 2, 2), "float64")
    bias = dense_array(43, (2,), "float64")
    index = phiops.to_tensor(indices)

    def run(v, w, b):
        x = phiops.sparse.sparse_coo_tensor(index, v, list(shape), stop_gradient=False)
        if subm:
            return F.subm_conv3d(x, w, b)
        return F.conv3d(x, w, b, stride=[1, 2, 1], padding=1)

    check_gradients(run, [values.copy(), weight.copy(), bias.copy()])


def test_max_pool3d_gradient_against_finite_differences():
    shape = (1, 4, 4, 3, 2)
    indices, values = sparse_input(51, shape, 12, "float64", shuffle=True)
    index = phiops.to_tensor(indices)

    def run(v):
        x = phiops.sparse.sparse_coo_tensor(index, v, list(shape), stop_gradient=False)
        return F.max_pool3d(x, 2, 1, 0)

    check_gradients(run, [values.copy()])


def test_max_pool3d_gradient_reaches_every_tied_maximum():
    indices = np.array([[0, 0], [0, 1], [0, 0], [0, 0]])
    values = np.array([[2.0], [2.0]])
    x, leaf = coo(indices, values, (1, 2, 2, 2, 1), grad=True)
    out = F.max_pool3d(x, 2)
    out.values().sum().backward()
    np.testing.assert_array_equal(leaf.grad.numpy(), [[1.0], [1.0]])


# --- batch norm ------------------------------------------------------------------------------


def test_batch_norm_normalizes_the_values_and_updates_the_running_statistics():
    shape = (2, 3, 3, 3, 4)
    indices, values = sparse_input(61, shape, 12, "float32")
    x, leaf = coo(indices, values, shape, grad=True)
    norm = phiops.sparse.nn.BatchNorm(4, momentum=0.8, epsilon=1e-3)
    out = norm(x)
    mean, variance = values.mean(0), values.var(0)
    want = (values - mean) / np.sqrt(variance + 1e-3)
    np.testing.assert_array_equal(out.indices().numpy(), indices)
    np.testing.assert_allclose(out.values().numpy(), want, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(norm._mean.numpy(), 0.2 * mean, rtol=1e-5, atol=1e-6)
    # PHI's batch norm keeps the biased batch variance in the running statistic
    np.testing.assert_allclose(norm._variance.numpy(), 0.8 + 0.2 * variance, rtol=1e-5)
    out.values().sum().backward()
    np.testing.assert_allclose(leaf.grad.numpy(), np.zeros_like(values), atol=1e-4)
    np.testing.assert_allclose(norm.bias.grad.numpy(), np.full(4, 12.0), rtol=1e-6)
    norm.eval()
    evaluated = norm(x).values().numpy()
    running = (values - norm._mean.numpy()) / np.sqrt(norm._variance.numpy() + 1e-3)
    np.testing.assert_allclose(evaluated, running, rtol=1e-5, atol=1e-5)


def test_sync_batch_norm_is_batch_norm_in_one_process():
    shape = (1, 3, 3, 3, 2)
    indices, values = sparse_input(71, shape, 9, "float32")
    x, _ = coo(indices, values, shape)
    sync, plain = phiops.sparse.nn.SyncBatchNorm(2), phiops.sparse.nn.BatchNorm(2)
    np.testing.assert_allclose(sync(x).values().numpy(), plain(x).values().numpy(), rtol=1e-6)
    np.testing.assert_allclose(sync._mean.numpy(), plain._mean.numpy(), rtol=1e-6)
    model = phiops.nn.Sequential(
        phiops.sparse.nn.SubmConv3D(2, 2, 3), phiops.sparse.nn.BatchNorm(2)
    )
    converted = phiops.sparse.nn.SyncBatchNorm.convert_sync_batchnorm(model)
    assert isinstance(converted[1], phiops.sparse.nn.SyncBatchNorm)


# --- layers ----------------------------------------------------------------------------------


def test_conv_layers_make_paddles_parameters():
    phiops.seed(5)
    conv = phiops.sparse.nn.Conv3D(4, 6, [3, 2, 3], stride=2, padding=1)
    assert list(conv.weight.shape) == [3, 2, 3, 4, 6] and list(conv.bias.shape) == [6]
    np.testing.assert_array_equal(conv.bias.numpy(), np.zeros(6))
    assert not conv.weight.stop_gradient
    subm = phiops.sparse.nn.SubmConv3D(40, 50, 3, bias_attr=False, key="k")
    assert subm.bias is None
    std = np.sqrt(2.0 / (27 * 40))
    assert abs(subm.weight.numpy().std() / std - 1) < 0.05
    pool = phiops.sparse.nn.MaxPool3D(2)
    indices, values = sparse_input(81, (1, 4, 4, 4, 4), 8)
    x, _ = coo(indices, values, (1, 4, 4, 4, 4))
    assert list(conv(x).shape) == [1, 2, 3, 2, 6]
    assert list(pool(x).shape) == [1, 2, 2, 2, 4]
    assert "kernel_size=[3, 2, 3]" in repr(conv)


# --- bad input -------------------------------------------------------------------------------


def _x(shape=(1, 3, 3, 3, 2)):
    indices, values = sparse_input(91, shape, 5)
    return coo(indices, values, shape)[0]


def test_bad_input_raises_named_errors():
    weight = phiops.to_tensor(np.zeros((3, 3, 3, 2, 2), "float32"))
    with pytest.raises(
        InvalidArgumentError, match=r"conv3d\(\): argument 'x' must be a SparseCooTensor"
    ):
        F.conv3d(phiops.zeros([1, 3, 3, 3, 2]), weight)
    with pytest.raises(InvalidArgumentError, match=r"conv3d\(\): argument 'x' must be a 5-D"):
        F.conv3d(
            coo(np.array([[0], [1], [2]]), np.ones((1, 2), "float32"), (3, 3, 3, 2))[0], weight
        )
    with pytest.raises(InvalidArgumentError, match="input channels"):
        F.conv3d(_x(), phiops.to_tensor(np.zeros((3, 3, 3, 4, 2), "float32")))
    with pytest.raises(InvalidArgumentError, match="'weight' must be 5-D"):
        F.subm_conv3d(_x(), phiops.to_tensor(np.zeros((3, 3, 2, 2), "float32")))
    with pytest.raises(InvalidArgumentError, match="'bias' must have shape"):
        F.conv3d(_x(), weight, phiops.zeros([3]))
    with pytest.raises(InvalidArgumentError, match="data_format"):
        F.conv3d(_x(), weight, data_format="NCDHW")
    with pytest.raises(UnimplementedError, match="groups"):
        F.conv3d(_x(), weight, groups=2)
    with pytest.raises(UnimplementedError, match="asymmetric padding"):
        F.conv3d(_x(), weight, padding=[1, 0, 0, 0, 0, 0])
    with pytest.raises(UnimplementedError, match="submanifold"):
        F.subm_conv3d(_x(), phiops.to_tensor(np.zeros((2, 2, 2, 2, 2), "float32")))
    with pytest.raises(InvalidArgumentError, match="output's spatial shape"):
        F.conv3d(_x(), phiops.to_tensor(np.zeros((5, 5, 5, 2, 2), "float32")))
    with pytest.raises(InvalidArgumentError, match=r"max_pool3d\(\): argument 'x'"):
        F.max_pool3d(phiops.zeros([1, 2, 2, 2, 1]), 2)
    with pytest.raises(InvalidArgumentError, match="kernel_size"):
        F.max_pool3d(_x(), [2, 2])
    with pytest.raises(InvalidArgumentError, match="channels"):
        phiops.sparse.nn.BatchNorm(3)(_x())
    with pytest.raises(InvalidArgumentError, match="data_format"):
        phiops.sparse.nn.BatchNorm(3, data_format="NCHW")
    with pytest.raises(UnimplementedError, match="igemm"):
        phiops.sparse.nn.SubmConv3D(2, 2, 3, backend="igemm")
