"""Writes tests/data/random24/paddle_3_3_1.json: PaddlePaddle 3.3.1's results of the random24
ops of issue 24 (binomial, poisson, standard_gamma, dirichlet, exponential_, gaussian_inplace,
uniform_inplace, multinomial) through the op (``paddle._C_ops``), the ``paddle.*`` functions and
the Tensor methods, for every dtype PaddlePaddle registers on CPU.

These cases do not compare draws number by number (tests/ops/test_rng24.py does, for the ops
that draw PaddlePaddle's numbers), so a case is one of two kinds:
``exact``: inputs whose result is decided (probability 0 or 1, rate 0, a single category, the
samplers' clamps): dtype, shape and values are recorded and compared exactly; ``moments``: many
draws of one distribution, of which the dtype, shape, mean, variance and minimum are
recorded (with paddle.seed(2024)) and compared within sampling error (the minimum as a
support check: nonnegative draws stay nonnegative). A case with ``grad`` also
records the gradient of sum(out * w) through the op with respect to the input tensor of
``x * 1`` (the in-place ops write a non-leaf), 0 for every PaddlePaddle random op (a moments
case records its largest magnitude).

tests/ops/test_random24_paddle.py compares phiops with the recording (no PaddlePaddle needed)
and tests/parity/test_random24_parity_paddle.py runs both live.

Run with the side venv: ``PYTHONPATH=$PWD /work/paddle-venv/bin/python
tests/tools/make_random24_fixtures.py``.
"""

from __future__ import annotations

import importlib
import json
import math
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from tests.tools.make_losscum_fixtures import as_numpy, dtype_name, to_json

OUT = Path(__file__).resolve().parents[1] / "data" / "random24" / "paddle_3_3_1.json"

NAN, INF = math.nan, math.inf
FLOATS = ("float32", "float64")
SEED = 2024
DRAWS = 20_000


def tensor(name: str, values: list, shape: list[int], dtype: str) -> list:
    return [name, values, shape, dtype]


def case(
    kind: str, via: str, fn: str, inputs: list[list], args: list[Any], grad: bool = False
) -> dict[str, Any]:
    """``via``: ``op`` (``_C_ops``), ``api`` (top level), ``F`` (``nn.functional``) or
    ``method`` (of the first input). An argument ``"$x"`` is input x, ``"@float32"`` the dtype,
    ``"@cpu"`` CPUPlace()."""
    return {"kind": kind, "via": via, "fn": fn, "inputs": inputs, "args": args, "grad": grad}


def _full(name: str, value: float, dtype: str, n: int = DRAWS) -> list:
    """n copies of value (a number in place of the list: the recording stays small)."""
    return tensor(name, value, [n], dtype)


def exact_cases() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for dtype in FLOATS:
        count = tensor("count", [10.0, 20.7, 0.0, -3.0, 5.0, 5.0, 7.9], [7], dtype)
        prob = tensor("prob", [0.0, 1.0, 0.5, 0.5, 2.0, -1.0, 1.0], [7], dtype)
        out[f"binomial-edges-{dtype}"] = case(
            "exact", "op", "binomial", [count, prob], ["$count", "$prob"]
        )
        out[f"binomial-api-0d-{dtype}"] = case(
            "exact",
            "api",
            "binomial",
            [tensor("count", [5.0], [], dtype), tensor("prob", [1.0], [], dtype)],
            ["$count", "$prob"],
        )
        out[f"binomial-empty-{dtype}"] = case(
            "exact",
            "op",
            "binomial",
            [tensor("count", [], [0, 3], dtype), tensor("prob", [], [0, 3], dtype)],
            ["$count", "$prob"],
        )
        out[f"poisson-edges-{dtype}"] = case(
            "exact",
            "op",
            "poisson",
            [tensor("x", [0.0, -1.0, NAN, -INF, 0.0, 0.0], [2, 3], dtype)],
            ["$x"],
            True,
        )
        out[f"poisson-api-0d-{dtype}"] = case(
            "exact", "api", "poisson", [tensor("x", [0.0], [], dtype)], ["$x"]
        )
        out[f"standard_gamma-edges-{dtype}"] = case(
            "exact",
            "op",
            "standard_gamma",
            [tensor("x", [0.0, -1.0, NAN, INF], [4], dtype)],
            ["$x"],
        )
        out[f"standard_gamma-api-empty-{dtype}"] = case(
            "exact", "api", "standard_gamma", [tensor("x", [], [2, 0], dtype)], ["$x"]
        )
        out[f"dirichlet-edges-{dtype}"] = case(
            "exact",
            "op",
            "dirichlet",
            [tensor("alpha", [0.0, 0.0, -1.0, 2.0], [2, 2], dtype)],
            ["$alpha"],
        )
        out[f"dirichlet-single-{dtype}"] = case(
            "exact", "op", "dirichlet", [tensor("alpha", [3.0, 2.0], [2, 1], dtype)], ["$alpha"]
        )
        out[f"exponential_-lam0-{dtype}"] = case(
            "exact",
            "op",
            "exponential_",
            [tensor("x", [1.0, 2.0, 3.0], [3], dtype)],
            ["$x", 0.0],
        )
        out[f"gaussian_inplace-std0-{dtype}"] = case(
            "exact",
            "op",
            "gaussian_inplace",
            [tensor("x", [1.0, 2.0, 3.0, 4.0], [2, 2], dtype)],
            ["$x", 3.0, 0.0, 0],
            True,
        )
        out[f"uniform_inplace-0d-{dtype}"] = case(
            "moments",
            "op",
            "uniform_inplace",
            [tensor("x", [5.0], [], dtype)],
            ["$x", 2.0, 2.0000002, 0, 0, 0, 1.0],
            True,
        )
        out[f"multinomial-one-{dtype}"] = case(
            "exact",
            "op",
            "multinomial",
            [tensor("x", [0.0, 0.0, 3.0, 0.0, 1.0, 0.0], [2, 3], dtype)],
            ["$x", 4, True],
        )
        out[f"multinomial-inf-{dtype}"] = case(
            "exact", "api", "multinomial", [tensor("x", [0.0, INF], [2], dtype)], ["$x", 3, True]
        )
        out[f"multinomial-norepeat-{dtype}"] = case(
            "exact",
            "op",
            "multinomial",
            [tensor("x", [0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 0.0, 5.0], [2, 4], dtype)],
            ["$x", 1, False],
        )
    for dtype in ("complex64", "complex128"):
        out[f"gaussian_inplace-std0-{dtype}"] = case(
            "exact",
            "op",
            "gaussian_inplace",
            [tensor("x", [[1.0, 0.0], [2.0, 1.0]], [2], dtype)],
            ["$x", 1.5, 0.0, 0],
            True,
        )
    return out


def moment_cases() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for dtype in FLOATS:
        for n, p in ((7.0, 0.3), (40.0, 0.6), (1000.0, 0.02)):
            out[f"binomial-{n}-{p}-{dtype}"] = case(
                "moments",
                "op",
                "binomial",
                [_full("count", n, dtype), _full("prob", p, dtype)],
                ["$count", "$prob"],
            )
        for rate in (0.5, 4.0, 300.0):
            out[f"poisson-{rate}-{dtype}"] = case(
                "moments", "api", "poisson", [_full("x", rate, dtype)], ["$x"], True
            )
        for alpha in (0.3, 1.0, 9.0):
            out[f"standard_gamma-{alpha}-{dtype}"] = case(
                "moments", "op", "standard_gamma", [_full("x", alpha, dtype)], ["$x"]
            )
        out[f"dirichlet-{dtype}"] = case(
            "moments",
            "op",
            "dirichlet",
            [tensor("alpha", [0.5, 2.0, 3.5] * 2000, [2000, 3], dtype)],
            ["$alpha"],
        )
        out[f"exponential_-method-{dtype}"] = case(
            "moments", "method", "exponential_", [_full("x", 0.0, dtype)], [3.0], True
        )
        out[f"uniform_inplace-{dtype}"] = case(
            "moments",
            "op",
            "uniform_inplace",
            [_full("x", 0.0, dtype)],
            ["$x", -2.0, 3.0, 0, 0, 0, 1.0],
            True,
        )
        out[f"multinomial-{dtype}"] = case(
            "moments",
            "api",
            "multinomial",
            [tensor("x", [2.0, 0.0, 6.0, 2.0], [4], dtype)],
            ["$x", DRAWS, True],
        )
    for dtype in ("float32", "float64", "complex64", "complex128"):
        out[f"gaussian_inplace-{dtype}"] = case(
            "moments", "op", "gaussian_inplace", [_full("x", 0.0, dtype)], ["$x", 1.5, 2.0, 0], True
        )
    return out


def batch_cases() -> dict[str, dict[str, Any]]:
    """truncated_gaussian_random, uniform_random_batch_size_like and gumbel_softmax."""
    out: dict[str, dict[str, Any]] = {}
    for dtype in ("bfloat16", "float32", "float64"):
        tg = "truncated_gaussian_random"
        out[f"{tg}-{dtype}"] = case(
            "moments", "op", tg, [], [[DRAWS], 1.0, 2.0, 0, -1.0, 3.0, f"@{dtype}", "@cpu"]
        )
        out[f"{tg}-std0-{dtype}"] = case(
            "exact", "op", tg, [], [[2, 3], 0.5, 0.0, 0, -2.0, 2.0, f"@{dtype}", "@cpu"]
        )
        out[f"{tg}-b-below-a-{dtype}"] = case(
            "exact", "op", tg, [], [[4], 0.0, 1.0, 0, 2.0, -2.0, f"@{dtype}", "@cpu"]
        )
        like = "uniform_random_batch_size_like"
        batch = tensor("input", 0.0, [4, 5], "float32")
        out[f"{like}-{dtype}"] = case(
            "moments",
            "op",
            like,
            [tensor("input", 0.0, [DRAWS, 2], "float32")],
            ["$input", [-1, 1], 0, 0, -2.0, 3.0, 0, 0, 0, 1.0, f"@{dtype}"],
        )
        out[f"{like}-diag-{dtype}"] = case(
            "exact",
            "op",
            like,
            [batch],
            ["$input", [3, -1], 1, 1, 2.0, 2.0, 0, 2, 5, 9.0, f"@{dtype}"],
        )
    for dtype in FLOATS:
        logits = tensor("x", [0.0, 0.0, 0.0, 0.0] * 5000, [5000, 4], dtype)
        out[f"gumbel_softmax-soft-{dtype}"] = case(
            "moments", "op", "gumbel_softmax", [logits], ["$x", 0.7, False, -1]
        )
        out[f"gumbel_softmax-hard-{dtype}"] = case(
            "moments", "op", "gumbel_softmax", [logits], ["$x", 1.0, True, 1]
        )
        sure = tensor("x", [0.0, 200.0, 0.0, 300.0, 0.0, 250.0], [2, 3], dtype)
        out[f"gumbel_softmax-sure-{dtype}"] = case(
            "exact", "op", "gumbel_softmax", [sure], ["$x", 0.5, True, 0], True
        )
        out[f"gumbel_softmax-0d-{dtype}"] = case(
            "exact", "op", "gumbel_softmax", [tensor("x", [3.0], [], dtype)], ["$x", 1.0, False, -1]
        )
    return out


def shuffle_cases() -> dict[str, dict[str, Any]]:
    """shuffle_batch's seed_out (minstd_rand0's first number) and its one-row identity (with its
    gradient); the permutation itself comes from PaddlePaddle's std::random_device."""
    out: dict[str, dict[str, Any]] = {}
    for dtype in ("float32", "float64", "int32", "int64"):
        for seed in (0, 5, -3, 2**31 - 1, 123456789012):
            inputs = [
                tensor("x", list(range(12)), [4, 3], dtype),
                tensor("seed", [seed], [1], "int64"),
            ]
            out[f"shuffle_batch-seed_out-{seed}-{dtype}"] = {
                **case("exact", "op", "shuffle_batch", inputs, ["$x", "$seed", 0]),
                "pick": 2,
            }
        one_row = [tensor("x", [1, 2, 3], [3], dtype), tensor("seed", [7], [1], "int64")]
        for pick in (0, 1):
            out[f"shuffle_batch-one-row-{pick}-{dtype}"] = {
                **case("exact", "op", "shuffle_batch", one_row, ["$x", "$seed", 0]),
                "pick": pick,
            }
        if dtype.startswith("float"):  # one row stays: shuffle_batch_grad gives out's weights
            out[f"shuffle_batch-one-row-grad-{dtype}"] = {
                **case("exact", "op", "shuffle_batch", one_row, ["$x", "$seed", 0], True),
                "pick": 0,
            }
    return out


def cases() -> dict[str, dict[str, Any]]:
    return {**exact_cases(), **moment_cases(), **batch_cases(), **shuffle_cases()}


def _make(lib: ModuleType, spec: list) -> Any:
    name, values, shape, dtype = spec
    if not isinstance(values, list):
        array = np.full(shape, values, dtype)
    elif dtype.startswith("complex") and values and isinstance(values[0], list):
        array = np.array([complex(re, im) for re, im in values], dtype).reshape(shape)
    else:
        array = np.array(values, dtype).reshape(shape)
    return lib.to_tensor(array, dtype=dtype)


def _summary(array: np.ndarray) -> dict[str, Any]:
    if array.dtype.kind == "c":
        parts = {"real": array.real, "imag": array.imag}
    else:
        parts = {"value": array}
    return {
        key: {
            "mean": float(part.astype(np.float64).mean()),
            "var": float(part.astype(np.float64).var()),
            "min": float(part.min()),
        }
        for key, part in parts.items()
    }


def run(lib: ModuleType, case: dict[str, Any]) -> dict[str, Any]:
    """The case's outputs (dtype, shape, and values or moments) and gradient on ``lib``."""
    lib.seed(SEED)
    tensors = {spec[0]: _make(lib, spec) for spec in case["inputs"]}
    leaf = None
    if case["grad"]:
        first = case["inputs"][0][0]
        leaf = tensors[first]
        leaf.stop_gradient = False
        tensors[first] = leaf * 1

    def resolve(value: Any) -> Any:
        if isinstance(value, str) and value.startswith("$"):
            return tensors[value[1:]]
        if isinstance(value, str) and value.startswith("@"):  # @float32: a dtype, @cpu: CPUPlace
            return lib.CPUPlace() if value == "@cpu" else getattr(lib, value[1:])
        return value

    args = [resolve(a) for a in case["args"]]
    if case["via"] == "method":
        out = getattr(tensors[case["inputs"][0][0]], case["fn"])(*args)
    else:
        module = {"op": "._C_ops", "F": ".nn.functional", "api": ""}[case["via"]]
        owner = importlib.import_module(f"{lib.__name__}{module}")
        out = getattr(owner, case["fn"])(*args)
    if isinstance(out, (tuple, list)):
        out = out[case.get("pick", 0)]
    array = (out.astype("float32") if dtype_name(out.dtype) == "bfloat16" else out).numpy()
    recorded: dict[str, Any] = {"dtype": dtype_name(out.dtype), "shape": list(out.shape)}
    if case["kind"] == "exact":
        recorded["values"] = to_json(array)
    else:
        recorded["moments"] = _summary(array)
    if leaf is not None:
        weights = lib.to_tensor(
            np.linspace(-1.0, 1.5, max(array.size, 1)).reshape(array.shape).astype(array.dtype)
        )
        (grad,) = lib.grad([(out * weights).sum()], [leaf])
        grads = grad.numpy()
        if case["kind"] == "exact":
            recorded["grad"] = to_json(grads)
        else:
            recorded["grad_max_abs"] = float(np.abs(grads).max()) if grads.size else 0.0
    return recorded


def main() -> None:
    import paddle

    recorded = {key: run(paddle, c) for key, c in sorted(cases().items())}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(recorded)} cases to {OUT}")


if __name__ == "__main__":
    main()


__all__ = ["as_numpy", "cases", "run", "SEED", "DRAWS"]
