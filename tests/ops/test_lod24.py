"""The LoD sequence ops of issue 24 (lod24 family): the LoD a dense tensor carries
(``set_lod``/``lod()``, runtime/tensor/lod.py), how ops and the static executor's feed carry it,
and sequence_pool and sequence_conv (and their grads) for every registered dtype against numpy
references written here from the ops' definitions, with their edges (empty sequences, two-level
LoDs, trainable padding) and bad input. tests/ops/test_lod24_paddle.py compares PaddlePaddle
3.3.1's recorded results."""

from __future__ import annotations

import numpy as np
import pytest

import phiops
import phiops._C_ops as C
import phiops.generated as phi
from phiops.runtime.common import DataType
from phiops.runtime.dispatch.op_def import OP_DEFS
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.coverage import paddle_data
from tests.ops.op_testing import cpu_dtypes, op_test

D = DataType
OPS = ("sequence_pool", "sequence_conv")
GRADS = ("sequence_pool_grad", "sequence_conv_grad")
POOLTYPES = ("AVERAGE", "SUM", "SQRT", "MAX", "LAST", "FIRST")
LOD = [[0, 2, 2, 5, 7]]  # four sequences, the second empty


def lod_tensor(values: np.ndarray, lod: list[list[int]], stop_gradient: bool = True) -> phiops.Tensor:
    tensor = phi.to_tensor(values)
    tensor.stop_gradient = stop_gradient
    tensor.set_lod(lod)
    return tensor


def values(shape: tuple[int, ...], seed: int, dtype: str = "float64") -> np.ndarray:
    return np.random.default_rng(seed).uniform(-1, 1, shape).astype(dtype)


def test_registrations_are_paddles() -> None:
    kernels = paddle_data()["kernels"]
    for op in OPS + GRADS:
        assert sorted(d.name.lower() for d in cpu_dtypes(op)) == sorted(kernels[op]), op


# -- the LoD of a dense tensor ------------------------------------------------------------------


def test_set_lod_and_lod_round_trip() -> None:
    x = phi.to_tensor(np.zeros((5, 2)))
    assert x.lod() == []
    x.set_lod([[0, 2, 5]])
    assert x.lod() == [[0, 2, 5]]
    assert x.recursive_sequence_lengths() == [[2, 3]]
    assert x.has_valid_recursive_sequence_lengths()
    x.set_lod([])
    assert x.lod() == []


def test_recursive_sequence_lengths_set_the_offsets_of_two_levels() -> None:
    x = phi.to_tensor(np.zeros((6, 1)))
    x.set_recursive_sequence_lengths([[2, 1], [1, 2, 3]])
    assert x.lod() == [[0, 2, 3], [0, 1, 3, 6]]
    assert x.recursive_sequence_lengths() == [[2, 1], [1, 2, 3]]


@pytest.mark.parametrize(
    "lod, message",
    [
        ([[1, 2, 5]], "starting at 0"),
        ([[0, 3, 2, 5]], "never decreasing"),
        ([[0]], "at least two offsets"),
        ([[0, 2, 4]], "the tensor has 5 rows"),
        ([[0, 1, 3], [0, 2, 5]], "level 1 holds 2 sequences"),
        ([[0, 2.5, 5]], "offsets must be integers"),
        ("0,5", "must be a list of levels"),
    ],
)
def test_set_lod_refuses_an_invalid_lod(lod, message: str) -> None:
    x = phi.to_tensor(np.zeros((5, 2)))
    with pytest.raises(InvalidArgumentError, match=message):
        x.set_lod(lod)
    assert x.lod() == []


def test_set_recursive_sequence_lengths_refuses_negative_lengths() -> None:
    x = phi.to_tensor(np.zeros((5, 2)))
    with pytest.raises(InvalidArgumentError, match="set_recursive_sequence_lengths.*integers >= 0"):
        x.set_recursive_sequence_lengths([[6, -1]])


def test_a_new_array_carries_no_lod() -> None:
    x = lod_tensor(np.zeros((5, 2)), [[0, 2, 5]])
    assert (x + 1).lod() == []
    assert x.astype("float32").lod() == []
    assert x.lod() == [[0, 2, 5]]


def test_the_static_executor_feeds_a_lod_tensor_with_its_lod() -> None:
    x = values((7, 3), 1)
    filt = values((6, 2), 2)
    phiops.enable_static()
    try:
        main = phiops.static.Program()
        with phiops.static.program_guard(main, phiops.static.Program()):
            data = phiops.static.data("x", [-1, 3], "float64")
            w = phiops.static.data("w", [6, 2], "float64")
            out = C.sequence_conv(data, None, w, 2, False, 0, 1)
            pooled = C.sequence_pool(data, False, "SUM", 0.0)
        exe = phiops.static.Executor(phiops.CPUPlace())
        fed = lod_tensor(x, LOD)
        conv, summed = exe.run(main, feed={"x": fed, "w": filt}, fetch_list=[out, pooled], return_numpy=False)
    finally:
        phiops.disable_static()
    assert conv.lod() == LOD
    np.testing.assert_allclose(conv.numpy(), conv_reference(x, None, filt, LOD[0], 2, 0), rtol=1e-12)
    np.testing.assert_allclose(summed.numpy(), pool_reference(x, LOD[0], "SUM", 0.0)[0], rtol=1e-12)
    assert fed.lod() == LOD


# -- sequence_pool ------------------------------------------------------------------------------


def pool_reference(x: np.ndarray, offsets: list[int], pooltype: str, pad: float) -> tuple[np.ndarray, np.ndarray]:
    rows, index = [], []
    for start, end in zip(offsets, offsets[1:]):
        seq = x[start:end]
        if end == start:
            rows.append(np.full(x.shape[1:], pad, x.dtype))
            index.append(np.full(x.shape[1:], -1))
            continue
        index.append(start + np.argmax(seq, axis=0))
        rows.append(
            {
                "AVERAGE": lambda: seq.mean(axis=0),
                "SUM": lambda: seq.sum(axis=0),
                "SQRT": lambda: seq.sum(axis=0) / np.sqrt(end - start),
                "MAX": lambda: seq.max(axis=0),
                "LAST": lambda: seq[-1],
                "FIRST": lambda: seq[0],
            }[pooltype]()
        )
    return np.stack(rows).astype(x.dtype), np.stack(index).astype(np.int32)


def pool_grad_reference(x: np.ndarray, offsets: list[int], pooltype: str, grad: np.ndarray) -> np.ndarray:
    out = np.zeros_like(x)
    _, index = pool_reference(x, offsets, pooltype, 0.0)
    for i, (start, end) in enumerate(zip(offsets, offsets[1:])):
        length = end - start
        if not length:
            continue
        if pooltype == "SUM":
            out[start:end] = grad[i]
        elif pooltype == "AVERAGE":
            out[start:end] = grad[i] / length
        elif pooltype == "SQRT":
            out[start:end] = grad[i] / np.sqrt(length)
        elif pooltype == "LAST":
            out[end - 1] = grad[i]
        elif pooltype == "FIRST":
            out[start] = grad[i]
        else:
            for column, row in enumerate(index[i]):
                out[row, column] = grad[i, column]
    return out


@op_test("sequence_pool", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("sequence_pool"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("pooltype", POOLTYPES)
def test_sequence_pool_and_its_grad_match_the_definition(dtype: DataType, pooltype: str) -> None:
    np_dtype = dtype.name.lower()
    x = values((7, 3), 3, np_dtype)
    grad = values((4, 3), 4, np_dtype)
    tensor = lod_tensor(x, LOD, stop_gradient=False)
    out = C.sequence_pool(tensor, False, pooltype, 0.5)
    expected, _ = pool_reference(x, LOD[0], pooltype, 0.5)
    assert out.dtype == dtype and out.lod() == []
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-6)
    (x_grad,) = phiops.grad([out], [tensor], [phi.to_tensor(grad)])
    np.testing.assert_allclose(x_grad.numpy(), pool_grad_reference(x, LOD[0], pooltype, grad), rtol=1e-6)
    assert x_grad.lod() == LOD


def test_sequence_pool_max_index_names_the_rows_of_the_maxima() -> None:
    x = np.array([[1.0, 5.0], [3.0, 5.0], [2.0, 0.0]])
    pool = OP_DEFS["sequence_pool"]
    assert pool.intermediate == ("max_index",)
    out, max_index = pool.dispatcher.call((lod_tensor(x, [[0, 2, 2, 3]]),), (False, "MAX", -1.0))
    np.testing.assert_array_equal(out.numpy(), [[3.0, 5.0], [-1.0, -1.0], [2.0, 0.0]])
    np.testing.assert_array_equal(max_index.numpy(), [[1, 0], [-1, -1], [2, 2]])
    assert max_index.dtype == D.INT32


@op_test("sequence_pool", kind="edge")
def test_sequence_pool_of_two_levels_carries_the_first_and_pools_the_last() -> None:
    x = values((6, 2, 2), 5)
    lod = [[0, 2, 4], [0, 1, 3, 3, 6]]
    out = C.sequence_pool(lod_tensor(x, lod), False, "SUM", 0.0)
    assert out.shape == [4, 2, 2]
    assert out.lod() == [[0, 2, 4]]
    np.testing.assert_allclose(out.numpy(), pool_reference(x, lod[1], "SUM", 0.0)[0], rtol=1e-12)


def test_sequence_pool_of_no_rows_pads_every_sequence() -> None:
    out = C.sequence_pool(lod_tensor(np.zeros((0, 3)), [[0, 0, 0]]), False, "MAX", 2.0)
    np.testing.assert_array_equal(out.numpy(), np.full((2, 3), 2.0))


@pytest.mark.parametrize(
    "x, lod, pooltype, message",
    [
        (np.zeros((3, 2)), None, "SUM", "argument 'x' carries no LoD"),
        (np.zeros((3, 2)), [[0, 1, 3], [0, 1, 2, 3], [0, 1, 2, 3]], "SUM", "3 levels, at most 2"),
        (np.zeros((3, 2)), [[0, 3]], "MEAN", "argument 'pooltype' must be one of"),
        (np.zeros(3), [[0, 3]], "MAX", "at least 2 dimensions for pooltype MAX"),
        (np.zeros(()), None, "SUM", "at least 1 dimension"),
    ],
)
def test_sequence_pool_refuses_bad_input(x, lod, pooltype: str, message: str) -> None:
    tensor = phi.to_tensor(x)
    if lod is not None:
        tensor.set_lod(lod)
    with pytest.raises(InvalidArgumentError, match=f"sequence_pool\\(\\): .*{message}"):
        C.sequence_pool(tensor, False, pooltype, 0.0)


# -- sequence_conv ------------------------------------------------------------------------------


def conv_reference(
    x: np.ndarray, padding: np.ndarray | None, filt: np.ndarray, offsets: list[int], length: int, start: int
) -> np.ndarray:
    up_pad = max(0, -start)
    width = x.shape[1]
    col = np.zeros((x.shape[0], length * width), x.dtype)
    for begin, end in zip(offsets, offsets[1:]):
        for t in range(end - begin):
            for j in range(length):
                p = t + start + j
                if 0 <= p < end - begin:
                    col[begin + t, j * width : (j + 1) * width] = x[begin + p]
                elif padding is not None:
                    row = up_pad + p if p < 0 else up_pad + p - (end - begin)
                    col[begin + t, j * width : (j + 1) * width] = padding[row]
    return col @ filt


@op_test("sequence_conv", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("sequence_conv"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("trainable", [False, True], ids=["zeros", "trainable"])
def test_sequence_conv_matches_the_definition(dtype: DataType, trainable: bool) -> None:
    np_dtype = dtype.name.lower()
    x, filt, padding = values((7, 3), 6, np_dtype), values((9, 2), 7, np_dtype), values((2, 3), 8, np_dtype)
    out = C.sequence_conv(lod_tensor(x, LOD), phi.to_tensor(padding), phi.to_tensor(filt), 3, trainable, -1, 1)
    expected = conv_reference(x, padding if trainable else None, filt, LOD[0], 3, -1)
    assert out.dtype == dtype and out.lod() == LOD
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-5, atol=1e-6)


@op_test("sequence_conv", kind="edge")
@pytest.mark.parametrize("length, start", [(1, 0), (2, 1), (4, -3), (3, 2)])
def test_sequence_conv_context_windows_stay_inside_their_sequence(length: int, start: int) -> None:
    x, filt = values((7, 2), 9), values((2 * length, 3), 10)
    out = C.sequence_conv(lod_tensor(x, LOD), None, phi.to_tensor(filt), length, False, start, 1)
    np.testing.assert_allclose(out.numpy(), conv_reference(x, None, filt, LOD[0], length, start), rtol=1e-12)


def test_sequence_conv_grad_adds_back_into_the_rows_read() -> None:
    x, filt, padding = values((7, 3), 11), values((9, 2), 12), values((2, 3), 13)
    grad = values((7, 2), 14)
    tensors = [lod_tensor(x, LOD, False), phi.to_tensor(padding), phi.to_tensor(filt)]
    for tensor in tensors[1:]:
        tensor.stop_gradient = False
    out = C.sequence_conv(tensors[0], tensors[1], tensors[2], 3, True, -1, 1)
    x_grad, pad_grad, filt_grad = phiops.grad([out], tensors, [phi.to_tensor(grad)])
    # the op is linear in each input: its gradient is the reference's transpose, column by column
    def jacobian_t(which: int, shape: tuple[int, ...]) -> np.ndarray:
        flat = np.zeros(int(np.prod(shape)))
        result = np.zeros(shape)
        for i in range(flat.size):
            flat[:] = 0
            flat[i] = 1
            args = [x * 0, padding * 0, filt]
            if which == 2:
                args = [x, padding, filt * 0]
            args[which] = flat.reshape(shape)
            result.flat[i] = (conv_reference(args[0], args[1], args[2], LOD[0], 3, -1) * grad).sum()
        return result

    np.testing.assert_allclose(x_grad.numpy(), jacobian_t(0, x.shape), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(pad_grad.numpy(), jacobian_t(1, padding.shape), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(filt_grad.numpy(), jacobian_t(2, filt.shape), rtol=1e-12, atol=1e-12)
    assert x_grad.lod() == LOD


@pytest.mark.parametrize(
    "lod, filter_shape, padding_shape, kwargs, message",
    [
        (None, (6, 2), None, {}, "argument 'x' carries no LoD"),
        ([[0, 3], [0, 1, 2, 3]], (6, 2), None, {}, "2 levels, at most 1"),
        ([[0, 3]], (5, 2), None, {}, "argument 'filter' must have context_length"),
        ([[0, 3]], (6, 2), None, {"context_stride": 2}, "argument 'context_stride' must be 1"),
        ([[0, 3]], (6, 2), None, {"padding_trainable": True}, "argument 'padding_data' is required"),
        ([[0, 3]], (6, 2), (3, 3), {"padding_trainable": True}, r"must have shape \[1, 3\]"),
        ([[0, 3]], (3, 2), None, {"context_length": 1, "padding_trainable": True}, "must be false"),
    ],
)
def test_sequence_conv_refuses_bad_input(lod, filter_shape, padding_shape, kwargs, message: str) -> None:
    x = phi.to_tensor(np.zeros((3, 3)))
    if lod is not None:
        x.set_lod(lod)
    args = {"context_length": 2, "padding_trainable": False, "context_start": -1, "context_stride": 1}
    if kwargs.get("context_length") == 1:
        args["context_start"] = 0
    args.update(kwargs)
    padding = None if padding_shape is None else phi.to_tensor(np.zeros(padding_shape))
    with pytest.raises(InvalidArgumentError, match=f"sequence_conv\\(\\): .*{message}"):
        C.sequence_conv(x, padding, phi.to_tensor(np.zeros(filter_shape)), *args.values())
