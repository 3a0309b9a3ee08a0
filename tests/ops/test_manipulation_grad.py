"""Grad kernels of reshape, transpose, squeeze, unsqueeze, flatten, expand, concat and stack,
called directly and checked against numpy and against central finite differences of the
forward kernel in float64."""

from __future__ import annotations

import numpy as np
import pytest

import phiops.generated as phi
from phiops.generated import backward
from phiops.runtime.common import DataType
from tests.ops.op_testing import cpu_dtypes, non_floating_dtypes_beyond_paddles, sample
from tests.ops.test_elementwise_grad import (
    FD_TOLERANCE,
    assert_grad_close,
    grad_kernel,
    numeric_grad,
)

D = DataType
F64 = D.FLOAT64

# (grad kernel, forward kernel, forward attributes, x shape, extra grad attributes)
RESHAPING = [
    ("reshape_grad", "reshape", ((4, -1),), (2, 3, 2), ()),
    ("squeeze_grad", "squeeze", ((1, -1),), (2, 1, 3, 1), ((1, -1),)),
    ("unsqueeze_grad", "unsqueeze", ((0, -1),), (2, 3), ()),
    ("flatten_grad", "flatten", (1, -1), (2, 3, 2), ()),
]


@pytest.mark.parametrize("name, forward, attributes, shape, grad_attributes", RESHAPING)
def test_reshaping_grads_give_out_grad_x_shape(name, forward, attributes, shape, grad_attributes):
    for dtype in cpu_dtypes(name):
        x = sample(shape, dtype)
        out = grad_kernel(forward, dtype)(x, *attributes)
        out_grad = sample(out.shape, dtype, seed=1)
        x_grad = grad_kernel(name, dtype)(x, out_grad, *grad_attributes)
        assert_grad_close(x_grad, out_grad.reshape(shape), dtype, shape)


@pytest.mark.parametrize("name, forward, attributes, shape, grad_attributes", RESHAPING)
def test_reshaping_grads_match_finite_differences(
    name, forward, attributes, shape, grad_attributes
):
    x = sample(shape, F64)
    forward_fn = grad_kernel(forward, F64)
    out_grad = sample(forward_fn(x, *attributes).shape, F64, seed=1)
    expected = numeric_grad(lambda a: forward_fn(a, *attributes), [x], 0, out_grad)
    x_grad = grad_kernel(name, F64)(x, out_grad, *grad_attributes)
    np.testing.assert_allclose(x_grad, expected, **FD_TOLERANCE)


def test_reshaping_grads_of_0d_and_empty_tensors():
    assert grad_kernel("reshape_grad", F64)(np.array(1.0), np.array([5.0])).shape == ()
    assert grad_kernel("flatten_grad", F64)(np.array(1.0), np.array([5.0])).tolist() == 5.0
    assert grad_kernel("unsqueeze_grad", F64)(np.zeros((0, 2)), np.zeros((0, 1, 2))).shape == (0, 2)
    assert grad_kernel("squeeze_grad", F64)(np.zeros((1, 0)), np.zeros((0,)), ()).shape == (1, 0)


@pytest.mark.parametrize("perm", [(1, 2, 0), (2, 0, 1), (-1, 0, -2), (0, 1, 2)])
def test_transpose_grad_applies_the_inverse_permutation(perm):
    for dtype in cpu_dtypes("transpose_grad"):
        x = sample((2, 3, 4), dtype)
        out_grad = sample(np.transpose(x, perm).shape, dtype, seed=1)
        x_grad = grad_kernel("transpose_grad", dtype)(out_grad, perm)
        expected = np.transpose(out_grad, np.argsort([p % 3 for p in perm]))
        assert_grad_close(x_grad, expected, dtype, x.shape)


def test_transpose_grad_matches_finite_differences_and_handles_0d():
    x = sample((2, 3, 4), F64)
    forward = grad_kernel("transpose", F64)
    out_grad = sample((4, 2, 3), F64, seed=1)
    expected = numeric_grad(lambda a: forward(a, (2, 0, 1)), [x], 0, out_grad)
    np.testing.assert_allclose(
        grad_kernel("transpose_grad", F64)(out_grad, (2, 0, 1)), expected, **FD_TOLERANCE
    )
    assert grad_kernel("transpose_grad", F64)(np.array(3.0), ()).tolist() == 3.0


# -- expand_grad ---------------------------------------------------------------------------------

EXPANSIONS = [
    ((3, 1), (2, 3, 4)),
    ((1, 4), (3, -1)),
    ((), (2, 3)),
    ((2, 3), (2, 3)),
    ((1, 3), (0, 3)),
]


@pytest.mark.parametrize("x_shape, shape", EXPANSIONS)
def test_expand_grad_sums_over_the_expanded_axes(x_shape, shape):
    for dtype in cpu_dtypes("expand_grad"):
        x = sample(x_shape, dtype)
        out = np.broadcast_to(x, grad_kernel("expand", dtype)(x, shape).shape)
        out_grad = sample(out.shape, dtype, seed=1)
        lead = out.ndim - x.ndim
        axes = tuple(range(lead)) + tuple(
            lead + i for i, n in enumerate(x_shape) if n == 1 and out.shape[lead + i] != 1
        )
        if dtype is D.BOOL:  # bool addition saturates: PHI's reduce of bools with AddFunctor
            expected = out_grad.any(axis=axes, keepdims=True)
        else:
            expected = out_grad.astype(np.complex128 if dtype.is_complex else np.float64).sum(
                axis=axes, keepdims=True
            )
        x_grad = grad_kernel("expand_grad", dtype)(x, out_grad, shape)
        assert_grad_close(x_grad, expected.reshape(x_shape), dtype, x_shape)


@pytest.mark.parametrize("x_shape, shape", EXPANSIONS[:4])
def test_expand_grad_matches_finite_differences_of_expand(x_shape, shape):
    x = sample(x_shape, F64)
    forward = grad_kernel("expand", F64)
    out_grad = sample(forward(x, shape).shape, F64, seed=1)
    expected = numeric_grad(lambda a: forward(a, shape), [x], 0, out_grad)
    np.testing.assert_allclose(
        grad_kernel("expand_grad", F64)(x, out_grad, shape), expected, **FD_TOLERANCE
    )


def test_expand_grad_never_aliases_out_grad():
    out_grad = np.ones((2, 3))
    x_grad = grad_kernel("expand_grad", F64)(np.zeros((2, 3)), out_grad, (2, 3))
    assert not np.shares_memory(x_grad, out_grad)


# -- concat_grad / stack_grad --------------------------------------------------------------------


@pytest.mark.parametrize("axis", [0, 1, -1, -2])
def test_concat_grad_cuts_out_grad_into_the_inputs_sizes(axis):
    for dtype in cpu_dtypes("concat_grad"):
        shapes = [(2, 3), (2, 1), (2, 0)] if axis in (1, -1) else [(2, 3), (1, 3), (0, 3)]
        xs = [sample(s, dtype, seed=i) for i, s in enumerate(shapes)]
        out_grad = sample(np.concatenate(xs, axis=axis).shape, dtype, seed=9)
        grads = grad_kernel("concat_grad", dtype)(xs, out_grad, axis)
        expected = np.split(out_grad, np.cumsum([s[axis] for s in shapes])[:-1], axis=axis)
        assert len(grads) == 3
        for grad, want, shape in zip(grads, expected, shapes):
            assert_grad_close(grad, want, dtype, shape)


def test_concat_grad_matches_finite_differences_of_concat():
    xs = [sample((2, 3), F64), sample((2, 2), F64, seed=1)]
    forward = grad_kernel("concat", F64)
    out_grad = sample((2, 5), F64, seed=2)
    grads = grad_kernel("concat_grad", F64)(xs, out_grad, -1)
    for index in range(2):
        expected = numeric_grad(lambda a, b: forward([a, b], 1), xs, index, out_grad)
        np.testing.assert_allclose(grads[index], expected, **FD_TOLERANCE)


def test_concat_grad_gives_each_input_its_own_dtype():
    xs = [np.zeros((1, 2), np.float32), np.zeros((2, 2), np.float64)]
    grads = grad_kernel("concat_grad", F64)(xs, np.arange(6.0).reshape(3, 2), 0)
    assert [g.dtype for g in grads] == [np.float32, np.float64]
    assert [g.tolist() for g in grads] == [[[0.0, 1.0]], [[2.0, 3.0], [4.0, 5.0]]]


@pytest.mark.parametrize("axis", [0, 1, 2, -1, -3])
def test_stack_grad_unstacks_out_grad(axis):
    for dtype in cpu_dtypes("stack_grad"):
        out_grad = sample((2, 3, 4), dtype)
        grads = grad_kernel("stack_grad", dtype)(out_grad, axis)
        assert len(grads) == out_grad.shape[axis]
        expected = np.moveaxis(out_grad, axis, 0)
        for grad, want in zip(grads, expected):
            assert_grad_close(grad, want, dtype, want.shape)


def test_stack_grad_matches_finite_differences_of_stack_and_handles_0d_inputs():
    xs = [sample((2, 3), F64, seed=i) for i in range(3)]
    forward = grad_kernel("stack", F64)
    out_grad = sample((2, 3, 3), F64, seed=5)
    grads = grad_kernel("stack_grad", F64)(out_grad, -1)
    for index in range(3):
        expected = numeric_grad(lambda a, b, c: forward([a, b, c], -1), xs, index, out_grad)
        np.testing.assert_allclose(grads[index], expected, **FD_TOLERANCE)
    scalars = grad_kernel("stack_grad", F64)(np.array([1.0, 2.0]), 0)
    assert [(g.shape, float(g)) for g in scalars] == [((), 1.0), ((), 2.0)]


def test_manipulation_grads_have_integer_kernels_only_where_paddle_does():
    names = [
        "reshape_grad",
        "transpose_grad",
        "squeeze_grad",
        "unsqueeze_grad",
        "flatten_grad",
        "expand_grad",
        "concat_grad",
        "stack_grad",
    ]
    for name in names:
        assert cpu_dtypes(name) and not non_floating_dtypes_beyond_paddles(name), name


# -- through the generated backward API ----------------------------------------------------------


def test_manipulation_grads_through_the_generated_backward_api():
    x = phi.to_tensor(sample((2, 1, 3), F64))
    out_grad = sample((2, 3), F64, seed=1)
    g = phi.to_tensor(out_grad)
    assert backward.squeeze_grad(x, g, [1]).numpy().tolist() == out_grad.reshape(2, 1, 3).tolist()
    assert backward.reshape_grad(x, g).shape == [2, 1, 3]
    assert backward.flatten_grad(x, g).shape == [2, 1, 3]
    assert backward.unsqueeze_grad(g, x, [1]).shape == [2, 3]
    assert backward.transpose_grad(g, [1, 0]).numpy().tolist() == out_grad.T.tolist()
    expanded = backward.expand_grad(phi.to_tensor(np.zeros((1, 3))), g, [2, 3])
    np.testing.assert_allclose(expanded.numpy(), out_grad.sum(axis=0, keepdims=True))
    parts = backward.concat_grad(
        [phi.to_tensor(np.zeros((1, 3), np.float32)), phi.to_tensor(np.zeros((1, 3)))], g, 0
    )
    assert [p.dtype for p in parts] == [D.FLOAT32, F64]
    np.testing.assert_allclose(parts[0].numpy(), out_grad[:1], rtol=1e-6)
    unstacked = backward.stack_grad([g, g, g], phi.to_tensor(sample((2, 3, 3), F64)), -1)
    assert [u.shape for u in unstacked] == [[2, 3]] * 3
