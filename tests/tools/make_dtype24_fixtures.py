"""Write tests/data/dtype24/dtype24.npz: PaddlePaddle 3.3.1's results for the dtypes its CPU build
registers that phiops's kernels of these ops lacked (integer exp/expm1/log/log10/log1p/log2 with a
float32 result; integer mean/prod/pow/divide/elementwise_pow grads; complex log/sqrt/square/pow
grads and tanh/sigmoid/square double grads), for tests/ops/test_dtype24.py (no paddle).

``cases(lib, grads)`` below is run twice: here on ``paddle`` (``grads`` its ``_C_ops``) and in
the test on ``phiops`` (``grads`` ``phiops.generated.backward``), so both call the same entries
with the same arrays. The grad ops are called directly (``paddle._C_ops.<op>_grad``); the double
grads, which ``paddle._C_ops`` does not expose, through ``paddle.grad(..., create_graph=True)``
twice, the lowest entry that reaches their kernels. What 3.3.1 does not return is not recorded:
``pow_grad`` of an integer ``x`` with ``int(y) < 1`` never returns (Eigen's integer power loops
forever on a negative exponent), ``prod_grad`` of an integer ``x`` holding 0 and ``divide_grad``
of an integer ``y`` holding 0 die with SIGFPE (integer division by zero); phiops refuses those.
The integer grads are compared through the grad ops only, as static programs carry them:
phiops's autograd refuses integer inputs (runtime/autograd), where 3.3.1's eager autograd, given
an integer tensor with stop_gradient=False, runs mean_grad, prod_grad and pow_grad on it
(``paddle.grad(paddle.mean(x), x)`` of int64 [1, 2, 3] is [0, 0, 0]) and fails for divide and
elementwise_pow (it cannot accumulate the int64 gradient of their cast).

Run from the repository root:
``PYTHONPATH=$PWD /work/paddle-venv/bin/python tests/tools/make_dtype24_fixtures.py``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import numpy as np

OUT = Path(__file__).resolve().parents[1] / "data" / "dtype24" / "dtype24.npz"

UNARY_FLOAT_OUT = ("exp", "expm1", "log", "log10", "log1p", "log2")
INTEGERS = ("int32", "int64")
COMPLEX = ("complex64", "complex128")
SMALL_INTEGERS = ("bool", "uint8", "int8", "int16", "int32", "int64")

# integer inputs of the float32 unary ops: 0, negatives (nan or -inf), values float32 rounds
_INT_X = [0, 1, 2, -1, -2, 5, 100, 16777217, 2147483647]
_INT64_EXTRA = [2**40 + 1, -(2**62)]
_CX = [0.5 + 0.3j, -0.2 + 1.1j, 2.0 - 0.7j, -1.5 - 0.4j, 0.1j, 3.0]
_CG = [1 + 2j, 0.5 - 1j, -0.3 + 0.2j, 1.0, 2j, -1 - 1j]
_CW = [0.3 - 0.7j, 1 + 1j, 0.25, -2 + 0.5j, 1j, 0.5 - 0.5j]


def _int_x(dtype: str) -> np.ndarray:
    return np.array(_INT_X + (_INT64_EXTRA if dtype == "int64" else []), dtype)


def cases(lib: Any, grads: Any) -> dict[str, Callable[[], Any]]:
    """Each case: a name and a call returning a tensor or a tuple of tensors, written once for
    ``lib`` = paddle (``grads`` = paddle._C_ops) and ``lib`` = phiops (``grads`` =
    phiops.generated.backward)."""
    T = lib.to_tensor
    out: dict[str, Callable[[], Any]] = {}

    def add(name: str, call: Callable[[], Any]) -> None:
        out[name] = call

    for op in UNARY_FLOAT_OUT:
        for dtype in INTEGERS:
            add(
                f"{op}-{dtype}",
                lambda op=op, dtype=dtype: getattr(lib._C_ops, op)(T(_int_x(dtype))),
            )

    for dtype in INTEGERS:
        x = np.array([[1, 2, 0, 3], [-3, 4, 7, -1]], dtype)
        g = np.array([[5, 7, 3, -2], [2, -9, 11, 4]], dtype)
        for y in (1, 1.9, 2, 2.5, 3):
            add(f"pow_grad-{dtype}-y{y}", lambda x=x, g=g, y=y: grads.pow_grad(T(x), T(g), y))
        big = np.array([1000, -1000, 46341, 3], dtype)
        add(
            f"pow_grad-{dtype}-wraps",
            lambda big=big: grads.pow_grad(T(big), T(np.ones(4, big.dtype)), 3),
        )

        xm = np.array([[1, 2, 3], [-4, 5, 6]], dtype)
        for axis, keep, full, og in (
            ([1], False, False, np.array([7, -8], dtype)),
            ([0], True, False, np.array([[5, -5, 1]], dtype)),
            ([], False, True, np.array(13, dtype)),
        ):
            add(
                f"mean_grad-{dtype}-axis{axis}-keep{keep}-all{full}",
                lambda xm=xm, og=og, axis=axis, keep=keep, full=full: grads.mean_grad(
                    T(xm), T(og), axis, keep, full
                ),
            )

        xp_ = np.array([[1, 2, 5], [3, -2, 4], [-1, 1, -1]], dtype)
        prod = np.prod(xp_, axis=1).astype(dtype)
        add(
            f"prod_grad-{dtype}",
            lambda xp_=xp_, prod=prod, dtype=dtype: grads.prod_grad(
                T(xp_), T(prod), T(np.array([3, 5, -7], dtype)), [1], False, False
            ),
        )

        xe = np.array([[1, 2, 5, 3], [-2, 4, 0, 0], [7, 10, 2, -3]], dtype)
        ye = np.array([[2, 3, 0, 1], [2, -1, 2, 0], [3, 1, 31, 2]], dtype)
        ge = np.array([[5, 7, 3, 2], [3, -9, 4, 4], [1000, 100, 1, 5]], dtype)
        add(
            f"elementwise_pow_grad-{dtype}",
            lambda xe=xe, ye=ye, ge=ge: grads.elementwise_pow_grad(T(xe), T(ye), T(ge)),
        )
        # x == 0 with every sign of y, and products out of the type's range
        xz = np.array([0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 2, 2, 3, -3, 5, 5], dtype)
        yz = np.array([0, 1, 2, 3, -1, -2, 0, 1, 0, -1, 31, 30, 40, 3, 0, 1], dtype)
        gz = np.array([1, 1, 1, 1, 1, 3, 3, 3, 1, 1, 1, 3, 1, 1, 2, 1], dtype)
        add(
            f"elementwise_pow_grad-{dtype}-edges",
            lambda xz=xz, yz=yz, gz=gz: grads.elementwise_pow_grad(T(xz), T(yz), T(gz)),
        )
        xb, yb = np.array([[3, -7, 2]], dtype), np.array([[2], [-3]], dtype)
        gb = np.array([[5, 1, -4], [2, 9, 6]], dtype)
        add(
            f"elementwise_pow_grad-{dtype}-broadcast",
            lambda xb=xb, yb=yb, gb=gb: grads.elementwise_pow_grad(T(xb), T(yb), T(gb)),
        )

    xm = np.array([[True, False, True], [False, False, True]])
    add(
        "mean_grad-bool",
        lambda xm=xm: grads.mean_grad(T(xm), T(np.array([True, False])), [1], False, False),
    )
    add(
        "mean_grad-bool-all",
        lambda xm=xm: grads.mean_grad(T(xm), T(np.array(True)), [], False, True),
    )

    for dtype in SMALL_INTEGERS:
        signed = dtype not in ("bool", "uint8")
        if dtype == "bool":
            x = np.array([[True, False, True], [False, True, True]])
            y = np.array([[True, True, True], [True, True, True]])
            o = np.array([[True, False, True], [False, True, False]])
            g = np.array([[True, True, False], [True, False, True]])
        else:
            x = np.array(
                [[1, 2, 5, 9], [3, 7, 4, 100]] if not signed else [[1, -2, 5, 9], [3, -7, 4, 100]],
                dtype,
            )
            y = np.array(
                [[2, 3, 4, 1], [5, 2, 7, 3]] if not signed else [[2, 3, -4, 1], [5, 2, 7, -3]],
                dtype,
            )
            o = np.array(
                [[0, 0, 1, 9], [0, 3, 0, 33]] if not signed else [[0, 0, -1, 9], [0, -3, 0, -33]],
                dtype,
            )
            g = np.array(
                [[5, 7, 3, 2], [2, 3, 9, 4]] if not signed else [[5, 7, 3, -2], [2, 3, -9, 4]],
                dtype,
            )
        add(
            f"divide_grad-{dtype}",
            lambda x=x, y=y, o=o, g=g: grads.divide_grad(T(x), T(y), T(o), T(g), -1),
        )
        if dtype != "bool":
            yb = np.array([3] if not signed else [-3], dtype)
            ob = (x // 3).astype(dtype)
            add(
                f"divide_grad-{dtype}-broadcast",
                lambda x=x, yb=yb, ob=ob, g=g: grads.divide_grad(T(x), T(yb), T(ob), T(g), -1),
            )

    for dtype in COMPLEX:
        x, g = np.array(_CX, dtype), np.array(_CG, dtype)
        add(f"log_grad-{dtype}", lambda x=x, g=g: grads.log_grad(T(x), T(g)))
        add(f"sqrt_grad-{dtype}", lambda x=x, g=g: grads.sqrt_grad(T(np.sqrt(x)), T(g)))
        add(f"square_grad-{dtype}", lambda x=x, g=g: grads.square_grad(T(x), T(g)))
        for y in (2, 2.5, -1, 0.5):
            add(f"pow_grad-{dtype}-y{y}", lambda x=x, g=g, y=y: grads.pow_grad(T(x), T(g), y))
        # through autograd: the forward op, then its grad (and, for the double grads, the grad of
        # that grad w.r.t. x)
        for op in ("log", "sqrt", "square"):
            add(f"autograd-{op}-{dtype}", lambda op=op, x=x, g=g: _first(lib, op, x, g))
        add(f"autograd-pow-{dtype}", lambda x=x, g=g: _first(lib, "pow", x, g, 2.5))
        for op in ("tanh", "sigmoid", "square"):
            add(
                f"double-{op}-{dtype}",
                lambda op=op, x=x, g=g, dtype=dtype: _double(lib, op, x, g, np.array(_CW, dtype)),
            )
    return out


def _first(lib: Any, op: str, x: np.ndarray, g: np.ndarray, *attrs: Any) -> Any:
    xt = lib.to_tensor(x, stop_gradient=False)
    (grad,) = lib.grad(getattr(lib, op)(xt, *attrs), xt, lib.to_tensor(g))
    return grad


def _double(lib: Any, op: str, x: np.ndarray, g: np.ndarray, w: np.ndarray) -> Any:
    """x's gradient with ``g`` as out's, then the gradients of that w.r.t. x and g with ``w``
    as its own: the double grad kernel's two outputs, each taken through the first grad's."""
    xt = lib.to_tensor(x, stop_gradient=False)
    gt = lib.to_tensor(g, stop_gradient=False)
    (grad,) = lib.grad(getattr(lib, op)(xt), xt, gt, create_graph=True)
    x_second, g_second = lib.grad(grad, [xt, gt], lib.to_tensor(w))
    return grad, x_second, g_second


def as_arrays(result: Any) -> list[np.ndarray]:
    """A case's result as numpy arrays, one per output."""
    items = result if isinstance(result, (tuple, list)) else (result,)
    return [item.numpy() for item in items]


def main() -> None:
    import paddle

    arrays: dict[str, np.ndarray] = {}
    for name, call in cases(paddle, paddle._C_ops).items():
        for i, array in enumerate(as_arrays(call())):
            arrays[f"{name}/{i}"] = array
    OUT.parent.mkdir(parents=True, exist_ok=True)
    np.savez(OUT, **arrays)
    print(f"wrote {OUT} ({len(arrays)} arrays)")


if __name__ == "__main__":
    main()
