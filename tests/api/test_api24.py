"""Issue 24's missing ``paddle.*`` functions and Tensor methods against PaddlePaddle 3.3.1: the
in-place variants (their values and the gradient through a non-leaf written in place), the
random in-place fills after a seed, the Tensor conveniences and the other ``paddle.*`` names, all
recorded by tests/tools/make_api24_fixtures.py from tests/tools/api24_cases.py; and what the
recording cannot show: the written tensor is the one returned, its storage kept and its version
bumped, and a leaf that needs a gradient is refused."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import phiops as paddle
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.tensor.version import version_of
from tests.tools.api24_cases import INPLACE, cases, inplace_call

DATA = np.load(Path(__file__).resolve().parents[1] / "data" / "api24" / "paddle_3_3_1.npz")
KEYS = [k for k in DATA.files if k != "paddle_version" and not k.startswith("grad_refused/")]
# float results compared to float32 rounding: the in-place ops compute as their out-of-place
# ops do, which agree with PaddlePaddle's kernels to the last bits, not bit for bit
RTOL = {np.dtype("float16"): 1e-3, np.dtype("float32"): 2e-6, np.dtype("float64"): 1e-12}


@pytest.fixture(scope="module")
def computed() -> dict[str, np.ndarray]:
    return cases(paddle)


def test_every_recorded_case_is_computed(computed: dict[str, np.ndarray]) -> None:
    assert str(DATA["paddle_version"]) == "3.3.1"
    assert set(KEYS) <= set(computed)
    # the gradients PaddlePaddle 3.3.1 refuses (its gammaincc has no gradient for x)
    refused = {k.split("/", 1)[1] for k in DATA.files if k.startswith("grad_refused/")}
    assert refused == {"gammaincc_", "gammainc_"}
    assert len(KEYS) == 280


@pytest.mark.parametrize("key", KEYS)
def test_paddle_results(computed: dict[str, np.ndarray], key: str) -> None:
    got, expected = computed[key], DATA[key]
    assert got.shape == expected.shape, f"{key}: shape {got.shape} != {expected.shape}"
    if expected.dtype.kind in "fc":
        assert got.dtype == expected.dtype, f"{key}: dtype {got.dtype} != {expected.dtype}"
        rtol = RTOL.get(np.dtype(expected.real.dtype), 2e-6)
        np.testing.assert_allclose(got, expected, rtol=rtol, atol=rtol, equal_nan=True)
    elif expected.dtype.kind == "U":
        np.testing.assert_array_equal(got.astype(str), expected)
    else:
        assert got.dtype == expected.dtype, f"{key}: dtype {got.dtype} != {expected.dtype}"
        np.testing.assert_array_equal(got, expected)


INPLACE_KEYS = sorted(INPLACE)


@pytest.mark.parametrize("key", INPLACE_KEYS)
def test_an_inplace_method_writes_into_its_tensor(key: str) -> None:
    x = paddle.to_tensor(INPLACE[key][0])
    storage, before = x._impl, version_of(x._impl)
    result = inplace_call(paddle, key, x)
    assert result is x and x._impl is storage
    assert version_of(storage) > before
    np.testing.assert_allclose(
        x.numpy().astype("float64"), DATA[f"inplace/{key}"].astype("float64"), rtol=2e-6
    )


# t_ has its own test (a vector is returned as it is); integer tensors never need a gradient
@pytest.mark.parametrize(
    "key", [k for k in INPLACE_KEYS if k != "t_" and INPLACE[k][0].dtype.kind == "f"]
)
def test_an_inplace_method_refuses_a_leaf_that_needs_a_gradient(key: str) -> None:
    data = INPLACE[key][0]
    leaf = paddle.to_tensor(data, stop_gradient=False)
    with pytest.raises(InvalidArgumentError, match="leaf Tensor that needs a gradient"):
        inplace_call(paddle, key, leaf)
    np.testing.assert_array_equal(leaf.numpy(), data)
    with paddle.no_grad():
        assert inplace_call(paddle, key, leaf) is leaf


def test_t_inplace_refuses_a_leaf_that_needs_a_gradient_and_keeps_a_vector() -> None:
    with pytest.raises(InvalidArgumentError, match="leaf Tensor"):
        paddle.to_tensor(np.ones((2, 3), "float32"), stop_gradient=False).t_()
    vector = paddle.to_tensor([1.0, 2.0])
    assert vector.t_() is vector and version_of(vector._impl) == 0
    with pytest.raises(ValueError, match="N-D"):
        paddle.ones([2, 2, 2]).t_()


def test_where_paddle_refuses_the_gradient_phiops_gives_x_none_as_its_out_of_place_op(
    computed: dict[str, np.ndarray],
) -> None:
    """PaddlePaddle 3.3.1's gammaincc has no gradient for x and its backward raises; phiops's
    gammaincc gives x none, in place as out of place."""
    refused = {k.split("/", 1)[1] for k in DATA.files if k.startswith("grad_refused/")}
    assert refused == {k.split("/", 1)[1] for k in computed if k.startswith("grad_none/")}
    data = INPLACE["gammaincc_"][0]
    leaf = paddle.to_tensor(data, stop_gradient=False)
    paddle.gammaincc(leaf * 1.0, paddle.ones([2, 3])).sum().backward()
    assert leaf.grad is None


@pytest.mark.parametrize(
    "name, args, message",
    [
        ("copysign_", (paddle.ones([2, 3]),), "broadcast output"),
        ("lerp_", (paddle.ones([2, 3]), 0.5), "broadcast output"),
        ("gcd_", (paddle.ones([2, 3], dtype="int64"),), "broadcast output"),
        ("polygamma_", (-1,), "greater than or equal to 0"),
    ],
)
def test_an_inplace_op_that_would_change_the_shape_or_gets_a_bad_order_is_refused(
    name: str, args: tuple, message: str
) -> None:
    x = paddle.ones([3], dtype=args[0].dtype if hasattr(args[0], "dtype") else "float32")
    with pytest.raises(ValueError, match=message):
        getattr(x, name)(*args)


def test_integer_and_bool_frac_and_sinc_are_refused_by_name() -> None:
    with pytest.raises(TypeError, match="data type of input"):
        paddle.to_tensor([True]).frac_()
    with pytest.raises(TypeError, match="tensor type"):
        paddle.sinc_([1.0])


def test_set_with_a_stride_or_offset_is_unimplemented_and_copy_keeps_the_dtype() -> None:
    x = paddle.to_tensor([1.0, 2.0, 3.0, 4.0])
    with pytest.raises(UnimplementedError, match="stride"):
        x.set_(paddle.ones([4]), [2, 2], [1, 2])
    with pytest.raises(UnimplementedError, match="offset"):
        x.set_(paddle.ones([4]), [2], None, 1)
    with pytest.raises(InvalidArgumentError, match="dtype"):
        x.copy_(paddle.ones([4], dtype="float64"), True)
    before = x.inplace_version
    x.copy_(paddle.zeros([4]), True)
    assert x.inplace_version == before + 1


def test_paddle_names_are_the_functions_paddle_keeps_elsewhere() -> None:
    assert paddle.conv1d is paddle.nn.functional.conv1d
    assert paddle.adaptive_avg_pool1d is paddle.nn.functional.adaptive_avg_pool1d
    assert paddle.get_autocast_cpu_dtype is paddle.amp.get_autocast_cpu_dtype
    assert paddle.CUDAPlace(1) == paddle.GPUPlace(1)
    assert isinstance(paddle.Size([1, 2]), list)
    with pytest.raises(TypeError, match="iterable of 'int'"):
        paddle.Size([1.5])
    with pytest.raises(InvalidArgumentError, match="reduce must be one of"):
        paddle.scatter_reduce(paddle.ones([2]), 0, paddle.to_tensor([0]), paddle.ones([1]), "max")


def test_random_refuses_an_empty_range_and_an_unset_dtype() -> None:
    with pytest.raises(ValueError, match="less than 'to'"):
        paddle.zeros([2], dtype="int64").random_(5, 5)
    with pytest.raises(InvalidArgumentError, match="random_: x must be"):
        paddle.zeros([2], dtype="bool").random_()
    with pytest.raises(InvalidArgumentError, match="leaf Tensor"):
        paddle.zeros([2]).requires_grad_().random_()


def test_to_dlpack_shares_the_storage() -> None:
    x = paddle.to_tensor([1.0, 2.0, 3.0])
    y = paddle.from_dlpack(paddle.to_dlpack(x))
    assert y.data_ptr() == x.data_ptr()
    copied = paddle.from_dlpack(np.arange(3.0), copy=True)
    assert copied.numpy().tolist() == [0.0, 1.0, 2.0]
