"""layer_norm and layer_norm_grad both ways: through the optional compiled kernels
(runtime.kernels._native, FLAGS_use_native_kernels on) and through the numpy code (flag off),
each against a float64 reference and against each other."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import phiops.generated as phi
import phiops.generated.backward as phi_backward
from phiops.runtime import flags
from phiops.runtime.common import CPUPlace, DataType
from phiops.runtime.kernels import KernelContext, native
from phiops.runtime.kernels.impl.norm_kernel import layer_norm_kernel
from phiops.runtime.kernels.kernel import swap_wanted_outputs
from tests.ops.op_testing import sample, tolerance

D = DataType
CPU = KernelContext(np, CPUPlace())
NOT_BUILT = "phiops.runtime.kernels._native is not built (no C compiler when phiops was installed)"
# odd row lengths: 33 = two blocks of the kernel's 16 partial sums and a tail of one
SHAPE, AXIS = (3, 4, 33), 2


class NativeSpy:
    """Stands in for the extension module and records which of its kernels ran."""

    def __init__(self, module: Any) -> None:
        self.module = module
        self.calls: list[str] = []

    def layer_norm(self, *args: Any) -> None:
        self.calls.append("layer_norm")
        self.module.layer_norm(*args)

    def layer_norm_grad(self, *args: Any) -> None:
        self.calls.append("layer_norm_grad")
        self.module.layer_norm_grad(*args)


@pytest.fixture(params=[True, False], ids=["native", "numpy"])
def path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[NativeSpy]:
    """Run the test with the native kernels on or off; afterwards check which path ran."""
    use_native = request.param
    if use_native and not native.NATIVE_BUILT:
        pytest.skip(NOT_BUILT)
    spy = NativeSpy(native._native)
    monkeypatch.setattr(native, "_native", spy)
    with flags.flags_guard({"use_native_kernels": use_native}):
        yield spy
    assert bool(spy.calls) == use_native


def reference(x, scale, bias, axis, out_grad):
    """float64 layer_norm: out, mean, variance and the three gradients of sum(out * out_grad)."""
    left = int(np.prod(x.shape[:axis]))
    rows = x.astype(np.float64).reshape(left, -1)
    mean, var = rows.mean(1), rows.var(1)
    inv_std = 1 / np.sqrt(var + float(np.float32(1e-5)))
    x_hat = (rows - mean[:, None]) * inv_std[:, None]
    w = np.ones(rows.shape[1]) if scale is None else scale.astype(np.float64).reshape(-1)
    out = x_hat * w + (0 if bias is None else bias.astype(np.float64).reshape(-1))
    dy = out_grad.astype(np.float64).reshape(rows.shape)
    g = dy * w
    x_grad = inv_std[:, None] * (
        g - g.mean(1, keepdims=True) - x_hat * (g * x_hat).mean(1, keepdims=True)
    )
    return {
        "out": out.reshape(x.shape),
        "mean": mean.reshape(x.shape[:axis]),
        "variance": var.reshape(x.shape[:axis]),
        "x_grad": x_grad.reshape(x.shape),
        "scale_grad": (dy * x_hat).sum(0),
        "bias_grad": dy.sum(0),
    }


def inputs(dtype: DataType, affine: bool = True, axis: int = AXIS):
    x = sample(SHAPE, dtype)
    scale = sample(SHAPE[axis:], dtype, seed=1) if affine else None
    bias = sample(SHAPE[axis:], dtype, seed=2) if affine else None
    return x, scale, bias, sample(SHAPE, dtype, seed=3)


def run_forward_backward(x, scale, bias, out_grad, axis=AXIS):
    """phi.layer_norm's output and the gradients of sum(out * out_grad), with the kernel's mean
    and variance (intermediate outputs, which the API does not return)."""
    xt = phi.to_tensor(x, stop_gradient=False)
    st = None if scale is None else phi.to_tensor(scale, stop_gradient=False)
    bt = None if bias is None else phi.to_tensor(bias, stop_gradient=False)
    out = phi.layer_norm(xt, st, bt, 1e-5, axis)
    phi.sum(phi.multiply(out, phi.to_tensor(out_grad))).backward()
    got = {"out": out.numpy(), "x_grad": xt.grad.numpy()}
    if scale is not None:
        got.update(scale_grad=st.grad.numpy(), bias_grad=bt.grad.numpy())
    _, got["mean"], got["variance"] = layer_norm_kernel(CPU, x, scale, bias, 1e-5, axis)
    return got


@pytest.mark.parametrize("dtype", [D.FLOAT32, D.FLOAT64], ids=["float32", "float64"])
@pytest.mark.parametrize("affine", [True, False], ids=["affine", "plain"])
def test_forward_and_gradients_match_the_float64_reference(path, dtype, affine):
    x, scale, bias, out_grad = inputs(dtype, affine)
    got = run_forward_backward(x, scale, bias, out_grad)
    expected = reference(x, scale, bias, AXIS, out_grad)
    assert sorted(got) == sorted(expected) if affine else len(got) == 4
    for name, value in got.items():
        assert value.dtype == dtype.numpy_dtype, name
        np.testing.assert_allclose(value, expected[name], **tolerance(dtype), err_msg=name)


@pytest.mark.parametrize("dtype", [D.FLOAT32, D.FLOAT64], ids=["float32", "float64"])
def test_native_and_numpy_kernels_agree(dtype):
    if not native.NATIVE_BUILT:
        pytest.skip(NOT_BUILT)
    x, scale, bias, out_grad = inputs(dtype, axis=1)
    runs = []
    for use_native in (True, False):
        with flags.flags_guard({"use_native_kernels": use_native}):
            runs.append(run_forward_backward(x, scale, bias, out_grad, axis=1))
    native_run, numpy_run = runs
    for name in native_run:
        np.testing.assert_allclose(
            native_run[name], numpy_run[name], **tolerance(dtype), err_msg=name
        )


def test_only_the_scale_and_bias_without_each_other(path):
    x, scale, bias, out_grad = inputs(D.FLOAT64)
    expected = reference(x, scale, bias, AXIS, out_grad)
    out = phi.layer_norm(phi.to_tensor(x), phi.to_tensor(scale), None, 1e-5, AXIS)
    np.testing.assert_allclose(out.numpy(), expected["out"] - bias, rtol=1e-12, atol=1e-12)
    out = phi.layer_norm(phi.to_tensor(x), None, phi.to_tensor(bias), 1e-5, AXIS)
    np.testing.assert_allclose(
        out.numpy(), reference(x, None, None, AXIS, out_grad)["out"] + bias, rtol=1e-12
    )


@pytest.mark.parametrize("mask", [(False, True, False), (True, False, True), (False, False, True)])
def test_grad_kernel_computes_only_the_wanted_gradients(path, mask):
    x, scale, bias, out_grad = inputs(D.FLOAT64)
    expected = reference(x, scale, bias, AXIS, out_grad)
    tensors = [phi.to_tensor(a) for a in (x, scale, bias)]
    stats = [phi.to_tensor(expected[name]) for name in ("mean", "variance")]
    previous = swap_wanted_outputs(mask)
    try:
        grads = phi_backward.layer_norm_grad(*tensors, *stats, phi.to_tensor(out_grad), 1e-5, AXIS)
    finally:
        swap_wanted_outputs(previous)
    for wanted, got, name in zip(mask, grads, ("x_grad", "scale_grad", "bias_grad")):
        if wanted:
            np.testing.assert_allclose(got.numpy(), expected[name], rtol=1e-12, atol=1e-12)
        else:
            assert got is None, name


def test_non_contiguous_inputs_give_the_reference(path):
    x, scale, bias, out_grad = inputs(D.FLOAT32)
    x_t = np.ascontiguousarray(x.transpose(2, 1, 0)).transpose(2, 1, 0)  # same values, F order
    wide_scale = np.repeat(scale, 2)[::2]  # a strided view
    assert not x_t.flags.c_contiguous and not wide_scale.flags.c_contiguous
    got = run_forward_backward(x_t, wide_scale, bias, out_grad)
    expected = reference(x, scale, bias, AXIS, out_grad)
    for name, value in got.items():
        np.testing.assert_allclose(value, expected[name], **tolerance(D.FLOAT32), err_msg=name)


def test_flag_off_uses_the_numpy_kernels(monkeypatch):
    spy = NativeSpy(native._native)
    monkeypatch.setattr(native, "_native", spy)
    x, scale, bias, out_grad = inputs(D.FLOAT64)
    with flags.flags_guard({"use_native_kernels": False}):
        got = run_forward_backward(x, scale, bias, out_grad)
    assert spy.calls == []
    np.testing.assert_allclose(got["x_grad"], reference(x, scale, bias, AXIS, out_grad)["x_grad"])


def test_flag_is_defined_and_on_by_default():
    flag = {f.name: f for f in flags.all_flags()}["use_native_kernels"]
    assert flag.default is True


@pytest.mark.parametrize(
    "array",
    [
        np.ones((2, 3), np.float16),
        np.ones((2, 3), ">f4"),  # not the machine's byte order
        np.ones((0, 3), np.float32),
        [[1.0, 2.0]],
    ],
    ids=["float16", "big-endian", "empty", "list"],
)
def test_arrays_the_c_code_cannot_take_never_reach_it(array):
    assert native.native_kernels(array) is None


def test_the_extension_rejects_buffers_of_the_wrong_format_size_or_layout():
    if not native.NATIVE_BUILT:
        pytest.skip(NOT_BUILT)
    ext = native._native
    x = np.ones((2, 3), np.float32)
    out, mean, var = np.empty_like(x), np.empty(2, np.float32), np.empty(2, np.float32)
    with pytest.raises(TypeError, match="x: expected a float32 or float64 buffer"):
        ext.layer_norm(x.astype(np.int32), None, None, 1e-5, 2, 3, out, mean, var)
    with pytest.raises(TypeError, match="scale: expected buffer format 'f', got 'd'"):
        ext.layer_norm(x, np.ones(3), None, 1e-5, 2, 3, out, mean, var)
    with pytest.raises(ValueError, match="x: expected 8 elements, got 6"):
        ext.layer_norm(x, None, None, 1e-5, 2, 4, np.empty(8, np.float32), mean, var)
    with pytest.raises(ValueError, match="not C-contiguous"):
        ext.layer_norm(x.T, None, None, 1e-5, 3, 2, out, np.empty(3, np.float32), var)
    read_only = np.empty_like(x)
    read_only.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        ext.layer_norm(x, None, None, 1e-5, 2, 3, read_only, mean, var)
    with pytest.raises(ValueError, match="row length >= 1"):
        ext.layer_norm_grad(x, None, mean, var, x, 1e-5, 6, 0, out, None, None)
