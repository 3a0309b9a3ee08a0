"""The cases run against PaddlePaddle 3.3.1 and phiops alike: each builds its inputs with the
module it is given (``paddle`` or ``phiops``), runs one ``sparse`` op, backpropagates
a gradient of the result's kind and pattern holding fixed weights and returns
the result's parts and each input's gradient made dense, as plain lists.

tests/tools/make_sparse_paddle.py records PaddlePaddle's into tests/data/sparse/paddle.json,
tests/sparse/test_sparse_paddle.py compares phiops's with them. A case PaddlePaddle 3.3.1's
CPU build cannot run (matmul, mv, addmm, masked_matmul have no CPU kernels there) is recorded
with its error and checked against numpy in tests/sparse/test_sparse_ops.py instead.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

RNG_SEED = 28


def _dense(
    shape: tuple[int, ...], density: float, seed: int, low: float = -2.0, high: float = 2.0
) -> np.ndarray:
    rng = np.random.default_rng(seed)
    values = rng.uniform(low, high, size=shape)
    keep = rng.random(shape) < density
    return np.where(keep, values, 0.0).astype("float64")


A = _dense((3, 4), 0.5, 1)
B = _dense((3, 4), 0.5, 2)
POSITIVE = np.abs(_dense((3, 4), 0.5, 3, 0.1, 0.9))
BATCHED = _dense((2, 3, 4), 0.5, 4)


def _sparse(pd: Any, array: np.ndarray, kind: str, grad: bool = True) -> Any:
    tensor = pd.to_tensor(array)
    tensor = tensor.to_sparse_coo(array.ndim) if kind == "coo" else tensor.to_sparse_csr()
    tensor.stop_gradient = not grad
    return tensor


def _parts(pd: Any, out: Any) -> dict[str, Any]:
    if out.is_sparse_coo():
        return {
            "kind": "coo",
            "shape": list(out.shape),
            "indices": out.indices().numpy().tolist(),
            "values": out.values().numpy().tolist(),
        }
    if out.is_sparse_csr():
        return {
            "kind": "csr",
            "shape": list(out.shape),
            "crows": out.crows().numpy().tolist(),
            "cols": out.cols().numpy().tolist(),
            "values": out.values().numpy().tolist(),
        }
    return {"kind": "dense", "shape": list(out.shape), "values": out.numpy().tolist()}


def _finish(pd: Any, out: Any, inputs: list[Any]) -> dict[str, Any]:
    record = {"out": _parts(pd, out), "grads": []}
    if out.dtype in (pd.float32, pd.float64) and any(not t.stop_gradient for t in inputs):
        dtype = "float64" if out.dtype == pd.float64 else "float32"
        values = out.values() if out.is_sparse() else out
        weights = pd.to_tensor(
            np.linspace(0.5, 1.5, int(np.prod(values.shape))).reshape(values.shape).astype(dtype)
        )
        # The gradient seeded with the weights, a tensor of out's kind and pattern (what
        # PaddlePaddle's own sparse tests do: its values() has no CPU grad kernel).
        if out.is_sparse_coo():
            seed = pd.sparse.sparse_coo_tensor(out.indices(), weights, out.shape)
        elif out.is_sparse_csr():
            seed = pd.sparse.sparse_csr_tensor(out.crows(), out.cols(), weights, out.shape)
        else:
            seed = weights
        out.backward(seed)
        for tensor in inputs:
            grad = tensor.grad
            if grad is None:
                record["grads"].append(None)
            else:
                record["grads"].append(
                    (grad.to_dense() if grad.is_sparse() else grad).numpy().tolist()
                )
    return record


def _unary(
    name: str, kind: str, source: np.ndarray = A, module: str = "sparse", **kwargs: Any
) -> Callable[[Any], dict[str, Any]]:
    def run(pd: Any) -> dict[str, Any]:
        x = _sparse(pd, source, kind)
        space = pd.sparse if module == "sparse" else pd.sparse.nn.functional
        return _finish(pd, getattr(space, name)(x, **kwargs), [x])

    return run


def _binary(name: str, kind: str) -> Callable[[Any], dict[str, Any]]:
    def run(pd: Any) -> dict[str, Any]:
        x, y = _sparse(pd, A, kind), _sparse(pd, B, kind)
        return _finish(pd, getattr(pd.sparse, name)(x, y), [x, y])

    return run


def _call(
    kind: str, source: np.ndarray, fn: Callable[[Any, Any], Any]
) -> Callable[[Any], dict[str, Any]]:
    def run(pd: Any) -> dict[str, Any]:
        x = _sparse(pd, source, kind)
        return _finish(pd, fn(pd, x), [x])

    return run


def _creation_coo(pd: Any) -> dict[str, Any]:
    values = pd.to_tensor([1.0, 2.0, 3.0, 4.0], dtype="float64", stop_gradient=False)
    out = pd.sparse.sparse_coo_tensor(
        [[0, 1, 2, 0], [1, 0, 3, 2]], values, [3, 4], stop_gradient=False
    )
    return _finish(pd, out, [values])


def _creation_csr(pd: Any) -> dict[str, Any]:
    values = pd.to_tensor([1.0, 2.0, 3.0], dtype="float64", stop_gradient=False)
    out = pd.sparse.sparse_csr_tensor([0, 1, 1, 3], [2, 0, 3], values, [3, 4], stop_gradient=False)
    return _finish(pd, out, [values])


def _to_dense(kind: str) -> Callable[[Any], dict[str, Any]]:
    def run(pd: Any) -> dict[str, Any]:
        x = _sparse(pd, A, kind)
        return _finish(pd, x.to_dense(), [x])

    return run


def _from_dense(target: str) -> Callable[[Any], dict[str, Any]]:
    def run(pd: Any) -> dict[str, Any]:
        x = pd.to_tensor(A, stop_gradient=False)
        out = x.to_sparse_coo(2) if target == "coo" else x.to_sparse_csr()
        return _finish(pd, out, [x])

    return run


def _hybrid(pd: Any) -> dict[str, Any]:
    x = pd.to_tensor(A, stop_gradient=False)
    return _finish(pd, x.to_sparse_coo(1), [x])


def _coalesce(pd: Any) -> dict[str, Any]:
    values = pd.to_tensor([1.0, 2.0, 3.0, 4.0], dtype="float64")
    x = pd.sparse.sparse_coo_tensor(
        [[1, 0, 1, 2], [0, 1, 0, 3]], values, [3, 4], stop_gradient=False
    )
    return _finish(pd, pd.sparse.coalesce(x), [x])


def _cast(kind: str) -> Callable[[Any], dict[str, Any]]:
    def run(pd: Any) -> dict[str, Any]:
        x = _sparse(pd, A, kind)
        return _finish(pd, pd.sparse.cast(x, "int32", "float32"), [x])

    return run


CASES: dict[str, Callable[[Any], dict[str, Any]]] = {
    "sparse_coo_tensor": _creation_coo,
    "sparse_csr_tensor": _creation_csr,
    "to_dense coo": _to_dense("coo"),
    "to_dense csr": _to_dense("csr"),
    "to_sparse_coo": _from_dense("coo"),
    "to_sparse_coo sparse_dim=1": _hybrid,
    "to_sparse_csr": _from_dense("csr"),
    "coo to csr": _call("coo", A, lambda pd, x: x.to_sparse_csr()),
    "csr to coo": _call("csr", A, lambda pd, x: x.to_sparse_coo(2)),
    "coalesce": _coalesce,
    "cast coo": _cast("coo"),
    "cast csr": _cast("csr"),
    "isnan coo": _unary("isnan", "coo"),
}
for _kind in ("coo", "csr"):
    for _name in (
        "abs",
        "sin",
        "tan",
        "atan",
        "sinh",
        "tanh",
        "asinh",
        "square",
        "expm1",
        "neg",
        "deg2rad",
        "rad2deg",
    ):
        CASES[f"{_name} {_kind}"] = _unary(_name, _kind)
    for _name in ("asin", "atanh", "sqrt", "log1p"):
        CASES[f"{_name} {_kind}"] = _unary(_name, _kind, POSITIVE)
    CASES[f"pow {_kind}"] = _unary("pow", _kind, POSITIVE, factor=2.5)
    for _name in ("relu", "relu6"):
        CASES[f"nn.functional.{_name} {_kind}"] = _unary(_name, _kind, module="nn")
    CASES[f"nn.functional.leaky_relu {_kind}"] = _unary(
        "leaky_relu", _kind, module="nn", negative_slope=0.2
    )
    CASES[f"nn.functional.softmax {_kind}"] = _unary("softmax", _kind, module="nn")
    CASES[f"nn.functional.softmax 3-D {_kind}"] = _unary("softmax", _kind, BATCHED, module="nn")
    for _name in ("add", "subtract", "multiply", "divide"):
        CASES[f"{_name} {_kind}"] = _binary(_name, _kind)
    CASES[f"sum {_kind}"] = _call(_kind, A, lambda pd, x: pd.sparse.sum(x))
    CASES[f"sum axis=-1 {_kind}"] = _call(_kind, A, lambda pd, x: pd.sparse.sum(x, axis=-1))
    CASES[f"sum axis=-1 keepdim {_kind}"] = _call(
        _kind, A, lambda pd, x: pd.sparse.sum(x, axis=-1, keepdim=True)
    )
    CASES[f"transpose {_kind}"] = _call(_kind, A, lambda pd, x: pd.sparse.transpose(x, [1, 0]))
    CASES[f"transpose 3-D {_kind}"] = _call(
        _kind, BATCHED, lambda pd, x: pd.sparse.transpose(x, [0, 2, 1])
    )
    CASES[f"reshape {_kind}"] = _call(_kind, A, lambda pd, x: pd.sparse.reshape(x, [2, 6]))
    CASES[f"reshape -1 {_kind}"] = _call(
        _kind, BATCHED, lambda pd, x: pd.sparse.reshape(x, [4, -1])
    )
CASES["sum axis=0 coo"] = _call("coo", A, lambda pd, x: pd.sparse.sum(x, axis=0))
CASES["sum axis=(0, 1) keepdim coo"] = _call(
    "coo", BATCHED, lambda pd, x: pd.sparse.sum(x, axis=[0, 1], keepdim=True)
)
CASES["slice coo"] = _call("coo", A, lambda pd, x: pd.sparse.slice(x, [1], [1], [3]))
CASES["slice 2 axes coo"] = _call(
    "coo", BATCHED, lambda pd, x: pd.sparse.slice(x, [0, 2], [1, -3], [2, 4])
)
for _kind in ("coo", "csr"):
    CASES[f"matmul sparse@dense {_kind}"] = _call(
        _kind, A, lambda pd, x: pd.sparse.matmul(x, pd.to_tensor(B.T.copy(), stop_gradient=False))
    )
    CASES[f"mv {_kind}"] = _call(_kind, A, lambda pd, x: pd.sparse.mv(x, pd.to_tensor(B[0].copy())))


def run(pd: Any, name: str) -> dict[str, Any]:
    """Case ``name`` run with ``pd``; ``{"error": ...}`` when it raises."""
    try:
        return CASES[name](pd)
    except Exception as error:  # recorded: PaddlePaddle's CPU build lacks some kernels
        return {"error": f"{type(error).__name__}: {str(error).splitlines()[0][:200]}"}
