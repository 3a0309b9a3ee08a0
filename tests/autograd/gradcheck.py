"""Gradient checks through the autograd engine against central finite differences in float64.

``check_gradients`` compares the first derivatives that ``phi.grad`` and ``Tensor.backward``
compute with finite differences of a scalar loss; ``check_double_gradients`` does the same for
the derivatives of the first gradients (built with ``create_graph=True``).

Both reduce the op's outputs to a scalar with a random projection, ``L = sum_k sum(out_k * w_k)``
with weights fixed by ``seed``: every output element then has a distinct, non-trivial upstream
gradient, so a kernel that swaps, drops or mis-broadcasts elements cannot pass by symmetry.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

import phiops.generated as phi

Fn = Callable[..., "phi.Tensor | Sequence[phi.Tensor]"]

# phi.grad and Tensor.backward run the same kernels; they may differ only by summation order.
_AGREEMENT = {"rtol": 1e-12, "atol": 1e-12}


def check_gradients(
    fn: Fn,
    inputs: Sequence[np.ndarray],
    *,
    grad_inputs: Sequence[int] | None = None,
    eps: float = 1e-6,
    rtol: float = 1e-5,
    atol: float = 1e-6,
    seed: int = 0,
) -> None:
    """Check d(projected fn)/d(input) for every element of every differentiable input.

    Float inputs become float64 leaves; ``grad_inputs`` (indices into ``inputs``) picks the
    differentiable ones, all float inputs by default; the others are passed with
    ``stop_gradient=True``. ``fn`` returns a Tensor or a list/tuple of Tensors; every float output
    enters the loss. Each differentiable input must get a gradient (``allow_unused`` is off).
    """
    arrays = _as_float64(inputs)
    wrt = _differentiable(arrays, grad_inputs)
    weights = _projection(_outputs(fn, _tensors(arrays, ())), seed)

    leaves = _tensors(arrays, wrt)
    loss = _project(_outputs(fn, leaves), weights)
    by_grad = phi.grad(loss, [leaves[i] for i in wrt], retain_graph=True)
    assert all(leaves[i].grad is None for i in wrt), "phi.grad must not write .grad"
    loss.backward()
    analytic = [_to_numpy(g, arrays[i], f"phi.grad for input {i}") for i, g in zip(wrt, by_grad)]
    for i, expected in zip(wrt, analytic):
        got = _to_numpy(leaves[i].grad, arrays[i], f".grad of input {i} after backward()")
        np.testing.assert_allclose(
            got, expected, **_AGREEMENT, err_msg=f"input {i}: backward() and phi.grad disagree"
        )

    def numeric_loss(values: list[np.ndarray]) -> float:
        with phi.no_grad():
            outs = _outputs(fn, _tensors(values, ()))
        return _numeric_projection(outs, weights)

    numeric = [_central_differences(numeric_loss, arrays, i, eps) for i in wrt]
    labels = [f"input {i}" for i in wrt]
    _assert_close("d loss / d input", labels, analytic, numeric, rtol, atol)


def check_double_gradients(
    fn: Fn,
    inputs: Sequence[np.ndarray],
    *,
    grad_inputs: Sequence[int] | None = None,
    allow_unused: bool = False,
    eps: float = 1e-6,
    rtol: float = 1e-5,
    atol: float = 1e-6,
    seed: int = 0,
) -> None:
    """Check the second derivatives of ``fn`` through its double-grad ops.

    The first gradients ``g_i = phi.grad(out, x_i, grad_outputs=w, create_graph=True)`` are
    projected to ``M = sum_i sum(g_i * v_i)``, and ``dM/dx_i`` and ``dM/dw`` (the upstream
    gradients are leaves too: a double-grad op also returns ``grad_out_grad``) are compared with
    central differences of M, whose first gradients are computed by the (separately checked)
    first-order backward at each perturbed point.

    ``allow_unused=True`` lets a leaf get no second gradient at all (None, compared as zeros):
    relu's first gradient does not depend on x away from 0, and relu_double_grad returns only
    the gradient for the upstream gradient.
    """
    arrays = _as_float64(inputs)
    wrt = _differentiable(arrays, grad_inputs)
    upstream = _projection(_outputs(fn, _tensors(arrays, ())), seed)
    probes = _projection([arrays[i] for i in wrt], seed + 1)
    # The variables: the differentiable inputs, then one upstream gradient per float output.
    values = [arrays[i] for i in wrt] + upstream
    labels = [f"input {i}" for i in wrt]
    labels += [f"upstream grad of output {k}" for k in range(len(upstream))]
    n_inputs = len(wrt)

    def first_grads(
        point: list[np.ndarray], create_graph: bool
    ) -> tuple[list[phi.Tensor], list[phi.Tensor]]:
        """The variables as leaves at ``point``, and the first gradients there."""
        full = list(arrays)
        for slot, i in enumerate(wrt):
            full[i] = point[slot]
        leaves = _tensors(full, wrt)
        upstream_leaves = [
            phi.to_tensor(w, stop_gradient=not create_graph) for w in point[n_inputs:]
        ]
        outs = _outputs(fn, leaves)
        grads = phi.grad(
            outs, [leaves[i] for i in wrt], grad_outputs=upstream_leaves, create_graph=create_graph
        )
        return [leaves[i] for i in wrt] + upstream_leaves, grads

    variables, grads = first_grads(values, create_graph=True)
    second_loss = _project(grads, probes)
    by_grad = phi.grad(second_loss, variables, retain_graph=True, allow_unused=allow_unused)
    second_loss.backward()
    analytic = []
    for slot, (variable, g, what) in enumerate(zip(variables, by_grad, labels)):
        expected = _to_numpy(g, values[slot], f"phi.grad for {what}", allow_none=allow_unused)
        got = _to_numpy(
            variable.grad,
            values[slot],
            f".grad of {what} after backward()",
            allow_none=allow_unused,
        )
        np.testing.assert_allclose(
            got, expected, **_AGREEMENT, err_msg=f"{what}: backward() and phi.grad disagree"
        )
        analytic.append(expected)

    def numeric_loss(point: list[np.ndarray]) -> float:
        _, point_grads = first_grads(point, create_graph=False)
        return _numeric_projection(point_grads, probes)

    numeric = [_central_differences(numeric_loss, values, slot, eps) for slot in range(len(values))]
    _assert_close("d (projected first grads) / d variable", labels, analytic, numeric, rtol, atol)


# -- helpers ------------------------------------------------------------------------------------


def _as_float64(inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    arrays = [np.asarray(a) for a in inputs]
    return [a.astype(np.float64) if np.issubdtype(a.dtype, np.floating) else a for a in arrays]


def _differentiable(arrays: list[np.ndarray], grad_inputs: Sequence[int] | None) -> list[int]:
    if grad_inputs is None:
        return [i for i, a in enumerate(arrays) if np.issubdtype(a.dtype, np.floating)]
    for i in grad_inputs:
        if not np.issubdtype(arrays[i].dtype, np.floating):
            raise ValueError(
                f"grad_inputs names input {i}, whose dtype {arrays[i].dtype} is not float"
            )
    return list(grad_inputs)


def _tensors(arrays: Sequence[np.ndarray], wrt: Sequence[int]) -> list[phi.Tensor]:
    return [phi.to_tensor(a, stop_gradient=i not in wrt) for i, a in enumerate(arrays)]


def _outputs(fn: Fn, tensors: Sequence[phi.Tensor]) -> list[phi.Tensor]:
    """fn's float outputs."""
    result = fn(*tensors)
    outs = list(result) if isinstance(result, (list, tuple)) else [result]
    floats = [o for o in outs if o is not None and np.issubdtype(o.numpy().dtype, np.floating)]
    if not floats:
        raise ValueError(f"{fn!r} returned no float Tensor to check")
    return floats


def _projection(like: Sequence[phi.Tensor | np.ndarray], seed: int) -> list[np.ndarray]:
    """Fixed random weights, one array of each item's shape and dtype."""
    rng = np.random.default_rng(seed)
    arrays = [np.asarray(item) for item in like]
    return [rng.standard_normal(a.shape).astype(a.dtype) for a in arrays]


def _project(outs: Sequence[phi.Tensor], weights: Sequence[np.ndarray]) -> phi.Tensor:
    terms = [phi.sum(phi.multiply(o, phi.to_tensor(w))) for o, w in zip(outs, weights)]
    loss = terms[0]
    for term in terms[1:]:
        loss = phi.add(loss, term)
    return loss


def _numeric_projection(outs: Sequence[phi.Tensor], weights: Sequence[np.ndarray]) -> float:
    return float(
        sum(
            np.sum(o.numpy().astype(np.float64) * w.astype(np.float64))
            for o, w in zip(outs, weights)
        )
    )


def _to_numpy(
    grad: phi.Tensor | None, like: np.ndarray, what: str, allow_none: bool = False
) -> np.ndarray:
    if grad is None:
        assert allow_none, f"{what}: no gradient (None)"
        return np.zeros_like(like)
    value = grad.numpy()
    assert (
        value.shape == like.shape
    ), f"{what}: gradient shape {value.shape}, input shape {like.shape}"
    assert (
        value.dtype == like.dtype
    ), f"{what}: gradient dtype {value.dtype}, input dtype {like.dtype}"
    return value.astype(np.float64)


def _central_differences(
    loss: Callable[[list[np.ndarray]], float], values: list[np.ndarray], slot: int, eps: float
) -> np.ndarray:
    base = values[slot]
    grad = np.zeros(base.shape, np.float64)
    for index in np.ndindex(base.shape):
        point = list(values)
        plus, minus = base.copy(), base.copy()
        plus[index] += eps
        minus[index] -= eps
        point[slot] = plus
        upper = loss(point)
        point[slot] = minus
        grad[index] = (upper - loss(point)) / (2 * eps)
    return grad


@dataclass(frozen=True)
class _Worst:
    index: tuple[int, ...]
    analytic: float
    numeric: float
    excess: float


def _worst(analytic: np.ndarray, numeric: np.ndarray, rtol: float, atol: float) -> _Worst | None:
    if analytic.size == 0:
        return None
    excess = np.abs(analytic - numeric) - (atol + rtol * np.abs(numeric))
    # A NaN on either side is a failure, and the worst one.
    excess = np.where(np.isnan(excess), np.inf, excess)
    flat = int(np.argmax(excess))
    index = tuple(int(i) for i in np.unravel_index(flat, analytic.shape))
    return _Worst(index, float(analytic[index]), float(numeric[index]), float(excess[index]))


def _assert_close(
    title: str,
    labels: Sequence[str],
    analytic: Sequence[np.ndarray],
    numeric: Sequence[np.ndarray],
    rtol: float,
    atol: float,
) -> None:
    failures = []
    for label, a, n in zip(labels, analytic, numeric):
        worst = _worst(a, n, rtol, atol)
        if worst is not None and worst.excess > 0:
            bad = int(np.sum(~(np.abs(a - n) <= atol + rtol * np.abs(n))))
            failures.append(
                f"{label} (shape {list(a.shape)}): {bad} of {a.size} elements off; worst at "
                f"{list(worst.index)}: analytic {worst.analytic!r}, numeric {worst.numeric!r}"
            )
    assert not failures, f"{title} (rtol={rtol}, atol={atol}):\n  " + "\n  ".join(failures)
