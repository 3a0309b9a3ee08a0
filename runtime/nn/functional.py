"""``phi.nn.functional``: PaddlePaddle's Python signatures (``paddle.nn.functional``) over the
generated ops, found through the OpDef registry (``generated`` must be imported)."""

from __future__ import annotations

from typing import Any, Sequence

from phiops.runtime.common import DataType
from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.dispatch.attributes import to_dtype
from phiops.runtime.dispatch.op_def import op_api
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError

__all__ = [
    "linear",
    "conv2d",
    "conv2d_transpose",
    "relu",
    "gelu",
    "sigmoid",
    "tanh",
    "softmax",
    "hardswish",
    "dropout",
    "max_pool2d",
    "avg_pool2d",
    "adaptive_avg_pool2d",
    "batch_norm",
    "layer_norm",
    "group_norm",
    "embedding",
    "flatten",
    "cross_entropy",
    "softmax_with_cross_entropy",
    "mse_loss",
    "scaled_dot_product_attention",
    "sequence_mask",
]


def _pair(value: Any, what: str) -> list[int]:
    if isinstance(value, int):
        return [value, value]
    values = [int(v) for v in value]
    if len(values) != 2:
        raise InvalidArgumentError(f"{what} must be an int or 2 ints, got {value!r}")
    return values


def _reduce(loss: Tensor, reduction: str, where: str) -> Tensor:
    if reduction == "mean":
        return op_api("mean")(loss)
    if reduction == "sum":
        return op_api("sum")(loss)
    if reduction == "none":
        return loss
    raise InvalidArgumentError(
        f"{where}: reduction must be 'mean', 'sum' or 'none', got {reduction!r}"
    )


def linear(
    x: Tensor, weight: Tensor, bias: Tensor | None = None, name: str | None = None
) -> Tensor:
    """x @ weight + bias (weight is [in_features, out_features])."""
    out = op_api("matmul")(x, weight)
    return out if bias is None else op_api("add")(out, bias)


def _bias_nchw(out: Tensor, bias: Tensor | None, data_format: str) -> Tensor:
    if bias is None:
        return out
    shape = [1, -1, 1, 1] if data_format == "NCHW" else [1, 1, 1, -1]
    return op_api("add")(out, op_api("reshape")(bias, shape))


def _padding(padding: Any) -> tuple[list[int], str]:
    if isinstance(padding, str):
        return [0, 0], padding.upper()
    return _pair(padding, "padding"), "EXPLICIT"


def conv2d(
    x: Tensor,
    weight: Tensor,
    bias: Tensor | None = None,
    stride: Any = 1,
    padding: Any = 0,
    dilation: Any = 1,
    groups: int = 1,
    data_format: str = "NCHW",
    name: str | None = None,
) -> Tensor:
    paddings, algorithm = _padding(padding)
    out = op_api("conv2d")(
        x,
        weight,
        _pair(stride, "stride"),
        paddings,
        algorithm,
        _pair(dilation, "dilation"),
        groups,
        data_format,
    )
    return _bias_nchw(out, bias, data_format)


def conv2d_transpose(
    x: Tensor,
    weight: Tensor,
    bias: Tensor | None = None,
    stride: Any = 1,
    padding: Any = 0,
    output_padding: Any = 0,
    groups: int = 1,
    dilation: Any = 1,
    data_format: str = "NCHW",
    output_size: Any = None,
    name: str | None = None,
) -> Tensor:
    paddings, algorithm = _padding(padding)
    out = op_api("conv2d_transpose")(
        x,
        weight,
        _pair(stride, "stride"),
        paddings,
        [] if output_padding == 0 else _pair(output_padding, "output_padding"),
        [] if output_size is None else _pair(output_size, "output_size"),
        algorithm,
        groups,
        _pair(dilation, "dilation"),
        data_format,
    )
    return _bias_nchw(out, bias, data_format)


def relu(x: Tensor, name: str | None = None) -> Tensor:
    return op_api("relu")(x)


def gelu(x: Tensor, approximate: bool = False, name: str | None = None) -> Tensor:
    return op_api("gelu")(x, approximate)


def sigmoid(x: Tensor, name: str | None = None) -> Tensor:
    return op_api("sigmoid")(x)


def tanh(x: Tensor, name: str | None = None) -> Tensor:
    return op_api("tanh")(x)


def softmax(x: Tensor, axis: int = -1, dtype: Any = None, name: str | None = None) -> Tensor:
    return op_api("softmax")(x if dtype is None else op_api("cast")(x, dtype), axis)


def hardswish(x: Tensor, name: str | None = None) -> Tensor:
    return op_api("hardswish")(x)


def dropout(
    x: Tensor,
    p: float = 0.5,
    axis: Any = None,
    training: bool = True,
    mode: str = "upscale_in_train",
    name: str | None = None,
) -> Tensor:
    """Zero each element with probability ``p`` while training (scaling the rest by 1/(1-p) in
    ``upscale_in_train`` mode); in eval, identity (``downscale_in_infer``: times 1-p)."""
    if not 0.0 <= p <= 1.0:
        raise InvalidArgumentError(f"dropout: p must be in [0, 1], got {p}")
    if mode not in ("upscale_in_train", "downscale_in_infer"):
        raise InvalidArgumentError(
            f"dropout: mode must be 'upscale_in_train' or 'downscale_in_infer', got {mode!r}"
        )
    if axis is not None:
        return _dropout_axes(x, p, axis, training, mode)
    if not training and mode == "upscale_in_train":
        return x
    # The op's name for the mode, as PaddlePaddle's F.dropout passes it (and saved programs hold).
    op_mode = "upscale_in_train" if mode == "upscale_in_train" else "downgrade_in_infer"
    return op_api("dropout")(x, None, p, not training, op_mode, 0, False)


def _dropout_axes(x: Tensor, p: float, axis: Any, training: bool, mode: str) -> Tensor:
    """PaddlePaddle's dropout over whole slices: one uniform draw per index of ``axis`` (the
    others broadcast), kept where it is >= p, as its Python ``dropout_nd`` does."""
    if p == 0:
        return x
    if not training:
        return op_api("scale")(x, 1.0 - p, 0.0, True) if mode == "downscale_in_infer" else x
    if p == 1.0:
        return op_api("scale")(x, 0.0, 0.0, True)
    axes = [axis] if isinstance(axis, int) else list(axis)
    shape = list(x.shape)
    if not axes or min(axes) < 0 or max(axes) > len(shape) - 1:
        raise InvalidArgumentError(
            f"dropout: axis values must be in [0, {len(shape) - 1}] (x has {len(shape)} "
            f"dimensions), got {axis}"
        )
    scaled = op_api("scale")(x, 1.0 / (1.0 - p), 0.0, True) if mode == "upscale_in_train" else x
    mask_shape = [shape[i] if i in axes else 1 for i in range(len(shape))]
    place = (x.place,) if isinstance(x, Tensor) else ()  # a Value's comes at run time
    draws = op_api("uniform")(mask_shape, DataType.FLOAT32, 0.0, 1.0, 0, *place)
    keep = op_api("greater_equal")(draws, op_api("full")([1], p, DataType.FLOAT32, *place))
    return op_api("multiply")(scaled, op_api("cast")(keep, x.dtype))


def _pool(
    x: Tensor,
    kernel_size: Any,
    stride: Any,
    padding: Any,
    ceil_mode: bool,
    exclusive: bool,
    data_format: str,
    pooling: str,
) -> Tensor:
    kernel = _pair(kernel_size, "kernel_size")
    strides = kernel if stride is None else _pair(stride, "stride")
    paddings, algorithm = _padding(padding)
    return op_api("pool2d")(
        x,
        kernel,
        strides,
        paddings,
        ceil_mode,
        exclusive,
        data_format,
        pooling,
        False,
        False,
        algorithm,
    )


def max_pool2d(
    x: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    return_mask: bool = False,
    ceil_mode: bool = False,
    data_format: str = "NCHW",
    name: str | None = None,
) -> Tensor:
    if return_mask:
        raise UnimplementedError("max_pool2d: return_mask is not implemented")
    return _pool(x, kernel_size, stride, padding, ceil_mode, True, data_format, "max")


def avg_pool2d(
    x: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    ceil_mode: bool = False,
    exclusive: bool = True,
    divisor_override: Any = None,
    data_format: str = "NCHW",
    name: str | None = None,
) -> Tensor:
    if divisor_override is not None:
        raise UnimplementedError("avg_pool2d: divisor_override is not implemented")
    return _pool(x, kernel_size, stride, padding, ceil_mode, exclusive, data_format, "avg")


def adaptive_avg_pool2d(
    x: Tensor, output_size: Any, data_format: str = "NCHW", name: str | None = None
) -> Tensor:
    size = _pair(output_size, "output_size")
    return op_api("pool2d")(
        x, size, [1, 1], [0, 0], False, True, data_format, "avg", False, True, "EXPLICIT"
    )


def batch_norm(
    x: Tensor,
    running_mean: Tensor,
    running_var: Tensor,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    training: bool = False,
    momentum: float = 0.9,
    epsilon: float = 1e-5,
    data_format: str = "NCHW",
    use_global_stats: bool | None = None,
    name: str | None = None,
) -> Tensor:
    """Normalise over the batch (and space); while training, update the running statistics in
    place (``running = momentum * running + (1 - momentum) * batch``). The statistics are
    buffers, not results of the graph: they keep their ``stop_gradient`` (True, as
    PaddlePaddle's) and take no gradient. ``weight`` and ``bias`` None scale by 1 and shift by
    0."""
    if data_format in ("NC", "NCL"):
        data_format = "NCHW"
    elif data_format in ("NLC",):
        data_format = "NHWC"
    global_stats = (not training) if use_global_stats is None else use_global_stats
    # the op writes the running statistics in place: through detached handles on their
    # storage, so that the write does not attach them to the op's gradient node
    mean, variance = (
        stat.detach() if isinstance(stat, Tensor) else stat for stat in (running_mean, running_var)
    )
    return op_api("batch_norm_")(
        x,
        mean,
        variance,
        weight,
        bias,
        not training,
        momentum,
        epsilon,
        data_format,
        global_stats,
        False,
    )[0]


def layer_norm(
    x: Tensor,
    normalized_shape: Any,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    epsilon: float = 1e-5,
    name: str | None = None,
) -> Tensor:
    shape = [normalized_shape] if isinstance(normalized_shape, int) else list(normalized_shape)
    if list(x.shape[x.ndim - len(shape) :]) != shape:
        raise InvalidArgumentError(
            f"layer_norm: normalized_shape {shape} must be the last dims of x, whose shape is {x.shape}"
        )
    return op_api("layer_norm")(x, weight, bias, epsilon, x.ndim - len(shape))


def group_norm(
    x: Tensor,
    num_groups: int,
    epsilon: float = 1e-5,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    data_format: str = "NCHW",
    name: str | None = None,
) -> Tensor:
    return op_api("group_norm")(x, weight, bias, epsilon, num_groups, data_format)


def embedding(
    x: Tensor,
    weight: Tensor,
    padding_idx: int | None = None,
    max_norm: Any = None,
    norm_type: float = 2.0,
    sparse: bool = False,
    scale_grad_by_freq: bool = False,
    name: str | None = None,
) -> Tensor:
    """The rows of ``weight`` that the ids ``x`` name (``padding_idx``'s row gives zeros).

    With ``sparse=True``, ``weight``'s gradient is a SelectedRows tensor (PHI's
    ``embedding_sparse_grad``): the looked-up rows only, each id's row as often as it occurs,
    instead of a dense ``weight``-sized gradient; ``weight.grad.rows()`` names them and the
    optimizers update only those rows where PaddlePaddle's do (docs/tensor_kinds.md). As in
    PaddlePaddle, that gradient keeps ``padding_idx``'s rows (the dense one zeroes them).
    ``max_norm`` and ``scale_grad_by_freq`` are not implemented.
    """
    if max_norm is not None:
        raise UnimplementedError("embedding: max_norm is not implemented")
    if scale_grad_by_freq:
        raise UnimplementedError("embedding: scale_grad_by_freq=True is not implemented")
    rows = weight.shape[0]
    index = -1 if padding_idx is None else (padding_idx if padding_idx >= 0 else rows + padding_idx)
    return op_api("embedding")(x, weight, index, sparse)


def flatten(x: Tensor, start_axis: int = 0, stop_axis: int = -1, name: str | None = None) -> Tensor:
    return op_api("flatten")(x, start_axis, stop_axis)


def cross_entropy(
    input: Tensor,
    label: Tensor,
    weight: Tensor | None = None,
    ignore_index: int = -100,
    reduction: str = "mean",
    soft_label: bool = False,
    axis: int = -1,
    use_softmax: bool = True,
    label_smoothing: float = 0.0,
    name: str | None = None,
) -> Tensor:
    """Softmax cross entropy of logits ``input`` against class indices (or, with
    ``soft_label``, probabilities) ``label``, PaddlePaddle 3.3.1's ``F.cross_entropy`` op for op:
    ``weight`` ([C]) scales each entry by its class's weight (a mean then divides by the
    weights' sum), ``label_smoothing`` mixes hard labels, one-hot, with the uniform
    distribution, ``ignore_index`` entries count as zero (a mean with ``ignore_index >= 0``
    divides by the count of the others), ``reduction`` 'mean', 'sum' or 'none' (the loss
    without the class axis when the label has none)."""
    if reduction not in ("sum", "mean", "none"):
        raise InvalidArgumentError(
            f"cross_entropy: reduction must be 'mean', 'sum' or 'none', got {reduction!r}"
        )
    if ignore_index > 0 and soft_label:
        raise InvalidArgumentError(
            f"cross_entropy: with soft_label=True, ignore_index must be -100, got {ignore_index}"
        )
    input_dims, label_dims = input.ndim, label.ndim
    if input_dims == 0:
        raise InvalidArgumentError("cross_entropy: input must have at least one dimension")
    if input_dims - 1 == label_dims:
        label = op_api("unsqueeze")(label, [axis])
    if input_dims - 1 != label_dims and input_dims != label_dims:
        raise InvalidArgumentError(
            f"cross_entropy: label must have input's rank ({input_dims}) or one less, got "
            f"rank {label_dims}"
        )
    if label_smoothing > 0.0:
        soft_label = True
        if input_dims - 1 == label_dims:
            label = op_api("squeeze")(label, [axis])
            label = op_api("one_hot")(label, input.shape[-1])
        label = op_api("label_smooth")(label, None, float(label_smoothing))
        label = op_api("cast")(label, input.dtype)
        label_dims = label.ndim
    _, out = op_api("cross_entropy_with_softmax")(
        input, label, soft_label, use_softmax, True, ignore_index, axis
    )
    weight_gather = None
    if weight is not None:
        if soft_label:
            gathered = op_api("matmul")(op_api("cast")(label, weight.dtype), weight, False, True)
            weight_gather = op_api("reshape")(gathered, list(out.shape))
        else:
            if input.shape[axis] != weight.shape[-1]:
                raise InvalidArgumentError(
                    f"cross_entropy: input's class dimension ({input.shape[axis]}) must equal "
                    f"weight's ({weight.shape[-1]})"
                )
            valid_label = op_api("multiply")(
                op_api("cast")(_not_equal_scalar(label, ignore_index), label.dtype), label
            )
            mask = op_api("cast")(_not_equal_scalar(label, ignore_index), out.dtype)
            if mask.ndim > 1 and mask.shape[axis] == 1:
                mask = op_api("squeeze")(mask, [axis])
            rank = valid_label.ndim
            if axis not in (-1, rank - 1):
                last = axis % rank
                perm = list(range(last)) + list(range(last + 1, rank)) + [last]
                gathered = op_api("gather_nd")(weight, op_api("transpose")(valid_label, perm))
            else:
                gathered = op_api("gather_nd")(weight, valid_label)
            gathered = op_api("multiply")(gathered, mask)
            weight_gather = op_api("reshape")(gathered, list(label.shape))
        out = op_api("multiply")(op_api("cast")(out, weight_gather.dtype), weight_gather)
    if reduction == "sum":
        return op_api("sum")(out)
    if reduction == "mean":
        if 0 in input.shape:
            return op_api("mean")(op_api("scale")(out, 1.0, float("nan"), True))
        if ignore_index >= 0:
            float16 = out.dtype == DataType.FLOAT16
            out_sum = op_api("sum")(out, [], DataType.FLOAT32 if float16 else None)
            keep = _not_equal_scalar(label, ignore_index)
            if weight_gather is None:
                count = op_api("sum")(op_api("cast")(keep, out_sum.dtype))
                ret = op_api("divide")(out_sum, _nonzero(count))
            else:
                kept = op_api("multiply")(op_api("cast")(keep, weight_gather.dtype), weight_gather)
                ret = op_api("divide")(out_sum, _nonzero(op_api("sum")(kept)))
            return op_api("cast")(ret, out.dtype) if float16 else ret
        if weight_gather is not None:
            total = op_api("sum")(weight_gather)
            return op_api("divide")(op_api("sum")(out), _nonzero(total))
        return op_api("mean")(out)
    if input_dims - 1 == label_dims:
        out = op_api("squeeze")(out, [axis])
    return out


def _not_equal_scalar(x: Tensor, value: int) -> Tensor:
    return op_api("not_equal")(x, op_api("full_like")(x, value))


def _nonzero(total: Tensor) -> Tensor:
    """total + (total == 0): a divisor that is 1 where the total is 0."""
    zero = op_api("equal")(total, op_api("full_like")(total, 0.0))
    return op_api("add")(total, op_api("cast")(zero, total.dtype))


def softmax_with_cross_entropy(
    logits: Tensor,
    label: Tensor,
    soft_label: bool = False,
    ignore_index: int = -100,
    numeric_stable_mode: bool = True,
    return_softmax: bool = False,
    axis: int = -1,
) -> Tensor | tuple[Tensor, Tensor]:
    """The cross entropy of softmax(logits) against ``label`` per entry (the class axis kept,
    of extent 1), and with ``return_softmax`` the softmax too: PaddlePaddle's legacy
    ``F.softmax_with_cross_entropy`` (its op ``cross_entropy_with_softmax``)."""
    input_dims, label_dims = logits.ndim, label.ndim
    if input_dims == 0:
        raise InvalidArgumentError(
            "softmax_with_cross_entropy: logits must have at least one dimension"
        )
    if input_dims - 1 != label_dims and input_dims != label_dims:
        raise InvalidArgumentError(
            f"softmax_with_cross_entropy: label must have logits' rank ({input_dims}) or one "
            f"less, got rank {label_dims}"
        )
    if input_dims - 1 == label_dims:
        label = op_api("reshape")(label, [label.shape[0], logits.shape[1]])
    softmax, loss = op_api("cross_entropy_with_softmax")(
        logits, label, soft_label, True, numeric_stable_mode, ignore_index, axis
    )
    return (loss, softmax) if return_softmax else loss


def mse_loss(
    input: Tensor, label: Tensor, reduction: str = "mean", name: str | None = None
) -> Tensor:
    difference = op_api("subtract")(input, label)
    return _reduce(op_api("multiply")(difference, difference), reduction, "mse_loss")


def _repeat_kv(key: Tensor, value: Tensor, repeats: int) -> tuple[Tensor, Tensor]:
    """Grouped-query attention: each of the key/value heads repeated ``repeats`` times in place
    ([b, s, h, d] -> [b, s, h * repeats, d], head i serving query heads i*repeats...)."""
    if repeats == 1:
        return key, value
    expanded = []
    for tensor in (key, value):
        tensor = op_api("expand")(op_api("unsqueeze")(tensor, [3]), [-1, -1, -1, repeats, -1])
        expanded.append(op_api("flatten")(tensor, 2, 3))
    return expanded[0], expanded[1]


def scaled_dot_product_attention(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    attn_mask: Tensor | None = None,
    dropout_p: float = 0.0,
    is_causal: bool = False,
    training: bool = True,
    backend: str | None = None,
    scale: float | None = None,
    enable_gqa: bool = True,
    name: str | None = None,
) -> Tensor:
    """softmax(query key^T * scale + attn_mask) value, on [batch, seq, num_heads, head_dim]
    tensors (or [seq, num_heads, head_dim], unbatched), as PaddlePaddle 3.3.1 computes it on
    CPU (its "math" backend). ``scale`` defaults to 1/sqrt(head_dim). ``attn_mask`` broadcasts
    to [batch, num_heads, q_len, k_len]: a float mask is added, a bool mask keeps the True
    positions (False ones get -inf). ``is_causal`` masks the positions above the diagonal with
    -1e4 and, as PaddlePaddle's math backend, then ignores ``attn_mask``. With ``enable_gqa``
    key/value may have fewer heads than query (a divisor of them), each serving a group of query
    heads. Dropout ``dropout_p`` on the weights applies while ``training``. ``backend`` other
    than None, as PaddlePaddle without distributed tensors, changes nothing but 'p2p' (ring
    attention), which phiops does not implement."""
    where = "scaled_dot_product_attention"
    if backend == "p2p":
        raise UnimplementedError(f"{where}: backend 'p2p' (ring attention) is not implemented")
    if not 0.0 <= dropout_p <= 1.0:
        raise InvalidArgumentError(
            f"{where}: argument 'dropout_p' must be in [0, 1], got {dropout_p}"
        )
    for argument, tensor in (("query", query), ("key", key), ("value", value)):
        if tensor.ndim not in (3, 4) or tensor.ndim != query.ndim:
            raise InvalidArgumentError(
                f"{where}: argument '{argument}' must be [batch, seq, num_heads, head_dim] (or "
                f"unbatched [seq, num_heads, head_dim], as query), got shape {tensor.shape}"
            )
    batched = query.ndim == 4
    if not batched:
        query, key, value = (op_api("unsqueeze")(t, [0]) for t in (query, key, value))
    q_heads, k_heads, v_heads = query.shape[2], key.shape[2], value.shape[2]
    if enable_gqa:
        if k_heads != v_heads or (k_heads != 0 and q_heads % k_heads):
            raise InvalidArgumentError(
                f"{where}: with enable_gqa, key and value must have the same number of heads "
                f"and it must divide query's: query has {q_heads}, key {k_heads}, value {v_heads}"
            )
    elif not q_heads == k_heads == v_heads:
        raise InvalidArgumentError(
            f"{where}: without enable_gqa, query, key and value must have the same number of "
            f"heads, got {q_heads}, {k_heads}, {v_heads}"
        )
    if attn_mask is not None and attn_mask.dtype is DataType.BOOL:
        attn_mask = op_api("where")(
            attn_mask,
            op_api("full")([], 0.0, query.dtype),
            op_api("full")([], float("-inf"), query.dtype),
        )
    key, value = _repeat_kv(key, value, q_heads // k_heads if k_heads else 1)

    head_dim = query.shape[-1]
    query, key, value = (op_api("transpose")(t, [0, 2, 1, 3]) for t in (query, key, value))
    factor = scale or (head_dim**-0.5 if head_dim != 0 else 1.0)
    product = op_api("matmul")(op_api("scale")(query, factor, 0.0, True), key, False, True)
    if is_causal:
        upper = op_api("triu")(op_api("full_like")(product, -1e4), 1)
        product = op_api("add")(product, upper)
    elif attn_mask is not None:
        product = op_api("add")(product, attn_mask)
    weights = softmax(product)
    if dropout_p > 0.0:
        weights = dropout(weights, dropout_p, training=training, mode="upscale_in_train")
    out = op_api("transpose")(op_api("matmul")(weights, value, False, False), [0, 2, 1, 3])
    return out if batched else op_api("squeeze")(out, [0])


def sequence_mask(
    x: Tensor, maxlen: Any = None, dtype: Any = "int64", name: str | None = None
) -> Tensor:
    """The mask of the lengths ``x``: ``out[..., j]`` is 1 (True) where ``j < x[...]``, else 0,
    for ``j`` in ``[0, maxlen)``; ``maxlen`` None (or negative) takes the largest length in
    ``x``, and may be an int or a 1-element integer Tensor. The result has ``x``'s shape plus a
    trailing ``maxlen``, of ``dtype`` (int64 by default), and stops gradients, as PaddlePaddle's.

    Raises InvalidArgumentError for a ``maxlen`` that is neither None, an int nor a Tensor, or a
    ``dtype`` that is not a data type."""
    if maxlen is None:
        maxlen = -1
    elif isinstance(maxlen, bool) or not (isinstance(maxlen, int) or hasattr(maxlen, "shape")):
        raise InvalidArgumentError(
            f"sequence_mask(): argument 'maxlen' must be None, an int or a Tensor, got {maxlen!r}"
        )
    out = op_api("sequence_mask")(x, maxlen, to_dtype(dtype, "sequence_mask", "dtype"))
    out.stop_gradient = True
    return out
