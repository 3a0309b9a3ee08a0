"""The cases of the sparse 3-D convolution, pooling and batch norm (``paddle.sparse.nn``), run
the same way with phiops or PaddlePaddle (``run(pd, name)``, ``pd`` the imported module).

Each case builds a COO input ``[N, D, H, W, C]`` (4 sparse dims) from a seeded generator, runs
the function or layer, and backpropagates ``sum(out.values() * upstream)`` with a seeded
``upstream``; it returns the output (shape, indices, values) and the gradients (the input's
values, the weight and bias or the layer's parameters; a batch norm's running statistics
too), as plain lists. tests/tools/make_sparse_conv_fixtures.py records PaddlePaddle 3.3.1's
into tests/data/sparse_conv/paddle.json; test_sparse_conv_paddle.py compares phiops with it.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

CASES: dict[str, Callable[[Any], dict[str, Any]]] = {}


def sparse_input(
    seed: int,
    shape: tuple[int, ...],
    nnz: int,
    dtype: str = "float32",
    shuffle: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """(indices [4, nnz] int64, values [nnz, C]) at ``nnz`` distinct positions of ``shape``'s
    first 4 dims, sorted unless ``shuffle``; distinct values (no ties for max pooling)."""
    rng = np.random.default_rng(seed)
    space = shape[:4]
    keys = np.sort(rng.choice(int(np.prod(space)), size=nnz, replace=False))
    if shuffle:
        keys = rng.permutation(keys)
    indices = np.stack(np.unravel_index(keys, space)).astype(np.int64)
    count = nnz * shape[4]
    values = (rng.permutation(count) / count * 4.0 - 2.0).reshape(nnz, shape[4]).astype(dtype)
    return indices, values


def dense_array(seed: int, shape: tuple[int, ...], dtype: str, scale: float = 0.5) -> np.ndarray:
    return (np.random.default_rng(seed).standard_normal(shape) * scale).astype(dtype)


def _coo(
    pd: Any, indices: np.ndarray, values: np.ndarray, shape: tuple[int, ...]
) -> tuple[Any, Any]:
    """(the COO tensor, its values tensor): the gradient reaches the values tensor (the COO
    tensor is not a leaf in PaddlePaddle)."""
    leaf = pd.to_tensor(values)
    leaf.stop_gradient = False
    x = pd.sparse.sparse_coo_tensor(pd.to_tensor(indices), leaf, list(shape), stop_gradient=False)
    return x, leaf


def _param(pd: Any, array: np.ndarray) -> Any:
    tensor = pd.to_tensor(array)
    tensor.stop_gradient = False
    return tensor


def _out(out: Any) -> dict[str, Any]:
    return {
        "shape": [int(d) for d in out.shape],
        "indices": np.asarray(out.indices().numpy()).astype(np.int64).tolist(),
        "values": np.asarray(out.values().numpy()).astype(np.float64).tolist(),
    }


def _backward(pd: Any, out: Any, seed: int) -> None:
    values = out.values()
    upstream = dense_array(seed, tuple(values.shape), str(np.asarray(values.numpy()).dtype), 1.0)
    (values * pd.to_tensor(upstream)).sum().backward()


def _grad(tensor: Any) -> Any:
    grad = tensor.grad
    if grad is None:
        return None
    if hasattr(grad, "is_sparse_coo") and grad.is_sparse_coo():
        grad = grad.values()
    return np.asarray(grad.numpy()).astype(np.float64).tolist()


def _conv_case(
    name: str,
    function: str,
    shape: tuple[int, ...],
    nnz: int,
    kernel: tuple[int, int, int],
    out_channels: int,
    bias: bool,
    dtype: str = "float32",
    shuffle: bool = False,
    **kwargs: Any,
) -> None:
    seed = len(CASES) + 1

    def run_case(pd: Any) -> dict[str, Any]:
        indices, values = sparse_input(seed, shape, nnz, dtype, shuffle)
        x, leaf = _coo(pd, indices, values, shape)
        weight = _param(pd, dense_array(seed + 100, (*kernel, shape[4], out_channels), dtype))
        b = _param(pd, dense_array(seed + 200, (out_channels,), dtype)) if bias else None
        out = getattr(pd.sparse.nn.functional, function)(x, weight, b, **kwargs)
        _backward(pd, out, seed + 300)
        grads = {"x": _grad(leaf), "weight": _grad(weight)}
        if bias:
            grads["bias"] = _grad(b)
        return {"out": _out(out), "grads": grads}

    CASES[name] = run_case


_conv_case("conv3d k3", "conv3d", (2, 4, 4, 4, 2), 10, (3, 3, 3), 3, False)
_conv_case(
    "conv3d k3 pad1 stride2 bias",
    "conv3d",
    (2, 5, 4, 5, 3),
    14,
    (3, 3, 3),
    2,
    True,
    stride=2,
    padding=1,
)
_conv_case(
    "conv3d k231 dilation2 stride121 float64",
    "conv3d",
    (1, 6, 5, 4, 2),
    12,
    (2, 3, 1),
    3,
    True,
    "float64",
    stride=[1, 2, 1],
    dilation=2,
    padding=[1, 0, 1],
)
_conv_case(
    "conv3d unsorted input",
    "conv3d",
    (2, 4, 4, 3, 2),
    9,
    (2, 2, 2),
    2,
    True,
    shuffle=True,
    padding=1,
)
_conv_case("subm_conv3d k3 bias", "subm_conv3d", (2, 4, 5, 4, 3), 12, (3, 3, 3), 4, True)
_conv_case(
    "subm_conv3d k313 float64", "subm_conv3d", (1, 5, 4, 5, 2), 10, (3, 1, 3), 2, False, "float64"
)
_conv_case(
    "subm_conv3d key, padding and stride ignored",
    "subm_conv3d",
    (2, 4, 4, 4, 2),
    11,
    (3, 3, 3),
    2,
    True,
    stride=2,
    padding=0,
    key="subm_0",
)
_conv_case(
    "subm_conv3d k5 float64", "subm_conv3d", (1, 5, 5, 5, 2), 14, (5, 5, 5), 2, True, "float64"
)


def _pool_case(
    name: str,
    shape: tuple[int, ...],
    nnz: int,
    dtype: str = "float32",
    shuffle: bool = False,
    **kwargs: Any,
) -> None:
    seed = len(CASES) + 1

    def run_case(pd: Any) -> dict[str, Any]:
        indices, values = sparse_input(seed, shape, nnz, dtype, shuffle)
        x, leaf = _coo(pd, indices, values, shape)
        out = pd.sparse.nn.functional.max_pool3d(x, **kwargs)
        _backward(pd, out, seed + 300)
        return {"out": _out(out), "grads": {"x": _grad(leaf)}}

    CASES[name] = run_case


_conv_case(
    "subm_conv3d unsorted input",
    "subm_conv3d",
    (2, 4, 4, 4, 2),
    11,
    (3, 3, 3),
    2,
    True,
    shuffle=True,
)


_pool_case("max_pool3d k2", (2, 4, 4, 4, 3), 14, kernel_size=2)
_pool_case(
    "max_pool3d k3 stride2 pad1 float64",
    (1, 5, 6, 5, 2),
    16,
    "float64",
    kernel_size=3,
    stride=2,
    padding=1,
)
_pool_case(
    "max_pool3d k213 stride1 unsorted",
    (2, 3, 4, 4, 2),
    10,
    shuffle=True,
    kernel_size=[2, 1, 3],
    stride=1,
)


def _norm_case(name: str, layer: str, training: bool) -> None:
    seed = len(CASES) + 1
    shape = (2, 3, 4, 3, 3)

    def run_case(pd: Any) -> dict[str, Any]:
        dtype = "float32"
        indices, values = sparse_input(seed, shape, 13, dtype)
        x, leaf = _coo(pd, indices, values, shape)
        norm = getattr(pd.sparse.nn, layer)(3, momentum=0.8, epsilon=1e-4)
        norm.weight.set_value(dense_array(seed + 100, (3,), dtype) + 1.0)
        norm.bias.set_value(dense_array(seed + 200, (3,), dtype))
        norm._mean.set_value(dense_array(seed + 400, (3,), dtype))
        norm._variance.set_value(np.abs(dense_array(seed + 500, (3,), dtype)) + 0.5)
        if training:
            norm.train()
        else:
            norm.eval()
        out = norm(x)
        _backward(pd, out, seed + 300)
        return {
            "out": _out(out),
            "grads": {"x": _grad(leaf), "weight": _grad(norm.weight), "bias": _grad(norm.bias)},
            "running": {
                "mean": np.asarray(norm._mean.numpy()).astype(np.float64).tolist(),
                "variance": np.asarray(norm._variance.numpy()).astype(np.float64).tolist(),
            },
        }

    CASES[name] = run_case


_norm_case("BatchNorm train", "BatchNorm", True)
_norm_case("BatchNorm eval", "BatchNorm", False)
_norm_case("SyncBatchNorm train", "SyncBatchNorm", True)


def _layer_case(name: str, layer: str, **kwargs: Any) -> None:
    seed = len(CASES) + 1
    shape = (1, 4, 4, 4, 2)

    def run_case(pd: Any) -> dict[str, Any]:
        indices, values = sparse_input(seed, shape, 9)
        x, leaf = _coo(pd, indices, values, shape)
        conv = getattr(pd.sparse.nn, layer)(2, 3, **kwargs)
        conv.weight.set_value(dense_array(seed + 100, tuple(conv.weight.shape), "float32"))
        if conv.bias is not None:
            conv.bias.set_value(dense_array(seed + 200, tuple(conv.bias.shape), "float32"))
        out = conv(x)
        _backward(pd, out, seed + 300)
        return {
            "out": _out(out),
            "grads": {
                "x": _grad(leaf),
                "weight": _grad(conv.weight),
                "bias": None if conv.bias is None else _grad(conv.bias),
            },
            "parameters": {
                key: [int(d) for d in value.shape] for key, value in conv.named_parameters()
            },
        }

    CASES[name] = run_case


_layer_case("Conv3D layer", "Conv3D", kernel_size=[3, 2, 3], stride=[1, 2, 1], padding=1)
_layer_case("SubmConv3D layer no bias", "SubmConv3D", kernel_size=3, bias_attr=False)


def run(pd: Any, name: str) -> dict[str, Any]:
    """Case ``name`` run with ``pd``; ``{"error": ...}`` when it raises."""
    try:
        return CASES[name](pd)
    except Exception as error:  # recorded: PaddlePaddle's CPU build may lack a kernel
        return {"error": f"{type(error).__name__}: {str(error).splitlines()[0][:200]}"}
