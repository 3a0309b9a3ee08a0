"""A 0-D tensor operand of an elementwise arithmetic or comparison op promotes as PaddlePaddle
3.3.1's GetPromoteDtype makes it (runtime/common/promotion.py ``zero_d_tensor_dtype``, for the
ops whose traits give ``zero_d_promotion``): every
pair of dtypes, both orders and two 0-D operands, for seven ops (maximum, outside PHI's list,
keeps refusing mixes), eager and in static programs, against 3.3.1's recorded dtypes
(tests/tools/make_zero_d_promotion_fixtures.py)."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import pytest

import phiops as paddle
from phiops.runtime.common import DataType
from phiops.generated.registry import OPS
from phiops.runtime.common.promotion import promote_types, zero_d_tensor_dtype
from phiops.runtime.errors import InvalidArgumentError

DATA = json.loads(
    (Path(__file__).resolve().parents[1] / "data/dtype_semantics/zero_d_promotion.json").read_text()
)
SHAPES = {"tensor_0d": ([2], []), "0d_tensor": ([], [2]), "0d_0d": ([], [])}
D = DataType


def _dtype(result: object) -> str:
    return str(result.dtype).replace("phi.", "").replace("paddle.", "")


@pytest.mark.parametrize("op", sorted({key.split()[0] for key in DATA["eager"]}))
def test_eager_dtypes_are_paddles(op: str) -> None:
    mismatches = []
    for key, expected in DATA["eager"].items():
        name, x_dtype, y_dtype, shapes = key.split()
        if name != op:
            continue
        x_shape, y_shape = SHAPES[shapes]
        x = paddle.ones(x_shape, "float32").astype(x_dtype)
        y = paddle.ones(y_shape, "float32").astype(y_dtype)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                got = _dtype(getattr(paddle, op)(x, y))
        except Exception:  # noqa: BLE001 - compared with 3.3.1's "error"
            got = "error"
        if got != expected:
            mismatches.append(f"{key}: phiops {got}, PaddlePaddle 3.3.1 {expected}")
    assert not mismatches, "\n".join(mismatches)


@pytest.mark.parametrize("case", DATA["static"], ids=lambda case: case["name"])
def test_static_programs_cast_and_compute_as_paddle(case: dict) -> None:
    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            (x_dtype, x_shape, x_value), (y_dtype, y_shape, y_value) = case["x"], case["y"]
            x = paddle.static.data("x", x_shape, x_dtype)
            y = paddle.static.data("y", y_shape, y_dtype)
            out = getattr(paddle, case["op"])(x, y)
        assert _dtype(out) == case["dtype"]
        assert str(main).count('"pd_op.cast"') == case["casts"]
        feed = {"x": np.array(x_value, x_dtype), "y": np.array(y_value, y_dtype)}
        (value,) = paddle.static.Executor().run(main, feed=feed, fetch_list=[out])
        np.testing.assert_allclose(value, np.array(case["value"]), rtol=1e-6)
    finally:
        paddle.disable_static()


def test_the_rule_in_words() -> None:
    # a 0-D operand of the other's kind takes the other's dtype, like a Python number
    assert zero_d_tensor_dtype(D.FLOAT32, False, D.FLOAT64, True) is D.FLOAT32
    assert zero_d_tensor_dtype(D.INT64, True, D.INT32, False) is D.INT32
    # of another kind (bool is none), or both 0-D: PHI's table
    assert zero_d_tensor_dtype(D.INT32, False, D.FLOAT64, True) is D.FLOAT64
    assert zero_d_tensor_dtype(D.FLOAT32, False, D.BOOL, True) is D.FLOAT32
    assert zero_d_tensor_dtype(D.INT64, True, D.INT32, True) is D.INT64
    assert promote_types(D.FLOAT16, D.BFLOAT16) is D.FLOAT32
    assert promote_types(D.UINT8, D.INT8) is D.INT16
    # which ops: their traits (ops/op_traits.yaml zero_d_promotion), PHI's support_promotion_ops
    traits = {op: OPS[op].info.traits.zero_d_promotion for op in ("add", "floor_divide", "maximum")}
    assert traits == {"add": "number", "floor_divide": "table", "maximum": None}


def test_tensor_with_tensor_still_refuses_mixed_kinds() -> None:
    x = paddle.to_tensor([1.5, 2.5], dtype="float64")
    with pytest.raises(InvalidArgumentError, match=r"multiply\(\): x is float64 and y is int64"):
        x * paddle.to_tensor([2], dtype="int64")
    assert (x * paddle.to_tensor(2, dtype="int64")).numpy().tolist() == [3.0, 5.0]
