"""PaddlePaddle's composed ``paddle.*`` tensor functions (phiops/_tensor_api.py: ``std``, ``var``,
``chunk``, ``hstack``, ``moveaxis``, ``outer``, ``nansum``, ...) give PaddlePaddle 3.3.1's
results, gradients and errors (tests/data/paddle_api/tensor_api.npz, recorded by
tests/tools/make_tensor_api_fixtures.py for the cases of tests/api/tensor_api_cases.py), as
functions and as Tensor methods."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import phiops as paddle
from phiops import _tensor_api
from phiops.runtime.errors import PhiError
from tests.api.tensor_api_cases import SEED, cases, convert, outputs

DATA = np.load(Path(__file__).resolve().parents[1] / "data" / "paddle_api" / "tensor_api.npz")
CASES = {case[0]: case for case in cases()}


def _check(got, expected: np.ndarray, where: str) -> None:
    got = got.numpy() if isinstance(got, paddle.Tensor) else np.array(got)
    assert got.dtype == expected.dtype and got.shape == expected.shape, (where, got, expected)
    np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-6, err_msg=where)


@pytest.mark.parametrize("case_id", sorted(CASES))
def test_function_equals_paddles(case_id: str) -> None:
    _, name, args, kwargs, options = CASES[case_id]
    paddle.seed(SEED)
    tensors: list = []
    call_args = [convert(paddle, a, tensors) for a in args]
    call_kwargs = {k: convert(paddle, v, tensors) for k, v in kwargs.items()}
    function = getattr(paddle, name)
    if int(DATA[f"{case_id}/n"]) == -1:
        with pytest.raises(PhiError):
            function(*call_args, **call_kwargs)
        return
    result = function(*call_args, **call_kwargs)
    if options.get("attrs"):
        for attr in options["attrs"]:
            got = getattr(result, attr)
            assert np.array(str(got) if attr == "dtype" else got) == DATA[f"{case_id}/{attr}"], attr
        return
    results = outputs(result)
    assert len(results) == int(DATA[f"{case_id}/n"])
    for i, value in enumerate(results):
        _check(value, DATA[f"{case_id}/{i}"], f"{case_id} output {i}")
    if options.get("grad"):
        total = paddle.add_n([paddle.sum(v) for v in results])
        (grad,) = paddle.grad(total, tensors[0])
        _check(grad, DATA[f"{case_id}/grad"], f"{case_id} grad")
    if f"{case_id}/method" in DATA:  # the cases whose function PaddlePaddle has as a method
        first = getattr(call_args[0], name)(*call_args[1:], **call_kwargs)
        _check(outputs(first)[0], DATA[f"{case_id}/method"], f"{case_id} method")


# checked by the tests below instead of recorded cases
UNRECORDED = {
    "clone",
    "positive",
    "less_",
    "sub_",
    "div_",
    "mod_",
    "floor_mod_",
    "e",
    "pi",
    "inf",
    "nan",
    "newaxis",
    "manual_seed",
    "get_rng_state",
    "set_rng_state",
    "get_cuda_rng_state",
    "set_cuda_rng_state",
    "create_parameter",
    "log_normal",
    "bitwise_invert_",
    "masked_fill_",
    "nan_to_num_",
    "index_fill_",
    "masked_scatter_",
    "scatter_add_",
    "histogramdd",  # recorded with issue 24's names: tests/api/test_api24.py
}


def test_every_function_has_a_recorded_case() -> None:
    covered = {case[1] for case in CASES.values()}
    assert set(_tensor_api.__all__) - UNRECORDED <= covered


def test_inplace_aliases_write_into_x() -> None:
    for name, op, y in [
        ("less_", np.less, 0.5),
        ("sub_", np.subtract, 0.5),
        ("div_", np.divide, 0.5),
        ("mod_", np.mod, 0.7),
        ("floor_mod_", np.mod, 0.7),
    ]:
        x = paddle.to_tensor([0.25, 1.5, -2.0])
        expected = op(x.numpy(), np.float32(y))
        out = getattr(paddle, name)(x, paddle.to_tensor(y))
        assert out is x, name
        np.testing.assert_allclose(x.numpy(), expected.astype("float32"), rtol=1e-6, err_msg=name)


def test_constants_and_dtype_aliases() -> None:
    import math

    assert (paddle.e, paddle.pi, paddle.inf, paddle.newaxis) == (math.e, math.pi, math.inf, None)
    assert math.isnan(paddle.nan)
    assert (paddle.float, paddle.double, paddle.half) == (
        paddle.float32,
        paddle.float64,
        paddle.float16,
    )
    assert (paddle.cfloat, paddle.cdouble) == (paddle.complex64, paddle.complex128)
    assert paddle.ones([2], dtype=paddle.double).dtype == paddle.float64


def test_rng_state_round_trip() -> None:
    paddle.manual_seed(5)
    state = paddle.get_rng_state()
    first = paddle.rand([3]).numpy(), paddle.randperm(5).numpy()
    paddle.rand([7])  # move on
    paddle.set_rng_state(state)
    again = paddle.rand([3]).numpy(), paddle.randperm(5).numpy()
    np.testing.assert_array_equal(first[0], again[0])
    np.testing.assert_array_equal(first[1], again[1])
    paddle.seed(5)
    np.testing.assert_array_equal(paddle.rand([3]).numpy(), first[0])
    assert paddle.get_cuda_rng_state() == []
    paddle.set_cuda_rng_state([])
    with pytest.raises(PhiError, match="set_rng_state: state_list expects"):
        paddle.set_rng_state([1, 2])


def test_create_parameter_eager_and_static() -> None:
    paddle.seed(1)
    weight = paddle.create_parameter([3, 4], "float32")
    assert weight.shape == [3, 4] and not weight.stop_gradient
    bias = paddle.create_parameter([4], "float64", is_bias=True)
    assert bias.dtype == paddle.float64 and not bias.numpy().any()
    const = paddle.create_parameter(
        [2], "float32", default_initializer=paddle.nn.initializer.Constant(3.0)
    )
    np.testing.assert_array_equal(const.numpy(), [3.0, 3.0])
    paddle.enable_static()
    try:
        with paddle.static.program_guard(paddle.static.Program()):
            value = paddle.create_parameter([2, 2], "float32", name="w_static")
        assert value.shape == [2, 2]
    finally:
        paddle.disable_static()


def test_clone_and_positive() -> None:
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = paddle.clone(x)
    assert y is not x and np.array_equal(y.numpy(), x.numpy()) and not y.stop_gradient
    (grad,) = paddle.grad(paddle.sum(y * 3), x)
    np.testing.assert_array_equal(grad.numpy(), [3.0, 3.0])
    assert paddle.positive(x) is x
    with pytest.raises(PhiError, match="positive: the `\\+` operator on a bool tensor"):
        paddle.positive(paddle.to_tensor([True]))


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: paddle.std([1.0, 2.0]), "var: argument 'x' expects a Tensor"),
        (lambda: paddle.var(paddle.to_tensor([1, 2])), "var: x must be a floating-point"),
        (lambda: paddle.var(paddle.ones([2]), unbiased=True, correction=0), "only one of"),
        (lambda: paddle.chunk(paddle.ones([4]), 2.5), "chunk: chunks expects an int"),
        (lambda: paddle.moveaxis(paddle.ones([2, 3]), 0, 5), "moveaxis: destination 5 is out"),
        (lambda: paddle.diff(paddle.ones([3]), n=0), "diff: n must be a positive int"),
        (lambda: paddle.inner(paddle.ones([2, 3]), paddle.ones([2])), "inner: the last dim"),
        (
            lambda: paddle.masked_fill(paddle.ones([2]), paddle.ones([3]) > 0, 1.0),
            "do not broadcast",
        ),
        (
            lambda: paddle.masked_fill(paddle.ones([2]), paddle.ones([3, 2]) > 0, 1.0),
            "must broadcast",
        ),
        (lambda: paddle.broadcast_shape([2, 3], [4]), "do not broadcast"),
        (lambda: paddle.nan_to_num(paddle.to_tensor([1])), "nan_to_num: x must be float32"),
        (lambda: paddle.tensor_split(paddle.ones([4]), 0), "num_or_indices must be positive"),
        (lambda: paddle.hstack([]), "hstack: x expects a non-empty list"),
    ],
)
def test_bad_input_is_named(call, message: str) -> None:
    with pytest.raises(PhiError, match=message):
        call()


def test_in_place_forms_write_into_x_and_refuse_a_leaf_that_needs_grad() -> None:
    mask = paddle.to_tensor([True, False, True])
    cases = [
        ("masked_fill_", (mask, 9.0), lambda x: np.where(mask.numpy(), 9.0, x)),
        ("nan_to_num_", (), lambda x: np.nan_to_num(x, posinf=np.finfo("float32").max)),
        ("index_fill_", (paddle.to_tensor([1]), 0, -1.0), lambda x: np.array([x[0], -1, x[2]])),
        ("masked_scatter_", (mask, paddle.to_tensor([7.0, 8.0])), lambda x: np.array([7, x[1], 8])),
        (
            "scatter_add_",
            (0, paddle.to_tensor([0, 0]), paddle.to_tensor([1.0, 2.0])),
            lambda x: x + np.array([3.0, 0, 0]),
        ),
    ]
    for name, args, expected in cases:
        x = paddle.to_tensor([1.0, np.inf, -2.0])
        want = np.asarray(expected(x.numpy().copy()), dtype="float32")
        assert getattr(paddle, name)(x, *args) is x, name
        np.testing.assert_allclose(x.numpy(), want, err_msg=name)
        leaf = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
        with pytest.raises(PhiError, match=name):
            getattr(paddle, name)(leaf, *args)
    y = paddle.to_tensor([5], dtype="int64")
    assert paddle.bitwise_invert_(y) is y and y.item() == -6


def test_log_normal_is_exp_of_normal_draws() -> None:
    paddle.seed(3)
    normal = paddle.normal(1.0, 0.5, [4]).numpy()
    paddle.seed(3)
    np.testing.assert_allclose(paddle.log_normal(1.0, 0.5, [4]).numpy(), np.exp(normal), rtol=1e-6)
