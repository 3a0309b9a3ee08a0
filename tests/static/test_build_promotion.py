"""Static program building applies the same type promotion as eager dispatch
(runtime/common/promotion.py): result types from the promoted dtype, refusals at build time."""

from __future__ import annotations

import numpy as np
import pytest

import generated as phi
from runtime.static.executor import Executor


def test_float16_plus_bfloat16_builds_a_float32_result(programs):
    x = phi.static.data("x", [None, 3], "float16")
    y = phi.static.data("y", [None, 3], "bfloat16")
    assert phi.multiply(x, y).dtype is phi.float32


def test_integer_divide_builds_a_float32_result_and_runs_true_division(programs):
    main, _ = programs
    x = phi.static.data("x", [2], "int32")
    y = phi.static.data("y", [2], "int32")
    out = phi.divide(x, y)
    assert str(out.type) == "tensor<2xf32>"
    (result,) = Executor().run(
        main, {"x": np.array([-1, 7], np.int32), "y": np.array([2, 2], np.int32)}, [out]
    )
    np.testing.assert_array_equal(result, np.array([-0.5, 3.5], np.float32))


def test_int_and_float_mix_is_refused_at_build_time_naming_the_cast(programs):
    x = phi.static.data("x", [2], "int32")
    y = phi.static.data("y", [2], "float32")
    with pytest.raises(
        phi.InvalidArgumentError, match=r"^add\(\): x is int32 .*cast\(x, 'float32'\)"
    ):
        phi.add(x, y)


def test_exp_of_an_int64_value_builds_float32(programs):
    x = phi.static.data("x", [3], "int64")
    assert phi.exp(x).dtype is phi.float32
