"""phi.static.nn.cond / while_loop: what they build, what they reject, and how the executor runs
pd_op.if / pd_op.while (PaddlePaddle's own programs are in test_control_flow_fixtures.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.dispatch.dispatcher import OpDispatcher
from phiops.runtime.errors import InvalidArgumentError, PreconditionNotMetError
from phiops.runtime.ir import parse_program
from phiops.runtime.static import Executor

IR = Path(__file__).resolve().parents[1] / "data" / "ir"
nn = phi.static.nn
X = np.array([[0.5, 1.0, 1.5], [2.0, 2.5, 3.0]], "float32")


def program(name: str):
    return parse_program((IR / f"{name}.txt").read_text(encoding="utf-8"), name)


def full(shape, value, dtype):
    return phi.full(shape, value, dtype, place=phi.Place())


# -- building ----------------------------------------------------------------------------------


def test_cond_branches_returning_different_counts_is_an_error(programs) -> None:
    main, _ = programs
    x = phi.static.data("x", [2, 3])
    with pytest.raises(InvalidArgumentError, match="true_fn returns 2 value.*false_fn returns 1"):
        nn.cond(phi.mean(x) > 0, lambda: (x + 1.0, x), lambda: x)
    assert "pd_op.if" not in str(main)  # nothing half-built is left in the program


def test_cond_branches_returning_different_dtypes_is_an_error_naming_the_output(programs) -> None:
    x = phi.static.data("x", [2, 3])
    y = phi.static.data("y", [2, 3], "float64")
    with pytest.raises(InvalidArgumentError, match=r"output 1 is float32 \[2, 3\].*float64.*dtype"):
        nn.cond(phi.mean(x) > 0, lambda: (x, x), lambda: (x, y))


def test_cond_branches_returning_different_ranks_is_an_error(programs) -> None:
    x = phi.static.data("x", [2, 3])
    with pytest.raises(InvalidArgumentError, match=r"output 0 .*\[2, 3\].*\[1, 2, 3\].*rank"):
        nn.cond(phi.mean(x) > 0, lambda: x, lambda: phi.unsqueeze(x, [0]))


def test_cond_branches_nesting_differently_is_an_error(programs) -> None:
    x = phi.static.data("x", [2, 3])
    with pytest.raises(InvalidArgumentError, match="different nestings"):
        nn.cond(phi.mean(x) > 0, lambda: [x, [x]], lambda: [[x], x])


def test_cond_with_one_branch_returning_none_is_an_error(programs) -> None:
    x = phi.static.data("x", [2, 3])
    with pytest.raises(InvalidArgumentError, match="false_fn returns None"):
        nn.cond(phi.mean(x) > 0, lambda: x)


def test_cond_predicate_must_be_bool(programs) -> None:
    x = phi.static.data("x", [2, 3])
    with pytest.raises(InvalidArgumentError, match="'pred' must be a bool Value.*float32 \\[\\]"):
        nn.cond(phi.mean(x), lambda: x, lambda: x)


def test_cond_predicate_must_have_one_element(programs) -> None:
    p = phi.static.data("p", [3], "bool")
    with pytest.raises(InvalidArgumentError, match=r"one element.*\[3\]"):
        nn.cond(p, lambda: None, lambda: None)


def test_cond_different_constants_become_0d_values(programs) -> None:
    p = phi.static.data("p", [], "bool")
    same, differ, mixed = nn.cond(p, lambda: (3, 1, 2.5), lambda: (3, 2, p))
    assert same == 3
    assert str(differ.type) == "tensor<i64>"
    assert str(mixed.type) == "tensor<b>"  # the constant takes the Value's dtype


def test_cond_leaf_none_in_both_branches_stays_none(programs) -> None:
    x = phi.static.data("x", [2, 3])
    out, nothing = nn.cond(phi.mean(x) > 0, lambda: (x * 2.0, None), lambda: (x, None))
    assert nothing is None
    assert out.define_op.name == "pd_op.if" and len(out.define_op.results) == 1


def test_cond_result_stops_gradient_only_when_both_branches_do(programs) -> None:
    x = phi.static.data("x", [2, 3])
    x.stop_gradient = False
    y = phi.static.data("y", [2, 3])
    a, b = nn.cond(phi.mean(y) > 0, lambda: (x * 2.0, y), lambda: (y, y * 2.0))
    assert (a.stop_gradient, b.stop_gradient) == (False, True)


def test_while_loop_body_returning_the_wrong_count_is_an_error(programs) -> None:
    i = full([1], 0, "int64")
    x = phi.static.data("x", [2, 3])
    with pytest.raises(InvalidArgumentError, match="body returns 1 value.*loop_vars has 2"):
        nn.while_loop(lambda i, s: i < 3, lambda i, s: [i + 1], [i, x])


def test_while_loop_body_changing_a_dtype_is_an_error_naming_the_variable(programs) -> None:
    i = full([1], 0, "int64")
    x = phi.static.data("x", [2, 3])
    with pytest.raises(InvalidArgumentError, match=r"loop variable 1 is float32.*float64.*dtype"):
        nn.while_loop(lambda i, s: i < 3, lambda i, s: [i + 1, phi.cast(s, "float64")], [i, x])


def test_while_loop_cond_must_return_a_bool(programs) -> None:
    i = full([1], 0, "int64")
    with pytest.raises(InvalidArgumentError, match="the value cond returns must be a bool"):
        nn.while_loop(lambda i: i + 1, lambda i: i + 1, [i])


def test_control_flow_needs_static_mode() -> None:
    phi.disable_static()
    with pytest.raises(PreconditionNotMetError, match="enable_static"):
        nn.cond(None, lambda: None)
    with pytest.raises(PreconditionNotMetError, match="enable_static"):
        nn.while_loop(lambda i: i, lambda i: i, [None])


def test_while_loop_returns_the_nesting_of_loop_vars(programs) -> None:
    i = full([1], 0, "int64")
    a, b = full([1], 1.0, "float32"), full([1], 2.0, "float32")
    out = nn.while_loop(lambda i, ab: i < 3, lambda i, ab: [i + 1, (ab[1], ab[0])], [i, (a, b)])
    assert isinstance(out, list) and isinstance(out[1], tuple)
    assert [v.define_op.name for v in (out[0], *out[1])] == ["pd_op.while"] * 3


# -- running -----------------------------------------------------------------------------------


def test_paddles_cond_program_runs_the_branch_the_predicate_selects() -> None:
    p = program("18_cond")  # mean(x) > 0 ? exp(x) * 2 : log(x) + 1
    exe = Executor()
    (taken,) = exe.run(p, {"x": X}, [p.value("%5")])
    np.testing.assert_allclose(taken, np.exp(X) * 2, rtol=1e-6)
    mixed = X - 1.9  # mean below 0, some elements positive
    (other,) = exe.run(p, {"x": mixed}, [p.value("%5")])
    with np.errstate(invalid="ignore"):
        np.testing.assert_allclose(other, np.log(mixed) + 1, rtol=1e-6)  # nan where negative


def test_paddles_while_program_runs_until_the_condition_fails() -> None:
    p = program("19_while_loop")  # i from 0 while i < 5: x * 2
    count, out = Executor().run(p, {"x": X}, [p.value("%4"), p.value("%5")])
    np.testing.assert_array_equal(count, [5])
    np.testing.assert_array_equal(out, X * 32)


def _tanh_grad_chain(x: np.ndarray, times: int) -> np.ndarray:
    grad = np.full_like(x, 1.0 / x.size)
    values = [x]
    for _ in range(times):
        values.append(np.tanh(values[-1]))
    for value in reversed(values[1:]):
        grad = grad * (1 - value * value)
    return grad


def test_paddles_while_backward_pops_what_the_forward_loop_pushed() -> None:
    p = program("20_control_flow_backward")  # d mean(tanh(tanh(tanh(x)))) / dx
    (grad,) = Executor().run(p, {"x": X}, [p.value("%16")])
    np.testing.assert_allclose(grad, _tanh_grad_chain(X, 3), rtol=1e-5)


def test_paddles_cond_backward_takes_the_forward_branch() -> None:
    p = program("21_cond_backward")  # d mean(tanh(x) if mean(x) > 0 else x * x) / dx
    exe = Executor()
    (grad,) = exe.run(p, {"x": X}, [p.value("%13")])
    np.testing.assert_allclose(grad, _tanh_grad_chain(X, 1), rtol=1e-5)
    (grad,) = exe.run(p, {"x": -X}, [p.value("%13")])
    np.testing.assert_allclose(grad, 2 * -X / X.size, rtol=1e-5)


def test_plans_inside_regions_are_made_once_per_feed_signature(monkeypatch) -> None:
    p = program("19_while_loop")
    calls = []
    original = OpDispatcher.plan

    def counting(self, metas, attrs):
        calls.append(self.info.name)
        return original(self, metas, attrs)

    monkeypatch.setattr(OpDispatcher, "plan", counting)
    exe = Executor()
    exe.run(p, {"x": X}, [p.value("%5")])
    planned = len(calls)
    assert "scale" in calls  # the body's ops were planned with the program
    for _ in range(3):
        exe.run(p, {"x": X}, [p.value("%5")])
    assert len(calls) == planned


WHILE_HEAD = """{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[5,3],stop_gradient:[true]} : () -> tensor<5x3xf32>
    (%1) = "pd_op.full" () {dtype:int64,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xi64>
    (%2) = "pd_op.full" () {dtype:float32,place:Place(undefined:0),shape:[1,3],stop_gradient:[true],value:0} : () -> tensor<1x3xf32>
    (%3) = "pd_op.full" () {dtype:int64,place:Place(undefined:0),shape:[],stop_gradient:[true],value:3} : () -> tensor<i64>
    (%4) = "pd_op.less_than" (%1, %3) {stop_gradient:[true]} : (tensor<1xi64>, tensor<i64>) -> tensor<1xb>
    (%5, %6) = "pd_op.while" (cond=%4, inputs=%1, %2) { 
    ^%arg_0 {stop_gradient:true}, %arg_1 {stop_gradient:true}
        (%7) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xf32>
        (%8) = "pd_op.scale" (%arg_0, %7) {bias:1,bias_after_scale:true,stop_gradient:[true]} : (tensor<1xi64>, tensor<1xf32>) -> tensor<1xi64>
        (%9) = "pd_op.less_than" (%8, %3) {stop_gradient:[true]} : (tensor<1xi64>, tensor<i64>) -> tensor<1xb>
"""


def test_loop_value_changing_shape_is_an_error_naming_it() -> None:
    # the body yields concat([s, s]): [2, 3] for a value the program declares [1, 3]
    p = parse_program(
        WHILE_HEAD
        + """        (%10) = "pd_op.full" () {dtype:int32,place:Place(cpu),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xi32>
        (%11) = "builtin.combine" (%arg_1, %arg_1) {stop_gradient:[true]} : (tensor<1x3xf32>, tensor<1x3xf32>) -> vec[tensor<1x3xf32>,tensor<1x3xf32>]
        (%12) = "pd_op.concat" (%11, %10) {stop_gradient:[true]} : (vec[tensor<1x3xf32>,tensor<1x3xf32>], tensor<1xi32>) -> tensor<2x3xf32>
        () = "cf.yield" (%9, %8, %12) {} : (tensor<1xb>, tensor<1xi64>, tensor<2x3xf32>) -> 
    }
}
"""
    )
    with pytest.raises(
        InvalidArgumentError,
        match=r"pd_op.while .*loop value 1 \(%arg_1\) is float32 \[1, 3\] on entry, but the "
        r"body yields float32 \[2, 3\] for it \(%12\)",
    ):
        Executor().run(p, {"x": np.ones((5, 3), "float32")}, [p.value("%6")])


def test_loop_value_changing_shape_at_run_time_is_an_error_naming_it() -> None:
    # slice(x, i, i + 2) has unknown rows until it runs; it yields [2, 3] for a [1, 3] value
    p = parse_program(
        WHILE_HEAD
        + """        (%10) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xf32>
        (%11) = "pd_op.scale" (%arg_0, %10) {bias:2,bias_after_scale:true,stop_gradient:[true]} : (tensor<1xi64>, tensor<1xf32>) -> tensor<1xi64>
        (%12) = "pd_op.slice" (%0, %arg_0, %11) {axes:[0],decrease_axis:[],infer_flags:[-1],stop_gradient:[true]} : (tensor<5x3xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<-1x3xf32>
        () = "cf.yield" (%9, %8, %12) {} : (tensor<1xb>, tensor<1xi64>, tensor<-1x3xf32>) -> 
    }
}
"""
    )
    with pytest.raises(
        InvalidArgumentError,
        match=r"loop value 1 \(%arg_1\) has shape \[1, 3\] on entry, but an iteration yields "
        r"shape \[2, 3\]",
    ):
        Executor().run(p, {"x": np.ones((5, 3), "float32")}, [p.value("%6")])


def test_if_on_a_predicate_of_several_elements_is_an_error() -> None:
    p = parse_program("""{
    (%0) = "pd_op.data" () {dtype:bool,name:"p",place:Place(undefined:0),shape:[3],stop_gradient:[true]} : () -> tensor<3xb>
    (%1) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,3],stop_gradient:[true]} : () -> tensor<2x3xf32>
    (%2) = "pd_op.if" (%0) {stop_gradient:[true]} -> tensor<2x3xf32> {
        () = "cf.yield" (%1) {} : (tensor<2x3xf32>) -> 
    } else {
        () = "cf.yield" (%1) {} : (tensor<2x3xf32>) -> 
    }
}
""")
    with pytest.raises(
        InvalidArgumentError, match=r"pd_op.if .*the condition %0 must be a bool tensor of one"
    ):
        Executor().run(p, {"p": np.ones(3, bool), "x": X}, [p.value("%2")])


def test_built_control_flow_runs(programs) -> None:
    main, _ = programs
    x = phi.static.data("x", [2, 3])
    i = full([1], 0, "int64")

    def body(i, s):
        s = nn.cond(phi.mean(s) > 10.0, lambda: s, lambda: s * 2.0)
        return [i + 1, s]

    count, out = nn.while_loop(lambda i, s: i < 4, body, [i, x])
    got_count, got = Executor().run(main, {"x": X}, [count, out])
    np.testing.assert_array_equal(got_count, [4])
    expected = X.copy()
    for _ in range(4):
        expected = expected if expected.mean() > 10.0 else expected * 2.0
    np.testing.assert_allclose(got, expected)
