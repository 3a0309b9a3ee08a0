"""phi.static.gradients and append_backward (runtime/static/backward.py): gradients against
central finite differences, accumulation, stop_gradient, seeds, double grad and errors."""

from __future__ import annotations

from typing import Callable

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime import optimizer
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.ir.builder import Builder
from phiops.runtime.ir.types import NULL_TYPE

RNG = np.random.default_rng(7)
nn = phi.static.nn


def op_names(program: phi.static.Program) -> list[str]:
    return [op.name for op in program.block.ops]


def finite_difference_check(
    shapes: dict[str, list[int]],
    function: Callable[..., phi.static.Value],
    order: int = 1,
    eps: float = 1e-6,
) -> None:
    """Build ``function`` on float64 data, take ``gradients`` of it (``order`` 2: of its first
    gradient, both seeded with ones), and compare with central differences of the sum of the
    same program's target."""
    main, startup = phi.static.Program(), phi.static.Program()
    with phi.static.unique_name_guard(), phi.static.program_guard(main, startup):
        inputs = []
        for name, shape in shapes.items():
            value = phi.static.data(name, shape, "float64")
            value.stop_gradient = False
            inputs.append(value)
        target = function(*inputs)
        if order == 2:
            (target,) = phi.static.gradients([target], [inputs[0]])
        grads = phi.static.gradients([target], inputs)
    feed = {name: RNG.uniform(0.2, 1.0, shape) for name, shape in shapes.items()}
    exe = phi.static.Executor()
    got = exe.run(main, feed=feed, fetch_list=grads)
    for name, grad in zip(shapes, got):
        expected = np.zeros_like(feed[name])
        for index in np.ndindex(*feed[name].shape):
            values = []
            for step in (eps, -eps):
                moved = {k: v.copy() for k, v in feed.items()}
                moved[name][index] += step
                values.append(float(exe.run(main, feed=moved, fetch_list=[target])[0].sum()))
            expected[index] = (values[0] - values[1]) / (2 * eps)
        np.testing.assert_allclose(grad, expected, rtol=1e-5, atol=1e-7, err_msg=name)


CASES: dict[str, tuple[dict[str, list[int]], Callable[..., phi.static.Value]]] = {
    "matmul_add_relu_mean": (
        {"x": [2, 3], "w": [3, 4], "b": [4]},
        lambda x, w, b: phi.mean(phi.relu(phi.add(phi.matmul(x, w), b) - 0.3)),
    ),
    "tanh_times_itself": ({"x": [2, 3]}, lambda x: phi.sum(phi.tanh(x) * phi.tanh(x))),
    "value_used_three_times": ({"x": [3]}, lambda x: phi.sum(x * x + phi.exp(x))),
    "divide_subtract_broadcast": (
        {"x": [2, 3], "y": [3]},
        lambda x, y: phi.sum((x - y) / (y + 1.0)),
    ),
    "concat_and_split": (
        {"x": [2, 2], "y": [2, 3]},
        lambda x, y: phi.sum(phi.split(phi.concat([x, y], 1), [1, 4], 1)[1] * 2.0),
    ),
    "reshape_transpose_sum_axis": (
        {"x": [2, 3]},
        lambda x: phi.mean(phi.sum(phi.transpose(phi.reshape(x, [3, 2]), [1, 0]) ** 2.0, 1)),
    ),
    "softmax_log": ({"x": [2, 4]}, lambda x: phi.sum(phi.log(phi.softmax(x, -1)) * x)),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_gradients_match_finite_differences(case: str) -> None:
    shapes, function = CASES[case]
    finite_difference_check(shapes, function)


@pytest.mark.parametrize(
    "case,function",
    [
        ("tanh", lambda x: phi.tanh(x)),
        ("x_times_x_times_x", lambda x: x * x * x),
        ("exp_times_x", lambda x: phi.exp(x) * x),
    ],
)
def test_second_order_gradients_match_finite_differences(case: str, function: Callable) -> None:
    finite_difference_check({"x": [2, 3]}, function, order=2, eps=1e-5)


def test_several_uses_are_summed_with_add_n(programs) -> None:
    main, _ = programs
    x = phi.static.data("x", [3], "float32")
    x.stop_gradient = False
    (grad,) = phi.static.gradients(phi.sum(x * x), [x])
    assert grad.define_op.name == "pd_op.add_n"
    assert op_names(main)[-2:] == ["builtin.combine", "pd_op.add_n"]


def test_stop_gradient_value_gets_no_gradient_and_no_grad_ops(programs) -> None:
    main, _ = programs
    x = phi.static.data("x", [3], "float32")
    x.stop_gradient = False
    frozen = phi.exp(x)
    frozen.stop_gradient = True
    loss = phi.sum(frozen * phi.tanh(x))
    (grad,) = phi.static.gradients(loss, [x])
    names = op_names(main)
    assert "pd_op.tanh_grad" in names and "pd_op.exp_grad" not in names
    multiply_grad = next(op for op in main.block.ops if op.name == "pd_op.multiply_grad")
    assert multiply_grad.results[0].type is NULL_TYPE  # frozen's gradient is not computed
    assert grad.define_op.name == "pd_op.tanh_grad"


def test_no_grad_set_cuts_the_gradient(programs) -> None:
    x = phi.static.data("x", [3], "float32")
    x.stop_gradient = False
    y = phi.exp(x)
    assert phi.static.gradients(phi.sum(y), [x], no_grad_set=[y]) == [None]


def test_target_gradients_seed_the_backward(programs) -> None:
    main, _ = programs
    x = phi.static.data("x", [3], "float32")
    x.stop_gradient = False
    seed = phi.static.data("seed", [3], "float32")
    (grad,) = phi.static.gradients([x * 3.0], [x], target_gradients=[seed])
    assert "pd_op.full_like" not in op_names(main)
    out = phi.static.Executor().run(
        main,
        feed={"x": np.ones(3, "float32"), "seed": np.array([1, 2, 3], "float32")},
        fetch_list=[grad],
    )
    np.testing.assert_allclose(out[0], [3, 6, 9])


def test_append_backward_pairs_every_parameter_in_program_order(programs) -> None:
    x = phi.static.data("x", [2, 3], "float32")
    w = phi.static.create_parameter([3, 4], "float32", name="w")
    unused = phi.static.create_parameter([4], "float32", name="unused")
    pairs = phi.static.append_backward(phi.mean(phi.matmul(x, w)))
    assert [(p is unused, g is None) for p, g in pairs] == [(True, True), (False, False)]
    assert pairs[1][0] is w and pairs[1][1].type.dims == (3, 4)


def test_op_without_backward_is_an_error(programs) -> None:
    x = phi.static.data("x", [3], "float32")
    x.stop_gradient = False
    loss = phi.sum(phi.bernoulli(phi.sigmoid(x)) * x)
    with pytest.raises(UnimplementedError, match="pd_op.bernoulli has no backward op"):
        phi.static.gradients(loss, [x])


def _while_tanh(x):
    i = phi.full([1], 0, "int64")
    _, s = nn.while_loop(lambda i, s: i < 3, lambda i, s: [i + 1, phi.tanh(s) * 1.5], [i, x])
    return phi.sum(s * s)


def _while_reads_outer_values(x, w):
    # w and x are read by the body every iteration, x is also the loop variable's start
    i = phi.full([1], 0, "int64")
    _, s = nn.while_loop(lambda i, s: i < 3, lambda i, s: [i + 1, phi.sin(s * x) + w], [i, x])
    return phi.sum(s * w)


def _cond_in_while(x):
    i = phi.full([1], 0, "int64")

    def body(i, s):
        s = nn.cond(phi.mean(s) > 0.5, lambda: phi.tanh(s), lambda: s * s + s)
        return [i + 1, s]

    _, s = nn.while_loop(lambda i, s: i < 3, body, [i, x])
    return phi.mean(s)


CONTROL_FLOW: dict[str, tuple[dict[str, list[int]], Callable[..., phi.static.Value]]] = {
    # mean(x) of the uniform(0.2, 1) feed is about 0.6: both sides of 0.6 are taken somewhere
    "cond_both_branches": (
        {"x": [2, 3], "y": [3]},
        lambda x, y: phi.sum(
            nn.cond(phi.mean(x) > 0.6, lambda: phi.tanh(x) * y, lambda: phi.exp(x) + x * x)
        ),
    ),
    "cond_true": (
        {"x": [2, 3]},
        lambda x: phi.sum(nn.cond(phi.mean(x) > 0.0, lambda: x * x * x, lambda: x)),
    ),
    "cond_false_yields_outer_value": (
        {"x": [2, 3], "y": [2, 3]},
        lambda x, y: phi.sum(nn.cond(phi.mean(x) > 5.0, lambda: phi.exp(y), lambda: x) * y),
    ),
    "while_tanh": ({"x": [2, 3]}, _while_tanh),
    "while_reads_outer_values": ({"x": [3], "w": [3]}, _while_reads_outer_values),
    "cond_in_while": ({"x": [2, 3]}, _cond_in_while),
}


@pytest.mark.parametrize("case", sorted(CONTROL_FLOW))
def test_gradients_through_control_flow_match_finite_differences(case: str) -> None:
    shapes, function = CONTROL_FLOW[case]
    finite_difference_check(shapes, function)


def test_while_pushes_its_values_and_the_backward_loop_pops_them(programs) -> None:
    main, _ = programs
    x = phi.static.data("x", [2, 3], "float32")
    x.stop_gradient = False
    (grad,) = phi.static.gradients(_while_tanh(x), [x])
    assert op_names(main)[0] == "cf.stack_create"
    assert grad.define_op.name == "pd_op.while"
    assert grad.define_op.operands[0].define_op.name == "cf.has_elements"
    body = grad.define_op.regions[0].blocks[0]
    assert [op.name for op in body.ops][0] == "cf.tuple_pop"


def test_sgd_minimize_through_a_cond_updates_the_parameter(programs) -> None:
    main, startup = programs
    x = phi.static.data("x", [4, 3], "float32")
    w = phi.static.create_parameter([3, 2], "float32", name="w")
    out = nn.cond(phi.mean(x) > 0, lambda: phi.tanh(phi.matmul(x, w)), lambda: phi.matmul(x, w))
    optimizer.SGD(learning_rate=0.5).minimize(phi.mean(out))
    scope = phi.static.Scope()
    exe = phi.static.Executor()
    exe.run(startup, scope=scope)
    before = np.asarray(scope.get("w")).astype("float64")
    feed = RNG.uniform(0.1, 1.0, (4, 3))
    for sign in (1.0, -1.0):  # the true branch, then the false one
        weight = np.asarray(scope.get("w")).astype("float64")
        exe.run(main, feed={"x": (sign * feed).astype("float32")}, scope=scope)
        xs = sign * feed
        if sign > 0:
            grad = xs.T @ ((1 - np.tanh(xs @ weight) ** 2) / 8)
        else:
            grad = xs.T @ np.full((4, 2), 1 / 8)
        np.testing.assert_allclose(np.asarray(scope.get("w")), weight - 0.5 * grad, rtol=1e-5)
    assert not np.array_equal(np.asarray(scope.get("w")), before)


def test_bad_arguments_are_named(programs) -> None:
    x = phi.static.data("x", [3], "float32")
    x.stop_gradient = False
    loss = phi.sum(x)
    with pytest.raises(InvalidArgumentError, match="'targets' expects Values"):
        phi.static.gradients([1.0], [x])
    with pytest.raises(InvalidArgumentError, match="2 target_gradients for 1 targets"):
        phi.static.gradients([loss], [x], target_gradients=[None, None])
    seed = phi.static.data("seed", [2], "float32")
    with pytest.raises(InvalidArgumentError, match="target_gradients\\[0\\] has shape \\[2\\]"):
        phi.static.gradients([x * 2.0], [x], target_gradients=[seed])
    with pytest.raises(InvalidArgumentError, match="argument 'loss' expects a Value"):
        phi.static.append_backward(np.float32(1.0))


def test_loss_from_another_program_is_an_error(programs) -> None:
    x = phi.static.data("x", [3], "float32")
    loss = phi.sum(x)
    with phi.static.program_guard(phi.static.Program()):
        with pytest.raises(InvalidArgumentError, match="inside the program_guard"):
            phi.static.append_backward(loss)
