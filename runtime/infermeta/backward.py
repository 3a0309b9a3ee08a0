"""InferMeta functions of grad ops: a gradient has the meta of the tensor it is the gradient of."""

from __future__ import annotations

from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta.dims import UNKNOWN, dims_match, extents_match, is_known, numel
from phiops.runtime.infermeta.unary import check_axis

_RUNTIME = MetaConfig()


def _like(out: MetaTensor | None, source: MetaTensor | None) -> None:
    if out is not None and source is not None:
        out.share_meta(source)


def general_unary_grad_infer_meta(
    x: MetaTensor, dx: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """``dx`` like ``x``."""
    _like(dx, x)


def general_binary_grad_infer_meta(
    x: MetaTensor, y: MetaTensor, dx: MetaTensor, dy: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """``dx`` like ``x`` and ``dy`` like ``y`` (broadcast grads are reduced to these shapes)."""
    _like(dx, x)
    _like(dy, y)


def general_ternary_grad_infer_meta(
    x: MetaTensor,
    y: MetaTensor,
    z: MetaTensor,
    dx: MetaTensor,
    dy: MetaTensor,
    dz: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``dx``, ``dy``, ``dz`` like ``x``, ``y``, ``z``."""
    _like(dx, x)
    _like(dy, y)
    _like(dz, z)


def grad_same_with_x_infer_meta(
    x: MetaTensor, out_grad: MetaTensor, x_grad: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """``x_grad`` has ``x``'s dims and ``out_grad``'s dtype (shape ops: reshape, squeeze, ...)."""
    x_grad.set_dims(x.dims)
    x_grad.set_dtype(out_grad.dtype)
    x_grad.set_layout(out_grad.layout)


def transpose_grad_infer_meta(
    out_grad: MetaTensor, perm: tuple[int, ...], x_grad: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """``x_grad`` has ``out_grad``'s dims permuted back by the inverse of ``perm``."""
    rank = len(out_grad.dims)
    axes = [axis + rank if axis < 0 else axis for axis in perm]
    if sorted(axes) != list(range(rank)):
        raise InvalidArgumentError(
            f"argument 'perm' must be a permutation of the {rank} axes of 'out_grad', got {list(perm)}"
        )
    dims = [0] * rank
    for position, axis in enumerate(axes):
        dims[axis] = out_grad.dims[position]
    x_grad.set_dims(dims)
    x_grad.set_dtype(out_grad.dtype)
    x_grad.set_layout(out_grad.layout)


def unchanged_multi_infer_meta(
    x: list[MetaTensor], out: list[MetaTensor], config: MetaConfig = _RUNTIME
) -> None:
    """Each ``out[i]`` like ``x[i]``."""
    if len(x) != len(out):
        raise InvalidArgumentError(f"expected {len(x)} outputs for {len(x)} inputs, got {len(out)}")
    for source, target in zip(x, out):
        _like(target, source)


def stack_grad_infer_meta(
    out_grad: MetaTensor, axis: int, x_grad: list[MetaTensor], config: MetaConfig = _RUNTIME
) -> None:
    """Unstack ``out_grad`` along ``axis``: each ``x_grad[i]`` has its dims without that axis."""
    axis = check_axis(axis, len(out_grad.dims), "axis")
    if not extents_match(len(x_grad), out_grad.dims[axis], config):
        raise InvalidArgumentError(
            f"'out_grad' has {out_grad.dims[axis]} entries along axis {axis}, "
            f"but {len(x_grad)} gradients were asked for"
        )
    dims = out_grad.dims[:axis] + out_grad.dims[axis + 1 :]
    for grad in x_grad:
        grad.set_dims(dims)
        grad.set_dtype(out_grad.dtype)
        grad.set_layout(out_grad.layout)


def cross_entropy_with_softmax_grad_infer_meta(
    label: MetaTensor,
    softmax: MetaTensor,
    loss_grad: MetaTensor,
    soft_label: bool,
    use_softmax: bool,
    numeric_stable_mode: bool,
    ignore_index: int,
    axis: int,
    input_grad: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``input_grad`` like ``softmax``; ``loss_grad`` must have softmax's dims with 1 on ``axis``."""
    rank = len(softmax.dims)
    if not -rank <= axis < max(rank, 1):
        raise InvalidArgumentError(f"argument 'axis' must be in [{-rank}, {rank}), got {axis}")
    axis = axis + rank if axis < 0 else axis
    expected = softmax.dims[:axis] + (1,) + softmax.dims[axis + 1 :]
    if not dims_match(loss_grad.dims, expected, config):
        raise InvalidArgumentError(
            f"argument 'loss_grad' must have dims {list(expected)} (softmax's with 1 on axis {axis}), "
            f"got {list(loss_grad.dims)}"
        )
    input_grad.share_meta(softmax)


def layer_norm_grad_infer_meta(
    x: MetaTensor,
    scale: MetaTensor | None,
    bias: MetaTensor | None,
    x_grad: MetaTensor,
    scale_grad: MetaTensor,
    bias_grad: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's LayerNormGradInferMeta: each gradient like its input; a gradient of an absent
    ``scale`` or ``bias`` is absent."""
    _like(x_grad, x)
    _like(scale_grad, scale)
    _like(bias_grad, bias)


# PReLU and more backward InferMeta ------------------------------------------------------------


def prelu_grad_infer_meta(
    x: MetaTensor,
    alpha: MetaTensor,
    x_grad: MetaTensor,
    alpha_grad: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``x_grad`` like ``x``, ``alpha_grad`` like ``alpha``."""
    _like(x_grad, x)
    _like(alpha_grad, alpha)


# Grads of gather_nd, scatter, scatter_nd_add, set_value_with_tensor, index_put ----------------


def _check_grad_dims(
    name: str, grad: MetaTensor, expected: tuple[int, ...], whose: str, config: MetaConfig
) -> None:
    """A gradient given to a grad op must have the dims the forward op gave (``whose`` says
    which); while building a graph unknown extents match."""
    if not dims_match(tuple(grad.dims), tuple(expected), config):
        raise InvalidArgumentError(
            f"argument '{name}' must have dims {list(expected)} ({whose}), got {list(grad.dims)}"
        )


def _grad_like(grad: MetaTensor | None, dims_of: MetaTensor, dtype_of: MetaTensor) -> None:
    if grad is not None:
        grad.set_dims(dims_of.dims)
        grad.set_dtype(dtype_of.dtype)
        grad.set_layout(dims_of.layout)


def gather_nd_grad_infer_meta(
    x: MetaTensor,
    index: MetaTensor,
    out_grad: MetaTensor,
    x_grad: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``x_grad``: x's dims, out_grad's dtype; ``out_grad`` must have gather_nd's output dims,
    index.dims[:-1] + x.dims[index.dims[-1]:]."""
    depth = index.dims[-1] if index.dims else UNKNOWN
    if is_known(depth):
        expected = tuple(index.dims[:-1]) + tuple(x.dims[depth:])
        _check_grad_dims("out_grad", out_grad, expected, "gather_nd's output", config)
    _grad_like(x_grad, x, out_grad)


def scatter_grad_infer_meta(
    index: MetaTensor,
    updates: MetaTensor,
    out_grad: MetaTensor,
    overwrite: bool,
    x_grad: MetaTensor,
    updates_grad: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``x_grad`` like ``out_grad``; ``updates_grad``: updates' dims, out_grad's dtype."""
    _grad_like(x_grad, out_grad, out_grad)
    _grad_like(updates_grad, updates, out_grad)


def scatter_nd_add_grad_infer_meta(
    index: MetaTensor,
    updates: MetaTensor,
    out_grad: MetaTensor,
    x_grad: MetaTensor,
    updates_grad: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``x_grad`` like ``out_grad``; ``updates_grad``: updates' dims, out_grad's dtype.
    ``updates`` must fit ``out_grad`` as scatter_nd_add's did: index.dims[:-1] +
    out_grad.dims[index.dims[-1]:]."""
    depth = index.dims[-1] if index.dims else UNKNOWN
    if is_known(depth):
        expected = tuple(index.dims[:-1]) + tuple(out_grad.dims[depth:])
        if not dims_match(tuple(updates.dims), expected, config):
            raise InvalidArgumentError(
                f"argument 'updates' must have dims {list(expected)} (index.dims[:-1] + "
                f"out_grad.dims[{depth}:], out_grad being {list(out_grad.dims)}), got "
                f"{list(updates.dims)}"
            )
    _grad_like(x_grad, out_grad, out_grad)
    _grad_like(updates_grad, updates, out_grad)


def set_value_grad_infer_meta(
    out_grad: MetaTensor,
    values: MetaTensor,
    x_grad: MetaTensor,
    values_grad: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``x_grad`` like ``out_grad``; ``values_grad``: values' dims, out_grad's dtype."""
    _grad_like(x_grad, out_grad, out_grad)
    _grad_like(values_grad, values, out_grad)


def index_put_grad_infer_meta(
    x: MetaTensor,
    indices: list[MetaTensor],
    value: MetaTensor,
    out_grad: MetaTensor,
    accumulate: bool,
    x_grad: MetaTensor,
    value_grad: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``x_grad``: x's dims; ``value_grad``: value's dims; both out_grad's dtype. ``out_grad``
    must have x's dims (index_put's output is x's shape)."""
    _check_grad_dims("out_grad", out_grad, tuple(x.dims), "x's, as index_put's output", config)
    _grad_like(x_grad, x, out_grad)
    _grad_like(value_grad, value, out_grad)


def max_pool_with_index_grad_infer_meta(
    x: MetaTensor,
    mask: MetaTensor,
    dout: MetaTensor,
    kernel_size: tuple[int, ...],
    strides: tuple[int, ...],
    paddings: tuple[int, ...],
    global_pooling: bool,
    adaptive: bool,
    ceil_mode: bool,
    dx: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's MaxPoolWithIndexGradInferMeta: ``dx`` like ``x``."""
    _like(dx, x)


def instance_norm_grad_infer_meta(
    x: MetaTensor,
    scale: MetaTensor | None,
    saved_mean: MetaTensor,
    saved_variance: MetaTensor,
    y_grad: MetaTensor,
    epsilon: float,
    x_grad: MetaTensor,
    scale_grad: MetaTensor,
    bias_grad: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's InstanceNormGradInferMeta: ``x_grad`` like ``x``; ``scale_grad`` (when ``scale``
    is given) and ``bias_grad`` [C]. ``y_grad`` must have x's dims."""
    _check_grad_dims("y_grad", y_grad, tuple(x.dims), "x's, as instance_norm's output", config)
    _like(x_grad, x)
    channels = x.dims[1]
    for grad, present in ((scale_grad, scale is not None), (bias_grad, True)):
        if grad is not None and present:
            grad.set_dims((channels,))
            grad.set_dtype(x.dtype)
            grad.set_layout(x.layout)


def meshgrid_grad_infer_meta(
    inputs: list[MetaTensor],
    outputs_grad: list[MetaTensor],
    inputs_grad: list[MetaTensor],
    config: MetaConfig = _RUNTIME,
) -> None:
    """Each ``inputs_grad[i]`` like ``inputs[i]``; ``outputs_grad`` holds one gradient per input,
    each of meshgrid's output dims (the inputs' element counts)."""
    if len(outputs_grad) != len(inputs):
        raise InvalidArgumentError(
            f"argument 'outputs_grad' must hold {len(inputs)} tensors (one per input), got "
            f"{len(outputs_grad)}"
        )
    expected = tuple(numel(item.dims) for item in inputs)
    for index, grad in enumerate(outputs_grad):
        _check_grad_dims(f"outputs_grad[{index}]", grad, expected, "meshgrid's outputs", config)
    unchanged_multi_infer_meta(inputs, inputs_grad, config)


def rnn_grad_infer_meta(
    x: MetaTensor,
    pre_state: list[MetaTensor],
    weight_list: list[MetaTensor],
    x_grad: MetaTensor | None,
    pre_state_grad: list[MetaTensor | None],
    weight_list_grad: list[MetaTensor | None],
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's RnnGradInferMeta: each gradient has the meta of its input."""
    _like(x_grad, x)
    for grads, sources in ((pre_state_grad, pre_state), (weight_list_grad, weight_list)):
        for grad, source in zip(grads, sources):
            _like(grad, source)
