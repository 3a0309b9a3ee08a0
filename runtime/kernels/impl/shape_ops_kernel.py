"""shape, full_batch_size_like and sequence_mask (issue 24: ops of legacy programs).

Semantics are PHI's (paddle/phi/kernels/cpu/shape_kernel.cc, full_kernel.cc's
FullBatchSizeLikeKernel, cpu/sequence_mask_kernel.cc): ``shape`` gives the input's extents as
int32 whatever the input's dtype (``shape64`` as int64); ``full_batch_size_like`` is ``full`` of ``shape`` with one
extent taken from the input; ``sequence_mask`` sets ``y[..., j]`` to ``j < x[...]`` for ``j`` in
``[0, max_len)``, ``max_len`` below 0 meaning the largest length in ``x``.
"""

from __future__ import annotations

from phiops.runtime.common import Backend, DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.impl.full_kernel import full_kernel
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType
# PaddlePaddle 3.3.1's CPU registrations (runtime/kernels/paddle_3_3_1_cpu.json).
SHAPE_DTYPES = (
    D.BOOL,
    D.UINT8,
    D.INT8,
    D.INT32,
    D.INT64,
    D.FLOAT32,
    D.FLOAT64,
    D.COMPLEX64,
    D.COMPLEX128,
)
FULL_BATCH_SIZE_LIKE_DTYPES = (D.BOOL, D.INT32, D.INT64, D.FLOAT32, D.FLOAT64)
SEQUENCE_MASK_DTYPES = (D.INT32, D.INT64, D.FLOAT32, D.FLOAT64)


def _shape_configure(kernel: Kernel) -> None:
    # As PHI's registration: the input lends only its dims (any backend), the output is int32
    # on the host.
    kernel.input_at(0).set_backend(Backend.ALL_BACKEND)
    kernel.output_at(0).set_dtype(DataType.INT32)


@register_kernel("shape", dtypes=SHAPE_DTYPES, configure=_shape_configure)
def shape_kernel(ctx: KernelContext, input: Array) -> Array:
    return ctx.xp.asarray(input.shape, dtype=ctx.xp.int32).reshape(len(input.shape))


SHAPE64_DTYPES = SHAPE_DTYPES + (D.FLOAT16, D.BFLOAT16)


def _shape64_configure(kernel: Kernel) -> None:
    kernel.input_at(0).set_backend(Backend.ALL_BACKEND)
    kernel.output_at(0).set_dtype(DataType.INT64)


@register_kernel("shape64", dtypes=SHAPE64_DTYPES, configure=_shape64_configure)
def shape64_kernel(ctx: KernelContext, input: Array) -> Array:
    return ctx.xp.asarray(input.shape, dtype=ctx.xp.int64).reshape(len(input.shape))


def _any_input(kernel: Kernel) -> None:
    # input only lends one extent: any backend, any dtype, no cast.
    kernel.input_at(0).set_backend(Backend.ALL_BACKEND).set_dtype(DataType.ALL_DTYPE)


@register_kernel("full_batch_size_like", dtypes=FULL_BATCH_SIZE_LIKE_DTYPES, configure=_any_input)
def full_batch_size_like_kernel(
    ctx: KernelContext,
    input: Array,
    shape: tuple[int, ...],
    value: float,
    dtype: DataType,
    input_dim_idx: int,
    output_dim_idx: int,
) -> Array:
    dims = list(shape)
    dims[output_dim_idx] = input.shape[input_dim_idx]
    return full_kernel(ctx, tuple(dims), value, dtype)


def _output_dtype_by_attribute(kernel: Kernel) -> None:
    # As PHI's registration: the output dtype comes from the ``out_dtype`` attribute.
    kernel.output_at(0).set_dtype(DataType.UNDEFINED)


@register_kernel(
    "sequence_mask_scalar", dtypes=SEQUENCE_MASK_DTYPES, configure=_output_dtype_by_attribute
)
def sequence_mask_scalar_kernel(
    ctx: KernelContext, x: Array, max_len: int, out_dtype: DataType
) -> Array:
    xp = ctx.xp
    length = int(max_len)
    if length < 0:
        if x.size == 0:
            raise InvalidArgumentError(
                "sequence_mask: argument 'max_len' is negative (the largest length in 'x') "
                "but 'x' is empty"
            )
        length = int(xp.max(x))
        if length < 0:
            raise InvalidArgumentError(
                f"sequence_mask: the largest length in 'x' must not be negative, got {length}"
            )
    positions = xp.arange(length, dtype=xp.int64)
    mask = positions < x[..., None]
    return mask.astype(out_dtype.numpy_dtype)
