"""Write tests/data/paddle_tensor_methods.json: the methods PaddlePaddle 3.3.1's Tensor has for
the ops phiops defines (and their in-place variants, PaddlePaddle's aliases of them and the
hand-written basics of runtime/eager/tensor_basics.py), with PaddlePaddle's result on a sample
call of each where one is given below.

Run from the repository root: ``PYTHONPATH=$PWD /work/paddle-venv/bin/python
tests/tools/list_paddle_tensor_methods.py``. tests/runtime/test_paddle_tensor_methods.py reads
the data (without paddle).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import paddle
import yaml

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "data" / "paddle_tensor_methods.json"

# Ops whose first argument is a Tensor list: paddle.Tensor has them (x.concat(...)), but a
# method on one tensor is not how they are called; phiops does not make them methods.
FIRST_ARGUMENT_IS_A_LIST = {"concat", "stack", "add_n", "meshgrid"}
HAND_WRITTEN = (
    "T mT clone detach cpu to item tolist dim ndim numel size element_size is_leaf zero_ fill_ "
    "uniform_ normal_ set_value register_hook astype neg negative permute ravel view expand_as "
    "float double half int long bool"
).split()

F = [[0.5, 1.2, 2.0], [0.3, 0.9, 1.7]]
G = [[1.0, 1.2, 1.5], [0.3, 2.0, 1.0]]
I = [[3, 5, 6], [1, 2, 7]]
J = [[2, 4, 5], [1, 3, 3]]
B = [[True, False, True], [False, False, True]]
C = [[True, True, False], [False, True, True]]


def t(data: object, dtype: str = "float32") -> dict:
    return {"tensor": np.asarray(data).tolist(), "dtype": dtype}


UNARY = (
    "abs exp log sqrt rsqrt square sign floor ceil sin cos tanh sigmoid erf logit isnan isinf "
    "isfinite sum mean max min prod logsumexp nonzero all any"
).split()
BINARY_FLOAT = (
    "add subtract multiply divide maximum minimum equal not_equal greater_than greater_equal "
    "less_than less_equal allclose isclose sub mul div true_divide gt ge lt le eq ne"
).split()
BINARY_INT = "floor_divide remainder mod floor_mod bitwise_and bitwise_or bitwise_xor".split()
BINARY_BOOL = "logical_and logical_or".split()
# name -> (self, other positional arguments)
SAMPLES: dict[str, tuple[dict, list]] = {}
for name in UNARY:
    SAMPLES[name] = (t(F), [])
for name in BINARY_FLOAT:
    SAMPLES[name] = (t(F), [t(G)])
for name in BINARY_INT:
    SAMPLES[name] = (t(I, "int32"), [t(J, "int32")])
for name in BINARY_BOOL:
    SAMPLES[name] = (t(B, "bool"), [t(C, "bool")])
SAMPLES.update(
    {
        "logical_not": (t(B, "bool"), []),
        "bitwise_not": (t(I, "int32"), []),
        "cast": (t(F), ["float64"]),
        "astype": (t(F), ["float64"]),
        "clip": (t(F), [0.6, 1.5]),
        "clamp": (t(F), [0.6, 1.5]),
        "pow": (t(F), [2.0]),
        "scale": (t(F), [2.0, 1.0]),
        "reshape": (t(F), [[3, 2]]),
        "view": (t(F), [[3, 2]]),
        "transpose": (t(F), [[1, 0]]),
        "permute": (t(F), [[1, 0]]),
        "squeeze": (t([F]), [0]),
        "unsqueeze": (t(F), [0]),
        "flatten": (t([F, G]), []),
        "ravel": (t(F), []),
        "expand": (t([[1.0, 2.0, 3.0]]), [[2, 3]]),
        "expand_as": (t([[1.0, 2.0, 3.0]]), [t(F)]),
        "tile": (t(F), [[2, 1]]),
        "flip": (t(F), [[0]]),
        "roll": (t(F), [1]),
        "cumsum": (t(F), [1]),
        "cumprod": (t(F), [1]),
        "argmax": (t(F), [1]),
        "argmin": (t(F), [1]),
        "argsort": (t(F), [1]),
        "topk": (t(F), [2]),
        "split": (t(F), [[1, 2], 1]),
        "matmul": (t(F), [t([[1.0, 2.0], [0.5, 1.0], [2.0, 0.0]])]),
        "mm": (t(F), [t([[1.0, 2.0], [0.5, 1.0], [2.0, 0.0]])]),
        "bmm": (t([F]), [t([[[1.0, 2.0], [0.5, 1.0], [2.0, 0.0]]])]),
        "tril": (t([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]), [0]),
        "triu": (t([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]), [0]),
        "diag": (t([1.0, 2.0, 3.0]), []),
        "gather": (t(F), [t([1, 0], "int64")]),
        "gather_nd": (t(F), [t([[1, 2], [0, 0]], "int64")]),
        "index_select": (t(F), [t([2, 0], "int64"), 1]),
        "masked_select": (t(F), [t(B, "bool")]),
        "take_along_axis": (t(F), [t([[0], [2]], "int64"), 1]),
        "put_along_axis": (t(F), [t([[0], [2]], "int64"), t([[9.0], [8.0]]), 1]),
        "scatter": (t(F), [t([1], "int64"), t([[7.0, 8.0, 9.0]])]),
        "scatter_nd_add": (t(F), [t([[1, 2]], "int64"), t([5.0])]),
        "index_put": (t(F), [[t([1], "int64")], t([7.0, 8.0, 9.0])]),
        "where": (t(B, "bool"), [t(F), t(G)]),
        "slice": (t(F), [[1], [1], [3]]),
        "strided_slice": (t(F), [[1], [0], [3], [2]]),
        "unique": (t([3.0, 1.0, 3.0, 2.0]), []),
        "softmax": (t(F), []),
        "neg": (t(F), []),
        "negative": (t(F), []),
        "T": (t(F), None),
        "mT": (t([F]), None),
        "clone": (t(F), []),
        "detach": (t(F), []),
        "cpu": (t(F), []),
        "to": (t(F), ["float64"]),
        "item": (t([2.5]), []),
        "tolist": (t(F), []),
        "dim": (t(F), []),
        "ndim": (t(F), None),
        "numel": (t(F), []),
        "size": (t(F), None),
        "element_size": (t(F), []),
        "is_leaf": (t(F), None),
        "zero_": (t(F), []),
        "fill_": (t(F), [3.0]),
        "float": (t(I, "int32"), []),
        "double": (t(F), []),
        "int": (t(F), []),
        "long": (t(F), []),
        "bool": (t(F), []),
    }
)


def _materialise(value: object) -> object:
    if isinstance(value, dict):
        return paddle.to_tensor(np.asarray(value["tensor"], dtype=value["dtype"]))
    if isinstance(value, list) and value and isinstance(value[0], dict):
        return [_materialise(v) for v in value]
    return value


def _result(value: object) -> object:
    if isinstance(value, (list, tuple)) and value and isinstance(value[0], paddle.Tensor):
        return {"many": [_result(v) for v in value]}
    if isinstance(value, paddle.Tensor):
        array = value.numpy()
        return {"array": array.tolist(), "dtype": str(array.dtype), "shape": list(array.shape)}
    if isinstance(value, bool):
        return {"value": value}
    if isinstance(value, int):  # also paddle.Size's ints
        return {"value": int(value)}
    if not isinstance(value, (float, list, str)):
        value = str(value)  # a dtype
    return {"value": value}


def main() -> None:
    specs = yaml.safe_load((ROOT / "ops" / "api.yaml").read_text())
    ops = [entry["op"] for entry in specs]
    inplace = [
        f"{entry['op']}_" for entry in specs if "inplace" in entry and not entry["op"].endswith("_")
    ]
    import sys

    sys.path.insert(0, str(ROOT))
    import phiops.generated  # noqa: F401  (registers the ops, whose traits give the aliases)
    from phiops.runtime.dispatch.op_def import method_aliases

    METHOD_ALIASES = method_aliases()

    candidates = sorted(set(ops) | set(inplace) | set(METHOD_ALIASES) | set(HAND_WRITTEN))
    methods = []
    for name in candidates:
        if name in FIRST_ARGUMENT_IS_A_LIST or not hasattr(paddle.Tensor, name):
            continue
        entry: dict[str, object] = {"name": name}
        sample = SAMPLES.get(name) or (SAMPLES.get(name[:-1]) if name.endswith("_") else None)
        if sample is not None:
            self_value, args = sample
            x = _materialise(self_value)
            attribute = getattr(x, name)
            result = attribute if args is None else attribute(*[_materialise(a) for a in args])
            entry.update(self=self_value, args=args, expected=_result(result))
            if name.endswith("_") and args is not None:
                entry["self_after"] = _result(x)
        methods.append(entry)
    OUT.write_text(
        json.dumps({"paddle": paddle.__version__, "methods": methods}, indent=1, sort_keys=True)
        + "\n"
    )
    sampled = sum("expected" in m for m in methods)
    print(f"wrote {OUT.relative_to(ROOT)}: {len(methods)} methods, {sampled} with a sample")


if __name__ == "__main__":
    main()
