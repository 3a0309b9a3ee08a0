"""Grad kernels of the reductions: sum, mean, max, min, prod.

Each broadcasts ``out_grad`` back to ``x``'s shape, re-inserting the reduced axes as size 1 when
the forward op ran with ``keepdim=False``; an empty ``axis`` or ``reduce_all`` means every axis,
as in the forward kernels. Semantics are PHI's reduce grad functors
(paddle/phi/kernels/funcs/reduce_functor.h):
- sum_grad: ``out_grad`` broadcast; mean_grad: the same divided by the number of reduced
  elements (an empty reduction gives an empty or zero gradient, never a division by zero);
- max_grad / min_grad: ``out_grad`` goes to every element equal to the result, so all ties get
  the full gradient (MaxOrMinGradFunctor); a nan element never equals the result and gets 0;
- prod_grad: ``out_grad * out / x`` (ProdGradFunctor), with no special case for zeros: an element
  that is 0 gets nan (0 / 0), the other elements of its reduction get 0 (their ``out`` is 0),
  exactly as PaddlePaddle computes it; for complex inputs no conjugate is taken, as there.

mean_grad and prod_grad also have the integer (and, for mean_grad, bool) kernels PaddlePaddle
3.3.1 registers on CPU, which phiops' autograd never asks for (integer tensors get no gradients)
but a static program may run; they compute what C++ does with PHI's functors: mean_grad's
``out_grad / count`` truncates toward zero (bool: count converts to true, so the gradient is
``out_grad``), prod_grad's ``out_grad * out * (1 / x)`` takes the integer reciprocal (1 at 1, -1
at -1, 0 elsewhere), and an integer 0 in x, where PaddlePaddle's kernel dies with SIGFPE, raises
InvalidArgumentError.
"""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.floating_point import ieee_results
from phiops.runtime.kernels.impl.reduce_kernel import reduction_axes
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType

# PaddlePaddle's CPU grad registrations, restricted to the floating and complex dtypes that
# can carry gradients and that the forward kernels here have.
SUM_GRAD_DTYPES = (
    D.FLOAT16,
    D.FLOAT32,
    D.FLOAT64,
    D.COMPLEX64,
    D.COMPLEX128,
    D.BFLOAT16,
    D.BOOL,
    D.INT16,
    D.INT32,
    D.INT64,
)
MEAN_GRAD_DTYPES = (D.FLOAT32, D.FLOAT64, D.COMPLEX64, D.COMPLEX128, D.BOOL, D.INT32, D.INT64)
MAX_MIN_GRAD_DTYPES = (D.FLOAT32, D.FLOAT64, D.INT32, D.INT64)
PROD_GRAD_DTYPES = (D.FLOAT32, D.FLOAT64, D.COMPLEX64, D.COMPLEX128, D.INT32, D.INT64)


def _shape_only_x(kernel: Kernel) -> None:
    # ``x`` is ``no_need_buffer``: only its shape and dtype are read, so it is never cast.
    kernel.input_at(0).set_dtype(DataType.ALL_DTYPE)


def _kept_dims(x_shape: tuple[int, ...], axes: tuple[int, ...]) -> tuple[int, ...]:
    """The forward output's shape with ``keepdim=True``: reduced axes of ``x`` become 1."""
    return tuple(1 if i in axes else extent for i, extent in enumerate(x_shape))


def _broadcast_back(
    ctx: KernelContext, x_shape: tuple[int, ...], grad: Array, axes: tuple[int, ...]
) -> Array:
    """``grad`` (the forward output's shape, with or without kept dims) as a view of ``x_shape``."""
    return ctx.xp.broadcast_to(grad.reshape(_kept_dims(x_shape, axes)), x_shape)


@register_kernel("sum_grad", dtypes=SUM_GRAD_DTYPES, configure=_shape_only_x)
def sum_grad_kernel(
    ctx: KernelContext,
    x: Array,
    out_grad: Array,
    axis: tuple[int, ...],
    keepdim: bool,
    reduce_all: bool,
) -> Array:
    axes = reduction_axes(axis, x.ndim, reduce_all)
    # A contiguous copy in x's dtype (sum may have produced another dtype): the engine may
    # accumulate into the gradient, which a broadcast view does not allow.
    return _broadcast_back(ctx, x.shape, out_grad, axes).astype(x.dtype)


@register_kernel("mean_grad", dtypes=MEAN_GRAD_DTYPES, configure=_shape_only_x)
def mean_grad_kernel(
    ctx: KernelContext,
    x: Array,
    out_grad: Array,
    axis: tuple[int, ...],
    keepdim: bool,
    reduce_all: bool,
) -> Array:
    xp = ctx.xp
    axes = reduction_axes(axis, x.ndim, reduce_all)
    count = 1
    for index in axes:
        count *= x.shape[index]
    if count == 0:
        return xp.zeros(x.shape, dtype=x.dtype)
    if out_grad.dtype.kind == "b":
        scaled = out_grad
    elif out_grad.dtype.kind in "iu":
        # C++'s integer division truncates toward zero; numpy's // floors
        magnitude = xp.abs(out_grad) // count
        scaled = xp.where(out_grad < 0, -magnitude, magnitude)
    else:
        scaled = out_grad / xp.asarray(count, dtype=out_grad.dtype)
    return _broadcast_back(ctx, x.shape, scaled, axes).astype(x.dtype)


def _extreme_grad(
    ctx: KernelContext,
    x: Array,
    out: Array,
    out_grad: Array,
    axis: tuple[int, ...],
    reduce_all: bool,
) -> Array:
    axes = reduction_axes(axis, x.ndim, reduce_all)
    hits = x == _broadcast_back(ctx, x.shape, out, axes)
    grad = _broadcast_back(ctx, x.shape, out_grad, axes)
    return ctx.xp.where(hits, grad, ctx.xp.zeros((), dtype=grad.dtype)).astype(x.dtype, copy=False)


@register_kernel("max_grad", dtypes=MAX_MIN_GRAD_DTYPES)
def max_grad_kernel(
    ctx: KernelContext,
    x: Array,
    out: Array,
    out_grad: Array,
    axis: tuple[int, ...],
    keepdim: bool,
    reduce_all: bool,
) -> Array:
    return _extreme_grad(ctx, x, out, out_grad, axis, reduce_all)


@register_kernel("min_grad", dtypes=MAX_MIN_GRAD_DTYPES)
def min_grad_kernel(
    ctx: KernelContext,
    x: Array,
    out: Array,
    out_grad: Array,
    axis: tuple[int, ...],
    keepdim: bool,
    reduce_all: bool,
) -> Array:
    return _extreme_grad(ctx, x, out, out_grad, axis, reduce_all)


@register_kernel("prod_grad", dtypes=PROD_GRAD_DTYPES)
@ieee_results
def prod_grad_kernel(
    ctx: KernelContext,
    x: Array,
    out: Array,
    out_grad: Array,
    axis: tuple[int, ...],
    keepdim: bool,
    reduce_all: bool,
) -> Array:
    """d prod / d x_i is the product of the other elements of x_i's slice. PaddlePaddle's CPU
    functor computes it as out / x_i, which is 0/0 = nan at a zero; here it is exact: with no
    zero in the slice it is out / x_i, at a slice's only zero the product of the rest, and 0
    everywhere else (every other element's product then contains that zero, or two zeros)."""
    xp = ctx.xp
    axes = reduction_axes(axis, x.ndim, reduce_all)
    if x.dtype.kind in "iu":
        return _integer_prod_grad(ctx, x, out, out_grad, axes)
    is_zero = x == 0
    zeros = xp.sum(is_zero, axis=axes, keepdims=True)
    product_of_rest = xp.prod(xp.where(is_zero, 1, x), axis=axes, keepdims=True)
    upstream = _broadcast_back(ctx, x.shape, out_grad, axes)
    grad = xp.where(
        is_zero,
        xp.where(zeros == 1, product_of_rest, 0),
        xp.where(zeros == 0, product_of_rest / xp.where(is_zero, 1, x), 0),
    )
    return (upstream * grad).astype(x.dtype, copy=False)


def _integer_prod_grad(
    ctx: KernelContext, x: Array, out: Array, out_grad: Array, axes: tuple[int, ...]
) -> Array:
    """PHI's ProdGradFunctor on integers: ``out_grad * out * (1 / x)`` in x's type, the
    reciprocal an integer division (1 at 1, -1 at -1, 0 elsewhere), the products wrapping."""
    xp = ctx.xp
    if bool(xp.any(x == 0)):
        raise InvalidArgumentError(
            f"prod_grad: argument 'x' of integer type {x.dtype} holds 0, whose integer "
            f"reciprocal is a division by zero (PaddlePaddle 3.3.1's kernel dies with SIGFPE "
            f"there); cast x to a floating dtype"
        )
    reciprocal = (x == 1).astype(x.dtype) - (x == -1).astype(x.dtype)
    upstream = _broadcast_back(ctx, x.shape, out_grad, axes)
    product = _broadcast_back(ctx, x.shape, out, axes)
    return (upstream * product * reciprocal).astype(x.dtype, copy=False)
