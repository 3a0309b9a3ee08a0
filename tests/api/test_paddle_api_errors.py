"""The paddle.* functions and Tensor methods given PaddlePaddle 3.3.1's signatures refuse bad
input naming the argument, and the behaviours no recorded value pins down (random fills, Python
numbers returned)."""

from __future__ import annotations

import numpy as np
import pytest

import phiops as paddle
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError

M = np.array([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]], dtype=np.float32)


def test_uniform_fill_defaults_to_zero_one() -> None:
    x = paddle.zeros([4000])
    assert x.uniform_() is x
    values = x.numpy()
    assert values.min() >= 0.0 and values.max() < 1.0 and values.min() < 0.01


def test_item_takes_a_flat_index_or_one_per_dim() -> None:
    x = paddle.to_tensor(M)
    assert x.item(1, 2) == 4.0 and x.item(4) == 5.0


def test_item_out_of_range_names_the_index() -> None:
    with pytest.raises(InvalidArgumentError, match=r"item\(7,\)"):
        paddle.to_tensor(M).item(7)


def test_item_without_index_needs_one_element() -> None:
    with pytest.raises(InvalidArgumentError, match="exactly 1 element"):
        paddle.to_tensor(M).item()


def test_astype_takes_only_the_dtype() -> None:
    assert paddle.to_tensor(M).astype("int64").dtype == paddle.int64
    with pytest.raises(TypeError):
        paddle.to_tensor(M).astype("int64", None)


def test_view_of_a_dtype_needs_a_last_extent_the_sizes_divide() -> None:
    with pytest.raises(InvalidArgumentError, match="must be a multiple of 2"):
        paddle.to_tensor(np.zeros((2, 3), np.float32)).view("float64")


def test_permute_needs_a_list() -> None:
    with pytest.raises(InvalidArgumentError, match="'dims'"):
        paddle.permute(paddle.to_tensor(M), 1)


def test_unique_axis_must_be_an_int() -> None:
    with pytest.raises(InvalidArgumentError, match="'axis'"):
        paddle.unique(paddle.to_tensor(M), axis=[0])


def test_unique_sorted_must_be_a_bool() -> None:
    with pytest.raises(InvalidArgumentError, match="'sorted'"):
        paddle.unique(paddle.to_tensor(M), sorted="yes")


def test_nonzero_out_is_refused_with_as_tuple() -> None:
    with pytest.raises(InvalidArgumentError, match="'out'"):
        paddle.nonzero(paddle.to_tensor(M), as_tuple=True, out=paddle.zeros([5, 2], "int64"))


def test_meshgrid_needs_tensors() -> None:
    with pytest.raises(InvalidArgumentError, match="meshgrid"):
        paddle.meshgrid([1, 2], [3])


def test_meshgrid_takes_only_name_as_keyword() -> None:
    with pytest.raises(TypeError, match="indexing"):
        paddle.meshgrid(paddle.to_tensor(M[0]), indexing="xy")


def test_bmm_needs_3d_tensors_that_multiply() -> None:
    x = paddle.to_tensor(np.ones([2, 2, 3], np.float32))
    with pytest.raises(InvalidArgumentError, match="3-D"):
        paddle.bmm(x, paddle.to_tensor(M))
    with pytest.raises(InvalidArgumentError, match="do not multiply"):
        paddle.bmm(x, x)


def test_slice_axes_must_be_a_list() -> None:
    with pytest.raises(InvalidArgumentError, match="'axes'"):
        paddle.slice(paddle.to_tensor(M), 0, [0], [1])


def test_pow_in_place_takes_only_a_number() -> None:
    x = paddle.to_tensor(M)
    with pytest.raises(TypeError, match="scalar"):
        x.pow_(x)


def test_where_in_place_needs_x_and_y() -> None:
    with pytest.raises(ValueError, match="both or neither"):
        paddle.where_(paddle.to_tensor(M > 1))


def test_in_place_functions_refuse_a_leaf_that_needs_a_gradient() -> None:
    x = paddle.to_tensor(M, stop_gradient=False)
    with pytest.raises(InvalidArgumentError, match="tril_"):
        paddle.tril_(x)


def test_in_place_functions_need_a_tensor() -> None:
    with pytest.raises(InvalidArgumentError, match="'x' must be a Tensor"):
        paddle.flatten_(M)


def test_take_along_axis_indices_need_the_same_rank() -> None:
    with pytest.raises(InvalidArgumentError, match="'indices'"):
        paddle.take_along_axis(paddle.to_tensor(M), paddle.to_tensor(np.array([0])), 1)


def test_assign_refuses_other_types() -> None:
    with pytest.raises(TypeError, match="assign"):
        paddle.assign("text")


def test_numel_is_a_tensor() -> None:
    count = paddle.to_tensor(M).numel()
    assert isinstance(count, paddle.Tensor) and count.dtype == paddle.int64 and count.item() == 6


CREATIONS = {
    "arange": lambda **kw: paddle.arange(3, **kw),
    "empty": lambda **kw: paddle.empty([2], **kw),
    "empty_like": lambda **kw: paddle.empty_like(paddle.to_tensor(M), **kw),
    "eye": lambda **kw: paddle.eye(2, **kw),
    "full": lambda **kw: paddle.full([2], 1.5, **kw),
    "full_like": lambda **kw: paddle.full_like(paddle.to_tensor(M), 2, **kw),
    "linspace": lambda **kw: paddle.linspace(0, 1, 3, **kw),
    "ones": lambda **kw: paddle.ones([2], **kw),
    "ones_like": lambda **kw: paddle.ones_like(paddle.to_tensor(M), **kw),
    "rand": lambda **kw: paddle.rand([2], **kw),
    "randn": lambda **kw: paddle.randn([2], **kw),
    "randperm": lambda **kw: paddle.randperm(4, **kw),
    "standard_normal": lambda **kw: paddle.standard_normal([2], **kw),
    "uniform": lambda **kw: paddle.uniform([2], **kw),
    "zeros": lambda **kw: paddle.zeros([2], **kw),
    "zeros_like": lambda **kw: paddle.zeros_like(paddle.to_tensor(M), **kw),
}
WITHOUT_PIN_MEMORY = {"linspace", "standard_normal", "uniform"}


@pytest.mark.parametrize("name", sorted(CREATIONS))
def test_creation_requires_grad_gives_a_tensor_that_records_gradients(name: str) -> None:
    assert CREATIONS[name]().stop_gradient is True
    assert CREATIONS[name](requires_grad=True).stop_gradient is False


@pytest.mark.parametrize("name", sorted(CREATIONS))
@pytest.mark.parametrize("device", ["cpu", paddle.CPUPlace()])
def test_creation_device_puts_the_tensor_there(name: str, device: object) -> None:
    assert CREATIONS[name](device=device).place == paddle.CPUPlace()


@pytest.mark.parametrize("name", sorted(CREATIONS))
def test_creation_device_must_be_a_place(name: str) -> None:
    with pytest.raises(InvalidArgumentError, match="'device'"):
        CREATIONS[name](device="xyz")


@pytest.mark.parametrize("name", sorted(set(CREATIONS) - WITHOUT_PIN_MEMORY))
def test_creation_pin_memory_is_unimplemented(name: str) -> None:
    with pytest.raises(UnimplementedError, match="pin_memory"):
        CREATIONS[name](pin_memory=True)
    assert CREATIONS[name](pin_memory=False).place == paddle.CPUPlace()


@pytest.mark.parametrize("name", sorted(WITHOUT_PIN_MEMORY))
def test_creation_without_pin_memory_refuses_it(name: str) -> None:
    with pytest.raises(TypeError, match="pin_memory"):
        CREATIONS[name](pin_memory=False)


def test_creation_requires_grad_must_be_a_bool() -> None:
    with pytest.raises(InvalidArgumentError, match="'requires_grad'"):
        paddle.zeros([2], requires_grad=1)


def test_seed_takes_its_value_as_seed() -> None:
    paddle.seed(seed=5)
    first = paddle.rand([3]).numpy()
    paddle.seed(5)
    np.testing.assert_array_equal(paddle.rand([3]).numpy(), first)


def test_flags_are_set_and_read_by_the_flags_keyword() -> None:
    name = "FLAGS_check_nan_inf"
    before = paddle.get_flags(flags=[name])[name]
    try:
        paddle.set_flags(flags={name: not before})
        assert paddle.get_flags(flags=name)[name] is (not before)
    finally:
        paddle.set_flags({name: before})


def test_disable_static_takes_the_default_place() -> None:
    paddle.disable_static(place="cpu")
    paddle.disable_static(paddle.CPUPlace())
    assert paddle.in_dynamic_mode()


def test_disable_static_place_must_be_a_place() -> None:
    with pytest.raises(InvalidArgumentError, match="'place'"):
        paddle.disable_static(place="xyz")


def test_grad_takes_paddles_extra_arguments() -> None:
    x = paddle.to_tensor(M, stop_gradient=False)
    (dx,) = paddle.grad([paddle.sum(x * x)], [x], only_inputs=True, no_grad_vars=[])
    np.testing.assert_allclose(dx.numpy(), 2 * M)


@pytest.mark.parametrize(
    "keywords",
    [{"only_inputs": False}, {"no_grad_vars": "x"}, {"dump_backward_graph_path": "/tmp/g"}],
)
def test_grad_options_phiops_lacks_are_unimplemented(keywords: dict) -> None:
    x = paddle.to_tensor(M, stop_gradient=False)
    if keywords.get("no_grad_vars") == "x":
        keywords = {"no_grad_vars": [x]}
    with pytest.raises(UnimplementedError, match=next(iter(keywords))):
        paddle.grad([paddle.sum(x)], [x], **keywords)


def test_scatter_in_place_torch_form_is_unimplemented() -> None:
    x = paddle.to_tensor(M)
    with pytest.raises(UnimplementedError, match="torch-style"):
        x.scatter_(0, paddle.to_tensor(np.zeros([1, 3], np.int64)), paddle.to_tensor(M[:1]))


def test_conv3d_checks_its_layout_and_sizes() -> None:
    x = paddle.to_tensor(np.ones([1, 1, 2, 2, 2], np.float32))
    w = paddle.to_tensor(np.ones([1, 1, 1, 1, 1], np.float32))
    with pytest.raises(InvalidArgumentError, match="'data_format'"):
        paddle.conv3d(x, w, data_format="NCHW")
    with pytest.raises(InvalidArgumentError, match="'stride'"):
        paddle.conv3d(x, w, stride=[1, 1])
