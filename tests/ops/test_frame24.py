"""The frame24 framework ops (empty, empty_like, depend, share_data, memcpy_d2h, memcpy_h2d,
npu_identity, trans_layout and its grad, read_file; paddle.vision.ops.decode_jpeg) against numpy references: each
registered dtype, shared memory where PaddlePaddle shares it (depend, share_data, npu_identity)
and copies where it copies (memcpy_*), edges (0-D, empty, negative perm entries,
non-contiguous inputs) and bad arguments. PaddlePaddle 3.3.1's recorded values are checked by
tests/ops/test_frame24_paddle.py."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import phiops as paddle
import phiops._C_ops as C
from phiops.generated import backward as B
from phiops.runtime.common import CPUPlace, DataType
from phiops.runtime.errors import (
    InvalidArgumentError,
    NotFoundError,
    OutOfRangeError,
    PreconditionNotMetError,
    UnimplementedError,
)
from tests.ops.op_testing import cpu_dtypes, op_test, sample

D = DataType


def _ids(dtype: DataType) -> str:
    return dtype.name.lower()


# ---- empty, empty_like -----------------------------------------------------------------------


@op_test("empty", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("empty"), ids=_ids)
def test_empty_has_the_shape_and_dtype_asked_for_each_dtype(dtype: DataType) -> None:
    out = C.empty([2, 3], dtype, CPUPlace())
    assert out.dtype == dtype and out.shape == [2, 3]
    assert out.numpy().dtype == np.dtype(dtype.numpy_dtype)


@op_test("empty", kind="edge")
def test_empty_edges() -> None:
    assert C.empty([], D.FLOAT32, CPUPlace()).shape == []
    assert C.empty([0, 4], D.INT64, CPUPlace()).numpy().shape == (0, 4)
    assert C.empty([2], D.FLOAT32, CPUPlace()).place == CPUPlace()
    with pytest.raises(InvalidArgumentError, match="empty.*'shape'.*>= 0"):
        C.empty([2, -1], D.FLOAT32, CPUPlace())
    with pytest.raises(PreconditionNotMetError, match="empty.*data type"):
        C.empty([2], D.UNDEFINED, CPUPlace())


def test_paddle_empty_keeps_paddles_signature_over_the_op() -> None:
    assert paddle.empty([2, 3]).dtype == D.FLOAT32
    assert paddle.empty(size=[4], dtype="int32").numpy().dtype == np.int32
    out = paddle.zeros([2], "float64")
    assert paddle.empty([2], "float64", out=out) is out
    assert paddle.empty_like(paddle.ones([3, 1], "int16")).dtype == D.INT16
    assert paddle.empty_like(paddle.ones([3, 1]), "bool").shape == [3, 1]
    assert C.empty is not paddle.empty


@op_test("empty_like", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("empty_like"), ids=_ids)
def test_empty_like_takes_xs_shape_in_each_dtype(dtype: DataType) -> None:
    x = paddle.to_tensor(sample((3, 1), D.FLOAT32, seed=1))
    out = C.empty_like(x, dtype, CPUPlace())
    assert out.dtype == dtype and out.shape == [3, 1]
    assert out.numpy().dtype == np.dtype(dtype.numpy_dtype)


@op_test("empty_like", kind="edge")
def test_empty_like_edges() -> None:
    x = paddle.to_tensor(sample((2, 3), D.INT16, seed=2))
    assert C.empty_like(x, D.UNDEFINED, None).dtype == D.INT16
    assert C.empty_like(x.transpose([1, 0]), D.FLOAT64, None).shape == [3, 2]
    assert C.empty_like(paddle.to_tensor(np.float32(1)), D.UNDEFINED, None).shape == []
    assert C.empty_like(paddle.zeros([0, 5]), D.BOOL, None).numpy().shape == (0, 5)


# ---- depend, share_data, npu_identity: x passed through --------------------------------------


def _writes_through(x: paddle.Tensor, out: paddle.Tensor) -> bool:
    return np.shares_memory(np.asarray(x.numpy()), np.asarray(out.numpy()))


@op_test("depend", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("depend"), ids=_ids)
def test_depend_passes_x_through_for_each_dtype(dtype: DataType) -> None:
    values = sample((2, 3), dtype, seed=3)
    x = paddle.to_tensor(values)
    out = C.depend(x, [paddle.to_tensor(sample((4,), dtype, seed=13)), x])
    assert out.dtype == dtype and out.shape == [2, 3]
    np.testing.assert_array_equal(out.numpy(), values)
    assert _writes_through(x, out)


@op_test("depend", kind="edge")
def test_depend_edges() -> None:
    zero_d = paddle.to_tensor(np.float64(2.5))
    assert C.depend(zero_d, []).numpy() == 2.5
    # the kernel's dtype is the largest of all inputs' (dep's included), x keeps its own
    mixed = C.depend(paddle.to_tensor(np.array([1, 2], np.int32)), [paddle.ones([3], "int64")])
    assert mixed.dtype == D.INT32 and mixed.numpy().tolist() == [1, 2]
    assert C.depend(paddle.zeros([0, 3]), [zero_d]).shape == [0, 3]
    with pytest.raises(NotFoundError, match="depend"):
        C.depend(paddle.ones([2], "bool"), [])


@op_test("share_data", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("share_data"), ids=_ids)
def test_share_data_shares_xs_memory_for_each_dtype(dtype: DataType) -> None:
    values = sample((2, 3), dtype, seed=4)
    x = paddle.to_tensor(values)
    out = C.share_data(x)
    assert out.dtype == dtype and out.shape == [2, 3]
    np.testing.assert_array_equal(out.numpy(), values)
    assert _writes_through(x, out)


@op_test("share_data", kind="edge")
def test_share_data_edges() -> None:
    assert C.share_data(paddle.to_tensor(np.float32(3))).numpy() == np.float32(3)
    assert C.share_data(paddle.zeros([3, 0])).shape == [3, 0]
    x = paddle.to_tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    np.testing.assert_array_equal(C.share_data(x.transpose([1, 0])).numpy(), np.arange(6).reshape(2, 3).T)
    # PaddlePaddle 3.3.1 registers no int16 kernel
    with pytest.raises(NotFoundError, match="share_data"):
        C.share_data(paddle.ones([2], "int16"))


@op_test("npu_identity", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("npu_identity"), ids=_ids)
def test_npu_identity_shares_xs_memory_for_each_dtype(dtype: DataType) -> None:
    values = sample((3, 2), dtype, seed=5)
    x = paddle.to_tensor(values)
    out = C.npu_identity(x, -1)
    assert out.dtype == dtype and out.shape == [3, 2]
    np.testing.assert_array_equal(out.numpy(), values)
    assert _writes_through(x, out)


@op_test("npu_identity", kind="edge")
def test_npu_identity_edges() -> None:
    assert C.npu_identity(paddle.to_tensor(np.int64(7))).numpy() == 7
    assert C.npu_identity(paddle.zeros([0]), 3).shape == [0]
    with pytest.raises(NotFoundError, match="npu_identity"):
        C.npu_identity(paddle.ones([2], "complex64"))


# ---- memcpy_d2h, memcpy_h2d: copies ----------------------------------------------------------


@op_test("memcpy_d2h", "memcpy_h2d", kind="dtypes")
@pytest.mark.parametrize("op", ["memcpy_d2h", "memcpy_h2d"])
@pytest.mark.parametrize("dtype", cpu_dtypes("memcpy_d2h"), ids=_ids)
def test_memcpy_copies_x_onto_the_cpu_for_each_dtype(op: str, dtype: DataType) -> None:
    assert cpu_dtypes("memcpy_h2d") == cpu_dtypes("memcpy_d2h")
    values = sample((2, 2), dtype, seed=6)
    x = paddle.to_tensor(values)
    out = getattr(C, op)(x, 0)
    assert out.dtype == dtype and out.shape == [2, 2] and out.place == CPUPlace()
    np.testing.assert_array_equal(out.numpy(), values)
    assert not _writes_through(x, out)


@op_test("memcpy_d2h", "memcpy_h2d", kind="edge")
def test_memcpy_edges() -> None:
    for place_type in (1, 2, 3, 6):
        np.testing.assert_array_equal(C.memcpy_h2d(paddle.ones([2]), place_type).numpy(), [1, 1])
    assert C.memcpy_h2d(paddle.zeros([0, 2], "int64"), 0).shape == [0, 2]
    assert C.memcpy_d2h(paddle.to_tensor(np.float64(4)), 0).numpy() == 4
    strided = paddle.to_tensor(np.arange(6.0).reshape(2, 3)).transpose([1, 0])
    np.testing.assert_array_equal(C.memcpy_d2h(strided, 0).numpy(), np.arange(6.0).reshape(2, 3).T)
    for place_type in (-1, 4, 5, 7):
        with pytest.raises(OutOfRangeError, match=r"memcpy_h2d.*'dst_place_type'.*\[0, 3\] or 6"):
            C.memcpy_h2d(paddle.ones([2]), place_type)
    for place_type in (-1, 2):
        with pytest.raises(InvalidArgumentError, match="memcpy_d2h.*'dst_place_type'.*0.*or 1"):
            C.memcpy_d2h(paddle.ones([2]), place_type)
    with pytest.raises(UnimplementedError, match="memcpy_d2h.*pinned"):
        C.memcpy_d2h(paddle.ones([2]), 1)


# ---- trans_layout ----------------------------------------------------------------------------


@op_test("trans_layout", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("transpose"), ids=_ids)
def test_trans_layout_permutes_the_axes_for_each_dtype(dtype: DataType) -> None:
    values = sample((2, 3, 4), dtype, seed=7)
    out = C.trans_layout(paddle.to_tensor(values), [2, 0, 1])
    assert out.dtype == dtype and out.shape == [4, 2, 3]
    np.testing.assert_array_equal(out.numpy(), np.transpose(values, (2, 0, 1)))


@pytest.mark.parametrize("dtype", cpu_dtypes("trans_layout_grad"), ids=_ids)
def test_trans_layout_grad_permutes_back_for_each_dtype(dtype: DataType) -> None:
    x = sample((2, 3, 4), dtype, seed=8)
    out_grad = sample((3, 4, 2), dtype, seed=9)
    got = B.trans_layout_grad(paddle.to_tensor(x), paddle.to_tensor(out_grad), [1, 2, 0])
    assert got.dtype == dtype and got.shape == [2, 3, 4]
    np.testing.assert_array_equal(got.numpy(), np.transpose(out_grad, (2, 0, 1)))


@op_test("trans_layout", kind="edge")
def test_trans_layout_edges() -> None:
    values = np.arange(6.0).reshape(2, 3)
    np.testing.assert_array_equal(C.trans_layout(paddle.to_tensor(values), [-1, 0]).numpy(), values.T)
    assert C.trans_layout(paddle.to_tensor(np.float32(2)), []).shape == []
    assert C.trans_layout(paddle.zeros([0, 3]), [1, 0]).shape == [3, 0]
    strided = paddle.to_tensor(values).transpose([1, 0])
    np.testing.assert_array_equal(C.trans_layout(strided, [1, 0]).numpy(), values)
    with pytest.raises(InvalidArgumentError, match="trans_layout.*'perm'"):
        C.trans_layout(paddle.ones([2, 3]), [0, 0])
    with pytest.raises(InvalidArgumentError, match="trans_layout.*'perm'"):
        C.trans_layout(paddle.ones([2, 3]), [0])
    with pytest.raises(InvalidArgumentError, match="trans_layout_grad.*'perm'"):
        B.trans_layout_grad(paddle.ones([2, 3]), paddle.ones([3, 2]), [1])


def test_trans_layout_gradient_is_out_grad_permuted_back() -> None:
    x = paddle.to_tensor(np.arange(6.0).reshape(2, 3), stop_gradient=False)
    weights = np.arange(6.0).reshape(3, 2) - 2.0
    (C.trans_layout(x, [1, 0]) * paddle.to_tensor(weights)).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), weights.T)


# ---- read_file, decode_jpeg ------------------------------------------------------------------


@op_test("read_file", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("read_file"), ids=_ids)
def test_read_file_gives_the_files_bytes(dtype: DataType, tmp_path: Path) -> None:
    payload = bytes(range(256)) + b"\x00frame24"
    path = tmp_path / "payload.bin"
    path.write_bytes(payload)
    out = C.read_file(str(path), dtype, CPUPlace())
    assert out.dtype == dtype and out.shape == [len(payload)]
    np.testing.assert_array_equal(out.numpy(), np.frombuffer(payload, np.uint8))
    np.testing.assert_array_equal(paddle.vision.ops.read_file(str(path)).numpy(), out.numpy())


@op_test("read_file", kind="edge")
def test_read_file_edges(tmp_path: Path) -> None:
    empty = tmp_path / "empty.bin"
    empty.write_bytes(b"")
    assert paddle.vision.ops.read_file(str(empty)).shape == [0]
    with pytest.raises(NotFoundError, match="read_file.*'filename'.*no such file"):
        paddle.vision.ops.read_file(str(tmp_path / "missing.jpg"))
    with pytest.raises(InvalidArgumentError, match="read_file.*not a regular file"):
        paddle.vision.ops.read_file(str(tmp_path))
    with pytest.raises(InvalidArgumentError, match="read_file.*'filename'"):
        C.read_file("", D.UINT8, CPUPlace())
    with pytest.raises(InvalidArgumentError, match="read_file.*'filename'.*str"):
        paddle.vision.ops.read_file(3)


def test_paddle_vision_decode_jpeg_is_unimplemented_as_on_paddles_cpu() -> None:
    jpeg_start = paddle.to_tensor(np.array([0xFF, 0xD8, 0xFF, 0xE0], np.uint8))
    with pytest.raises(UnimplementedError, match="decode_jpeg.*only supports GPU"):
        paddle.vision.ops.decode_jpeg(jpeg_start, mode="rgb")
