"""Record PaddlePaddle 3.3.1's dtypes for binary ops with a 0-D tensor operand (its
``GetPromoteDtype`` rule for "Tensor + 0-d Tensor", paddle/phi/common/type_promotion.h), eager
and in a static program, into tests/data/dtype_semantics/zero_d_promotion.json.

Run in the side venv with PaddlePaddle 3.3.1 installed:
    /work/paddle-venv/bin/python tests/tools/make_zero_d_promotion_fixtures.py
Every pair of PaddlePaddle's twelve dtypes (unequal), for a [2] tensor with a 0-D one, a 0-D one
with a [2] one, and two 0-D ones; the value is the result's dtype, or "error" where 3.3.1 raises
(its refusals, and its missing kernels: both raise in phiops too).
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import paddle

warnings.filterwarnings("ignore")
OUT = Path(__file__).resolve().parents[1] / "data" / "dtype_semantics" / "zero_d_promotion.json"
DTYPES = [
    "bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32",
    "float64", "complex64", "complex128",
]  # fmt: skip
# Through paddle.<name>; maximum is not among PHI's support_promotion_ops (it refuses mixes).
OPS = ["add", "divide", "floor_divide", "pow", "equal", "copysign", "maximum"]
SHAPES = {"tensor_0d": ([2], []), "0d_tensor": ([], [2]), "0d_0d": ([], [])}


def dtype_name(dtype: object) -> str:
    return str(dtype).replace("paddle.", "")


def eager() -> dict[str, str]:
    found = {}
    for op in OPS:
        for x_dtype in DTYPES:
            for y_dtype in DTYPES:
                if x_dtype == y_dtype:
                    continue
                for shapes, (x_shape, y_shape) in SHAPES.items():
                    x = paddle.ones(x_shape, "float32").astype(x_dtype)
                    y = paddle.ones(y_shape, "float32").astype(y_dtype)
                    try:
                        result = dtype_name(getattr(paddle, op)(x, y).dtype)
                    except Exception:  # noqa: BLE001 - recorded as an error
                        result = "error"
                    found[f"{op} {x_dtype} {y_dtype} {shapes}"] = result
    return found


STATIC_CASES = [
    # (name, x dtype, x shape, y dtype, y shape, op)
    ("float64[2] * int64[]", "float64", [2], "int64", [], "multiply"),
    ("int32[2] * float32[]", "int32", [2], "float32", [], "multiply"),
    ("int32[2] * int64[]", "int32", [2], "int64", [], "multiply"),
    ("float64[2] == int64[]", "float64", [2], "int64", [], "equal"),
    ("int64[] / int64[]", "int64", [], "int64", [], "divide"),
    ("int64[] * float32[]", "int64", [], "float32", [], "multiply"),
    ("int32[2] / int64[]", "int32", [2], "int64", [], "divide"),
    ("int32[2] - int64[]", "int32", [2], "int64", [], "subtract"),
]


def feed_of(dtype: str, shape: list[int]) -> np.ndarray:
    return (np.arange(int(np.prod(shape)), dtype=np.float64) + 3).reshape(shape).astype(dtype)


def static() -> list[dict[str, object]]:
    paddle.enable_static()
    cases = []
    for name, x_dtype, x_shape, y_dtype, y_shape, op in STATIC_CASES:
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            x = paddle.static.data("x", x_shape, x_dtype)
            y = paddle.static.data("y", y_shape, y_dtype)
            out = getattr(paddle, op)(x, y)
        feeds = {"x": feed_of(x_dtype, x_shape), "y": feed_of(y_dtype, y_shape) / 2}
        feeds["y"] = feeds["y"].astype(y_dtype)
        (value,) = paddle.static.Executor().run(main, feed=feeds, fetch_list=[out])
        cases.append(
            {
                "name": name,
                "op": op,
                "x": [x_dtype, x_shape, feeds["x"].tolist()],
                "y": [y_dtype, y_shape, feeds["y"].tolist()],
                "dtype": dtype_name(out.dtype),
                "value": np.asarray(value).tolist(),
                "casts": str(main).count('"pd_op.cast"'),
            }
        )
    paddle.disable_static()
    return cases


def main() -> None:
    data = {"paddle": paddle.__version__, "eager": eager(), "static": static()}
    OUT.write_text(json.dumps(data, indent=0, sort_keys=True) + "\n")
    print(f"{len(data['eager'])} eager cases, {len(data['static'])} static cases -> {OUT}")


if __name__ == "__main__":
    main()
