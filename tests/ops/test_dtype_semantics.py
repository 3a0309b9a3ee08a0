"""phiops against PaddlePaddle 3.3.1's dtype semantics, row by row.

The table in tests/data/dtype_semantics/ was written by tests/tools/make_dtype_table.py from
PaddlePaddle 3.3.1 (CPU): every ordered dtype pair for every binary op and Python operator, every
dtype for every unary op, reduction and cast, every Python and numpy scalar kind with every tensor
dtype on both sides, and edge values. A row holds the result dtype, shape and values, or
"raises" ("crashes" where PaddlePaddle dies of SIGFPE: phiops raises there). Each test collects
the rows that differ and reports them all; a row phiops deliberately answers differently is listed
in DELIBERATE with the reason.
"""

from __future__ import annotations

import json
import math
import operator
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.errors import PhiError

DATA = Path(__file__).resolve().parents[1] / "data" / "dtype_semantics"


def _load(name: str) -> Any:
    return json.loads((DATA / name).read_text())


OPS = _load("ops.json")
BINARY = _load("binary.json")
UNARY = _load("unary.json")
SCALARS = _load("scalars.json")
EDGES = _load("edges.json")

# Rows where phiops deliberately differs from PaddlePaddle 3.3.1, by rule, with the reason.
NUMPY_BOOL_FROM_EQ = (
    "t == np.bool_/np.uint8/np.int8/np.int16 scalar (either side): PaddlePaddle 3.3.1's Tensor "
    "declines and numpy answers with a numpy bool, not a Tensor (no elementwise result, no "
    "shape); phiops gives the bool Tensor comparing with the number the scalar holds. 96 rows "
    "(4 kinds x 12 dtypes x 2 sides)"
)
NUMPY_COMPLEX64_IMAGINARY = (
    "np.complex64 scalar with a non-complex tensor: PaddlePaddle 3.3.1 casts it into the "
    "tensor's dtype and silently drops its imaginary part (np.complex64(1+2j) + a float32 tensor "
    "adds 1, + a bool tensor gives bool); phiops takes it as the Python complex it holds, as "
    "PaddlePaddle itself takes np.complex128, giving complex64/complex128. 141 rows"
)


def deliberate_reason(section: str, key: tuple[Any, ...]) -> str | None:
    """Why phiops answers this row differently from PaddlePaddle on purpose, or None."""
    if section == "scalar":
        symbol, kind, dtype, _ = key
        if symbol == "==" and kind in ("np.bool_", "np.uint8", "np.int8", "np.int16"):
            return NUMPY_BOOL_FROM_EQ
        if kind == "np.complex64" and not dtype.startswith("complex"):
            return NUMPY_COMPLEX64_IMAGINARY
        return None
    return None


def _family(dtype: str) -> str:
    if dtype in ("bool", "uint8"):
        return dtype
    if dtype.startswith("int"):
        return "signed"
    if dtype.startswith("complex"):
        return "complex"
    return "float"


def tensor(values: list[Any], dtype: str) -> phi.Tensor:
    """The tensor the generator built for ``values`` (complex given as [re, im] pairs)."""
    data = np.array([complex(*v) if isinstance(v, list) else v for v in values])
    if dtype.startswith("complex"):
        return phi.to_tensor(data.astype(dtype))
    if dtype == "bfloat16":
        return phi.to_tensor(data.astype("float32"), dtype="bfloat16")
    return phi.to_tensor(data.astype(dtype))


def make_scalar(kind: str, value: Any) -> Any:
    """The scalar a scalars.json row describes (make_dtype_table.make_scalar)."""
    if isinstance(value, list):
        value = complex(*value)
    if kind in ("bool", "int", "float", "complex"):
        return {"bool": bool, "int": int, "float": float, "complex": complex}[kind](value)
    if kind.startswith("np.array:"):
        return np.array(value, dtype=kind.split(":")[1])
    return getattr(np, kind[3:])(value)


def attr_value(attr: Any) -> Any:
    if isinstance(attr, str) and attr.startswith("dtype:"):
        return phi.DataType[attr[len("dtype:") :].upper()]
    return attr


def outcome(fn: Callable[[], Any]) -> Any:
    """phiops' answer in the table's form: [dtype, shape, values], ["type:X"] or "raises"."""
    try:
        value = fn()
    except (PhiError, TypeError):
        return "raises"
    except Exception as error:  # noqa: BLE001 - a raw numpy error is a mismatch, reported
        return [f"{type(error).__name__}: {error}"]
    if isinstance(value, (list, tuple)) and value and isinstance(value[0], phi.Tensor):
        value = value[0]
    if not isinstance(value, phi.Tensor):
        return [f"type:{type(value).__name__}"]
    array = value.numpy()
    dtype = value.dtype.name.lower()
    if dtype in ("bfloat16", "float16"):
        array = array.astype(np.float32)
    values = [[v.real, v.imag] if isinstance(v, complex) else v for v in array.reshape(-1).tolist()]
    return [dtype, list(array.shape), values]


# complex128 too: PaddlePaddle's CPU complex exp/pow/silu agree with numpy to ~1e-7 only.
_TOLERANCE = {
    "float16": 1e-3,
    "bfloat16": 8e-3,
    "float32": 1e-6,
    "complex64": 1e-6,
    "complex128": 1e-6,
}


def _same_number(got: Any, want: Any, tolerance: float) -> bool:
    if isinstance(want, list):  # complex [re, im]: tolerance relative to the modulus
        if not isinstance(got, list):
            return False
        if any(isinstance(w, float) and not math.isfinite(w) for w in want):
            return all(_same_number(g, w, tolerance) for g, w in zip(got, want))
        scale = tolerance * max(1.0, math.hypot(*want))
        return all(abs(g - w) <= scale for g, w in zip(got, want))
    if isinstance(want, bool) or isinstance(got, bool):
        return got == want and type(got) is type(want)
    if isinstance(want, float) and math.isnan(want):
        return isinstance(got, float) and math.isnan(got)
    if isinstance(want, float) and math.isinf(want):
        return got == want
    if isinstance(want, int) and not isinstance(got, int):
        return False
    if want == 0 and isinstance(want, float):
        return got == 0 and math.copysign(1.0, got) == math.copysign(1.0, want)
    return abs(got - want) <= tolerance * max(1.0, abs(want))


def matches(got: Any, want: Any) -> bool:
    """Whether phiops' outcome equals the table's: same dtype, shape and values (NaN == NaN,
    the sign of a zero counted; float16/bfloat16/float32 within their rounding)."""
    if want in ("raises", "crashes"):
        return got == "raises"
    if isinstance(got, str) or len(got) != len(want):
        return False
    if len(want) == 1:
        return got == want
    dtype, shape, values = want
    if got[0] != dtype or got[1] != shape or len(got[2]) != len(values):
        return False
    tolerance = _TOLERANCE.get(dtype, 1e-12)
    return all(_same_number(g, w, tolerance) for g, w in zip(got[2], values))


def report(mismatches: list[str]) -> None:
    assert not mismatches, f"{len(mismatches)} rows differ from PaddlePaddle 3.3.1:\n" + "\n".join(
        mismatches[:400]
    )


def _inputs(dtype: str, which: str) -> phi.Tensor:
    return tensor(OPS["inputs"][_family(dtype)][which], dtype)


def call_binary(op: str, x: phi.Tensor, y: phi.Tensor) -> Any:
    if op == "where":
        return phi.where(phi.to_tensor(np.array([True, False][: x.shape[0]])), x, y)
    if op in OPS["multi_input"]:
        return getattr(phi, op)([x, y], *OPS["multi_input"][op])
    return getattr(phi, op)(x, y, *OPS["binary_attrs"].get(op, []))


def call_unary(op: str, x: phi.Tensor) -> Any:
    attrs = {**OPS["unary"], **OPS["reductions"]}[op]
    return getattr(phi, op)(x, *[attr_value(a) for a in attrs])


def _check(section: str, key: tuple[Any, ...], fn: Callable[[], Any], want: Any) -> str | None:
    """None when phiops' answer matches ``want`` or the row differs deliberately; else the
    mismatch, described."""
    got = outcome(fn)
    if matches(got, want) or deliberate_reason(section, key) is not None:
        return None
    return f"{section} {key}: phiops {got}, PaddlePaddle {want}"


@pytest.mark.parametrize("position", range(len(BINARY["op_names"])), ids=BINARY["op_names"])
def test_binary_op_matches_paddle_for_every_dtype_pair(position: int) -> None:
    op = BINARY["op_names"][position]
    mismatches = []
    for dx, dy, results in BINARY["ops"]:
        x, y = _inputs(dx, "x"), _inputs(dy, "y")
        problem = _check("binary", (op, dx, dy), lambda: call_binary(op, x, y), results[position])
        if problem:
            mismatches.append(problem)
    report(mismatches)


@pytest.mark.parametrize(
    "position", range(len(BINARY["operator_names"])), ids=BINARY["operator_names"]
)
def test_python_operator_matches_paddle_for_every_dtype_pair(position: int) -> None:
    symbol = BINARY["operator_names"][position]
    fn = getattr(operator, OPS["operators"][symbol])
    mismatches = []
    for (dx, dy, results), (_, _, op_results) in zip(BINARY["operators"], BINARY["ops"]):
        want = results[position]
        if isinstance(want, str) and want.startswith("="):
            want = op_results[BINARY["op_names"].index(want[1:])]
        x, y = _inputs(dx, "x"), _inputs(dy, "y")
        problem = _check("operator", (symbol, dx, dy), lambda: fn(x, y), want)
        if problem:
            mismatches.append(problem)
    report(mismatches)


UNARY_NAMES = sorted({row[0] for row in UNARY["ops"]})


@pytest.mark.parametrize("op", UNARY_NAMES)
def test_unary_op_and_reduction_match_paddle_for_every_dtype(op: str) -> None:
    mismatches = []
    for name, dtype, want in UNARY["ops"]:
        if name != op:
            continue
        x = _inputs(dtype, "u")
        problem = _check("unary", (op, dtype), lambda: call_unary(op, x), want)
        if problem:
            mismatches.append(problem)
    report(mismatches)


def test_cast_matches_paddle_for_every_dtype_pair() -> None:
    mismatches = []
    for source, target, want in UNARY["casts"]:
        x = _inputs(source, "u")
        problem = _check("cast", (source, target), lambda: phi.cast(x, target), want)
        if problem:
            mismatches.append(problem)
    report(mismatches)


@pytest.mark.parametrize("dtype", OPS["dtypes"])
def test_scalar_operands_match_paddle_on_both_sides(dtype: str) -> None:
    mismatches = []
    for kind, value, row_dtype, results in SCALARS["rows"]:
        if row_dtype != dtype:
            continue
        t = tensor(OPS["inputs"][_family(dtype)]["x"][:1], dtype)
        s = make_scalar(kind, value)
        for i, symbol in enumerate(SCALARS["operators"]):
            fn = getattr(operator, OPS["operators"][symbol])
            for side, call, want in (
                ("r", lambda: fn(t, s), results[2 * i]),
                ("l", lambda: fn(s, t), results[2 * i + 1]),
            ):
                problem = _check("scalar", (symbol, kind, dtype, side), call, want)
                if problem:
                    mismatches.append(problem)
    report(mismatches)


def _edge_call(op: str, spec: list[Any]) -> Callable[[], Any]:
    if op == "cast":
        (source, values), target = spec
        x = tensor(values, source)
        return lambda: phi.cast(x, target)
    tensors = [tensor(values, dtype) for dtype, values in spec]
    if op in OPS["operators"]:
        fn = getattr(operator, OPS["operators"][op])
        return lambda: fn(*tensors)
    if op in OPS["unary"] or op in OPS["reductions"]:
        return lambda: call_unary(op, tensors[0])
    return lambda: getattr(phi, op)(*tensors, *OPS["binary_attrs"].get(op, []))


def test_edge_values_match_paddle() -> None:
    mismatches = []
    for op, spec, want in EDGES:
        key = (op, json.dumps(spec))
        try:
            call = _edge_call(op, spec)
        except PhiError as error:
            mismatches.append(f"edge {key}: cannot build the inputs: {error}")
            continue
        problem = _check("edge", key, call, want)
        if problem:
            mismatches.append(problem)
    report(mismatches)


def test_table_covers_every_section() -> None:
    """The counts that cover the dtype matrix: every ordered pair of the 12 dtypes for each binary op and
    operator, every dtype for each unary op, every scalar kind with every dtype on both sides."""
    pairs = len(OPS["dtypes"]) ** 2
    assert len(BINARY["ops"]) == pairs and len(BINARY["operators"]) == pairs
    assert len(UNARY["ops"]) == len(OPS["dtypes"]) * (len(OPS["unary"]) + len(OPS["reductions"]))
    assert len(UNARY["casts"]) == pairs
    assert len(SCALARS["rows"]) == len(OPS["dtypes"]) * 20
    assert len(EDGES) > 250


def test_numpy_bool_from_eq_rows_are_numpy_answers_and_phiops_gives_a_tensor() -> None:
    """The rows NUMPY_BOOL_FROM_EQ excuses: PaddlePaddle's answer there is numpy's bool (no
    Tensor), and phiops' is the elementwise bool Tensor of the number the scalar holds."""
    excused = 0
    for kind, value, dtype, results in SCALARS["rows"]:
        t = tensor(OPS["inputs"][_family(dtype)]["x"][:1], dtype)
        s = make_scalar(kind, value)
        i = SCALARS["operators"].index("==")
        for side, call, want in (
            ("r", lambda: t == s, results[2 * i]),
            ("l", lambda: s == t, results[2 * i + 1]),
        ):
            if deliberate_reason("scalar", ("==", kind, dtype, side)) != NUMPY_BOOL_FROM_EQ:
                continue
            excused += 1
            assert want == ["type:bool"], (kind, dtype, side, want)
            got = call()
            assert isinstance(got, phi.Tensor) and got.dtype.name == "BOOL"
            expected = np.asarray(t.numpy()).astype(np.complex128) == complex(s.item())
            assert got.numpy().tolist() == expected.tolist(), (kind, dtype, side)
    assert excused == 96


def test_numpy_complex64_rows_answer_as_paddle_answers_numpy_complex128() -> None:
    """The rows NUMPY_COMPLEX64_IMAGINARY excuses: phiops answers np.complex64(1+2j) as
    PaddlePaddle 3.3.1 answers np.complex128(1+2j) (the Python complex it holds)."""
    rows = {(kind, dtype): results for kind, _, dtype, results in SCALARS["rows"]}
    excused, mismatches = 0, []
    for kind, value, dtype, results in SCALARS["rows"]:
        if kind != "np.complex64":
            continue
        t = tensor(OPS["inputs"][_family(dtype)]["x"][:1], dtype)
        s = make_scalar(kind, value)
        for i, symbol in enumerate(SCALARS["operators"]):
            fn = getattr(operator, OPS["operators"][symbol])
            for side, call, offset in (("r", lambda: fn(t, s), 0), ("l", lambda: fn(s, t), 1)):
                key = (symbol, kind, dtype, side)
                if deliberate_reason("scalar", key) != NUMPY_COMPLEX64_IMAGINARY:
                    continue
                if matches(outcome(call), results[2 * i + offset]):
                    continue  # PaddlePaddle's answer holds too: not a difference
                excused += 1
                want = rows[("np.complex128", dtype)][2 * i + offset]
                problem = _check("complex128-as", key, call, want)
                if problem:
                    mismatches.append(problem)
    report(mismatches)
    assert excused == 141
