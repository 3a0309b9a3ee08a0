"""The misc24c ops of issue 24 (embedding_grad_dense, weight_quantize, dgc_momentum) against numpy
references, per registered CPU dtype, with their edges and bad input (recorded PaddlePaddle values
are in tests/ops/test_misc24c_paddle.py; PaddlePaddle 3.3.1's own embedding_grad_dense refuses
every CPU call, so its kernel's values come from embedding_grad there)."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import phiops
import phiops._C_ops as C
from phiops.nn.quant import weight_quantize
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from tests.ops.op_testing import cpu_dtypes, op_test


def t(values, dtype=None) -> phiops.Tensor:
    return phiops.to_tensor(np.asarray(values), dtype=dtype)


def as_dtype(array: np.ndarray, dtype: DataType) -> phiops.Tensor:
    return phiops.to_tensor(array.astype(dtype.numpy_dtype))


# -- embedding_grad_dense ----------------------------------------------------------------------


def embedding_grad_reference(ids, rows, out_grad, padding_idx):
    grad = np.zeros((rows, out_grad.shape[-1]), out_grad.dtype)
    np.add.at(grad, ids.reshape(-1), out_grad.reshape(-1, out_grad.shape[-1]))
    if padding_idx != -1:
        grad[padding_idx] = 0
    return grad


@op_test("embedding_grad_dense", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("embedding_grad"), ids=lambda d: d.name.lower())
def test_embedding_grad_dense_adds_each_ids_gradient_to_its_row(dtype: DataType) -> None:
    ids = np.array([[0, 3, 3], [1, 3, 0]])
    out_grad = np.linspace(-2, 2, 24).reshape(2, 3, 4).astype(dtype.numpy_dtype)
    weight = as_dtype(np.zeros((5, 4)), dtype)
    got = C.embedding_grad_dense(t(ids), weight, phiops.to_tensor(out_grad), 1, False)
    assert got.dtype == dtype and got.shape == [5, 4]
    wide = np.complex128 if np.iscomplexobj(out_grad) else np.float64
    want = embedding_grad_reference(ids, 5, out_grad.astype(wide), 1)
    tol = 1e-2 if dtype in (DataType.FLOAT16, DataType.BFLOAT16) else 1e-6
    np.testing.assert_allclose(got.numpy().astype(want.dtype), want, rtol=tol, atol=tol)


@op_test("embedding_grad_dense", kind="edge")
@pytest.mark.parametrize(
    "ids, padding_idx",
    [
        (np.array(2), -1),
        (np.zeros((0, 3), np.int64), -1),
        (np.array([[1, 4]]), -1),
        (np.array([4, 1]), -2),
    ],
    ids=["0-d", "empty", "int32-last-row", "negative-padding"],
)
def test_embedding_grad_dense_edges(ids: np.ndarray, padding_idx: int) -> None:
    out_grad = np.arange(ids.size * 3, dtype=np.float64).reshape(ids.shape + (3,))
    weight = t(np.ones((5, 3)))
    got = C.embedding_grad_dense(t(ids.astype(np.int32)), weight, t(out_grad), padding_idx)
    want = embedding_grad_reference(ids, 5, out_grad, padding_idx % 5 if padding_idx != -1 else -1)
    np.testing.assert_array_equal(got.numpy(), want)


@op_test("embedding_grad_dense", kind="edge")
def test_embedding_grad_dense_of_a_non_contiguous_out_grad_ignores_sparse() -> None:
    base = np.arange(24.0).reshape(4, 6)
    out_grad = t(base).T[:, :4]  # [6, 4] -> ids of shape [6]
    ids = np.array([0, 1, 0, 2, 2, 2])
    got = C.embedding_grad_dense(t(ids), t(np.zeros((3, 4))), out_grad, -1, True)
    np.testing.assert_array_equal(got.numpy(), embedding_grad_reference(ids, 3, base.T[:, :4], -1))


@pytest.mark.parametrize(
    "ids, weight_shape, grad_shape, padding_idx, message",
    [
        (np.array([0.0]), (3, 2), (1, 2), -1, "argument 'x' must be int32 or int64"),
        (np.array([0]), (3, 2, 1), (1, 2), -1, "argument 'weight' must be a 2-D table"),
        (np.array([0, 1]), (3, 2), (1, 2), -1, r"argument 'out_grad' must have dims .*\[2, 2\]"),
        (np.array([0]), (3, 2), (1, 2), 3, r"argument 'padding_idx' must be in \[-3, 3\)"),
        # ids outside the table: named, as 3.3.1 refuses them (not numpy's IndexError, and a
        # negative id does not wrap to a row from the end)
        (np.array([3]), (3, 2), (1, 2), -1, r"embedding_grad: index 3 is out of range .*\[0, 3\)"),
        (np.array([-1]), (3, 2), (1, 2), -1, r"embedding_grad: index -1 is out of range"),
    ],
)
def test_embedding_grad_dense_bad_input_is_named(
    ids, weight_shape, grad_shape, padding_idx, message
):
    with pytest.raises(InvalidArgumentError, match=message):
        C.embedding_grad_dense(
            t(ids), t(np.zeros(weight_shape)), t(np.ones(grad_shape)), padding_idx
        )


# -- weight_quantize -------------------------------------------------------------------------------


def quantize_reference(x: np.ndarray, bits: int, group_size: int, scale_dtype) -> tuple:
    """q and scale from the definition: max |x| / bound per column (group), x / scale rounded
    half away from zero and clipped (no zero columns here)."""
    bound = 127.0 if bits == 8 else 7.0
    values = x.astype(np.float32)
    m = len(values)
    if group_size == -1:
        scale = (np.abs(values).max(0) / np.float32(bound)).astype(scale_dtype)
        full = scale.astype(np.float32)[None]
    else:
        scale = np.stack(
            [np.abs(values[i : i + group_size]).max(0) for i in range(0, m, group_size)]
        )
        scale = (scale / np.float32(bound)).astype(scale_dtype)
        full = np.repeat(scale.astype(np.float32), group_size, 0)[:m]
    with np.errstate(divide="ignore", invalid="ignore"):
        quotient = values / full
        q = np.clip(np.sign(quotient) * np.floor(np.abs(quotient) + 0.5), -bound, bound)
        return q.astype(np.int8), scale


@op_test("weight_quantize", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("weight_quantize"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("group_size", [-1, 64])
def test_weight_quantize_llm_int8_is_the_transposed_quantization(dtype, group_size) -> None:
    x = np.random.default_rng(3).normal(size=(70, 16)).astype(dtype.numpy_dtype)
    out, scale = C.weight_quantize(phiops.to_tensor(x), "llm.int8", 80, group_size)
    q, want_scale = quantize_reference(x, 8, group_size, np.float32)
    assert out.dtype == DataType.INT8 and scale.dtype == DataType.FLOAT32
    np.testing.assert_array_equal(out.numpy(), q.T)
    np.testing.assert_array_equal(scale.numpy(), want_scale)


@op_test("weight_quantize", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("weight_quantize"), ids=lambda d: d.name.lower())
def test_weight_quantize_int8_arch70_biases_and_swaps_the_middle_bytes(dtype) -> None:
    x = np.random.default_rng(4).normal(size=(8, 16)).astype(dtype.numpy_dtype)
    out, scale = weight_quantize(phiops.to_tensor(x), "weight_only_int8", 70)
    q, want_scale = quantize_reference(x, 8, -1, dtype.numpy_dtype)
    biased = (q.astype(np.int16) + 128).astype(np.uint8).reshape(-1, 4)[:, [0, 2, 1, 3]]
    np.testing.assert_array_equal(out.numpy(), biased.reshape(16, 8).view(np.int8))
    assert scale.dtype == dtype
    np.testing.assert_array_equal(scale.numpy().astype(np.float32), want_scale.astype(np.float32))


@op_test("weight_quantize", kind="edge")
def test_weight_quantize_int4_packs_two_per_byte_and_zero_columns_give_c_nan_casts() -> None:
    x = np.random.default_rng(5).normal(size=(64, 16)).astype(np.float16)
    x[:, 2] = 0  # 0 / 0: NaN, which 3.3.1's int cast makes INT_MIN, clipped to -7
    out, scale = C.weight_quantize(phiops.to_tensor(x), "weight_only_int4", 70, -1)
    assert out.shape == [8, 64] and scale.shape == [16]
    q, _ = quantize_reference(x, 4, -1, np.float16)
    q[:, 2] = -7
    nibbles = (q.astype(np.int16) + 8).reshape(-1, 8)[:, [0, 2, 4, 6, 1, 3, 5, 7]].reshape(-1, 2)
    packed = (nibbles[:, 0] | (nibbles[:, 1] << 4)).astype(np.uint8).view(np.int8)
    np.testing.assert_array_equal(out.numpy().reshape(-1), packed)
    int8, _ = C.weight_quantize(phiops.to_tensor(x), "llm.int8", 80, -1)
    np.testing.assert_array_equal(int8.numpy()[2], np.full(64, 127, np.int8))  # NaN -> 127


@op_test("weight_quantize", kind="edge")
def test_weight_quantize_of_no_rows_gives_empty_out_and_zero_scales() -> None:
    x = phiops.to_tensor(np.zeros((0, 32), ml_dtypes.bfloat16))
    out, scale = C.weight_quantize(x, "weight_only_int4", 80, -1)
    assert out.shape == [16, 0] and scale.shape == [32] and not scale.numpy().astype(float).any()


@pytest.mark.parametrize(
    "shape, algo, arch, group_size, error, message",
    [
        ((64, 16), "int2", 80, -1, InvalidArgumentError, "argument 'algo' must be one of"),
        ((64, 16), "w4a8", 80, -1, UnimplementedError, "leaves out and scale unwritten"),
        ((64, 16), "weight_only_int8", 60, -1, InvalidArgumentError, "argument 'arch' must be"),
        ((64, 16), "weight_only_int8", 80, 32, InvalidArgumentError, "argument 'group_size'"),
        ((2, 64, 16), "weight_only_int8", 80, -1, InvalidArgumentError, "must be 2-D"),
        ((64, 12), "weight_only_int8", 70, -1, InvalidArgumentError, "divisible by 16"),
        ((48, 16), "weight_only_int4", 80, -1, InvalidArgumentError, "divisible by 64"),
        ((32, 16), "llm.int8", 70, -1, InvalidArgumentError, "must be square"),
    ],
)
def test_weight_quantize_refusals_are_named(shape, algo, arch, group_size, error, message):
    x = phiops.to_tensor(np.ones(shape, np.float16))
    with pytest.raises(error, match=message):
        C.weight_quantize(x, algo, arch, group_size)


def test_weight_quantize_api_arch_none_is_a_cpu_builds_zero_and_refused() -> None:
    with pytest.raises(InvalidArgumentError, match="argument 'arch' must be one of"):
        weight_quantize(phiops.to_tensor(np.ones((64, 16), np.float16)))


# -- dgc_momentum ----------------------------------------------------------------------------------


def dgc_inputs(step: float, nranks: float):
    rng = np.random.default_rng(6)
    param, grad, velocity = (rng.normal(size=(3, 2)).astype(np.float32) for _ in range(3))
    return param, grad, velocity, np.float32(0.5), np.float32(step), np.float32(nranks)


def call_dgc(param, grad, velocity, lr, step, nranks, *args):
    return C.dgc_momentum(
        t(param), t(grad), t(velocity), t([lr]), None, t([step]), t([nranks]), 0.9, *args
    )


@op_test("dgc_momentum", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("dgc_momentum"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("nesterov, method", [(False, ""), (True, "l2_decay")])
def test_dgc_momentum_takes_a_momentum_step_on_the_averaged_gradient(dtype, nesterov, method):
    param, grad, velocity, lr, step, nranks = dgc_inputs(2, 4)
    outs = call_dgc(param, grad, velocity, lr, step, nranks, nesterov, method, 0.1, False, 1.0, 3.0)
    g = grad / np.float32(4)
    gg = g + np.float32(0.1) * param if method else g
    v = velocity * np.float32(0.9) + gg
    p = param - (gg + v * np.float32(0.9)) * lr if nesterov else param - lr * v
    for got, want in zip([outs[0], outs[1], outs[3]], [p, v, g]):
        assert got.dtype == dtype
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)
    assert outs[2] is None


@op_test("dgc_momentum", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("dgc_momentum"), ids=lambda d: d.name.lower())
def test_dgc_momentum_takes_an_sgd_step_from_rampup_on(dtype) -> None:
    param, grad, velocity, lr, step, nranks = dgc_inputs(3.7, 2)
    outs = call_dgc(param, grad, velocity, lr, step, nranks, True, "", 0.0, False, 1.0, 3.0)
    np.testing.assert_allclose(outs[0].numpy(), param - lr * grad / 2, rtol=1e-6)
    np.testing.assert_array_equal(outs[1].numpy(), velocity)
    np.testing.assert_array_equal(outs[3].numpy(), grad / 2)


@op_test("dgc_momentum", kind="edge")
def test_dgc_momentum_with_negative_rampup_changes_nothing() -> None:
    param, grad, velocity, lr, step, nranks = dgc_inputs(0, 1)
    outs = call_dgc(param, grad, velocity, lr, step, nranks, False, "", 0.0, False, 1.0, -1.0)
    for got, want in zip([outs[0], outs[1], outs[3]], [param, velocity, grad]):
        np.testing.assert_array_equal(got.numpy(), want)


@pytest.mark.parametrize(
    "nranks, multi_precision, method, error, message",
    [
        (1, False, "", InvalidArgumentError, "DGC is not useful when num_trainers <= 1"),
        (2, True, "", UnimplementedError, "multi_precision is not implemented"),
        (2, False, "l1_decay", InvalidArgumentError, "argument 'regularization_method'"),
    ],
)
def test_dgc_momentum_refusals_are_named(nranks, multi_precision, method, error, message) -> None:
    param, grad, velocity, lr, step, _ = dgc_inputs(0, nranks)
    with pytest.raises(error, match=message):
        call_dgc(
            param, grad, velocity, lr, step, nranks, False, method, 0.0, multi_precision, 1.0, 2.0
        )


def test_dgc_momentum_shape_mismatch_is_named() -> None:
    param, grad, velocity, lr, step, nranks = dgc_inputs(0, 2)
    with pytest.raises(InvalidArgumentError, match="argument 'velocity' must have param's dims"):
        call_dgc(param, grad, velocity[:2], lr, step, nranks)
