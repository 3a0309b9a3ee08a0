"""Sparse 3-D convolution and max pooling on COO tensors in NDHWC (PaddlePaddle 3.3.1's
``paddle.sparse.nn.functional.conv3d`` / ``subm_conv3d`` / ``max_pool3d``: the ``sparse_conv3d``
and ``sparse_maxpool`` kernels of paddle/phi/kernels/sparse/cpu/ and their grads).

The input is a COO tensor of shape ``[N, D, H, W, C]`` with 4 sparse dims (values
``[nnz, C]``). A *rulebook* lists, for each kernel offset ``(kd, kh, kw)`` (row-major), the
pairs (input entry, output row) it joins: input position ``p`` reaches output position
``o = (p + pad - k * dilation) / stride`` when that is a whole number inside the output.

* ``conv3d``: the output rows are every position some input reaches, sorted (coalesced), as
  PaddlePaddle's CPU kernel returns them; ``out[o] += x[i] @ weight[k]`` over the rulebook
  (gather, one GEMM per offset, one scatter-add).
* ``subm_conv3d`` (submanifold): the output rows are the input's positions (sorted, unique),
  and a pair counts only when its output position is one of them. As in PaddlePaddle, the
  padding is reset to ``kernel // 2`` and the stride to 1 (the ``padding``/``stride``
  arguments do not change the result).
* ``max_pool3d``: the rulebook of a regular convolution with the pool's window; each output
  row is the per-channel maximum over the stored entries it reaches (an absent entry is not a
  zero); its gradient flows to every entry equal to the maximum.

Gradients (autograd.py's node): the input's values (a sparse tensor of its pattern), the
weight and the bias. Written once against the values' array module (numpy / CuPy).
"""

from __future__ import annotations

from itertools import product
from typing import Any, Sequence

from phiops.runtime.backends import module_of, scatter_at
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.kernels.impl.sparse_arrays import flat_keys, make_coo
from phiops.runtime.sparse.autograd import attach
from phiops.runtime.sparse.creation import (
    dense,
    grad_values,
    storage_of,
    with_values,
    wrap_sparse,
)
from phiops.runtime.tensor.kinds import TensorKind

__all__ = ["conv3d", "subm_conv3d", "max_pool3d"]


# --- arguments --------------------------------------------------------------------------------


def _triple(value: Any, op: str, argument: str) -> list[int]:
    if isinstance(value, bool) or value is None:
        raise InvalidArgumentError(
            f"{op}(): argument '{argument}' must be an int or 3 ints, got {value!r}"
        )
    if isinstance(value, int):
        items = [value] * 3
    else:
        try:
            items = [int(v) for v in value]
        except (TypeError, ValueError):
            raise InvalidArgumentError(
                f"{op}(): argument '{argument}' must be an int or 3 ints, got {value!r}"
            ) from None
        if len(items) != 3:
            raise InvalidArgumentError(
                f"{op}(): argument '{argument}' must be an int or 3 ints, got {len(items)} values"
            )
    return items


def _padding(padding: Any, op: str) -> list[int]:
    """PaddlePaddle's padding forms reduced to one (symmetric) pad per spatial dim: an int, 3
    ints, 6 ints (front/back pairs), or 5 pairs in NDHWC; ``"VALID"`` is 0, and ``"SAME"`` is 0
    too, as PaddlePaddle's sparse kernels drop the padding algorithm."""
    if isinstance(padding, str):
        if padding.upper() not in ("SAME", "VALID"):
            raise InvalidArgumentError(
                f"{op}(): argument 'padding' as a string must be 'SAME' or 'VALID', got {padding!r}"
            )
        return [0, 0, 0]
    if isinstance(padding, int) and not isinstance(padding, bool):
        pads = [padding] * 3
    else:
        items = list(padding) if isinstance(padding, (list, tuple)) else None
        if items and all(isinstance(i, (list, tuple)) for i in items) and len(items) == 5:
            if list(items[0]) != [0, 0] or list(items[4]) != [0, 0]:
                raise InvalidArgumentError(
                    f"{op}(): argument 'padding' may not pad the batch or channel dim, "
                    f"got {padding!r}"
                )
            items = [int(v) for pair in items[1:4] for v in pair]
        if items is None or len(items) not in (3, 6):
            raise InvalidArgumentError(
                f"{op}(): argument 'padding' must be an int, 3 or 6 ints, or 5 pairs, "
                f"got {padding!r}"
            )
        items = [int(v) for v in items]
        if len(items) == 6:
            if items[0::2] != items[1::2]:
                raise UnimplementedError(
                    f"{op}(): asymmetric padding {items} is not implemented (PaddlePaddle's "
                    "sparse kernels pad both sides of a dim alike)"
                )
            items = items[0::2]
        pads = items
    if min(pads) < 0:
        raise InvalidArgumentError(f"{op}(): argument 'padding' must be >= 0, got {padding!r}")
    return pads


def _coo_input(x: Any, op: str) -> Any:
    storage = storage_of(x, op, "x", (TensorKind.SPARSE_COO,))
    if len(storage.shape) != 5 or storage.sparse_dim != 4:
        raise InvalidArgumentError(
            f"{op}(): argument 'x' must be a 5-D sparse COO tensor [N, D, H, W, C] with 4 sparse "
            f"dims, got shape {list(storage.shape)} with {storage.sparse_dim} sparse dims"
        )
    if storage.values.array.dtype.kind not in "f":
        raise InvalidArgumentError(
            f"{op}(): argument 'x' must hold floating values, got {storage.values.array.dtype}"
        )
    return storage


def _dense_argument(value: Any, op: str, argument: str) -> Any:
    if not isinstance(value, Tensor) or value.meta.kind is not TensorKind.DENSE:
        got = type(value).__name__ if not isinstance(value, Tensor) else value.meta.kind.title
        raise InvalidArgumentError(
            f"{op}(): argument '{argument}' must be a dense Tensor, got {got}"
        )
    return value.array


def _check_format(data_format: str, op: str) -> None:
    if data_format != "NDHWC":
        raise InvalidArgumentError(
            f"{op}(): argument 'data_format' must be 'NDHWC', got {data_format!r}"
        )


# --- the rulebook ------------------------------------------------------------------------------


def _out_spatial(
    spatial: Sequence[int],
    kernel: Sequence[int],
    pad: Sequence[int],
    stride: Sequence[int],
    dilation: Sequence[int],
    op: str,
) -> list[int]:
    out = [
        (s + 2 * p - d * (k - 1) - 1) // t + 1
        for s, k, p, t, d in zip(spatial, kernel, pad, stride, dilation)
    ]
    if min(out) <= 0:
        raise InvalidArgumentError(
            f"{op}(): the output's spatial shape {out} is empty: input {list(spatial)}, kernel "
            f"{list(kernel)}, padding {list(pad)}, stride {list(stride)}, dilation {list(dilation)}"
        )
    return out


def _rulebook(
    indices: Any,
    batch: int,
    out_spatial: Sequence[int],
    kernel: Sequence[int],
    pad: Sequence[int],
    stride: Sequence[int],
    dilation: Sequence[int],
    subm_keys: Any = None,
) -> tuple[Any, Any, Any, Any, list[int]]:
    """(output keys (sorted), kernel offset, input entry and output row of each pair, pairs per
    offset). The pairs are grouped by offset, row-major over the kernel. ``subm_keys``: the
    sorted unique keys of the input, which are then the output's rows."""
    xp = module_of(indices)
    indices = indices.astype(xp.int64)
    nnz = indices.shape[1]
    offsets = xp.asarray(list(product(*(range(k) for k in kernel))), dtype=xp.int64)  # [K, 3]
    count = offsets.shape[0]
    position = indices[1:4].T[None, :, :]  # [1, nnz, 3]
    numer = (
        position
        + xp.asarray(pad, dtype=xp.int64)
        - offsets[:, None, :] * xp.asarray(dilation, dtype=xp.int64)
    )  # [K, nnz, 3]
    step = xp.asarray(stride, dtype=xp.int64)
    out_position = numer // step
    valid = (
        (numer >= 0)
        & (numer % step == 0)
        & (out_position < xp.asarray(out_spatial, dtype=xp.int64))
    ).all(axis=2)
    space = (batch, *out_spatial)
    batch_of = xp.broadcast_to(indices[0][None, :], (count, nnz))
    kernel_of = xp.broadcast_to(xp.arange(count, dtype=xp.int64)[:, None], (count, nnz))
    entry_of = xp.broadcast_to(xp.arange(nnz, dtype=xp.int64)[None, :], (count, nnz))
    batch_of, kernel_of, entry_of = batch_of[valid], kernel_of[valid], entry_of[valid]
    out_position = out_position[valid]  # [P, 3]
    full = xp.concatenate([batch_of[:, None], out_position], axis=1).T
    keys = flat_keys(full, space, xp)
    if subm_keys is None:
        out_keys, out_row = xp.unique(keys, return_inverse=True)
        out_row = out_row.reshape(-1)
    else:
        out_keys = subm_keys
        if out_keys.shape[0] == 0:
            found = xp.zeros(keys.shape, dtype=bool)
            out_row = xp.zeros(keys.shape, dtype=xp.int64)
        else:
            out_row = xp.minimum(xp.searchsorted(out_keys, keys), out_keys.shape[0] - 1)
            found = out_keys[out_row] == keys
        kernel_of, entry_of, out_row = kernel_of[found], entry_of[found], out_row[found]
    per_offset = (
        [int(c) for c in xp.bincount(kernel_of, minlength=count)[:count].tolist()]
        if kernel_of.shape[0]
        else [0] * count
    )
    return out_keys, kernel_of, entry_of, out_row.astype(xp.int64), per_offset


def _segments(per_offset: list[int]) -> list[tuple[int, int, int]]:
    """(offset, start, stop) of each kernel offset's pairs that has any."""
    spans, start = [], 0
    for k, n in enumerate(per_offset):
        if n:
            spans.append((k, start, start + n))
        start += n
    return spans


# --- convolution -------------------------------------------------------------------------------


def _conv(
    op: str,
    x: Any,
    weight: Any,
    bias: Any,
    stride: Any,
    padding: Any,
    dilation: Any,
    groups: Any,
    data_format: str,
    subm: bool,
) -> Tensor:
    storage = _coo_input(x, op)
    kernel_array = _dense_argument(weight, op, "weight")
    _check_format(data_format, op)
    if groups != 1:
        raise UnimplementedError(
            f"{op}(): groups={groups!r} is not implemented (only groups=1, as in PaddlePaddle)"
        )
    values = storage.values.array
    xp = module_of(values)
    channels = storage.shape[4]
    if kernel_array.ndim != 5:
        raise InvalidArgumentError(
            f"{op}(): argument 'weight' must be 5-D [kD, kH, kW, C_in, C_out], got shape "
            f"{list(kernel_array.shape)}"
        )
    if kernel_array.shape[3] != channels:
        raise InvalidArgumentError(
            f"{op}(): argument 'weight' has {kernel_array.shape[3]} input channels (dim 3), but "
            f"x has {channels}"
        )
    if kernel_array.dtype != values.dtype:
        raise InvalidArgumentError(
            f"{op}(): argument 'weight' has dtype {kernel_array.dtype}, x's values {values.dtype}"
        )
    out_channels = kernel_array.shape[4]
    bias_array = None
    if bias is not None:
        bias_array = _dense_argument(bias, op, "bias")
        if tuple(bias_array.shape) != (out_channels,):
            raise InvalidArgumentError(
                f"{op}(): argument 'bias' must have shape [{out_channels}], got "
                f"{list(bias_array.shape)}"
            )
    kernel = list(kernel_array.shape[:3])
    stride = _triple(stride, op, "stride")
    dilation = _triple(dilation, op, "dilation")
    pad = _padding(padding, op)
    if min(stride) <= 0 or min(dilation) <= 0:
        raise InvalidArgumentError(
            f"{op}(): 'stride' and 'dilation' must be positive, got {stride} and {dilation}"
        )
    spatial = list(storage.shape[1:4])
    indices = storage.indices.array.astype(xp.int64)
    batch = storage.shape[0]
    subm_keys = None
    if subm:
        pad, stride = [k // 2 for k in kernel], [1, 1, 1]
        out_spatial = _out_spatial(spatial, kernel, pad, stride, dilation, op)
        if out_spatial != spatial:
            raise UnimplementedError(
                f"{op}(): a submanifold convolution whose output shape {out_spatial} differs from "
                f"the input's {spatial} (an even kernel or a dilation > 1) is not implemented"
            )
        subm_keys = xp.unique(flat_keys(indices, (batch, *spatial), xp))
    else:
        out_spatial = _out_spatial(spatial, kernel, pad, stride, dilation, op)
    out_keys, kernel_of, entry_of, out_row, per_offset = _rulebook(
        indices, batch, out_spatial, kernel, pad, stride, dilation, subm_keys
    )
    flat_kernel = kernel_array.reshape(-1, channels, out_channels)
    spans = _segments(per_offset)
    out = xp.zeros((out_keys.shape[0], out_channels), dtype=values.dtype)
    if entry_of.shape[0]:
        products = xp.empty((entry_of.shape[0], out_channels), dtype=values.dtype)
        for k, start, stop in spans:
            products[start:stop] = values[entry_of[start:stop]] @ flat_kernel[k]
        scatter_at("add", out, out_row, products)
    if bias_array is not None:
        out = out + bias_array
    shape = (batch, *out_spatial, out_channels)
    result = wrap_sparse(make_coo(out_keys, out, shape, 4, True))

    def backward(grad: Tensor) -> list[Any]:
        upstream = grad_values(grad, result.array)
        grad_x = xp.zeros_like(values)
        grad_kernel = xp.zeros_like(flat_kernel)
        if entry_of.shape[0]:
            back = xp.empty((entry_of.shape[0], channels), dtype=values.dtype)
            for k, start, stop in spans:
                rows = upstream[out_row[start:stop]]
                back[start:stop] = rows @ flat_kernel[k].T
                grad_kernel[k] = values[entry_of[start:stop]].T @ rows
            scatter_at("add", grad_x, entry_of, back)
        grads = [
            wrap_sparse(with_values(storage, grad_x)),
            dense(grad_kernel.reshape(kernel_array.shape)),
        ]
        if bias is not None:
            grads.append(dense(upstream.sum(axis=0).astype(values.dtype)))
        return grads

    inputs = [x, weight] + ([bias] if bias is not None else [])
    return attach(op, inputs, result, backward)


def conv3d(
    x: Tensor,
    weight: Tensor,
    bias: Tensor | None = None,
    stride: Any = 1,
    padding: Any = 0,
    dilation: Any = 1,
    groups: int = 1,
    data_format: str = "NDHWC",
    name: str | None = None,
) -> Tensor:
    """Sparse 3-D convolution of a COO ``x`` ``[N, D, H, W, C]`` (4 sparse dims) with a dense
    ``weight`` ``[kD, kH, kW, C, M]`` (+ ``bias`` ``[M]``): a COO tensor ``[N, D', H', W', M]``
    with an entry at every position some input entry reaches, sorted. ``padding`` pads both
    sides of a dim alike (an int, 3 ints, or 6 ints of equal pairs); ``groups`` must be 1 and
    ``data_format`` ``"NDHWC"``, as in PaddlePaddle."""
    return _conv("conv3d", x, weight, bias, stride, padding, dilation, groups, data_format, False)


def subm_conv3d(
    x: Tensor,
    weight: Tensor,
    bias: Tensor | None = None,
    stride: Any = 1,
    padding: Any = 0,
    dilation: Any = 1,
    groups: int = 1,
    data_format: str = "NDHWC",
    key: str | None = None,
    name: str | None = None,
) -> Tensor:
    """Submanifold sparse 3-D convolution: as ``conv3d``, but the output has an entry exactly at
    each position of ``x`` (sorted) and only those contribute. As in PaddlePaddle, the padding is
    ``kernel // 2`` and the stride 1 whatever ``padding`` and ``stride`` say. ``key`` names
    PaddlePaddle's rulebook cache; phiops recomputes the rulebook each call (same result)."""
    if key is not None and not isinstance(key, str):
        raise InvalidArgumentError(
            f"subm_conv3d(): argument 'key' must be a str or None, got {type(key).__name__}"
        )
    return _conv(
        "subm_conv3d", x, weight, bias, stride, padding, dilation, groups, data_format, True
    )


# --- max pooling -------------------------------------------------------------------------------


def max_pool3d(
    x: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    ceil_mode: bool = False,
    data_format: str = "NDHWC",
    name: str | None = None,
) -> Tensor:
    """Max pooling of a COO ``x`` ``[N, D, H, W, C]`` (4 sparse dims): an output entry at every
    window position some stored entry falls in (sorted), holding the per-channel maximum of the
    stored entries there (absent entries are not zeros). ``stride`` defaults to
    ``kernel_size``; ``ceil_mode`` is accepted and, as in PaddlePaddle's sparse kernel, has no
    effect."""
    op = "max_pool3d"
    storage = _coo_input(x, op)
    _check_format(data_format, op)
    kernel = _triple(kernel_size, op, "kernel_size")
    stride = kernel if stride is None else _triple(stride, op, "stride")
    pad = _padding(padding, op)
    if min(kernel) <= 0 or min(stride) <= 0:
        raise InvalidArgumentError(
            f"{op}(): 'kernel_size' and 'stride' must be positive, got {kernel} and {stride}"
        )
    values = storage.values.array
    xp = module_of(values)
    batch, channels = storage.shape[0], storage.shape[4]
    dilation = [1, 1, 1]
    out_spatial = _out_spatial(list(storage.shape[1:4]), kernel, pad, stride, dilation, op)
    indices = storage.indices.array.astype(xp.int64)
    out_keys, _, entry_of, out_row, _ = _rulebook(
        indices, batch, out_spatial, kernel, pad, stride, dilation
    )
    out = xp.full((out_keys.shape[0], channels), -xp.inf, dtype=values.dtype)
    gathered = values[entry_of]
    if entry_of.shape[0]:
        scatter_at("maximum", out, out_row, gathered)
    shape = (batch, *out_spatial, channels)
    result = wrap_sparse(make_coo(out_keys, out, shape, 4, True))

    def backward(grad: Tensor) -> list[Any]:
        upstream = grad_values(grad, result.array)
        grad_x = xp.zeros_like(values)
        if entry_of.shape[0]:
            hit = (gathered == out[out_row]).astype(values.dtype)
            scatter_at("add", grad_x, entry_of, hit * upstream[out_row])
        return [wrap_sparse(with_values(storage, grad_x))]

    return attach(op, [x], result, backward)
