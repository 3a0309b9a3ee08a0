"""Collective kernels: each finds its ring's CommContext and calls it (PHI's
paddle/phi/kernels/cpu/all_reduce_kernel.cc and friends, ``dev_ctx.GetCommContext()``).

The ring comes from ``ring_id`` through runtime/comm's ``COMM_CONTEXTS``, for the backend the
kernel runs on: the MPI context for CPU (numpy) arrays, the NCCL one for GPU (CuPy) arrays. The
result is written into a new array of the op's output, which the context hands to the
communication library by its buffer (no copy), and the kernel waits for the collective to
finish. ``nranks`` <= 0 means the ring's size; a positive one must be it.
"""

from __future__ import annotations

from phiops.runtime.comm import CommContext, ReduceOp, get_comm_context, reduce_op
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import ALL_TYPES, COMPLEX, register_kernel

ORDERED_TYPES = tuple(dtype for dtype in ALL_TYPES if dtype not in COMPLEX)


def _ring(ctx: KernelContext, ring_id: int, op: str) -> CommContext:
    return get_comm_context(ring_id, ctx.backend, f"{op}()")


def _check_nranks(ring: CommContext, nranks: int, op: str) -> None:
    if nranks > 0 and nranks != ring.size:
        raise InvalidArgumentError(
            f"{op}(): nranks={nranks} but ring {ring.ring_id} has {ring.size} ranks"
        )


def _all_reduce(ctx: KernelContext, x: Array, ring_id: int, op: ReduceOp, name: str) -> Array:
    ring = _ring(ctx, ring_id, name)
    out = ctx.xp.empty(x.shape, dtype=x.dtype)
    ring.all_reduce(x, out, op).wait()
    return out


def _all_gather(ctx: KernelContext, x: Array, ring_id: int, nranks: int, name: str) -> Array:
    ring = _ring(ctx, ring_id, name)
    _check_nranks(ring, nranks, name)
    part = x.reshape(1) if x.ndim == 0 else x
    out = ctx.xp.empty((ring.size * part.shape[0],) + part.shape[1:], dtype=x.dtype)
    ring.all_gather(part, out).wait()
    return out


@register_kernel("all_reduce", dtypes=ALL_TYPES)
def all_reduce_kernel(ctx: KernelContext, x: Array, ring_id: int, reduce_type: int) -> Array:
    return _all_reduce(ctx, x, ring_id, reduce_op(reduce_type, "all_reduce()"), "all_reduce")


@register_kernel("c_allreduce_sum", dtypes=ALL_TYPES)
def c_allreduce_sum_kernel(
    ctx: KernelContext, x: Array, ring_id: int, use_calc_stream: bool, use_model_parallel: bool
) -> Array:
    return _all_reduce(ctx, x, ring_id, ReduceOp.SUM, "c_allreduce_sum")


@register_kernel("c_allreduce_max", dtypes=ORDERED_TYPES)
def c_allreduce_max_kernel(
    ctx: KernelContext, x: Array, ring_id: int, use_calc_stream: bool, use_model_parallel: bool
) -> Array:
    return _all_reduce(ctx, x, ring_id, ReduceOp.MAX, "c_allreduce_max")


@register_kernel("c_allreduce_min", dtypes=ORDERED_TYPES)
def c_allreduce_min_kernel(
    ctx: KernelContext, x: Array, ring_id: int, use_calc_stream: bool, use_model_parallel: bool
) -> Array:
    return _all_reduce(ctx, x, ring_id, ReduceOp.MIN, "c_allreduce_min")


@register_kernel("c_allreduce_prod", dtypes=ALL_TYPES)
def c_allreduce_prod_kernel(
    ctx: KernelContext, x: Array, ring_id: int, use_calc_stream: bool, use_model_parallel: bool
) -> Array:
    return _all_reduce(ctx, x, ring_id, ReduceOp.PROD, "c_allreduce_prod")


@register_kernel("all_gather", dtypes=ALL_TYPES)
def all_gather_kernel(ctx: KernelContext, x: Array, ring_id: int, nranks: int) -> Array:
    return _all_gather(ctx, x, ring_id, nranks, "all_gather")


@register_kernel("c_allgather", dtypes=ALL_TYPES)
def c_allgather_kernel(
    ctx: KernelContext, x: Array, ring_id: int, nranks: int, use_calc_stream: bool
) -> Array:
    return _all_gather(ctx, x, ring_id, nranks, "c_allgather")


@register_kernel("all_to_all", dtypes=ALL_TYPES)
def all_to_all_kernel(ctx: KernelContext, x: Array, ring_id: int) -> Array:
    ring = _ring(ctx, ring_id, "all_to_all")
    ring.check_divisible("all_to_all", x)
    out = ctx.xp.empty(x.shape, dtype=x.dtype)
    ring.all_to_all(x, out).wait()
    return out


def _broadcast(ctx: KernelContext, x: Array, ring_id: int, root: int, name: str) -> Array:
    ring = _ring(ctx, ring_id, name)
    out = ctx.xp.array(x, copy=True) if ring.rank == root else ctx.xp.empty(x.shape, x.dtype)
    ring.broadcast(out, root).wait()
    return out


@register_kernel("broadcast", dtypes=ALL_TYPES)
def broadcast_kernel(ctx: KernelContext, x: Array, ring_id: int, root: int) -> Array:
    return _broadcast(ctx, x, ring_id, root, "broadcast")


@register_kernel("c_broadcast", dtypes=ALL_TYPES)
def c_broadcast_kernel(
    ctx: KernelContext, x: Array, ring_id: int, root: int, use_calc_stream: bool
) -> Array:
    return _broadcast(ctx, x, ring_id, root, "c_broadcast")


@register_kernel("reduce", dtypes=ALL_TYPES)
def reduce_kernel(
    ctx: KernelContext, x: Array, ring_id: int, root_id: int, reduce_type: int
) -> Array:
    ring = _ring(ctx, ring_id, "reduce")
    out = ctx.xp.empty(x.shape, dtype=x.dtype)
    ring.reduce(x, out, root_id, reduce_op(reduce_type, "reduce()")).wait()
    return out


@register_kernel("reduce_scatter", dtypes=ALL_TYPES)
def reduce_scatter_kernel(ctx: KernelContext, x: Array, ring_id: int, nranks: int) -> Array:
    ring = _ring(ctx, ring_id, "reduce_scatter")
    _check_nranks(ring, nranks, "reduce_scatter")
    ring.check_divisible("reduce_scatter", x)
    out = ctx.xp.empty((x.shape[0] // ring.size,) + x.shape[1:], dtype=x.dtype)
    ring.reduce_scatter(x, out, ReduceOp.SUM).wait()
    return out


@register_kernel("barrier", dtypes=ALL_TYPES)
def barrier_kernel(ctx: KernelContext, x: Array, ring_id: int) -> Array:
    _ring(ctx, ring_id, "barrier").barrier().wait()
    return ctx.xp.array(x, copy=True)


@register_kernel("c_identity", dtypes=ALL_TYPES)
def c_identity_kernel(
    ctx: KernelContext, x: Array, ring_id: int, use_calc_stream: bool, use_model_parallel: bool
) -> Array:
    _ring(ctx, ring_id, "c_identity")
    return ctx.xp.array(x, copy=True)


@register_kernel("c_concat", dtypes=ALL_TYPES)
def c_concat_kernel(
    ctx: KernelContext,
    x: Array,
    rank: int,
    nranks: int,
    ring_id: int,
    use_calc_stream: bool,
    use_model_parallel: bool,
) -> Array:
    ring = _ring(ctx, ring_id, "c_concat")
    _check_nranks(ring, nranks, "c_concat")
    if x.ndim == 0:
        raise InvalidArgumentError("c_concat(): x must have at least 1 dimension")
    gathered = ctx.xp.empty((ring.size,) + x.shape, dtype=x.dtype)
    ring.all_gather(x, gathered).wait()
    return ctx.xp.concatenate([gathered[i] for i in range(ring.size)], axis=-1)


@register_kernel("c_split", dtypes=ALL_TYPES)
def c_split_kernel(
    ctx: KernelContext,
    x: Array,
    rank: int,
    nranks: int,
    ring_id: int,
    use_model_parallel: bool,
) -> Array:
    if not 0 <= rank < nranks:
        raise InvalidArgumentError(f"c_split(): rank must be in [0, nranks={nranks}), got {rank}")
    part = x.shape[-1] // nranks
    return ctx.xp.array(x[..., rank * part : (rank + 1) * part], copy=True)


__all__ = [
    "all_reduce_kernel",
    "all_gather_kernel",
    "all_to_all_kernel",
    "broadcast_kernel",
    "reduce_kernel",
    "reduce_scatter_kernel",
    "barrier_kernel",
    "c_allreduce_sum_kernel",
    "c_allreduce_max_kernel",
    "c_allreduce_min_kernel",
    "c_allreduce_prod_kernel",
    "c_broadcast_kernel",
    "c_allgather_kernel",
    "c_identity_kernel",
    "c_concat_kernel",
    "c_split_kernel",
]
