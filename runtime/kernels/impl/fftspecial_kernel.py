"""Kernels of the FFT ops fft_c2c, fft_r2c and fft_c2r (paddle.fft's building blocks).

PaddlePaddle 3.3.1's CPU kernels (paddle/phi/kernels/cpu/fft_kernel.cc, funcs/fft.cc) call
pocketfft, which is what ``numpy.fft`` runs too (CuPy's ``cupy.fft`` calls cuFFT, as PaddlePaddle's
GPU kernels do), so each kernel is one ``xp.fft`` call. PHI's normalization names mean what
numpy's ``norm`` does: "backward" scales the inverse transform by 1/n, "forward" the forward one,
"ortho" both by 1/sqrt(n), n being the product of the transformed extents; ``forward`` picks the
exponent's sign. An inverse real-to-complex transform is the conjugate of the forward one of the
same scale, and a forward complex-to-real one the inverse of the conjugate (numpy's ihfft and
hfft). A transform over an empty axis is a sum of nothing: zeros (numpy refuses n = 0).

frame and overlap_add (paddle.signal's building blocks, paddle/phi/kernels/cpu/frame_kernel.cc,
overlap_add_kernel.cc) gather a signal's samples into frames and add frames back into a signal.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType
COMPLEX = (D.COMPLEX64, D.COMPLEX128)
REAL = (D.FLOAT32, D.FLOAT64)

_COMPLEX_OF = {D.FLOAT32: D.COMPLEX64, D.FLOAT64: D.COMPLEX128}
_REAL_OF = {complex_: real for real, complex_ in _COMPLEX_OF.items()}

# the normalization that gives a transform of the other direction the same scale
SAME_SCALE_OTHER_DIRECTION = {"backward": "forward", "forward": "backward", "ortho": "ortho"}


def real_output(kernel: Kernel) -> None:
    """The output is the real dtype of a complex kernel's (PHI: ToRealType)."""
    kernel.output_at(0).set_dtype(_REAL_OF[kernel.key.dtype])


def complex_output(kernel: Kernel) -> None:
    """The output is the complex dtype of a real kernel's (PHI: ToComplexType)."""
    kernel.output_at(0).set_dtype(_COMPLEX_OF[kernel.key.dtype])


def complex_dtype_of(xp, dtype) -> object:  # noqa: ANN001 - an xp dtype
    return xp.complex64 if dtype in (xp.float32, xp.complex64) else xp.complex128


def real_dtype_of(xp, dtype) -> object:  # noqa: ANN001 - an xp dtype
    return xp.float32 if dtype in (xp.float32, xp.complex64) else xp.float64


def c2c(
    xp, x: Array, axes: Sequence[int], normalization: str, forward: bool
) -> Array:  # noqa: ANN001
    """The complex-to-complex transform of ``x`` over ``axes``, in ``x``'s dtype."""
    if any(x.shape[axis] == 0 for axis in axes) or x.size == 0:
        return xp.zeros(x.shape, x.dtype)
    transform = xp.fft.fftn if forward else xp.fft.ifftn
    return transform(x, axes=tuple(axes), norm=normalization).astype(x.dtype, copy=False)


def r2c(
    xp,  # noqa: ANN001
    x: Array,
    axes: Sequence[int],
    normalization: str,
    forward: bool,
    onesided: bool,
) -> Array:
    """The real-to-complex transform of real ``x`` over ``axes``, the last axis cut to
    ``n // 2 + 1`` when ``onesided``."""
    axes = tuple(axes)
    dtype = complex_dtype_of(xp, x.dtype)
    shape = list(x.shape)
    if onesided:
        shape[axes[-1]] = shape[axes[-1]] // 2 + 1
    if any(x.shape[axis] == 0 for axis in axes) or x.size == 0:
        return xp.zeros(tuple(shape), dtype)
    if not onesided:
        return c2c(xp, x.astype(dtype), axes, normalization, forward)
    if forward:
        return xp.fft.rfftn(x, axes=axes, norm=normalization).astype(dtype, copy=False)
    same_scale = SAME_SCALE_OTHER_DIRECTION[normalization]
    return xp.conj(xp.fft.rfftn(x, axes=axes, norm=same_scale)).astype(dtype, copy=False)


def c2r(
    xp,  # noqa: ANN001
    x: Array,
    axes: Sequence[int],
    normalization: str,
    forward: bool,
    last_dim_size: int,
) -> Array:
    """The complex-to-real transform of the one-sided spectrum ``x`` over ``axes``; the last
    axis' output extent is ``last_dim_size``, or ``2 * (m - 1)`` when it is 0."""
    axes = tuple(axes)
    last = axes[-1]
    n = last_dim_size if last_dim_size > 0 else 2 * (x.shape[last] - 1)
    sizes = tuple(x.shape[axis] for axis in axes[:-1]) + (n,)
    out_shape = list(x.shape)
    out_shape[last] = n
    dtype = real_dtype_of(xp, x.dtype)
    if any(x.shape[axis] == 0 for axis in axes) or x.size == 0:
        return xp.zeros(tuple(out_shape), dtype)
    if forward:
        same_scale = SAME_SCALE_OTHER_DIRECTION[normalization]
        out = xp.fft.irfftn(xp.conj(x), s=sizes, axes=axes, norm=same_scale)
    else:
        out = xp.fft.irfftn(x, s=sizes, axes=axes, norm=normalization)
    return out.astype(dtype, copy=False)


# PaddlePaddle 3.3.1 registers fft_c2c and fft_c2r on CPU for complex64/complex128, fft_r2c
# for float32/float64 (paddle/phi/kernels/cpu/fft_kernel.cc)
@register_kernel("fft_c2c", dtypes=COMPLEX)
def fft_c2c_kernel(
    ctx: KernelContext, x: Array, axes: tuple[int, ...], normalization: str, forward: bool
) -> Array:
    return c2c(ctx.xp, x, axes, normalization, forward)


@register_kernel("fft_r2c", dtypes=REAL, configure=complex_output)
def fft_r2c_kernel(
    ctx: KernelContext,
    x: Array,
    axes: tuple[int, ...],
    normalization: str,
    forward: bool,
    onesided: bool,
) -> Array:
    return r2c(ctx.xp, x, axes, normalization, forward, onesided)


@register_kernel("fft_c2r", dtypes=COMPLEX, configure=real_output)
def fft_c2r_kernel(
    ctx: KernelContext,
    x: Array,
    axes: tuple[int, ...],
    normalization: str,
    forward: bool,
    last_dim_size: int,
) -> Array:
    return c2r(ctx.xp, x, axes, normalization, forward, last_dim_size)


# -- frame and overlap_add (paddle.signal) ---------------------------------------------------------

# PaddlePaddle 3.3.1 registers frame, overlap_add and their grads on CPU for these
# (paddle/phi/kernels/cpu/frame_kernel.cc, overlap_add_kernel.cc)
SIGNAL = (D.INT32, D.INT64, D.FLOAT32, D.FLOAT64) + COMPLEX


def frames_of(xp, x: Array, frame_length: int, hop_length: int, axis: int) -> Array:  # noqa: ANN001
    """The frames of ``x``'s signal along ``axis`` (-1: ``(..., frame_length, n_frames)``;
    0: ``(n_frames, frame_length, ...)``), copies of its samples."""
    signal = x if axis == -1 else xp.moveaxis(x, 0, -1)
    n_frames = 1 + (signal.shape[-1] - frame_length) // hop_length
    starts = xp.arange(n_frames) * hop_length
    index = xp.arange(frame_length)[:, None] + starts[None, :]
    out = xp.take(signal, index, axis=-1)
    return out if axis == -1 else xp.ascontiguousarray(xp.moveaxis(out, (-1, -2), (0, 1)))


def overlap_added(xp, frames: Array, hop_length: int, axis: int) -> Array:  # noqa: ANN001
    """The sum of ``frames`` (laid out as ``frames_of`` gives them) placed ``hop_length``
    samples apart: the signal along ``axis``."""
    if axis == 0:
        frames = xp.moveaxis(frames, (0, 1), (-1, -2))
    frame_length, n_frames = frames.shape[-2], frames.shape[-1]
    seq_length = (n_frames - 1) * hop_length + frame_length
    out = xp.zeros(frames.shape[:-2] + (max(seq_length, 0),), frames.dtype)
    if frame_length <= n_frames:
        # one strided slice per offset in a frame: the samples it adds to are distinct
        stop = (n_frames - 1) * hop_length + 1
        for offset in range(frame_length):
            out[..., offset : offset + stop : hop_length] += frames[..., offset, :]
    else:
        for frame in range(n_frames):
            start = frame * hop_length
            out[..., start : start + frame_length] += frames[..., :, frame]
    return out if axis == -1 else xp.ascontiguousarray(xp.moveaxis(out, -1, 0))


@register_kernel("frame", dtypes=SIGNAL)
def frame_kernel(
    ctx: KernelContext, x: Array, frame_length: int, hop_length: int, axis: int
) -> Array:
    return frames_of(ctx.xp, x, frame_length, hop_length, axis)


@register_kernel("overlap_add", dtypes=SIGNAL)
def overlap_add_kernel(ctx: KernelContext, x: Array, hop_length: int, axis: int) -> Array:
    return overlap_added(ctx.xp, x, hop_length, axis)


@register_kernel("stft", dtypes=REAL, configure=complex_output)
def stft_kernel(
    ctx: KernelContext,
    x: Array,
    window: Array,
    n_fft: int,
    hop_length: int,
    normalized: bool,
    onesided: bool,
) -> Array:
    """Each row's frames (``[rows, n_fft, n_frames]``) times the window, transformed along the
    frame axis (PaddlePaddle's StftKernel; its CPU kernel fails for ``onesided`` false, which
    gives all ``n_fft`` frequencies here)."""
    xp = ctx.xp
    frames = frames_of(xp, x, n_fft, hop_length, -1) * window[:, None]
    norm = "ortho" if normalized else "backward"
    return r2c(xp, frames, (1,), norm, True, onesided)


# PaddlePaddle 3.3.1 registers logspace on CPU for these (paddle/phi/kernels/cpu/logspace_kernel.cc)
LOGSPACE = (D.FLOAT32, D.FLOAT64, D.INT32, D.INT64)


def _keep_num_integer(kernel: Kernel) -> None:
    """num is read as an integer whatever the output dtype: its input keeps its own dtype."""
    kernel.input_at(2).set_dtype(D.ALL_DTYPE)


@register_kernel("logspace", dtypes=LOGSPACE, configure=_keep_num_integer)
def logspace_kernel(
    ctx: KernelContext, start: Array, stop: Array, num: Array, base: Array, dtype: DataType
) -> Array:
    """PaddlePaddle's LogspaceKernel: start, stop and base in the output dtype (an integer one
    truncates them), base ** (start + step i) for the first half and base ** (stop - step (num
    - 1 - i)) for the rest, step = (stop - start) / (num - 1), in double, then converted
    (truncated toward zero for integers)."""
    xp = ctx.xp
    count = int(num.reshape(-1)[0])
    if count <= 0:
        raise InvalidArgumentError(f"logspace(): argument 'num' must be positive, got {count}")
    first = float(start.reshape(-1)[0])
    last = float(stop.reshape(-1)[0])
    radix = float(base.reshape(-1)[0])
    index = xp.arange(count, dtype=xp.float64)
    if count > 1:
        step = (last - first) / (count - 1)
        exponents = xp.where(
            index < count // 2, first + step * index, last - step * (count - 1 - index)
        )
    else:
        exponents = xp.full((1,), first)
    with np.errstate(over="ignore", invalid="ignore"):
        values = xp.power(radix, exponents)
        out_dtype = dtype.numpy_dtype
        if np.dtype(out_dtype).kind in "iu":
            values = xp.trunc(values)
        return values.astype(out_dtype)
