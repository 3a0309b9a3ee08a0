"""The executor's per-run lookups of a program's parameters are remembered (Scope.find_vars,
Plan.fits): a variable created or erased, or a parameter array replaced, must still be seen."""

from __future__ import annotations

import numpy as np
import pytest

from phiops.runtime.errors import PreconditionNotMetError
from phiops.runtime.static import Scope
from phiops.runtime.static.executor.feeds import scope_arrays
from phiops.runtime.common import Backend, Place


def test_find_vars_sees_a_variable_created_in_a_child_scope_or_erased() -> None:
    parent = Scope()
    parent.var("w").set(np.ones(2, "float32"))
    child = parent.new_scope()
    names = ("w", "b")
    found = child.find_vars(names)
    assert found[0] is parent.find_var("w") and found[1] is None
    assert child.find_vars(names) is found  # remembered
    shadow = child.var("w")
    again = child.find_vars(names)
    assert again[0] is shadow and again[1] is None
    child.erase(["w"])
    assert child.find_vars(names)[0] is parent.find_var("w")
    parent.var("b")
    assert child.find_vars(names)[1] is parent.find_var("b")


def test_scope_arrays_reads_each_run_the_array_a_variable_holds_now() -> None:
    scope = Scope()
    scope.var("w").set(np.ones(2, "float32"))
    params = [("w", None)]
    place = Place(Backend.CPU)
    first = scope_arrays(params, scope, place)[0]
    scope.var("w").set(np.zeros(3, "float32"))
    second = scope_arrays(params, scope, place)[0]
    assert second is not first and second.shape == (3,)
    scope.var("w").array = None
    with pytest.raises(PreconditionNotMetError, match="parameter 'w' is not in the scope"):
        scope_arrays(params, scope, place)
    with pytest.raises(PreconditionNotMetError, match="parameter 'v' is not in the scope"):
        scope_arrays([("v", None)], scope, place)


def test_a_replaced_parameter_of_another_shape_makes_a_new_plan() -> None:
    import phiops as paddle

    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [None, 2], "float32")
            out = paddle.static.nn.fc(x, 3)
        exe = paddle.static.Executor()
        scope = paddle.static.global_scope().new_scope()
        exe.run(startup, scope=scope)
        feed = {"x": np.ones((1, 2), "float32")}
        first = exe.run(main, feed, [out], scope=scope)[0]
        (weight,) = [n for n in scope.local_var_names() if scope.get(n).ndim == 2]
        (bias,) = [n for n in scope.local_var_names() if scope.get(n).ndim == 1]
        assert first.shape == (1, 3)
        scope.var(weight).set(np.full((2, 3), 2.0, "float32"))
        np.testing.assert_allclose(
            exe.run(main, feed, [out], scope=scope)[0], 4.0 + scope.get(bias)[None]
        )
        scope.var(weight).set(np.full((2, 4), 1.0, "float32"))  # a shape the program refuses
        with pytest.raises(Exception, match="(?i)shape|dims|declares"):
            exe.run(main, feed, [out], scope=scope)
    finally:
        paddle.disable_static()
