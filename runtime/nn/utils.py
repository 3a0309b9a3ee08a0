"""``paddle.nn.utils``: gradient clipping (``clip_grad_norm_``, ``clip_grad_value_``),
``parameters_to_vector``/``vector_to_parameters``, and the reparametrisations ``weight_norm``/
``remove_weight_norm`` and ``spectral_norm``, as PaddlePaddle 3.3.1 writes them
(python/paddle/nn/utils/): forward pre-hooks that recompute the weight from parameters named
``<name>_g``/``<name>_v`` (weight norm) or ``<name>_orig`` with buffers ``<name>_u``/``<name>_v``
(spectral norm), each a composite of ops (PaddlePaddle's own is too: its spectral_norm hook does
not call the ``spectral_norm`` op, which only ``paddle.nn.SpectralNorm`` uses)."""

from __future__ import annotations

import math
from typing import Any, Iterable

from phiops.runtime.autograd import no_grad
from phiops.runtime.common import DataType
from phiops.runtime.dispatch.build_mode import in_static_mode
from phiops.runtime.dispatch.op_def import op_api
from phiops.runtime.eager.tensor import Tensor, to_tensor
from phiops.runtime.errors import InvalidArgumentError, PreconditionNotMetError
from phiops.runtime.nn.layer import Layer

__all__ = [
    "clip_grad_norm_",
    "clip_grad_value_",
    "parameters_to_vector",
    "vector_to_parameters",
    "weight_norm",
    "remove_weight_norm",
    "spectral_norm",
]


def _dynamic_only(where: str) -> None:
    if in_static_mode():
        raise PreconditionNotMetError(f"{where}: this API can only run in dynamic mode")


def _as_list(parameters: Any) -> list[Tensor]:
    return [parameters] if isinstance(parameters, Tensor) else list(parameters)


def clip_grad_norm_(
    parameters: Iterable[Tensor] | Tensor,
    max_norm: float,
    norm_type: float = 2.0,
    error_if_nonfinite: bool = False,
) -> Tensor:
    """Scale the gradients of ``parameters`` in place so that their total ``norm_type``-norm
    (inf, 0, 1 or 2) is at most ``max_norm`` (coefficient ``max_norm / (norm + 1e-6)``, capped
    at 1); returns the total norm before clipping."""
    _dynamic_only("clip_grad_norm_")
    parameters = _as_list(parameters)
    if norm_type not in (float("inf"), 0, 1, 2):
        raise InvalidArgumentError(
            f"clip_grad_norm_: argument 'norm_type' must be one of inf, 0, 1, 2, got {norm_type}"
        )
    grads = [p.grad for p in parameters if p.grad is not None]
    max_norm, norm_type = float(max_norm), float(norm_type)
    if not grads:
        return to_tensor(0.0)
    with no_grad():
        if norm_type == float("inf"):
            norms = [op_api("max")(op_api("abs")(g), [], False) for g in grads]
            total = (
                norms[0] if len(norms) == 1 else op_api("max")(op_api("stack")(norms, 0), [], False)
            )
        else:
            norms = [op_api("p_norm")(g, norm_type, -1, 1e-12, False, True) for g in grads]
            total = op_api("p_norm")(op_api("stack")(norms, 0), norm_type, -1, 1e-12, False, True)
        if error_if_nonfinite and not math.isfinite(float(total.numpy())):
            raise PreconditionNotMetError(
                f"clip_grad_norm_: the total norm of order {norm_type} of the gradients is "
                "non-finite, so it cannot be clipped; pass error_if_nonfinite=False to scale by "
                "it anyway"
            )
        coefficient = op_api("clip")(
            op_api("divide")(
                op_api("full")([], max_norm, total.dtype),
                op_api("scale")(total, 1.0, 1e-6, True),
            ),
            float("-inf"),
            1.0,
        )
        for grad in grads:
            grad.set_value(op_api("multiply")(grad, coefficient))
    return total


def clip_grad_value_(parameters: Iterable[Tensor] | Tensor, clip_value: float) -> None:
    """Clip the gradients of ``parameters`` in place to [-clip_value, clip_value]."""
    _dynamic_only("clip_grad_value_")
    clip_value = float(clip_value)
    with no_grad():
        for param in _as_list(parameters):
            if param.grad is not None:
                param.grad.set_value(op_api("clip")(param.grad, -clip_value, clip_value))


def parameters_to_vector(parameters: Iterable[Tensor], name: str | None = None) -> Tensor:
    """The parameters flattened and concatenated into one 1-D tensor (op concat), which takes
    gradients (stop_gradient=False) but shares no storage with them."""
    _dynamic_only("parameters_to_vector")
    parameters = list(parameters)
    if not parameters:
        raise InvalidArgumentError("parameters_to_vector: argument 'parameters' is empty")
    with no_grad():
        out = op_api("concat")([op_api("reshape")(p, [-1]) for p in parameters], 0)
    out.stop_gradient = False
    return out


def vector_to_parameters(
    vec: Tensor, parameters: Iterable[Tensor], name: str | None = None
) -> None:
    """Copy consecutive slices of the 1-D ``vec`` into ``parameters`` (in their shapes); ``vec``
    may be longer than the parameters together, not shorter."""
    _dynamic_only("vector_to_parameters")
    parameters = list(parameters)
    if len(vec.shape) != 1:
        raise InvalidArgumentError(
            f"vector_to_parameters: argument 'vec' must be 1-D, got shape {vec.shape}"
        )
    sizes = [int(math.prod(p.shape)) for p in parameters]
    if sum(sizes) > vec.shape[0]:
        raise InvalidArgumentError(
            f"vector_to_parameters: 'vec' has {vec.shape[0]} elements, the parameters need "
            f"{sum(sizes)}"
        )
    with no_grad():
        sections = sizes + ([vec.shape[0] - sum(sizes)] if sum(sizes) < vec.shape[0] else [])
        pieces = op_api("split")(vec, sections, 0)
        for param, piece in zip(parameters, pieces):
            param.set_value(op_api("reshape")(piece, list(param.shape)))


# -- weight norm -----------------------------------------------------------------------------------


def _normalize(x: Tensor, axis: int, epsilon: float = 1e-12) -> Tensor:
    """``paddle.nn.functional.normalize`` with p=2: x / max(||x||, epsilon) along ``axis``."""
    norm = op_api("p_norm")(x, 2.0, axis, epsilon, True, False)
    return op_api("divide")(x, op_api("maximum")(norm, op_api("full")([1], epsilon, x.dtype)))


def _moved_to_front(x: Tensor, dim: int) -> tuple[Tensor, list[int]]:
    perm = list(range(len(x.shape)))
    perm[0], perm[dim] = dim, 0
    return op_api("transpose")(x, perm), perm


def _norm_except_dim(p: Tensor, dim: int) -> Tensor:
    """The 2-norm of ``p`` over every axis but ``dim`` (all axes for -1)."""
    if dim == -1:
        total = op_api("sum")(op_api("square")(p), [], DataType.UNDEFINED, False)
        return op_api("sqrt")(op_api("scale")(total, 1.0, 1e-12, True))
    if dim != 0:
        p, _ = _moved_to_front(p, dim)
    matrix = op_api("reshape")(p, [p.shape[0], -1])
    squares = op_api("sum")(op_api("square")(matrix), [1], DataType.UNDEFINED, False)
    return op_api("sqrt")(op_api("scale")(squares, 1.0, 1e-12, True))


def _weight_norm(v: Tensor, g: Tensor, dim: int) -> Tensor:
    shape = list(v.shape)
    if dim == -1:
        total = op_api("sum")(op_api("square")(v), [], DataType.UNDEFINED, False)
        normalized = op_api("divide")(v, op_api("scale")(op_api("sqrt")(total), 1.0, 1e-12, True))
        return op_api("multiply")(normalized, g)
    if dim == len(shape) - 1:
        matrix = op_api("reshape")(v, [-1, shape[-1]])
        normalized = op_api("reshape")(_normalize(matrix, 0), shape)
    elif dim == 0:
        matrix = op_api("reshape")(v, [shape[0], -1])
        normalized = op_api("reshape")(_normalize(matrix, 1), shape)
    else:
        moved, perm = _moved_to_front(v, dim)
        matrix = op_api("reshape")(moved, [moved.shape[0], -1])
        normalized = op_api("reshape")(_normalize(matrix, 1), list(moved.shape))
        normalized = op_api("transpose")(normalized, perm)
    broadcast = [1] * len(shape)
    broadcast[dim] = shape[dim]
    return op_api("multiply")(normalized, op_api("reshape")(g, broadcast))


class WeightNorm:
    """The forward pre-hook of ``weight_norm``: ``weight = g * v / ||v||``."""

    def __init__(self, name: str, dim: int) -> None:
        self.name, self.dim = name, dim

    def compute_weight(self, layer: Layer) -> Tensor:
        g = getattr(layer, self.name + "_g")
        v = getattr(layer, self.name + "_v")
        return _weight_norm(v, g, self.dim)

    @staticmethod
    def apply(layer: Layer, name: str, dim: int | None) -> WeightNorm:
        for hook in layer._forward_pre_hooks.values():
            if isinstance(hook, WeightNorm) and hook.name == name:
                raise PreconditionNotMetError(
                    f"weight_norm: the parameter {name!r} already has a weight_norm hook"
                )
        if name not in layer._parameters:
            raise InvalidArgumentError(
                f"weight_norm: {type(layer).__name__} has no parameter {name!r}"
            )
        weight = layer._parameters[name]
        rank = len(weight.shape)
        dim = -1 if dim is None else dim
        if not -rank <= dim < rank:
            raise InvalidArgumentError(
                f"weight_norm: argument 'dim' must be in [-{rank}, {rank}) for the weight of "
                f"rank {rank}, got {dim}"
            )
        if dim != -1:
            dim %= rank
        hook = WeightNorm(name, dim)
        del layer._parameters[name]
        with no_grad():
            g_value = _norm_except_dim(weight, dim)
        v = layer.create_parameter(list(weight.shape), dtype=weight.dtype)
        layer.add_parameter(name + "_v", v)
        g = layer.create_parameter(list(g_value.shape), dtype=g_value.dtype)
        layer.add_parameter(name + "_g", g)
        v.set_value(weight)
        g.set_value(g_value)
        setattr(layer, name, hook.compute_weight(layer))
        layer.register_forward_pre_hook(hook)
        return hook

    def remove(self, layer: Layer) -> None:
        with no_grad():
            weight = self.compute_weight(layer)
        layer.__dict__.pop(self.name, None)
        del layer._parameters[self.name + "_g"]
        del layer._parameters[self.name + "_v"]
        restored = layer.create_parameter(list(weight.shape), dtype=weight.dtype)
        layer.add_parameter(self.name, restored)
        restored.set_value(weight)

    def __call__(self, layer: Layer, inputs: Any) -> None:
        setattr(layer, self.name, self.compute_weight(layer))


def weight_norm(layer: Layer, name: str = "weight", dim: int = 0) -> Layer:
    """Reparametrise ``layer``'s parameter ``name`` as ``g * v / ||v||`` (norm over every axis
    but ``dim``; over all axes when ``dim`` is None): the parameter is replaced by ``name_g``
    and ``name_v``, and a forward pre-hook recomputes ``name`` before each call."""
    WeightNorm.apply(layer, name, dim)
    return layer


def remove_weight_norm(layer: Layer, name: str = "weight") -> Layer:
    """Undo ``weight_norm``: ``name`` becomes a parameter again holding the current weight."""
    for key, hook in list(layer._forward_pre_hooks.items()):
        if isinstance(hook, WeightNorm) and hook.name == name:
            hook.remove(layer)
            del layer._forward_pre_hooks[key]
            return layer
    raise InvalidArgumentError(f"remove_weight_norm: weight_norm of {name!r} not found in {layer}")


# -- spectral norm ---------------------------------------------------------------------------------


class SpectralNorm:
    """The forward pre-hook of ``spectral_norm``: ``weight = weight_orig / sigma``, sigma the
    largest singular value estimated by power iteration on ``weight_u``/``weight_v`` (one
    iteration per training-mode call, none in eval mode)."""

    def __init__(
        self, name: str = "weight", n_power_iterations: int = 1, dim: int = 0, eps: float = 1e-12
    ) -> None:
        if n_power_iterations <= 0:
            raise InvalidArgumentError(
                "spectral_norm: argument 'n_power_iterations' must be positive, got "
                f"{n_power_iterations}"
            )
        self.name, self.n_power_iterations, self.dim, self.eps = name, n_power_iterations, dim, eps

    def reshape_weight_to_matrix(self, weight: Tensor) -> Tensor:
        if self.dim != 0:
            rank = len(weight.shape)
            weight = op_api("transpose")(
                weight, [self.dim] + [d for d in range(rank) if d != self.dim]
            )
        return op_api("reshape")(weight, [weight.shape[0], -1])

    def compute_weight(self, layer: Layer, do_power_iteration: bool) -> Tensor:
        weight = getattr(layer, self.name + "_orig")
        u = getattr(layer, self.name + "_u")
        v = getattr(layer, self.name + "_v")
        matrix = self.reshape_weight_to_matrix(weight)
        if do_power_iteration:
            with no_grad():
                for _ in range(self.n_power_iterations):
                    v.set_value(_normalize(op_api("matmul")(matrix, u, True, False), 0, self.eps))
                    u.set_value(_normalize(op_api("matmul")(matrix, v, False, False), 0, self.eps))
            u, v = op_api("assign")(u), op_api("assign")(v)
        sigma = op_api("dot")(u, op_api("mv")(matrix, v))
        return op_api("divide")(weight, sigma)

    @staticmethod
    def apply(
        layer: Layer, name: str, n_power_iterations: int, dim: int, eps: float
    ) -> SpectralNorm:
        for hook in layer._forward_pre_hooks.values():
            if isinstance(hook, SpectralNorm) and hook.name == name:
                raise PreconditionNotMetError(
                    f"spectral_norm: the parameter {name!r} already has a spectral_norm hook"
                )
        if name not in layer._parameters:
            raise InvalidArgumentError(
                f"spectral_norm: {type(layer).__name__} has no parameter {name!r}"
            )
        hook = SpectralNorm(name, n_power_iterations, dim, eps)
        weight = layer._parameters[name]
        rank = len(weight.shape)
        if not 0 <= dim < rank:
            raise InvalidArgumentError(
                f"spectral_norm: argument 'dim' must be in [0, {rank}) for the weight of rank "
                f"{rank}, got {dim}"
            )
        with no_grad():
            height, width = hook.reshape_weight_to_matrix(weight).shape
            u = _normalize(op_api("gaussian")([height], 0.0, 1.0, 0, weight.dtype), 0, eps)
            v = _normalize(op_api("gaussian")([width], 0.0, 1.0, 0, weight.dtype), 0, eps)
        del layer._parameters[name]
        layer.add_parameter(name + "_orig", weight)
        setattr(layer, name, op_api("scale")(weight, 1.0, 0.0, True))
        layer.register_buffer(name + "_u", u)
        layer.register_buffer(name + "_v", v)
        layer.register_forward_pre_hook(hook)
        return hook

    def __call__(self, layer: Layer, inputs: Any) -> None:
        setattr(layer, self.name, self.compute_weight(layer, do_power_iteration=layer.training))


_TRANSPOSED_WEIGHTS = ("Conv1DTranspose", "Conv2DTranspose", "Conv3DTranspose", "Linear")


def spectral_norm(
    layer: Layer,
    name: str = "weight",
    n_power_iterations: int = 1,
    eps: float = 1e-12,
    dim: int | None = None,
) -> Layer:
    """Divide ``layer``'s parameter ``name`` by its spectral norm before each call: the
    parameter becomes ``name_orig``, with the power-iteration vectors in the buffers ``name_u``
    and ``name_v`` (drawn from a standard normal). ``dim`` (default 1 for Linear and transposed
    convolutions, else 0) is the axis kept as the matrix's rows."""
    if dim is None:
        dim = 1 if type(layer).__name__ in _TRANSPOSED_WEIGHTS else 0
    SpectralNorm.apply(layer, name, n_power_iterations, dim, eps)
    return layer
