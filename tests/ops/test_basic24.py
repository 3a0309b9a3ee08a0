"""The basic24 ops of issue 24 (fill, full_, increment, assign_out_, ...): every registered dtype
against numpy, the registrations against PaddlePaddle 3.3.1's, 0-D, empty and non-contiguous
inputs, in-place writes, bad input and the paddle.* functions. tests/ops/test_basic24_paddle.py
compares PaddlePaddle 3.3.1's recorded results and gradients."""

from __future__ import annotations

import numpy as np
import pytest

import phiops
import phiops._C_ops as C
from phiops.runtime.common import CPUPlace, DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.coverage import NUMPY_LACKS, paddle_data
from phiops.runtime.kernels.registration import ALL_TYPES
from tests.ops.op_testing import cpu_dtypes, op_test, sample

D = DataType
KERNELS = ("fill", "fill_grad", "increment", "crop", "crop_grad", "shard_index")
KERNELS += ("shuffle_channel", "shuffle_channel_grad", "temporal_shift", "temporal_shift_grad")
KERNELS += ("partial_concat", "partial_concat_grad", "partial_sum", "partial_sum_grad")
ids = lambda d: d.name.lower()  # noqa: E731


def t(values, dtype=None) -> phiops.Tensor:
    return phiops.to_tensor(np.asarray(values, dtype))


def test_registrations_are_paddles() -> None:
    kernels = paddle_data()["kernels"]
    for name in KERNELS:
        want = set(kernels[name]) - NUMPY_LACKS
        assert sorted(d.name.lower() for d in cpu_dtypes(name)) == sorted(want), name


# -- fill ---------------------------------------------------------------------------------------


@op_test("fill", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("fill"), ids=ids)
def test_fill_sets_every_element(dtype: DataType) -> None:
    x = sample((2, 3), dtype)
    value = True if dtype is D.BOOL else 3
    out = C.fill(t(x), value)
    assert out.dtype == dtype and out.shape == [2, 3]
    np.testing.assert_array_equal(out.numpy(), np.full((2, 3), value, dtype.numpy_dtype))


@op_test("fill", kind="edge")
def test_fill_edges() -> None:
    # a C++ cast: an integer dtype truncates toward zero, bool takes nonzero as True
    np.testing.assert_array_equal(C.fill(t([1, 2], "int32"), 3.7).numpy(), [3, 3])
    np.testing.assert_array_equal(C.fill(t([1, 2], "int64"), -2.9).numpy(), [-2, -2])
    np.testing.assert_array_equal(C.fill(t([False], "bool"), 0.5).numpy(), [True])
    np.testing.assert_array_equal(C.fill(t([1.0], "float32"), float("inf")).numpy(), [np.inf])
    assert C.fill(t(2.0, "float64"), 7.5).numpy() == np.float64(7.5)  # 0-D
    assert C.fill(t(np.zeros((0, 3), "float32")), 1.0).shape == [0, 3]
    x = np.arange(12, dtype="float32").reshape(3, 4)[:, ::2]  # non-contiguous
    np.testing.assert_array_equal(C.fill(t(x), -1.0).numpy(), np.full((3, 2), -1.0, "float32"))
    with pytest.raises(InvalidArgumentError, match="fill.*'value'.*NaN"):
        C.fill(t([1.0]), float("nan"))
    with pytest.raises(InvalidArgumentError, match="fill.*'value'.*out of range for int8"):
        C.fill(t([1], "int8"), 300)
    with pytest.raises(InvalidArgumentError, match="fill.*'value'.*inf"):
        C.fill(t([1], "int32"), float("inf"))


def test_fill_in_place_writes_x_and_its_gradient_is_zero() -> None:
    x = t([1.0, 2.0, 3.0])
    out = C.fill_(x, 4.0)
    assert out is x
    np.testing.assert_array_equal(x.numpy(), [4.0, 4.0, 4.0])
    leaf = phiops.to_tensor([1.0, 2.0], stop_gradient=False)
    (C.fill(leaf * 2, 5.0) * 3).sum().backward()
    np.testing.assert_array_equal(leaf.grad.numpy(), [0.0, 0.0])


def test_tensor_fill__is_unchanged() -> None:
    x = t([[1, 2], [3, 4]], "int64")
    x.fill_(9)
    np.testing.assert_array_equal(x.numpy(), [[9, 9], [9, 9]])


# -- full_ --------------------------------------------------------------------------------------


@op_test("full_", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("full"), ids=ids)
def test_full__overwrites_output_with_shape_dtype_and_value(dtype: DataType) -> None:
    output = t([1.0, 2.0, 3.0], "float32")
    value = True if dtype is D.BOOL else 2
    out = C.full_(output, [2, 2], value, dtype, CPUPlace())
    assert out is output
    assert output.dtype == dtype and output.shape == [2, 2]
    np.testing.assert_array_equal(output.numpy(), np.full((2, 2), value, dtype.numpy_dtype))


@op_test("full_", kind="edge")
def test_full__edges() -> None:
    output = t([[1, 2]], "int64")
    assert C.full_(output, [], 1.5, D.FLOAT64, CPUPlace()).numpy() == np.float64(1.5)  # 0-D
    assert output.shape == []
    assert C.full_(output, [0, 4], 1.0, D.FLOAT32, CPUPlace()).shape == [0, 4]
    assert C.full_(output, t([3], "int64"), 1.0, D.INT32, CPUPlace()).shape == [3]  # a tensor shape
    with pytest.raises(InvalidArgumentError, match="full_.*'shape'.*>= 0"):
        C.full_(output, [2, -3], 1.0, D.FLOAT32, CPUPlace())
    with pytest.raises(InvalidArgumentError, match="full.*'value'.*out of range for dtype uint8"):
        C.full_(output, [2], -1, D.UINT8, CPUPlace())


# -- increment ----------------------------------------------------------------------------------


@op_test("increment", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("increment"), ids=ids)
def test_increment_adds_value(dtype: DataType) -> None:
    x = np.array([5], dtype.numpy_dtype)
    out = C.increment(t(x), 2.0)
    assert out.dtype == dtype and out.shape == [1]
    np.testing.assert_array_equal(out.numpy(), x + 2)


@op_test("increment", kind="edge")
def test_increment_edges() -> None:
    # an integer dtype truncates value toward zero first, as PHI's static_cast
    np.testing.assert_array_equal(C.increment(t([3], "int32"), 1.7).numpy(), [4])
    np.testing.assert_array_equal(C.increment(t([3], "int64"), -1.7).numpy(), [2])
    np.testing.assert_allclose(C.increment(t(2.0, "float64"), 0.5).numpy(), 2.5)  # 0-D
    assert C.increment(t([[[1.0]]], "float32")).shape == [1, 1, 1]
    x = t([7], "int64")
    assert C.increment_(x, 3.0) is x
    np.testing.assert_array_equal(x.numpy(), [10])
    for bad in ([1.0, 2.0], np.zeros((0,), "float32")):
        with pytest.raises(InvalidArgumentError, match="increment.*'x'.*exactly one element"):
            C.increment(t(bad, "float32"))
    with pytest.raises(InvalidArgumentError, match="increment.*'value'.*inf"):
        C.increment(t([1], "int32"), float("inf"))


def test_paddle_increment_is_the_op() -> None:
    np.testing.assert_array_equal(phiops.increment(t([1.5], "float32")).numpy(), [2.5])
    np.testing.assert_array_equal(phiops.increment(t([1], "int64"), value=4).numpy(), [5])


# -- assign_out_ --------------------------------------------------------------------------------


@op_test("assign_out_", kind="dtypes")
@pytest.mark.parametrize("dtype", ALL_TYPES, ids=ids)
def test_assign_out__copies_x_into_output(dtype: DataType) -> None:
    x = sample((2, 3), dtype, seed=3)
    output = t(np.zeros((4,), "float64"))
    out = C.assign_out_(t(x), output)
    assert out is output and output.dtype == dtype and output.shape == [2, 3]
    np.testing.assert_array_equal(output.numpy(), x)


@op_test("assign_out_", kind="edge")
def test_assign_out__edges() -> None:
    output = t([1.0, 2.0])
    C.assign_out_(t(3, "int32"), output)  # 0-D
    assert output.shape == [] and output.numpy() == np.int32(3)
    C.assign_out_(t(np.zeros((0, 2), "float32")), output)
    assert output.shape == [0, 2]
    x = np.arange(12.0).reshape(3, 4)[::2, 1::2]  # non-contiguous
    np.testing.assert_array_equal(C.assign_out_(t(x), output).numpy(), x)
    # a copy: writing x later leaves output alone
    source = t([1.0, 2.0])
    C.assign_out_(source, output)
    source.fill_(0.0)
    np.testing.assert_array_equal(output.numpy(), [1.0, 2.0])


def test_assign_out__passes_the_gradient_to_x() -> None:
    x = phiops.to_tensor([1.0, 2.0], stop_gradient=False)
    out = C.assign_out_(x, phiops.zeros([5]))
    (out * t([2.0, 3.0])).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 3.0])


# -- crop ---------------------------------------------------------------------------------------


@op_test("crop", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("crop"), ids=ids)
def test_crop_cuts_the_box(dtype: DataType) -> None:
    x = sample((3, 4, 5), dtype)
    out = C.crop(t(x), [2, -1, 3], [1, 2, 0])
    assert out.dtype == dtype
    np.testing.assert_array_equal(out.numpy(), x[1:3, 2:, 0:3])


@op_test("crop", kind="edge")
def test_crop_edges() -> None:
    x = np.arange(12.0).reshape(3, 4)
    np.testing.assert_array_equal(C.crop(t(x), [3, 4], [0, 0]).numpy(), x)
    assert C.crop(t(x), [2, 0], [0, 0]).shape == [2, 0]  # a zero extent is empty, as in 3.3.1
    assert C.crop(t(np.zeros((0, 3))), [-1, 2], [0, 1]).shape == [0, 2]
    np.testing.assert_array_equal(C.crop(t(x[:, ::2]), [2, 1], [1, 1]).numpy(), x[1:3, 2:3])
    np.testing.assert_array_equal(phiops.crop(t(x), shape=[2, 2]).numpy(), x[:2, :2])
    np.testing.assert_array_equal(phiops.crop(t(x)).numpy(), x)
    np.testing.assert_array_equal(
        phiops.crop(t(x), [-1, 2], t([1, 1], "int64")).numpy(), x[1:, 1:3]
    )
    bad = [
        (([2, 2], [2, 3]), "offsets\\[0\\] \\+ shape\\[0\\] \\(2 \\+ 2\\) must be at most"),
        (([2, 2], [-1, 0]), "'offsets' must be >= 0, got -1"),
        (([-2, 2], [0, 0]), "'shape' may hold -1 .* got -2"),
        (([2], [0]), "'shape' must hold one entry per dimension of x \\(2\\)"),
        (([2, 2], [0]), "'offsets' must hold one entry per dimension of x \\(2\\)"),
    ]
    for (shape, offsets), message in bad:
        with pytest.raises(InvalidArgumentError, match="crop.*" + message):
            C.crop(t(x), shape, offsets)
    with pytest.raises(InvalidArgumentError, match="crop.*'x' must have 1 to 6 dimensions, got 0"):
        C.crop(t(2.0), [], [])


def test_crop_grad_places_out_grad_at_the_offsets() -> None:
    from phiops.generated import backward as B

    out_grad = np.arange(6.0).reshape(2, 3)
    want = np.zeros((3, 4))
    want[1:3, 1:4] = out_grad
    np.testing.assert_array_equal(
        B.crop_grad(t(np.ones((3, 4))), t(out_grad), [1, 1]).numpy(), want
    )


# -- shard_index --------------------------------------------------------------------------------


def shard_index_reference(x: np.ndarray, index_num: int, nshards: int, shard_id: int, ignore: int):
    size = -(-index_num // nshards)
    return np.where(x // size == shard_id, x % size, ignore).astype(x.dtype)


@op_test("shard_index", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("shard_index"), ids=ids)
def test_shard_index_matches_numpy(dtype: DataType) -> None:
    x = np.arange(20).reshape(10, 2, 1)[::-1].astype(dtype.numpy_dtype)
    for nshards, shard_id, ignore in ((2, 0, -1), (3, 2, -2), (1, 0, 5)):
        out = C.shard_index(t(x), 20, nshards, shard_id, ignore)
        assert out.dtype == dtype
        want = shard_index_reference(x, 20, nshards, shard_id, ignore)
        np.testing.assert_array_equal(out.numpy(), want)


@op_test("shard_index", kind="edge")
def test_shard_index_edges() -> None:
    assert C.shard_index(t(np.zeros((0, 1), "int64")), 20, 2, 0, -1).shape == [0, 1]
    np.testing.assert_array_equal(
        t([[13], [19]], "int64").shard_index(20, 3, 2, -2).numpy(), [[-2], [5]]
    )
    x = t([[1], [2]], "int64")
    bad = [
        ((20, 2, 2), "'shard_id' must be in \\[0, nshards\\) = \\[0, 2\\), got 2"),
        ((20, 2, -1), "'shard_id' must be in"),
        ((20, 0, 0), "'nshards' must be positive, got 0"),
        ((0, 2, 0), "'index_num' must be positive, got 0"),
    ]
    for args, message in bad:
        with pytest.raises(InvalidArgumentError, match="shard_index.*" + message):
            C.shard_index(x, *args, -1)
    for values, message in (([[25]], "lie in \\[0, index_num\\)"), ([[-1]], "lie in")):
        with pytest.raises(InvalidArgumentError, match="shard_index.*" + message):
            C.shard_index(t(values, "int64"), 20, 2, 0, -1)
    with pytest.raises(InvalidArgumentError, match="shard_index.*last extent of 1"):
        C.shard_index(t([[1, 2]], "int64"), 20, 2, 0, -1)
    with pytest.raises(InvalidArgumentError, match="shard_index.*at least 2 dimensions"):
        C.shard_index(t([1, 2], "int64"), 20, 2, 0, -1)


# -- shuffle_channel ----------------------------------------------------------------------------


def shuffle_reference(x: np.ndarray, group: int) -> np.ndarray:
    n, c, h, w = x.shape
    order = [g * (c // group) + j for j in range(c // group) for g in range(group)]
    return x[:, order]


@op_test("shuffle_channel", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("shuffle_channel"), ids=ids)
def test_shuffle_channel_matches_numpy(dtype: DataType) -> None:
    x = sample((2, 6, 2, 3), dtype)
    for group in (1, 2, 3, 6):
        np.testing.assert_array_equal(
            C.shuffle_channel(t(x), group).numpy(), shuffle_reference(x, group)
        )


@op_test("shuffle_channel", kind="edge")
def test_shuffle_channel_edges() -> None:
    assert C.shuffle_channel(t(np.zeros((0, 4, 2, 2), "float32")), 2).shape == [0, 4, 2, 2]
    x = np.arange(96.0).reshape(2, 6, 4, 2)[:, :, ::2]  # non-contiguous
    np.testing.assert_array_equal(C.shuffle_channel(t(x), 2).numpy(), shuffle_reference(x, 2))
    for group in (0, -1, 4):
        with pytest.raises(
            InvalidArgumentError, match="shuffle_channel.*'group' must be positive and divide"
        ):
            C.shuffle_channel(t(np.zeros((1, 6, 1, 1))), group)
    with pytest.raises(InvalidArgumentError, match="shuffle_channel.*'x' must be 4-D"):
        C.shuffle_channel(t(np.zeros((2, 6, 2))), 3)


# -- temporal_shift -----------------------------------------------------------------------------


def temporal_shift_reference(x: np.ndarray, seg_num: int, ratio: float, fmt: str) -> np.ndarray:
    """PHI's loop: each element takes the value of the same element at step src_t."""
    if fmt == "NHWC":
        x = x.transpose(0, 3, 1, 2)
    nt, c = x.shape[:2]
    c1, c2 = int(np.float32(c) * np.float32(ratio)), int(np.float32(2 * c) * np.float32(ratio))
    out = np.zeros_like(x)
    for i in range(nt):
        n, step = divmod(i, seg_num)
        for ch in range(c):
            src = step - 1 if ch < c1 else step + 1 if ch < c2 else step
            if 0 <= src < seg_num:
                out[i, ch] = x[n * seg_num + src, ch]
    return out.transpose(0, 2, 3, 1) if fmt == "NHWC" else out


@op_test("temporal_shift", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("temporal_shift"), ids=ids)
def test_temporal_shift_matches_the_loop(dtype: DataType) -> None:
    x = sample((6, 8, 2, 2), dtype)
    for ratio in (0.25, 0.15, 0.45):
        want = temporal_shift_reference(x, 3, ratio, "NCHW")
        np.testing.assert_array_equal(C.temporal_shift(t(x), 3, ratio, "NCHW").numpy(), want)
    nhwc = x.transpose(0, 2, 3, 1).copy()
    want = temporal_shift_reference(nhwc, 2, 0.25, "NHWC")
    np.testing.assert_array_equal(C.temporal_shift(t(nhwc), 2, 0.25, "NHWC").numpy(), want)


@op_test("temporal_shift", kind="edge")
def test_temporal_shift_edges() -> None:
    x = np.arange(40.0).reshape(4, 10, 1, 1)
    # 10 * 0.15f = 1.5 and 20 * 0.15f = 3.0000001: c1 = 1, c2 = 3, as in 3.3.1
    np.testing.assert_array_equal(
        C.temporal_shift(t(x), 4, 0.15, "NCHW").numpy(),
        temporal_shift_reference(x, 4, 0.15, "NCHW"),
    )
    assert C.temporal_shift(t(np.zeros((0, 4, 1, 1))), 2, 0.25, "NCHW").shape == [0, 4, 1, 1]
    strided = np.arange(64.0).reshape(4, 4, 2, 2)[:, :, ::2]
    np.testing.assert_array_equal(
        C.temporal_shift(t(strided), 4, 0.25, "NCHW").numpy(),
        temporal_shift_reference(strided, 4, 0.25, "NCHW"),
    )
    y = t(np.zeros((4, 4, 1, 1)))
    bad = [
        ((3, 0.25, "NCHW"), "'seg_num' \\(3\\) must divide x's first extent \\(4\\)"),
        ((0, 0.25, "NCHW"), "'seg_num' must be positive"),
        ((2, 0.5, "NCHW"), "'shift_ratio' must be in \\(0, 0.5\\)"),
        ((2, 0.0, "NCHW"), "'shift_ratio' must be in"),
        ((2, 0.25, "NCDHW"), "'data_format' must be 'NCHW' or 'NHWC'"),
    ]
    for args, message in bad:
        with pytest.raises(InvalidArgumentError, match="temporal_shift.*" + message):
            C.temporal_shift(y, *args)
    with pytest.raises(InvalidArgumentError, match="temporal_shift.*'x' must be 4-D"):
        C.temporal_shift(t(np.zeros((4, 4, 2))), 2, 0.25, "NCHW")


# -- partial_concat / partial_sum ---------------------------------------------------------------


@op_test("partial_concat", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("partial_concat"), ids=ids)
def test_partial_concat_matches_numpy(dtype: DataType) -> None:
    a, b = sample((2, 5), dtype, seed=1), sample((2, 5), dtype, seed=2)
    for start, length, lo, hi in ((1, 2, 1, 3), (0, -1, 0, 5), (-3, 2, 2, 4), (4, 0, 4, 4)):
        out = C.partial_concat([t(a), t(b)], start, length)
        assert out.dtype == dtype
        np.testing.assert_array_equal(out.numpy(), np.concatenate([a[:, lo:hi], b[:, lo:hi]], 1))


@op_test("partial_sum", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("partial_sum"), ids=ids)
def test_partial_sum_matches_numpy(dtype: DataType) -> None:
    a, b, c = (sample((3, 4), dtype, seed=s) for s in (1, 2, 3))
    for start, length, lo, hi in ((1, 2, 1, 3), (0, -1, 0, 4), (3, 1, 3, 4)):
        out = C.partial_sum([t(a), t(b), t(c)], start, length)
        assert out.dtype == dtype
        np.testing.assert_array_equal(out.numpy(), a[:, lo:hi] + b[:, lo:hi] + c[:, lo:hi])


@op_test("partial_concat", "partial_sum", kind="edge")
def test_partial_concat_and_sum_edges() -> None:
    x = np.arange(8.0).reshape(2, 4)
    assert C.partial_concat([t(x)], 0, 0).shape == [2, 0]
    assert C.partial_sum([t(np.zeros((0, 4)))], 1, -1).shape == [0, 3]
    strided = np.arange(16.0).reshape(2, 8)[:, ::2]  # non-contiguous
    np.testing.assert_array_equal(
        C.partial_sum([t(strided), t(x)], 1, 2).numpy(), strided[:, 1:3] + x[:, 1:3]
    )
    for op in (C.partial_concat, C.partial_sum):
        name = op.__name__
        with pytest.raises(
            InvalidArgumentError, match=f"{name}.*start_index \\+ length \\(3 \\+ 2\\)"
        ):
            op([t(x)], 3, 2)
        with pytest.raises(InvalidArgumentError, match=f"{name}.*'start_index' must be in"):
            op([t(x)], 4, -1)
        with pytest.raises(
            InvalidArgumentError, match=f"{name}.*'length' must be -1 or at least 0"
        ):
            op([t(x)], 0, -2)
        with pytest.raises(InvalidArgumentError, match=f"{name}.*one shape and dtype"):
            op([t(x), t(np.zeros((2, 3)))], 0, 1)
        with pytest.raises(InvalidArgumentError, match=f"{name}.*2-D tensors"):
            op([t(np.zeros((2, 3, 1)))], 0, 1)
    # a negative start counts from the end for partial_concat only (3.3.1's partial_sum reads
    # outside the rows)
    np.testing.assert_array_equal(C.partial_concat([t(x)], -1, 1).numpy(), x[:, 3:])
    with pytest.raises(
        InvalidArgumentError, match="partial_sum.*'start_index' must be in \\[0, 4\\)"
    ):
        C.partial_sum([t(x)], -1, 1)
