"""Writes tests/data/dtype_semantics/*.json: what PaddlePaddle 3.3.1 (CPU) gives, dtype by dtype.

Run with the side venv: ``/work/paddle-venv/bin/python tests/tools/make_dtype_table.py``.
tests/ops/test_dtype_semantics.py replays every row on phiops (the suite never imports paddle).

Ops are called through ``paddle._C_ops`` with the positional arguments phiops' generated API
takes (the same PHI op, so the same call works on both sides); Python operators through the
``operator`` module. Each row ends in its result: ``[dtype, shape, values]`` (values flattened;
complex as ``[re, im]``, bfloat16/float16 read as float32; NaN/Infinity as Python's json writes
them), ``["type:<name>"]`` when the result is no Tensor, or ``"raises"``.

Files:
- ``ops.json``: the op table (name -> kind and attributes) and the input values per dtype;
- ``binary.json``: every ordered dtype pair for every binary op, and for every Python operator;
- ``unary.json``: every dtype for every unary op, reduction and cast;
- ``scalars.json``: every Python and numpy scalar kind with every tensor dtype, on both sides;
- ``edges.json``: edge values (NaN, inf, -0.0, integer overflow, division by zero, negative
  integers in floor_divide/remainder/pow, bool arithmetic).
"""

from __future__ import annotations

import json
import operator
import os
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import paddle
from paddle import _C_ops

OUT = Path(__file__).resolve().parents[1] / "data" / "dtype_semantics"

DTYPES = (
    "bool",
    "uint8",
    "int8",
    "int16",
    "int32",
    "int64",
    "float16",
    "bfloat16",
    "float32",
    "float64",
    "complex64",
    "complex128",
)

# Inputs per dtype: x and y for binary ops (no zero divisor, no negative exponent), u for unary
# ops and reductions.
INPUTS: dict[str, dict[str, list[Any]]] = {
    "bool": {"x": [True, False], "y": [True, True], "u": [True, False, True]},
    "uint8": {"x": [5, 7], "y": [2, 3], "u": [1, 2, 0]},
    "signed": {"x": [5, -7], "y": [2, 3], "u": [1, -2, 0]},
    "float": {"x": [5.5, -7.0], "y": [2.0, 3.0], "u": [0.5, -2.0, 0.0]},
    "complex": {
        "x": [[5.5, 1.0], [-7.0, 0.0]],
        "y": [[2.0, 0.0], [3.0, -1.0]],
        "u": [[0.5, 1.0], [-2.0, 0.0], [0.0, 0.0]],
    },
}


def _family(dtype: str) -> str:
    if dtype in ("bool", "uint8"):
        return dtype
    if dtype.startswith("int"):
        return "signed"
    if dtype.startswith("complex"):
        return "complex"
    return "float"


BINARY_OPS = (
    "add",
    "subtract",
    "multiply",
    "divide",
    "floor_divide",
    "remainder",
    "elementwise_pow",
    "maximum",
    "minimum",
    "fmax",
    "fmin",
    "equal",
    "not_equal",
    "less_than",
    "less_equal",
    "greater_than",
    "greater_equal",
    "logical_and",
    "logical_or",
    "logical_xor",
    "bitwise_and",
    "bitwise_or",
    "bitwise_xor",
    "matmul",
    "where",
    "concat",
    "stack",
    "add_n",
)
# How each binary op is called: (x, y) -> positional arguments.
MULTI_INPUT = {"concat": (0,), "stack": (0,), "add_n": ()}
BINARY_ATTRS: dict[str, list[Any]] = {"matmul": [False, False]}

OPERATORS = {
    "+": "add",
    "-": "sub",
    "*": "mul",
    "/": "truediv",
    "//": "floordiv",
    "%": "mod",
    "**": "pow",
    "&": "and_",
    "|": "or_",
    "^": "xor",
    "==": "eq",
    "!=": "ne",
    "<": "lt",
    "<=": "le",
    ">": "gt",
    ">=": "ge",
    "@": "matmul",
}
# The op an operator's result is compared with: an equal result is stored as "=<op>".
OPERATOR_OPS = {
    "+": "add",
    "-": "subtract",
    "*": "multiply",
    "/": "divide",
    "//": "floor_divide",
    "%": "remainder",
    "**": "elementwise_pow",
    "&": "bitwise_and",
    "|": "bitwise_or",
    "^": "bitwise_xor",
    "==": "equal",
    "!=": "not_equal",
    "<": "less_than",
    "<=": "less_equal",
    ">": "greater_than",
    ">=": "greater_equal",
    "@": "matmul",
}
SCALAR_OPERATORS = ("+", "-", "*", "/", "//", "%", "**", "&", "|", "^", "==", ">")

# Unary ops and reductions, with the attributes phiops' API takes after x ("dtype:X" is a dtype).
UNARY_OPS: dict[str, list[Any]] = {
    "exp": [],
    "log": [],
    "sqrt": [],
    "rsqrt": [],
    "square": [],
    "abs": [],
    "sign": [],
    "floor": [],
    "ceil": [],
    "sin": [],
    "cos": [],
    "tanh": [],
    "sigmoid": [],
    "erf": [],
    "relu": [],
    "gelu": [False],
    "silu": [],
    "leaky_relu": [0.02],
    "relu6": [],
    "hardswish": [],
    "hardsigmoid": [0.2, 0.5],
    "swish": [],
    "elu": [1.0],
    "selu": [1.0507009873554805, 1.6732632423543772],
    "softplus": [1.0, 20.0],
    "softsign": [],
    "mish": [20.0],
    "hardtanh": [-1.0, 1.0],
    "logsigmoid": [],
    "logit": [1e-6],
    "logical_not": [],
    "bitwise_not": [],
    "isnan": [],
    "isinf": [],
    "isfinite": [],
    "scale": [-1.0, 0.0, True],
    "pow": [2.0],
    "clip": [-1.0, 1.0],
    "softmax": [-1],
    "log_softmax": [-1],
    "assign": [],
}
REDUCTIONS: dict[str, list[Any]] = {
    "sum": [[], "dtype:undefined", False],
    "mean": [[], False],
    "max": [[], False],
    "min": [[], False],
    "prod": [[], False, True],
    "all": [[], False],
    "any": [[], False],
    "argmax": [0, False, False, "dtype:int64"],
    "argmin": [0, False, False, "dtype:int64"],
    "logsumexp": [[0], False, False],
    "cumsum": [-1, False, False, False],
    "cumprod": [0, False, False],
}

SCALARS: list[list[Any]] = [
    ["bool", True],
    ["int", 3],
    ["float", 2.5],
    ["complex", [1.0, 2.0]],
    ["np.bool_", True],
    ["np.uint8", 3],
    ["np.int8", 3],
    ["np.int16", 3],
    ["np.int32", 3],
    ["np.int64", 3],
    ["np.float16", 2.5],
    ["np.float32", 2.5],
    ["np.float64", 2.5],
    ["np.complex64", [1.0, 2.0]],
    ["np.complex128", [1.0, 2.0]],
    ["np.array:bool", True],
    ["np.array:int32", 3],
    ["np.array:int64", 3],
    ["np.array:float32", 2.5],
    ["np.array:float64", 2.5],
]


def make_scalar(kind: str, value: Any) -> Any:
    """The scalar a SCALARS row describes (the test builds it with the same code)."""
    if isinstance(value, list):
        value = complex(*value)
    if kind in ("bool", "int", "float", "complex"):
        return {"bool": bool, "int": int, "float": float, "complex": complex}[kind](value)
    if kind.startswith("np.array:"):
        return np.array(value, dtype=kind.split(":")[1])
    return getattr(np, kind[3:])(value)


def to_tensor(values: list[Any], dtype: str) -> paddle.Tensor:
    if dtype.startswith("complex"):
        data = np.array([complex(*v) if isinstance(v, list) else v for v in values])
        return paddle.to_tensor(data.astype(dtype))
    array = np.array(values)
    if dtype == "bfloat16":
        return paddle.to_tensor(array.astype("float32")).astype("bfloat16")
    return paddle.to_tensor(array.astype(dtype))


def _encode_value(value: Any) -> Any:
    if isinstance(value, complex):
        return [value.real, value.imag]
    return value


def result_of(value: Any) -> Any:
    if isinstance(value, (list, tuple)) and value and isinstance(value[0], paddle.Tensor):
        value = value[0]
    if not isinstance(value, paddle.Tensor):
        return [f"type:{type(value).__name__}"]
    dtype = str(value.dtype).replace("paddle.", "")
    array = value.astype("float32").numpy() if dtype in ("bfloat16", "float16") else value.numpy()
    return [dtype, list(array.shape), [_encode_value(v) for v in array.reshape(-1).tolist()]]


def attr_value(attr: Any) -> Any:
    if isinstance(attr, str) and attr.startswith("dtype:"):
        name = attr[len("dtype:") :]
        return paddle.base.core.DataType.UNDEFINED if name == "undefined" else getattr(paddle, name)
    return attr


def attempt(fn: Any) -> Any:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return result_of(fn())
    except Exception:  # noqa: BLE001 - every refusal is recorded as "raises"
        return "raises"


def attempt_isolated(fn: Any) -> Any:
    """``attempt`` in a forked child: PaddlePaddle's integer remainder by zero kills the process
    with SIGFPE. A child killed by a signal is recorded as "crashes" (phiops must raise there)."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        with os.fdopen(write_end, "w") as out:
            out.write(json.dumps(attempt(fn)))
        os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end) as source:
        text = source.read()
    _, status = os.waitpid(pid, 0)
    return json.loads(text) if os.WIFEXITED(status) and text else "crashes"


# Ops whose ``_C_ops`` entry in PaddlePaddle 3.3.1 parses the Python API's arguments
# (``argmax(x, axis, keepdim, dtype)``) instead of the op's: called through that API.
PYTHON_API_CALLS = {
    "argmax": lambda x: paddle.argmax(x, axis=0),
    "argmin": lambda x: paddle.argmin(x, axis=0),
    "all": lambda x: paddle.all(x),
    "any": lambda x: paddle.any(x),
    "logsumexp": lambda x: paddle.logsumexp(x, axis=0),
}


def call_unary(op: str, x: paddle.Tensor) -> Any:
    if op in PYTHON_API_CALLS:
        return PYTHON_API_CALLS[op](x)
    attrs = [attr_value(a) for a in {**UNARY_OPS, **REDUCTIONS}[op]]
    return getattr(_C_ops, op)(x, *attrs)


def call_binary(op: str, x: paddle.Tensor, y: paddle.Tensor) -> Any:
    if op == "where":
        condition = paddle.to_tensor(np.array([True, False][: x.shape[0]]))
        return _C_ops.where(condition, x, y)
    if op in MULTI_INPUT:
        return getattr(_C_ops, op)([x, y], *MULTI_INPUT[op])
    return getattr(_C_ops, op)(x, y, *BINARY_ATTRS.get(op, []))


def binary_rows() -> dict[str, Any]:
    """One line per ordered dtype pair: the result of each op (in ``ops`` order) and of each
    Python operator (in ``operators`` order; "=<op>" where it equals that op's result)."""
    ops, operators = [], []
    for dx in DTYPES:
        for dy in DTYPES:
            x = to_tensor(INPUTS[_family(dx)]["x"], dx)
            y = to_tensor(INPUTS[_family(dy)]["y"], dy)
            by_op = {op: attempt(lambda: call_binary(op, x, y)) for op in BINARY_OPS}
            ops.append([dx, dy, list(by_op.values())])
            results = []
            for symbol, name in OPERATORS.items():
                fn = getattr(operator, name)
                result = attempt(lambda: fn(x, y))
                same = OPERATOR_OPS[symbol]
                results.append(f"={same}" if by_op[same] == result else result)
            operators.append([dx, dy, results])
    return {
        "op_names": list(BINARY_OPS),
        "operator_names": list(OPERATORS),
        "ops": ops,
        "operators": operators,
    }


def unary_rows() -> dict[str, list[list[Any]]]:
    rows, casts = [], []
    for dtype in DTYPES:
        u = to_tensor(INPUTS[_family(dtype)]["u"], dtype)
        for op in {**UNARY_OPS, **REDUCTIONS}:
            rows.append([op, dtype, attempt(lambda: call_unary(op, u))])
        for target in DTYPES:
            casts.append([dtype, target, attempt(lambda: _C_ops.cast(u, getattr(paddle, target)))])
    return {"ops": rows, "casts": casts}


def scalar_rows() -> dict[str, Any]:
    """One line per (scalar kind, tensor dtype): the results of ``t <op> s`` then ``s <op> t``
    for each operator in ``operators`` order (``t`` holds the dtype's first x value)."""
    rows = []
    for kind, value in SCALARS:
        s = make_scalar(kind, value)
        for dtype in DTYPES:
            t = to_tensor(INPUTS[_family(dtype)]["x"][:1], dtype)
            results = []
            for symbol in SCALAR_OPERATORS:
                fn = getattr(operator, OPERATORS[symbol])
                results.append(attempt(lambda: fn(t, s)))
                results.append(attempt(lambda: fn(s, t)))
            rows.append([kind, value, dtype, results])
    return {"operators": list(SCALAR_OPERATORS), "rows": rows}


NAN, INF = float("nan"), float("inf")
FLOATS = ("float16", "bfloat16", "float32", "float64")
INTS = ("uint8", "int8", "int16", "int32", "int64")
SIGNED = ("int8", "int16", "int32", "int64")


# (op or operator, [[dtype, values], ...]) ; ops take the inputs positionally.
def edge_cases() -> list[tuple[str, list[list[Any]]]]:
    cases: list[tuple[str, list[list[Any]]]] = []
    for d in FLOATS:
        a, b = [NAN, 1.0, NAN, -0.0, 0.0], [1.0, NAN, NAN, 0.0, -0.0]
        for op in ("maximum", "minimum", "fmax", "fmin", "add", "subtract", "multiply"):
            cases.append((op, [[d, a], [d, b]]))
        cases.append(("divide", [[d, [1.0, -1.0, 0.0, INF, -0.0]], [d, [0.0, 0.0, 0.0, INF, 1.0]]]))
        cases.append(
            ("floor_divide", [[d, [7.0, -7.0, 7.0, -7.0, 1.0]], [d, [2.0, 2.0, -2.0, -2.0, 0.0]]])
        )
        cases.append(
            ("remainder", [[d, [7.0, -7.0, 7.0, -7.0, 1.0]], [d, [2.0, 2.0, -2.0, -2.0, 0.0]]])
        )
        cases.append(
            (
                "elementwise_pow",
                [[d, [0.0, -2.0, 2.0, -8.0, INF]], [d, [0.0, 3.0, -1.0, 0.5, -1.0]]],
            )
        )
        for op in ("sqrt", "log", "exp", "abs", "sign", "rsqrt", "floor", "tanh", "sigmoid"):
            cases.append((op, [[d, [-1.0, 0.0, -0.0, INF, -INF, NAN]]]))
        for op in ("sum", "max", "min", "mean", "prod"):
            cases.append((op, [[d, [1.0, NAN, 3.0]]]))
        cases.append(("sum", [[d, [60000.0, 60000.0, -60000.0]]]))
    for d in INTS:
        info = np.iinfo(d)
        cases.append(("add", [[d, [int(info.max), int(info.min)]], [d, [1, 0]]]))
        cases.append(("multiply", [[d, [int(info.max), 2]], [d, [2, 3]]]))
        cases.append(("subtract", [[d, [0, int(info.min)]], [d, [1, 1]]]))
        cases.append(("divide", [[d, [7, 1]], [d, [2, 0]]]))
        cases.append(("divide", [[d, [0, 9]], [d, [0, 3]]]))
        cases.append(("floor_divide", [[d, [1, 7]], [d, [0, 2]]]))
        cases.append(("remainder", [[d, [1, 7]], [d, [0, 2]]]))
        cases.append(("abs", [[d, [int(info.min), int(info.max), 0]]]))
        cases.append(("sign", [[d, [int(info.min), int(info.max), 0]]]))
        cases.append(("scale", [[d, [int(info.max), 0]]]))
        cases.append(("sum", [[d, [int(info.max), int(info.max)]]]))
        cases.append(("bitwise_not", [[d, [0, 5, int(info.max)]]]))
        cases.append(("bitwise_and", [[d, [12, 5]], [d, [10, 3]]]))
        cases.append(("bitwise_or", [[d, [12, 5]], [d, [10, 3]]]))
        cases.append(("bitwise_xor", [[d, [12, 5]], [d, [10, 3]]]))
        for symbol in ("&", "|", "^", "/", "//", "%", "**", "-", "+"):
            cases.append((symbol, [[d, [12, 5, 0]], [d, [10, 3, 2]]]))
    for d in SIGNED:
        neg = [[d, [-7, 7, -7, 0, -1]], [d, [2, -2, -2, 5, 3]]]
        for op in ("floor_divide", "remainder", "divide", "elementwise_pow"):
            cases.append((op, neg))
        cases.append(("elementwise_pow", [[d, [2, -2, 1, 0, -1]], [d, [-1, -1, -3, 0, -2]]]))
        cases.append(("elementwise_pow", [[d, [0]], [d, [-1]]]))
        cases.append(("-", [[d, [-7, 0]], [d, [3, 0]]]))
    tf = [[True, True, False, False], [True, False, True, False]]
    for op in (
        "add",
        "subtract",
        "multiply",
        "divide",
        "floor_divide",
        "remainder",
        "maximum",
        "minimum",
        "elementwise_pow",
        "logical_and",
        "logical_or",
        "logical_xor",
        "bitwise_and",
        "bitwise_or",
        "bitwise_xor",
    ):
        cases.append((op, [["bool", tf[0]], ["bool", tf[1]]]))
    for symbol in ("+", "-", "*", "/", "//", "%", "**", "&", "|", "^"):
        cases.append((symbol, [["bool", tf[0]], ["bool", tf[1]]]))
    for d in ("bool",) + INTS + FLOATS:
        cases.append(("cast", [["float32", [NAN, INF, -INF, -0.0, 1.5, -1.5, 300.0]], d]))
    return cases


def edge_rows() -> list[list[Any]]:
    rows = []
    for op, spec in edge_cases():
        if op == "cast":
            (src, values), target = spec
            x = to_tensor(values, src)
            cast = lambda: _C_ops.cast(x, getattr(paddle, target))  # noqa: E731
            rows.append([op, spec, attempt_isolated(cast)])
            continue
        tensors = [to_tensor(values, dtype) for dtype, values in spec]
        if op in OPERATORS:
            fn = getattr(operator, OPERATORS[op])
        elif op in UNARY_OPS or op in REDUCTIONS:
            fn = lambda x, op=op: call_unary(op, x)  # noqa: E731
        else:
            fn = lambda *ts, op=op: getattr(_C_ops, op)(
                *ts, *BINARY_ATTRS.get(op, [])
            )  # noqa: E731
        rows.append([op, spec, attempt_isolated(lambda: fn(*tensors))])
    return rows


def write(name: str, content: Any) -> None:
    """One row per line, so a diff of a regenerated table reads row by row."""
    if isinstance(content, dict):
        parts = []
        for key, value in content.items():
            if isinstance(value, list):
                body = ",\n".join(json.dumps(row) for row in value)
                parts.append(f"{json.dumps(key)}: [\n{body}\n]")
            else:
                parts.append(f"{json.dumps(key)}: {json.dumps(value)}")
        text = "{\n" + ",\n".join(parts) + "\n}\n"
    else:
        text = "[\n" + ",\n".join(json.dumps(row) for row in content) + "\n]\n"
    (OUT / name).write_text(text)
    print(f"wrote {OUT / name} ({len(text) // 1024} KB)")


def main() -> None:
    paddle.set_device("cpu")
    OUT.mkdir(parents=True, exist_ok=True)
    write(
        "ops.json",
        {
            "paddle": paddle.__version__,
            "dtypes": list(DTYPES),
            "inputs": INPUTS,
            "binary_attrs": BINARY_ATTRS,
            "multi_input": {k: list(v) for k, v in MULTI_INPUT.items()},
            "unary": UNARY_OPS,
            "reductions": REDUCTIONS,
            "operators": OPERATORS,
        },
    )
    write("binary.json", binary_rows())
    write("unary.json", unary_rows())
    write("scalars.json", scalar_rows())
    write("edges.json", edge_rows())


if __name__ == "__main__":
    main()
