"""The nan24 ops of issue 24 (numerics checks, reduce_as) against numpy references for each dtype
PaddlePaddle 3.3.1 registers on CPU, their edges (0-D, empty, NaN first or later, infinities,
leading and size-1 axes, strided inputs) and bad input. PaddlePaddle's own results are in
test_nan24_paddle.py."""

from __future__ import annotations

import numpy as np
import pytest

import phiops
import phiops._C_ops as C
import phiops.generated.backward as phi_backward
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError, PreconditionNotMetError
from phiops.runtime.kernels.coverage import paddle_data
from tests.ops.op_testing import cpu_dtypes, op_test, sample


@pytest.fixture(autouse=True)
def _check_nan_inf_off():
    """The flag ops change a process-wide flag: every test starts and ends with it off."""
    phiops.set_flags({"FLAGS_check_nan_inf": False})
    yield
    phiops.set_flags({"FLAGS_check_nan_inf": False})


def check_nan_inf() -> bool:
    return phiops.get_flags(["FLAGS_check_nan_inf"])["FLAGS_check_nan_inf"]


def test_registrations_are_paddles() -> None:
    kernels = paddle_data()["kernels"]
    for kernel in ("check_numerics", "check_model_nan_inf", "reduce_as", "reduce_as_grad"):
        theirs = set(kernels[kernel]) - {"float8_e4m3fn", "float8_e5m2"}
        assert {d.name.lower() for d in cpu_dtypes(kernel)} == theirs


# -- check_numerics ---------------------------------------------------------------------------


def ref_check_numerics(x: np.ndarray) -> tuple[list[int], list[float]]:
    """PHI's single pass: counts; std::max/std::min from the first element (NaNs never replace
    a value); the mean as an in-order sum of value / numel in float32 (float64 for float64)."""
    flat = x.reshape(-1).astype(np.float64 if x.dtype == np.float64 else np.float32)
    counts = [int(np.isnan(flat).sum()), int(np.isinf(flat).sum()), int((flat == 0).sum())]
    largest = smallest = flat[0]
    total = flat.dtype.type(0)
    with np.errstate(invalid="ignore", over="ignore"):
        for value in flat:
            if value > largest:
                largest = value
            if value < smallest:
                smallest = value
            total = flat.dtype.type(total + value / flat.dtype.type(flat.size))
    return counts, [float(np.float32(v)) for v in (largest, smallest, total)]


@op_test("check_numerics", kind="dtypes")
@pytest.mark.parametrize(
    "dtype",
    [d for d in cpu_dtypes("check_numerics") if not d.is_complex],
    ids=lambda d: d.name.lower(),
)
def test_check_numerics_matches_numpy(dtype: DataType) -> None:
    x = sample((3, 5), dtype, seed=4, low=-50, high=50)
    x[0, 2] = 0
    stats, values = C.check_numerics(phiops.to_tensor(x), "op", "x", 0, -1, "")
    counts, found = ref_check_numerics(x)
    assert stats.dtype == phiops.int64 and values.dtype == phiops.float32
    assert stats.numpy().tolist() == counts
    np.testing.assert_array_equal(values.numpy(), np.array(found, np.float32))


@op_test("check_numerics", kind="dtypes")
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_check_numerics_checks_complex_tensors_for_nan_and_inf_only(dtype: str) -> None:
    stats, values = C.check_numerics(phiops.to_tensor(np.array([1 + 2j, 3j], dtype)), "op", "x")
    assert stats.numpy().tolist() == [0, 0, 0] and values.numpy().tolist() == [0, 0, 0]
    with pytest.raises(PreconditionNotMetError, match=r"NAN or INF in \[device=cpu, op=op"):
        C.check_numerics(phiops.to_tensor(np.array([1, complex(0, np.inf)], dtype)), "op", "x")


@op_test("check_numerics", kind="edge")
@pytest.mark.parametrize(
    "values",
    [[np.nan, 1.0, -2.0], [1.0, np.nan, -2.0], [np.inf, -np.inf, 0.0], [-0.0, 0.0], [5.0]],
    ids=["nan-first", "nan-later", "infs", "signed-zeros", "one"],
)
def test_check_numerics_edges_at_level_1(values: list[float], capsys) -> None:
    x = np.array(values, np.float32)
    stats, out = C.check_numerics(phiops.to_tensor(x), "op", "x", 1, -1, "")
    counts, found = ref_check_numerics(x)
    assert stats.numpy().tolist() == counts
    np.testing.assert_array_equal(out.numpy(), np.array(found, np.float32))
    bad = counts[0] + counts[1] > 0
    assert (
        "[PRECISION] [ERROR] in [device=cpu, op=op, tensor=x, dtype=fp32]"
        in capsys.readouterr().out
    ) == bad


@op_test("check_numerics", kind="edge")
def test_check_numerics_level_0_refuses_nan_and_inf(capsys) -> None:
    x = phiops.to_tensor(np.array([1.0, np.nan, np.inf, 0.0], np.float64))
    with pytest.raises(
        PreconditionNotMetError,
        match=r"There are NAN or INF \(num_nan=1, num_inf=1, num_zero=1\) in "
        r"\[device=cpu, op=matmul, tensor=out, dtype=fp64\]",
    ):
        C.check_numerics(x, "matmul", "out", 0, -1, "")
    assert "numel=4, num_nan=1, num_inf=1, num_zero=1" in capsys.readouterr().out


@op_test("check_numerics", kind="edge")
@pytest.mark.parametrize("shape", [(0,), (2, 0)])
def test_check_numerics_of_an_empty_tensor_is_zeros(shape) -> None:
    stats, values = C.check_numerics(phiops.zeros(shape), "op", "x")
    assert stats.shape == [3] and stats.numpy().tolist() == [0, 0, 0]
    assert values.numpy().tolist() == [0.0, 0.0, 0.0]


@op_test("check_numerics", kind="edge")
def test_check_numerics_levels_2_and_3_report_finite_tensors(capsys) -> None:
    C.check_numerics(phiops.to_tensor(np.array([1.0, 2.0], np.float32)), "op", "x", 2, -1, "")
    assert capsys.readouterr().out == ""
    C.check_numerics(phiops.to_tensor(np.array([7e4, 2.0], np.float32)), "op", "x", 2, -1, "")
    assert (
        "[PRECISION] in [device=cpu, op=op, tensor=x, dtype=fp32], numel=2, num_zero=0, max=7.000000e+04"
        in capsys.readouterr().out
    )
    C.check_numerics(phiops.to_tensor(np.array(3.0)), "op", "x", 3, -1, "")
    assert "max=3.000000e+00, min=3.000000e+00, mean=3.000000e+00" in capsys.readouterr().out


@op_test("check_numerics", kind="edge")
def test_check_numerics_with_output_dir_appends_and_never_raises(tmp_path) -> None:
    where = f"{tmp_path}/logs/"
    x = phiops.to_tensor(np.array([np.nan, 1.0], np.float32)[::-1].copy())
    stats, _ = C.check_numerics(x, "op", "x", 0, -1, where)
    C.check_numerics(x, "op", "y", 0, -1, where)
    lines = (tmp_path / "logs" / "worker_cpu").read_text().splitlines()
    assert stats.numpy().tolist() == [1, 0, 0]
    assert lines[1] == (
        "[PRECISION] [ERROR] in [device=cpu, op=op, tensor=y, dtype=fp32], numel=2, num_nan=1, "
        "num_inf=0, num_zero=0, max=1.000000e+00, min=1.000000e+00, mean=nan"
    )


@op_test("check_numerics", kind="edge")
def test_check_numerics_reads_a_strided_tensor_in_order() -> None:
    base = np.array([[np.nan, 1.0], [4.0, 2.0]], np.float32)
    stats, values = C.check_numerics(phiops.to_tensor(base).T, "op", "x", 1, -1, "")
    counts, found = ref_check_numerics(base.T.copy())
    assert stats.numpy().tolist() == counts
    np.testing.assert_array_equal(values.numpy(), np.array(found, np.float32))


# -- enable_check_model_nan_inf, disable_check_model_nan_inf ----------------------------------


@op_test("enable_check_model_nan_inf", "disable_check_model_nan_inf", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("check_model_nan_inf"), ids=lambda d: d.name.lower())
def test_check_model_nan_inf_ops_copy_x_and_set_the_flag(dtype: DataType) -> None:
    x = sample((2, 3), dtype, seed=1)
    out = C.enable_check_model_nan_inf(phiops.to_tensor(x), 1)
    assert check_nan_inf() is True
    assert out.dtype == phiops.to_tensor(x).dtype
    np.testing.assert_array_equal(out.numpy(), x)
    out = C.disable_check_model_nan_inf(phiops.to_tensor(x), 0)
    assert check_nan_inf() is False
    np.testing.assert_array_equal(out.numpy(), x)


@op_test("enable_check_model_nan_inf", "disable_check_model_nan_inf", kind="edge")
@pytest.mark.parametrize("flag, expected", [(0, False), (1, True), (-3, True)])
def test_check_model_nan_inf_flag_is_on_when_nonzero(flag: int, expected: bool) -> None:
    for op in (C.enable_check_model_nan_inf, C.disable_check_model_nan_inf):
        out = op(phiops.to_tensor(np.float32(2.5)), flag)
        assert check_nan_inf() is expected and out.shape == []


@op_test("enable_check_model_nan_inf", "disable_check_model_nan_inf", kind="edge")
def test_the_enabled_flag_makes_later_ops_refuse_inf() -> None:
    x = phiops.to_tensor(np.array([0.0, 1.0], np.float32))
    C.enable_check_model_nan_inf(x, 1)
    with pytest.raises(InvalidArgumentError, match="log.*contains Inf"):
        phiops.log(x)
    C.disable_check_model_nan_inf(x, 0)
    assert np.isneginf(phiops.log(x).numpy()[0])


@op_test("enable_check_model_nan_inf", "disable_check_model_nan_inf", kind="edge")
def test_the_gradients_copy_and_set_the_flag_back() -> None:
    x = phiops.to_tensor(np.array([1.0, 2.0], np.float32), stop_gradient=False)
    out = C.enable_check_model_nan_inf(x, 1)
    (grad,) = phiops.grad([out * 3.0], [x])
    assert check_nan_inf() is False
    assert grad.numpy().tolist() == [3.0, 3.0]
    assert phi_backward.disable_check_model_nan_inf_grad(phiops.ones([2]), 1).numpy().tolist() == [
        1.0,
        1.0,
    ]
    assert check_nan_inf() is True


@op_test("enable_check_model_nan_inf", "disable_check_model_nan_inf", kind="edge")
def test_check_model_nan_inf_refuses_a_flag_beyond_int32() -> None:
    with pytest.raises(InvalidArgumentError, match="flag"):
        C.enable_check_model_nan_inf(phiops.ones([2]), 2**40)


# -- reduce_as --------------------------------------------------------------------------------


def ref_reduce_as(x: np.ndarray, target_shape: tuple[int, ...]) -> np.ndarray:
    lead = x.ndim - len(target_shape)
    axes = tuple(range(lead)) + tuple(
        lead + i for i, e in enumerate(target_shape) if e == 1 and x.shape[lead + i] != 1
    )
    dtype = np.int64 if x.dtype in (np.bool_, np.int32) else x.dtype
    if x.dtype.kind == "V" or x.dtype == np.float16:
        return x.astype(np.float64).sum(axis=axes).astype(x.dtype).reshape(target_shape)
    return x.sum(axis=axes, dtype=dtype).reshape(target_shape)


@op_test("reduce_as", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("reduce_as"), ids=lambda d: d.name.lower())
def test_reduce_as_matches_numpy(dtype: DataType) -> None:
    x = sample((2, 3, 4), dtype, seed=2)
    out = phiops.reduce_as(phiops.to_tensor(x), phiops.zeros([3, 1]))
    want = ref_reduce_as(x, (3, 1))
    assert out.shape == [3, 1] and out.numpy().dtype == want.dtype
    np.testing.assert_array_equal(out.numpy(), want)


@op_test("reduce_as", kind="edge")
@pytest.mark.parametrize(
    "shape, target",
    [((2, 3, 4), (4,)), ((2, 3, 4), ()), ((2, 3, 4), (2, 1, 1)), ((1, 3), (1, 1)),
     ((0, 3), (3,)), ((2, 0), (1, 0)), ((), ()), ((2, 3), (2, 3))],
    ids=["lead", "to-0d", "ones", "one-kept", "empty-summed", "empty-kept", "0d", "same"],
)  # fmt: skip
def test_reduce_as_edges_and_gradient(shape, target) -> None:
    x = sample(shape, DataType.FLOAT64, seed=5)
    xt = phiops.to_tensor(x, stop_gradient=False)
    out = phiops.reduce_as(xt, phiops.zeros(list(target), dtype="int32"))
    np.testing.assert_allclose(out.numpy(), ref_reduce_as(x, target), rtol=1e-15)
    upstream = np.arange(1.0, 1.0 + np.prod(target, dtype=int)).reshape(target)
    (grad,) = phiops.grad([out], [xt], grad_outputs=[phiops.to_tensor(upstream)])
    np.testing.assert_array_equal(
        grad.numpy(),
        np.broadcast_to(upstream.reshape((1,) * (len(shape) - len(target)) + target), shape),
    )


@op_test("reduce_as", kind="edge")
def test_reduce_as_wraps_small_integers_and_widens_int32() -> None:
    x = np.full((2, 2), 100, np.int8)
    assert phiops.reduce_as(phiops.to_tensor(x), phiops.zeros([2])).numpy().tolist() == [-56, -56]
    big = np.full((2,), 2**31 - 1, np.int32)
    out = phiops.reduce_as(phiops.to_tensor(big), phiops.zeros([]))
    assert out.dtype == phiops.int64 and int(out.numpy()) == 2 * (2**31 - 1)


@op_test("reduce_as", kind="edge")
def test_reduce_as_reads_a_strided_tensor() -> None:
    x = np.arange(12.0).reshape(3, 4)
    out = phiops.reduce_as(phiops.to_tensor(x).T, phiops.zeros([1, 3]))
    np.testing.assert_array_equal(out.numpy(), x.T.sum(axis=0, keepdims=True))


@op_test("reduce_as", kind="edge")
@pytest.mark.parametrize(
    "shape, target, message",
    [((2, 3), (2, 2, 3), "at most as many dims as x"), ((2, 3), (5,), "extent 5 at axis 0"),
     ((1, 3), (2, 3), "extent 2 at axis 0")],
    ids=["more-dims", "mismatch", "broadcast-up"],
)  # fmt: skip
def test_reduce_as_refuses_a_target_x_cannot_sum_to(shape, target, message) -> None:
    with pytest.raises(InvalidArgumentError, match=f"reduce_as.*target.*{message}"):
        phiops.reduce_as(phiops.ones(list(shape)), phiops.ones(list(target)))


@op_test("reduce_as", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("reduce_as_grad"), ids=lambda d: d.name.lower())
def test_reduce_as_grad_broadcasts_out_grad_to_x(dtype: DataType) -> None:
    x = sample((2, 3), dtype, seed=3)
    out_grad = sample((1, 3), dtype, seed=4)
    grad = phi_backward.reduce_as_grad(
        phiops.to_tensor(x), phiops.zeros([1, 3]), phiops.to_tensor(out_grad)
    )
    np.testing.assert_array_equal(grad.numpy(), np.broadcast_to(out_grad, (2, 3)))
    assert grad.numpy().dtype == x.dtype


# -- coalesce_tensor --------------------------------------------------------------------------


def ref_coalesce(arrays, kind, copy_data, set_constant, constant, use_align, align, size):
    """PHI's layout: each array at an offset rounded up to ``align`` bytes (4096 when not
    positive), in elements of ``size`` bytes (dtype's when -1)."""
    size = size if size > 0 else np.dtype(kind).itemsize
    align = align if align > 0 else 4096
    lengths = [-(-a.size * size // align) * align // size if use_align else a.size for a in arrays]
    fused = np.zeros(sum(lengths), kind)
    if not copy_data and set_constant:
        fused[:] = np.float32(constant).astype(kind)
    offsets = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(int)
    if copy_data:
        for a, offset in zip(arrays, offsets):
            fused[offset : offset + a.size] = a.ravel()
    return [fused[o : o + a.size].reshape(a.shape) for a, o in zip(arrays, offsets)], fused


@op_test("coalesce_tensor", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("coalesce_tensor"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize(
    "layout", [(False, -1, -1), (True, -1, -1), (True, 64, -1), (True, 16, 2)],
    ids=["packed", "default-align", "align-64", "size-of-dtype-2"],
)  # fmt: skip
def test_coalesce_tensor_copies_into_an_aligned_buffer(dtype: DataType, layout) -> None:
    arrays = [sample((2, 3), dtype, seed=1), sample((5,), dtype, seed=2), sample((), dtype, seed=3)]
    outs, fused = C.coalesce_tensor(
        [phiops.to_tensor(a) for a in arrays], dtype, True, False, False, 0.0, *layout, [], []
    )
    want_outs, want_fused = ref_coalesce(arrays, dtype.numpy_dtype, True, False, 0.0, *layout)
    np.testing.assert_array_equal(fused.numpy(), want_fused)
    for out, want in zip(outs, want_outs):
        assert out.shape == list(want.shape)
        np.testing.assert_array_equal(out.numpy(), want)


@op_test("coalesce_tensor", kind="edge")
@pytest.mark.parametrize(
    "dtype, constant, want", [("float64", 2.7, np.float32(2.7)), ("int32", -2.7, -2)]
)
def test_coalesce_tensor_sets_a_float32_constant_truncated_to_dtype(dtype, constant, want) -> None:
    x = phiops.to_tensor(np.ones(3, dtype))
    outs, fused = C.coalesce_tensor([x], dtype, False, True, False, constant, True, 8, -1, [], [])
    assert fused.shape == [4 if dtype == "int32" else 3]
    assert fused.numpy().tolist() == [float(want) if dtype == "float64" else want] * fused.shape[0]


@op_test("coalesce_tensor", kind="edge")
def test_coalesce_tensor_outputs_are_views_of_the_buffer() -> None:
    x = phiops.to_tensor(np.arange(4.0, dtype=np.float32).reshape(2, 2))
    outs, fused = C.coalesce_tensor(
        [x, x], "float32", True, False, False, 0.0, False, -1, -1, [], []
    )
    assert fused.numpy().tolist() == [0.0, 1.0, 2.0, 3.0, 0.0, 1.0, 2.0, 3.0]
    fused.scale_(2.0)
    fused[5] = 50.0
    assert outs[0].numpy().tolist() == [[0.0, 2.0], [4.0, 6.0]]
    assert outs[1].numpy().tolist() == [[0.0, 50.0], [4.0, 6.0]]
    assert x.numpy().tolist() == [[0.0, 1.0], [2.0, 3.0]]


@op_test("coalesce_tensor", kind="edge")
def test_coalesce_tensor_copies_a_strided_input_in_order() -> None:
    base = np.arange(6.0).reshape(2, 3)
    outs, fused = C.coalesce_tensor(
        [phiops.to_tensor(base).T], "float64", True, False, False, 0.0, False, -1, -1, [], []
    )
    assert fused.numpy().tolist() == base.T.ravel().tolist()
    assert outs[0].shape == [3, 2]


@op_test("coalesce_tensor", kind="edge")
@pytest.mark.parametrize(
    "inputs, dtype, size_of_dtype, message",
    [([], "float32", -1, "at least one tensor"), ([np.ones(2, "float64")], "float32", -1, "dtype float32"),
     ([np.ones(2, "float32"), np.ones((0, 2), "float32")], "float32", -1, r"input\[1\]"),
     ([np.ones(2, "float32")], "float32", 0, "size_of_dtype")],
    ids=["none", "dtype", "empty", "size-of-dtype"],
)  # fmt: skip
def test_coalesce_tensor_refuses_bad_input(inputs, dtype, size_of_dtype, message) -> None:
    tensors = [phiops.to_tensor(a) for a in inputs]
    with pytest.raises(InvalidArgumentError, match=f"coalesce_tensor.*{message}"):
        C.coalesce_tensor(tensors, dtype, True, False, False, 0.0, True, -1, size_of_dtype, [], [])
