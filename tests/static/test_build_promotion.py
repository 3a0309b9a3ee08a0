"""Static program building applies the same type promotion as eager dispatch
(runtime/common/promotion.py): result types from the promoted dtype, a pd_op.cast for each operand
not in it (as PaddlePaddle builds them; tests/static/test_build_text.py compares the text),
refusals at build time; numpy scalars next to a Value are taken as PaddlePaddle takes them."""

from __future__ import annotations

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.static.executor import Executor


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


def _op_names(main) -> list[str]:
    return [op.name for op in main.block.ops]


def test_each_operand_not_in_the_compute_dtype_gets_a_cast_and_the_program_runs(programs):
    main, _ = programs
    f = phi.static.data("f", [2], "float32")
    d = phi.static.data("d", [2], "float64")
    out = phi.multiply(f, d)
    assert _op_names(main)[-2:] == ["pd_op.cast", "pd_op.multiply"]
    (result,) = Executor().run(
        main, {"f": np.array([0.1, 3], np.float32), "d": np.array([3, 0.5])}, [out]
    )
    np.testing.assert_allclose(result, [np.float64(np.float32(0.1)) * 3, 1.5], rtol=0)
    assert result.dtype == np.float64


def test_no_cast_where_the_dtypes_agree(programs):
    main, _ = programs
    f = phi.static.data("f", [2], "float32")
    phi.add(f, f)
    assert _op_names(main) == ["pd_op.data", "pd_op.add"]


@pytest.mark.parametrize(
    "scalar, dtype, fed, expected",
    [
        (np.float32(2.5), "float32", np.array([1.0, 2.0], np.float32), [3.5, 4.5]),
        (np.int64(3), "float32", np.array([1.0, 2.0], np.float32), [4.0, 5.0]),
        # a full of 2.5 in int64 holds 2, as PaddlePaddle's does
        (np.float32(2.5), "int64", np.array([1, 2], np.int64), [3, 4]),
        (np.array(2.0), "float32", np.array([1.0, 2.0], np.float32), [3.0, 4.0]),
    ],
)
def test_a_numpy_scalar_on_the_right_is_a_full_of_the_values_dtype(
    programs, scalar, dtype, fed, expected
):
    main, _ = programs
    x = phi.static.data("x", [2], dtype)
    out = x + scalar
    assert _op_names(main) == ["pd_op.data", "pd_op.full", "pd_op.add"]
    (result,) = Executor().run(main, {"x": fed}, [out])
    assert result.dtype == fed.dtype
    np.testing.assert_array_equal(result, expected)


@pytest.mark.parametrize(
    "operand, message",
    [
        (np.array([1.0, 2.0]), r"^add\(\): a numpy array of shape \[2\] next to a Value"),
        (np.complex64(1 + 2j), r"^add\(\): a numpy complex64 next to a Value"),
    ],
)
def test_numpy_operands_paddle_cannot_take_are_refused(programs, operand, message):
    x = phi.static.data("x", [2], "float32")
    with pytest.raises(phi.InvalidArgumentError, match=message):
        x + operand
