"""Shape and creation kernels: split_with_num, add_n, tile, flip, roll, pad, pad3d,
tril, triu, cumsum, cumprod, eye, full_int_array, meshgrid, diag. Dtypes are PaddlePaddle
3.3.1's CPU registrations (checked by calling its ops) without bfloat16."""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.infermeta.nullary import ARANGE_DTYPES, arange_values
from phiops.runtime.infermeta.unary import pad3d_spatial_axes
from phiops.runtime.kernels.floating_point import ieee_results
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType

COMPLEX = (D.COMPLEX64, D.COMPLEX128)
SPLIT_DTYPES = (D.BOOL, D.UINT8, D.INT8, D.INT32, D.INT64, D.FLOAT16, D.FLOAT32, D.FLOAT64)
SPLIT_DTYPES += (D.BFLOAT16,)
ADD_N_DTYPES = (D.INT32, D.INT64, D.FLOAT16, D.BFLOAT16, D.FLOAT32, D.FLOAT64) + COMPLEX
TILE_DTYPES = (
    (D.BOOL, D.UINT8, D.INT8, D.INT16, D.INT32, D.INT64)
    + (
        D.FLOAT16,
        D.FLOAT32,
        D.FLOAT64,
    )
    + COMPLEX
)
FLIP_DTYPES = (D.BOOL, D.INT32, D.INT64, D.FLOAT32, D.FLOAT64) + COMPLEX
PAD_DTYPES = (D.INT16, D.INT32, D.INT64, D.BFLOAT16, D.FLOAT32, D.FLOAT64) + COMPLEX
PAD3D_DTYPES = (D.INT32, D.INT64, D.FLOAT32, D.FLOAT64) + COMPLEX
TRI_DTYPES = (D.BOOL, D.INT32, D.INT64, D.FLOAT16, D.FLOAT32, D.FLOAT64) + COMPLEX
CUMSUM_DTYPES = (D.UINT8, D.INT8, D.INT16, D.INT32, D.INT64, D.FLOAT32, D.FLOAT64) + COMPLEX
CUMPROD_DTYPES = (D.INT32, D.INT64, D.FLOAT32, D.FLOAT64) + COMPLEX
EYE_DTYPES = (D.INT32, D.INT64, D.FLOAT16, D.FLOAT32, D.FLOAT64) + COMPLEX
MESHGRID_DTYPES = (D.INT32, D.INT64, D.FLOAT32, D.FLOAT64) + COMPLEX
DIAG_DTYPES = EYE_DTYPES


@register_kernel("split_with_num", dtypes=SPLIT_DTYPES)
def split_with_num_kernel(ctx: KernelContext, x: Array, num: int, axis: int) -> list[Array]:
    """``num`` equal pieces along ``axis``."""
    return list(ctx.xp.split(x, num, axis=axis))


@register_kernel("add_n", dtypes=ADD_N_DTYPES)
def add_n_kernel(ctx: KernelContext, inputs: list[Array]) -> Array:
    """The elementwise sum (empty inputs among non-empty ones are skipped, as in PHI)."""
    present = [a for a in inputs if a.size] or inputs[:1]
    out = present[0].copy()
    for item in present[1:]:
        out += item
    return out


@register_kernel("tile", dtypes=TILE_DTYPES)
def tile_kernel(ctx: KernelContext, x: Array, repeat_times: tuple[int, ...]) -> Array:
    return ctx.xp.tile(x, repeat_times) if repeat_times else x.copy()


@register_kernel("flip", dtypes=FLIP_DTYPES)
def flip_kernel(ctx: KernelContext, x: Array, axis: tuple[int, ...]) -> Array:
    return ctx.xp.flip(x, axis=axis).copy() if axis else x.copy()


@register_kernel("roll", dtypes=FLIP_DTYPES)
def roll_kernel(
    ctx: KernelContext, x: Array, shifts: tuple[int, ...], axis: tuple[int, ...]
) -> Array:
    """Elements shifted along ``axis`` (of the flattened tensor when it is empty), wrapping."""
    xp = ctx.xp
    if not axis:
        return xp.roll(x.reshape(-1), shifts[0]).reshape(x.shape)
    return xp.roll(x, shifts, axis=axis)


@register_kernel("pad", dtypes=PAD_DTYPES)
def pad_kernel(ctx: KernelContext, x: Array, paddings: tuple[int, ...], pad_value: float) -> Array:
    """Constant padding, (before, after) per axis."""
    widths = [(paddings[2 * i], paddings[2 * i + 1]) for i in range(x.ndim)]
    return ctx.xp.pad(x, widths, mode="constant", constant_values=pad_value)


_NUMPY_PAD_MODE = {"reflect": "reflect", "replicate": "edge", "circular": "wrap"}


def pad3d_widths(x_ndim: int, paddings: tuple[int, ...], data_format: str) -> list[tuple[int, int]]:
    d_axis, h_axis, w_axis = pad3d_spatial_axes(data_format)
    widths = [(0, 0)] * x_ndim
    widths[w_axis] = (paddings[0], paddings[1])
    widths[h_axis] = (paddings[2], paddings[3])
    widths[d_axis] = (paddings[4], paddings[5])
    return widths


@register_kernel("pad3d", dtypes=PAD3D_DTYPES)
def pad3d_kernel(
    ctx: KernelContext,
    x: Array,
    paddings: tuple[int, ...],
    mode: str,
    pad_value: float,
    data_format: str,
) -> Array:
    """Padding of D, H and W: constant, reflect (mirror without the edge), replicate (the
    edge) or circular (wrapping)."""
    widths = pad3d_widths(x.ndim, paddings, data_format)
    if mode == "constant":
        return ctx.xp.pad(x, widths, mode="constant", constant_values=pad_value)
    return ctx.xp.pad(x, widths, mode=_NUMPY_PAD_MODE[mode])


@register_kernel("tril", dtypes=TRI_DTYPES)
def tril_kernel(ctx: KernelContext, x: Array, diagonal: int) -> Array:
    return ctx.xp.tril(x, diagonal)


@register_kernel("triu", dtypes=TRI_DTYPES)
def triu_kernel(ctx: KernelContext, x: Array, diagonal: int) -> Array:
    return ctx.xp.triu(x, diagonal)


def cumulate(
    xp: object, x: Array, axis: int, exclusive: bool, reverse: bool, product: bool
) -> Array:
    """cumsum/cumprod along ``axis``, exclusive (the identity first) and/or from the end."""
    if reverse:
        x = xp.flip(x, axis=axis)
    out = xp.cumprod(x, axis=axis) if product else xp.cumsum(x, axis=axis, dtype=x.dtype)
    out = out.astype(x.dtype, copy=False)
    if exclusive:
        identity = xp.ones_like if product else xp.zeros_like
        first = identity(xp.take(out, [0], axis=axis))
        out = xp.concatenate([first, xp.take(out, range(out.shape[axis] - 1), axis=axis)], axis)
    return xp.flip(out, axis=axis).copy() if reverse else out


@register_kernel("cumsum", dtypes=CUMSUM_DTYPES)
def cumsum_kernel(
    ctx: KernelContext, x: Array, axis: int, flatten: bool, exclusive: bool, reverse: bool
) -> Array:
    """Running sums along ``axis`` (of the flattened tensor with ``flatten``); integers wrap."""
    if flatten:
        x, axis = x.reshape(-1), 0
    if x.ndim == 0:
        return ctx.xp.zeros_like(x) if exclusive else x.copy()
    return cumulate(ctx.xp, x, axis, exclusive, reverse, product=False)


@register_kernel("cumprod", dtypes=CUMPROD_DTYPES)
@ieee_results
def cumprod_kernel(ctx: KernelContext, x: Array, dim: int, exclusive: bool, reverse: bool) -> Array:
    if x.ndim == 0:
        return ctx.xp.ones_like(x) if exclusive else x.copy()
    return cumulate(ctx.xp, x, dim, exclusive, reverse, product=True)


@register_kernel("eye", dtypes=EYE_DTYPES)
def eye_kernel(ctx: KernelContext, num_rows: int, num_columns: int, dtype: DataType) -> Array:
    # Scalars: a static program passes PaddlePaddle's float32 `full` values (whole numbers, as
    # the InferMeta checked), so they are made ints here, as PHI's `to<int64_t>()` does
    rows = int(num_rows)
    columns = rows if num_columns == -1 else int(num_columns)
    return ctx.xp.eye(rows, columns, dtype=dtype.numpy_dtype)


@register_kernel("full_int_array", dtypes=(D.INT32, D.INT64))
def full_int_array_kernel(ctx: KernelContext, value: tuple[int, ...], dtype: DataType) -> Array:
    return ctx.xp.asarray(list(value), dtype=dtype.numpy_dtype).reshape(len(value))


@register_kernel("meshgrid", dtypes=MESHGRID_DTYPES)
def meshgrid_kernel(ctx: KernelContext, inputs: list[Array]) -> list[Array]:
    """Matrix ('ij') indexing: output i varies along axis i."""
    xp = ctx.xp
    vectors = [a.reshape(-1) for a in inputs]
    return [g.copy() for g in xp.meshgrid(*vectors, indexing="ij")]


@register_kernel("diag", dtypes=DIAG_DTYPES)
def diag_kernel(ctx: KernelContext, x: Array, offset: int, padding_value: float) -> Array:
    """A 0-D/1-D x on diagonal ``offset`` of a square matrix filled with ``padding_value``; the
    diagonal ``offset`` of a 2-D x."""
    xp = ctx.xp
    if x.ndim == 2:
        return xp.diagonal(x, offset).copy()
    vector = x.reshape(-1)
    size = vector.size + abs(offset)
    out = xp.full((size, size), padding_value, dtype=x.dtype)
    rows = xp.arange(vector.size) + max(-offset, 0)
    out[rows, rows + offset] = vector
    return out


@register_kernel("arange", dtypes=ARANGE_DTYPES)
def arange_kernel(
    ctx: KernelContext, start: float, end: float, step: float, dtype: DataType
) -> Array:
    """PHI's ArangeKernel: start, end and step converted to ``dtype`` first (arange_values),
    then ``value += step`` repeated in ``dtype``, so float32 results carry float32's rounding
    (0.1 by 0.1 gives 0.80000007 at the eighth value, as in PaddlePaddle)."""
    xp = ctx.xp
    first, stride, count = arange_values(start, end, step, dtype)
    if dtype.is_integer:
        return xp.arange(count, dtype=dtype.numpy_dtype) * stride + first
    steps = xp.full((count,), stride, dtype=dtype.numpy_dtype)
    if count:
        steps[0] = first
    # add.accumulate is a running sum in the array's dtype, one addition at a time
    return xp.add.accumulate(steps)


@register_kernel("linspace", dtypes=(D.INT32, D.INT64, D.FLOAT32, D.FLOAT64))
def linspace_kernel(
    ctx: KernelContext, start: float, stop: float, number: int, dtype: DataType
) -> Array:
    """PHI's LinspaceKernel: the first half counted up from ``start``, the second down from
    ``stop`` (so the last value is exactly ``stop``), in float64 for integer dtypes and then
    truncated."""
    xp = ctx.xp
    work = dtype.numpy_dtype if dtype in (D.FLOAT32, D.FLOAT64) else xp.float64
    if number <= 1:
        return xp.full((number,), start, dtype=work).astype(dtype.numpy_dtype)
    scalar = xp.dtype(work).type
    step = (scalar(stop) - scalar(start)) / scalar(number - 1)
    index = xp.arange(number, dtype=work)
    half = number // 2
    values = xp.where(
        index < half, scalar(start) + step * index, scalar(stop) - step * (number - 1 - index)
    )
    return values.astype(dtype.numpy_dtype)
