"""Grad kernels of the lodops24 ops (runtime/kernels/impl/lodops24_kernel.py has the forward ones
and PHI's semantics), for the dtypes PaddlePaddle 3.3.1 registers on CPU:

- match_matrix_tensor_grad (float32): from out_grad's block of pair b, channel t,
  [len_x, len_y]: tmp's gradient at x's rows is out_grad @ y's rows, y's rows get out_grad^T @
  tmp's rows (summed over the channels); then x_grad = tmp_grad @ w^T and w_grad = x^T @ tmp_grad
  (w read as [h, dim_t * h2]), as PHI's kernel accumulates them.
- pyramid_hash_grad (float32): PHI's grad writes no gradient: it updates w IN PLACE, a step of
  SGD, w[pos_j(term) + k] -= lr * out_grad[row of term, j + k] for each kept term (drop_pos) and
  block j, pos_j the forward's XXH32 positions; x_grad is zeros of x's shape and dtype (PHI
  leaves it unwritten). When every sequence is one row and every id is -1, nothing is updated,
  as in PHI.
"""

from __future__ import annotations

from phiops.runtime.backends import scatter_at
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.impl.lodops24_kernel import (
    first_level_offsets,
    match_offsets,
    pyramid_positions,
    pyramid_rows,
    pyramid_terms,
)
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import register_kernel

__all__ = ["match_matrix_tensor_grad_kernel", "pyramid_hash_grad_kernel"]


@register_kernel("match_matrix_tensor_grad", dtypes=(DataType.FLOAT32,))
def match_matrix_tensor_grad_kernel(
    ctx: KernelContext, x: Array, y: Array, w: Array, tmp: Array, out_grad: Array, dim_t: int
) -> tuple[Array, Array, Array]:
    xp = ctx.xp
    x_offsets, y_offsets, top = match_offsets(x, y, dim_t)
    if out_grad.size != top[-1]:
        raise InvalidArgumentError(
            f"argument 'out_grad' must hold {top[-1]} values (out's rows), got shape {list(out_grad.shape)}"
        )
    width = y.shape[1]
    tmp3 = tmp.reshape(x.shape[0], dim_t, width)
    tmp_grad = xp.zeros_like(tmp3)
    y_grad = xp.zeros_like(y)
    flat = out_grad.reshape(-1)
    for b in range(len(x_offsets) - 1):
        x0, x1, y0, y1 = x_offsets[b], x_offsets[b + 1], y_offsets[b], y_offsets[b + 1]
        grad = flat[top[b] : top[b + 1]].reshape(dim_t, x1 - x0, y1 - y0)
        tmp_grad[x0:x1] = xp.einsum("tij,jk->itk", grad, y[y0:y1])
        y_grad[y0:y1] = xp.einsum("tij,itk->jk", grad, tmp3[x0:x1])
    tmp_grad = tmp_grad.reshape(x.shape[0], -1)
    w2 = w.reshape(x.shape[1], -1)
    x_grad = tmp_grad @ w2.T
    w_grad = (x.T @ tmp_grad).reshape(w.shape)
    return x_grad, y_grad, w_grad


def _pyramid_grad_dtypes(kernel: Kernel) -> None:
    for index in (0, 2):  # x's int32 ids (with its LoD) and drop_pos keep their dtypes
        kernel.input_at(index).set_dtype(DataType.ALL_DTYPE)
    kernel.output_at(0).set_dtype(DataType.ALL_DTYPE)


@register_kernel("pyramid_hash_grad", dtypes=(DataType.FLOAT32,), configure=_pyramid_grad_dtypes)
def pyramid_hash_grad_kernel(
    ctx: KernelContext,
    x: Array,
    w: Array,
    drop_pos: Array,
    x_temp_out: Array,
    out_grad: Array,
    num_emb: int,
    space_len: int,
    pyramid_layer: int,
    rand_len: int,
    drop_out_percent: float,
    is_training: int,
    use_filter: bool,
    white_list_len: int,
    black_list_len: int,
    seed: int,
    lr: float,
    distribute_update_vars: str,
) -> Array:
    xp = ctx.xp
    offsets = first_level_offsets(x, "x")
    terms = pyramid_terms(offsets, pyramid_layer)
    flags = drop_pos.reshape(-1)
    if flags.shape[0] < len(terms):
        raise InvalidArgumentError(
            f"argument 'drop_pos' must hold a flag for each of x's {len(terms)} pyramid terms, got "
            f"shape {list(drop_pos.shape)}"
        )
    kept = [term for term, flag in zip(terms, flags[: len(terms)].tolist()) if flag != 0]
    grad_rows = pyramid_rows(offsets, flags[: len(terms)].tolist(), pyramid_layer)[0]
    if out_grad.ndim != 2 or out_grad.shape[1] != num_emb or out_grad.shape[0] < len(grad_rows):
        raise InvalidArgumentError(
            f"argument 'out_grad' must have out's shape [rows, num_emb = {num_emb}] with a row for "
            f"each kept term, got {list(out_grad.shape)}"
        )
    all_unknown = x.shape[0] == len(offsets) - 1 and bool((x_temp_out == -1).all())
    if kept and not all_unknown:
        positions = pyramid_positions(
            xp, x_temp_out.reshape(-1), kept, num_emb, rand_len, space_len
        )
        targets = positions[:, :, None] + xp.arange(rand_len)[None, None, :]
        step = out_grad[xp.asarray(grad_rows, dtype=xp.int64)] * out_grad.dtype.type(-lr)
        flat = w.reshape(-1)
        scatter_at("add", flat, targets.reshape(-1), step.reshape(-1))
        w[...] = flat.reshape(w.shape)  # a no-op where reshape gave a view
    return xp.zeros(x.shape, dtype=x.dtype)
