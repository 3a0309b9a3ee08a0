"""The in-place variants codegen generates for every op with ``inplace`` pairs (generated/inplace.py)
and the views of ops with ``view`` pairs: values, storage, version counters, autograd."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import phiops
import phiops.generated as phi
from phiops.generated.tensor_methods import INPLACE_METHODS
from phiops.runtime.tensor.version import is_view_of, version_of


def _f(*shape: int, low: float = 0.5) -> np.ndarray:
    rng = np.random.default_rng(sum(shape))
    return (rng.random(shape) + low).astype(np.float32)


def _t(array: Any) -> phi.Tensor:
    return phi.to_tensor(np.asarray(array))


_INT = np.array([[3, 5, 6], [1, 2, 7]], dtype=np.int32)
_BOOL = np.array([[True, False, True], [False, False, True]])

# op -> (first input as an array, function of a fresh first input returning the other arguments)
SAMPLES: dict[str, tuple[np.ndarray, Callable[[], tuple[tuple, dict]]]] = {
    "add": (_f(2, 3), lambda: ((_t(_f(2, 3, low=1)),), {})),
    "subtract": (_f(2, 3), lambda: ((_t(_f(2, 3, low=1)),), {})),
    "multiply": (_f(2, 3), lambda: ((_t(_f(2, 3, low=1)),), {})),
    "divide": (_f(2, 3), lambda: ((_t(_f(2, 3, low=1)),), {})),
    "floor_divide": (_INT, lambda: ((_t(np.full((2, 3), 2, np.int32)),), {})),
    "remainder": (_INT, lambda: ((_t(np.full((2, 3), 4, np.int32)),), {})),
    "equal": (_f(2, 3), lambda: ((_t(_f(2, 3)),), {})),
    "not_equal": (_f(2, 3), lambda: ((_t(_f(2, 3)),), {})),
    "greater_than": (_f(2, 3), lambda: ((_t(_f(2, 3, low=0.7)),), {})),
    "greater_equal": (_f(2, 3), lambda: ((_t(_f(2, 3, low=0.7)),), {})),
    "less_than": (_f(2, 3), lambda: ((_t(_f(2, 3, low=0.7)),), {})),
    "less_equal": (_f(2, 3), lambda: ((_t(_f(2, 3, low=0.7)),), {})),
    "logical_and": (_BOOL, lambda: ((_t(~_BOOL),), {})),
    "logical_or": (_BOOL, lambda: ((_t(~_BOOL),), {})),
    "logical_xor": (_BOOL, lambda: ((_t(~_BOOL),), {})),
    "logical_not": (_BOOL, lambda: ((), {})),
    "bitwise_and": (_INT, lambda: ((_t(_INT + 1),), {})),
    "bitwise_or": (_INT, lambda: ((_t(_INT + 1),), {})),
    "bitwise_xor": (_INT, lambda: ((_t(_INT + 1),), {})),
    "bitwise_not": (_INT, lambda: ((), {})),
    "leaky_relu": (_f(2, 3, low=-0.5), lambda: ((0.1,), {})),
    "scale": (_f(2, 3), lambda: ((2.0, 1.0), {})),
    "pow": (_f(2, 3), lambda: ((3.0,), {})),
    "cast": (_f(2, 3), lambda: (("float64",), {})),
    "clip": (_f(2, 3), lambda: ((0.7, 1.2), {})),
    "reshape": (_f(2, 3), lambda: (([3, 2],), {})),
    "transpose": (_f(2, 3), lambda: (([1, 0],), {})),
    "squeeze": (_f(2, 1, 3), lambda: (([1],), {})),
    "unsqueeze": (_f(2, 3), lambda: (([0],), {})),
    "flatten": (_f(2, 3, 2), lambda: ((0, 1), {})),
    "softmax": (_f(2, 3), lambda: ((-1,), {})),
    "elu": (_f(2, 3, low=-0.5), lambda: ((1.0,), {})),
    "hardtanh": (_f(2, 3, low=-0.5), lambda: ((0.0, 1.0), {})),
    "scatter": (
        _f(3, 2),
        lambda: ((_t(np.array([2, 0], np.int64)), _t(_f(2, 2, low=5))), {}),
    ),
    "put_along_axis": (
        _f(2, 3),
        lambda: ((_t(np.array([[1], [2]], np.int64)), _t(_f(2, 1, low=5)), 1), {}),
    ),
    "set_value": (_f(2, 3), lambda: (([0], [1], [1], [0], [], [], [1], [9.0]), {})),
    "set_value_with_tensor": (
        _f(2, 3),
        lambda: ((_t(_f(1, 3, low=7)), [0], [1], [1], [0], [], []), {}),
    ),
    "index_put": (
        _f(2, 3),
        lambda: (([_t(np.array([1], np.int64))], _t(_f(1, 3, low=7))), {}),
    ),
    "tril": (_f(3, 3), lambda: ((0,), {})),
    "triu": (_f(3, 3), lambda: ((0,), {})),
    "cumsum": (_f(2, 3), lambda: ((1,), {})),
    "cumprod": (_f(2, 3), lambda: ((1,), {})),
    "addmm": (_f(2, 3), lambda: ((_t(_f(2, 4)), _t(_f(4, 3, low=1))), {})),
    "renorm": (_f(2, 3), lambda: ((2.0, 1, 1.0), {})),
    # issue 24's in-place ops
    "index_add": (
        _f(3, 2),
        lambda: ((_t(np.array([2, 0], np.int64)), _t(_f(2, 2, low=5))), {}),
    ),
    "fill_diagonal_tensor": (_f(2, 3), lambda: ((_t(_f(2, low=7)),), {})),
    "bitwise_left_shift": (_INT, lambda: ((_t(np.full((2, 3), 2, np.int32)),), {})),
    "bitwise_right_shift": (_INT, lambda: ((_t(np.full((2, 3), 1, np.int32)),), {})),
    # issue 24's in-place variants of the elementwise math ops
    "polygamma": (_f(2, 3), lambda: ((1,), {})),
    "gammaincc": (_f(2, 3), lambda: ((_t(_f(2, 3, low=1)),), {})),
    "copysign": (_f(2, 3), lambda: ((_t(_f(2, 3, low=-1)),), {})),
    "lerp": (_f(2, 3), lambda: ((_t(_f(2, 3, low=1)), _t(_f(2, 3, low=0))), {})),
    "baddbmm": (_f(2, 3, 4), lambda: ((_t(_f(2, 3, 5)), _t(_f(2, 5, 4))), {})),
    "round": (_f(2, 3), lambda: ((2,), {})),
}
# where_ writes its second argument, cross_entropy_with_softmax_ its first of two outputs
SPECIAL = {"where", "cross_entropy_with_softmax"}
# in-place ops that write an input other than the first (the quantizers' scale and state,
# random_routing's topk_idx): checked by test_an_inplace_variant_writes_its_inplace_inputs
LATER_INPUT: dict[str, Callable[[], tuple]] = {
    "fake_quantize_range_abs_max": lambda: (
        _t(_f(2, 3, low=-0.5)), _t(np.float32([0.5])), _t(np.int64([1])), 10, 8, False, 1
    ),
    "fake_quantize_moving_average_abs_max": lambda: (
        _t(_f(2, 3, low=-0.5)), _t(np.float32([0.5])), _t(np.float32([1.0])),
        _t(np.float32([1.0])), 0.9, 8, False, 1,
    ),
    "fake_quantize_dequantize_moving_average_abs_max": lambda: (
        _t(_f(2, 3, low=-0.5)), _t(np.float32([0.5])), _t(np.float32([1.0])),
        _t(np.float32([1.0])), 0.9, 8, False, 1,
    ),
    "random_routing": lambda: (
        _t(np.float32([0.9, 0.1])), _t(np.float32([[0.6, 0.3], [0.2, 0.1]])),
        _t(np.array([[0, 1], [1, 0]], np.int64)),
    ),
}  # fmt: skip
# in-place random draws: the generator is seeded before the op and before its variant
RANDOM = {"gaussian_inplace", "uniform_inplace"}


def _sample(op: str) -> tuple[np.ndarray, Callable[[], tuple[tuple, dict]]]:
    if op in SAMPLES:
        return SAMPLES[op]
    return _f(2, 3), lambda: ((), {})


@pytest.mark.parametrize(
    "name", [n for n in INPLACE_METHODS if n[:-1] not in SPECIAL and n[:-1] not in LATER_INPUT]
)
def test_inplace_variant_writes_the_op_result_into_its_input(name: str) -> None:
    op = name[:-1]
    data, rest = _sample(op)
    args, kwargs = rest()
    if op in RANDOM:
        phiops.seed(2024)
    expected = getattr(phi, op)(_t(data), *args, **kwargs).numpy()
    x = _t(data)
    storage = x._impl
    before = version_of(storage)
    if op in RANDOM:
        phiops.seed(2024)
    result = getattr(phi, name)(x, *args, **kwargs)
    assert result is x
    assert x._impl is storage
    assert version_of(storage) == before + 1
    np.testing.assert_array_equal(x.numpy(), expected)
    assert x.shape == list(expected.shape) and x.numpy().dtype == expected.dtype


@pytest.mark.parametrize("op", sorted(LATER_INPUT))
def test_an_inplace_variant_writes_its_inplace_inputs(op: str) -> None:
    """Each (input -> output) pair of the op's spec: the variant writes the output's values into
    that input (its storage kept, its version bumped) and returns it in the output's place."""
    from phiops.runtime.dispatch.op_def import OP_DEFS

    info = OP_DEFS[op].info
    inputs = [i.name for i in info.inputs]
    outputs = [o.name for o in info.outputs]
    expected = getattr(phi, op)(*LATER_INPUT[op]())
    expected = expected if isinstance(expected, tuple) else (expected,)
    args = LATER_INPUT[op]()
    written = [(args[inputs.index(i)], outputs.index(o)) for i, o in info.inplace]
    versions = [(t, t._impl, version_of(t._impl)) for t, _ in written]
    result = getattr(phi, op + "_")(*args)
    result = result if isinstance(result, tuple) else (result,)
    for (tensor, index), (_, storage, before) in zip(written, versions):
        assert result[index] is tensor
        assert tensor._impl is storage and version_of(storage) == before + 1
        np.testing.assert_array_equal(tensor.numpy(), expected[index].numpy())


def test_every_inplace_pair_of_the_specs_has_a_variant_and_a_method() -> None:
    assert len(INPLACE_METHODS) >= 50
    for name in INPLACE_METHODS:
        assert callable(getattr(phi, name)) and callable(getattr(phi.Tensor, name))
    assert {"relu_", "add_", "scale_", "exp_", "clip_", "cast_"} <= set(INPLACE_METHODS)


def test_a_same_shape_variant_keeps_the_array_it_writes_into() -> None:
    x = _t(_f(2, 3))
    array = x._impl.array
    x.exp_()
    assert x._impl.array is array


def test_where_inplace_writes_its_x_argument() -> None:
    condition = _t(_BOOL)
    x, y = _t(_f(2, 3)), _t(_f(2, 3, low=5))
    expected = np.where(_BOOL, x.numpy(), y.numpy())
    assert phi.where_(condition, x, y) is x
    np.testing.assert_array_equal(x.numpy(), expected)


def test_cross_entropy_with_softmax_inplace_writes_the_softmax_into_its_input() -> None:
    logits = _t(_f(2, 3))
    label = _t(np.array([[0], [2]], np.int64))
    softmax, loss = phi.cross_entropy_with_softmax(_t(logits.numpy()), label)
    got_softmax, got_loss = phi.cross_entropy_with_softmax_(logits, label)
    assert got_softmax is logits
    np.testing.assert_allclose(logits.numpy(), softmax.numpy(), rtol=1e-6)
    np.testing.assert_allclose(got_loss.numpy(), loss.numpy(), rtol=1e-6)


def test_a_leaf_that_needs_a_gradient_cannot_be_written_in_place() -> None:
    x = phi.to_tensor([1.0, 2.0], stop_gradient=False)
    with pytest.raises(phi.InvalidArgumentError, match=r"exp_\(\): argument 'x' is a leaf"):
        x.exp_()
    np.testing.assert_array_equal(x.numpy(), [1.0, 2.0])  # untouched (PaddlePaddle writes first)
    with phi.no_grad():
        x.exp_()
    np.testing.assert_allclose(x.numpy(), np.exp([1.0, 2.0]), rtol=1e-6)


def test_inplace_on_a_non_leaf_rebases_its_history() -> None:
    x = phi.to_tensor([0.5, 1.0, 1.5], stop_gradient=False)
    y = x * 2.0
    y.exp_()
    assert not y.is_leaf and y._grad_node[0].spec.op == "exp"
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * np.exp(2 * x.numpy()), rtol=1e-5)


def test_inplace_keeps_the_old_values_a_backward_reads() -> None:
    # sin's backward reads its input: PaddlePaddle gives cos(old y), not cos(sin(y))
    x = phi.to_tensor([0.5, 1.0, 1.5], stop_gradient=False)
    y = x * 2.0
    y.sin_()
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * np.cos(2 * x.numpy()), rtol=1e-5)


def test_a_stop_gradient_tensor_written_from_one_that_needs_a_gradient_joins_the_graph() -> None:
    w = phi.to_tensor([1.0, 2.0], stop_gradient=False)
    acc = phi.to_tensor([3.0, 4.0])
    acc.multiply_(w)
    assert not acc.stop_gradient
    acc.sum().backward()
    np.testing.assert_allclose(w.grad.numpy(), [3.0, 4.0])


def test_writing_a_tensor_an_earlier_op_saved_fails_its_backward() -> None:
    x = phi.to_tensor([0.5, 1.0], stop_gradient=False)
    y = x * 2.0
    z = y * y  # saves y
    y.exp_()
    with pytest.raises(phi.PreconditionNotMetError, match="modified in place"):
        z.sum().backward()


@pytest.mark.parametrize(
    "view",
    [
        lambda t: t.reshape([6]),
        lambda t: t.unsqueeze([0]),
        lambda t: t.flatten(0, 1),
        lambda t: t.reshape([2, 1, 3]).squeeze([1]),
    ],
    ids=["reshape", "unsqueeze", "flatten", "squeeze"],
)
def test_a_view_shares_storage_and_version_with_its_base(view: Callable) -> None:
    base = _t(_f(2, 3))
    v = view(base)
    assert is_view_of(v._impl, base._impl)
    v.scale_(2.0)
    np.testing.assert_array_equal(base.numpy().reshape(-1), v.numpy().reshape(-1))
    assert version_of(base._impl) == version_of(v._impl) == 1
    base.scale_(0.0)
    assert version_of(v._impl) == 2 and not v.numpy().any()


def test_a_write_through_a_view_is_seen_by_a_backward_that_saved_its_base() -> None:
    x = phi.to_tensor([0.5, 1.0, 1.5], stop_gradient=False)
    y = x * 2.0
    z = y * y  # saves y
    y.reshape([3, 1]).exp_()
    with pytest.raises(phi.PreconditionNotMetError, match="modified in place"):
        z.sum().backward()


def test_a_write_through_the_base_is_seen_by_a_backward_that_saved_a_view() -> None:
    x = phi.to_tensor([0.5, 1.0, 1.5], stop_gradient=False)
    y = x * 2.0
    v = y.unsqueeze([0])
    z = v * v  # saves v
    y.exp_()
    with pytest.raises(phi.PreconditionNotMetError, match="modified in place"):
        z.sum().backward()


def test_an_op_without_a_view_pair_gives_independent_storage() -> None:
    x = _t(_f(2, 3))
    y = x.exp()
    assert not is_view_of(y._impl, x._impl)
    y.scale_(0.0)
    assert x.numpy().all()


def test_a_reshape_that_must_copy_gets_a_counter_of_its_own() -> None:
    x = _t(_f(2, 3)).transpose([1, 0])  # not contiguous: reshape copies
    y = x.reshape([6])
    assert not is_view_of(y._impl, x._impl)
    y.scale_(0.0)
    assert x.numpy().all() and version_of(x._impl) == 0


@pytest.mark.parametrize(
    "make",
    [
        lambda owner: (owner[1:], owner[1:][::2]),  # a view of a view
        lambda owner: (owner, owner.reshape(2, 3)),
        lambda owner: (owner.view(), owner.view()[2:]),
    ],
    ids=["view-of-view", "owner", "two-views"],
)
def test_arrays_sharing_memory_share_a_version_counter(make) -> None:
    from phiops.runtime.tensor.dense_tensor import DenseTensor
    from phiops.runtime.tensor.version import share_version

    for owner in (np.arange(6.0), np.frombuffer(np.arange(6.0).tobytes(), np.float64)):
        base_array, view_array = make(owner)
        base, view = DenseTensor(base_array), DenseTensor(view_array)
        share_version(view, base)
        assert is_view_of(view, base)


def test_arrays_that_do_not_share_memory_keep_their_own_counters() -> None:
    from phiops.runtime.tensor.dense_tensor import DenseTensor
    from phiops.runtime.tensor.version import share_version

    owner = np.arange(6.0)
    for other in (owner.copy(), owner[::2].copy(), np.frombuffer(owner.tobytes(), np.float64)):
        base, copy = DenseTensor(owner), DenseTensor(other)
        share_version(copy, base)
        assert not is_view_of(copy, base)


# the basic24 ops of issue 24: increment takes a one-element x
SAMPLES.update({"increment": (np.float32([1.5]), lambda: ((2.0,), {}))})
