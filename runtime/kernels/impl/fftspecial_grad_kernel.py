"""Grad kernels of the FFT ops, as PaddlePaddle 3.3.1's (paddle/phi/kernels/impl/
fft_grad_kernel_impl.h): each is the transform of the other direction with the forward op's
scale.

- fft_c2c_grad: the c2c transform of ``out_grad``, direction flipped.
- fft_r2c_grad: ``out_grad`` zero-padded to ``x``'s extent when one-sided, c2c-transformed the
  other way; its real part.
- fft_c2r_grad: the one-sided r2c transform of ``out_grad`` the other way, the terms 1 ..
  n - (n // 2 + 1) of the last axis (those whose conjugates the forward op filled in) doubled.

frame_grad overlap-adds the frames' gradients and overlap_add_grad frames the signal's: each is
the other's adjoint.
"""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.impl.fftspecial_kernel import (
    COMPLEX,
    REAL,
    SAME_SCALE_OTHER_DIRECTION,
    SIGNAL,
    c2c,
    complex_output,
    frames_of,
    overlap_added,
    r2c,
    real_output,
)
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType


@register_kernel("fft_c2c_grad", dtypes=COMPLEX)
def fft_c2c_grad_kernel(
    ctx: KernelContext,
    out_grad: Array,
    axes: tuple[int, ...],
    normalization: str,
    forward: bool,
) -> Array:
    same_scale = SAME_SCALE_OTHER_DIRECTION[normalization]
    return c2c(ctx.xp, out_grad, axes, same_scale, not forward)


def _real_x_and_output(kernel: Kernel) -> None:
    """fft_r2c_grad's key is out_grad's complex dtype; x and x_grad are its real dtype."""
    real_output(kernel)
    kernel.input_at(0).set_dtype(kernel.output_at(0).dtype)


def _complex_out_grad(kernel: Kernel) -> None:
    """stft_grad's key is x's real dtype; out_grad is its complex dtype."""
    kernel.input_at(2).set_dtype(D.COMPLEX64 if kernel.key.dtype is D.FLOAT32 else D.COMPLEX128)


@register_kernel("fft_r2c_grad", dtypes=COMPLEX, configure=_real_x_and_output)
def fft_r2c_grad_kernel(
    ctx: KernelContext,
    x: Array,
    out_grad: Array,
    axes: tuple[int, ...],
    normalization: str,
    forward: bool,
    onesided: bool,
) -> Array:
    xp = ctx.xp
    full = out_grad
    last = axes[-1]
    missing = x.shape[last] - out_grad.shape[last]
    if onesided and missing > 0:
        widths = [(0, 0)] * out_grad.ndim
        widths[last] = (0, missing)
        full = xp.pad(out_grad, widths)
    same_scale = SAME_SCALE_OTHER_DIRECTION[normalization]
    return xp.ascontiguousarray(c2c(xp, full, axes, same_scale, not forward).real)


@register_kernel("fft_c2r_grad", dtypes=REAL, configure=complex_output)
def fft_c2r_grad_kernel(
    ctx: KernelContext,
    out_grad: Array,
    axes: tuple[int, ...],
    normalization: str,
    forward: bool,
    last_dim_size: int,
) -> Array:
    xp = ctx.xp
    same_scale = SAME_SCALE_OTHER_DIRECTION[normalization]
    x_grad = r2c(xp, out_grad, axes, same_scale, not forward, onesided=True)
    last = axes[-1]
    doubled = out_grad.shape[last] - x_grad.shape[last]
    if doubled > 0:
        index = [slice(None)] * x_grad.ndim
        index[last] = slice(1, doubled + 1)
        x_grad[tuple(index)] *= 2
    return x_grad


def _check_signal_grad(
    op: str, hop_length: int, axis: int, out_grad: Array, expected: tuple[int, ...]
) -> None:
    """The checks the forward op's InferMeta made, for a grad op called directly."""
    if axis not in (0, -1):
        raise InvalidArgumentError(f"{op}(): argument 'axis' must be 0 or -1, got {axis}")
    if hop_length <= 0:
        raise InvalidArgumentError(
            f"{op}(): argument 'hop_length' must be positive, got {hop_length}"
        )
    if tuple(out_grad.shape) != tuple(expected):
        raise InvalidArgumentError(
            f"{op}(): argument 'out_grad' must have the forward output's shape "
            f"{list(expected)}, got {list(out_grad.shape)}"
        )


@register_kernel("frame_grad", dtypes=SIGNAL)
def frame_grad_kernel(
    ctx: KernelContext,
    x: Array,
    out_grad: Array,
    frame_length: int,
    hop_length: int,
    axis: int,
) -> Array:
    """Each sample's gradient is the sum over the frames holding it: the frames' gradients
    overlap-added, zero-padded to x's length (samples after the last frame get 0)."""
    xp = ctx.xp
    if axis in (0, -1) and hop_length > 0 and 0 < frame_length <= x.shape[axis]:
        seq_length = x.shape[axis]
        n_frames = 1 + (seq_length - frame_length) // hop_length
        if axis == 0:
            expected = (n_frames, frame_length) + tuple(x.shape[1:])
        else:
            expected = tuple(x.shape[:-1]) + (frame_length, n_frames)
    else:
        expected = ()  # the forward op refuses these arguments: report them as it does
        if frame_length <= 0 or (axis in (0, -1) and frame_length > x.shape[axis]):
            raise InvalidArgumentError(
                f"frame_grad(): argument 'frame_length' must be in [1, the sequence length], "
                f"got {frame_length}"
            )
    _check_signal_grad("frame_grad", hop_length, axis, out_grad, expected)
    signal = overlap_added(xp, out_grad, hop_length, axis)
    missing = x.shape[axis] - signal.shape[axis]
    if missing > 0:
        widths = [(0, 0)] * signal.ndim
        widths[axis] = (0, missing)
        signal = xp.pad(signal, widths)
    return signal


@register_kernel("overlap_add_grad", dtypes=SIGNAL)
def overlap_add_grad_kernel(
    ctx: KernelContext, x: Array, out_grad: Array, hop_length: int, axis: int
) -> Array:
    """Each frame sample's gradient is that of the signal sample it was added to."""
    if x.ndim < 2:
        raise InvalidArgumentError(
            f"overlap_add_grad(): argument 'x' must have at least 2 dimensions, got rank {x.ndim}"
        )
    n_frames, frame_length = (x.shape[0], x.shape[1]) if axis == 0 else (x.shape[-1], x.shape[-2])
    seq_length = (n_frames - 1) * hop_length + frame_length
    if axis == 0:
        expected = (seq_length,) + tuple(x.shape[2:])
    else:
        expected = tuple(x.shape[:-2]) + (seq_length,)
    _check_signal_grad("overlap_add_grad", hop_length, axis, out_grad, expected)
    return frames_of(ctx.xp, out_grad, frame_length, hop_length, axis)


@register_kernel("stft_grad", dtypes=REAL, configure=_complex_out_grad)
def stft_grad_kernel(
    ctx: KernelContext,
    x: Array,
    window: Array,
    out_grad: Array,
    n_fft: int,
    hop_length: int,
    normalized: bool,
    onesided: bool,
) -> Array:
    """The adjoint of stft for ``x``, as PaddlePaddle's StftGradKernel: the frequency gradients
    (zero-padded to ``n_fft`` when one-sided) transformed back with the forward scale, their
    real part times the window, overlap-added into the signal (``window``'s gradient is not
    computed, as in PaddlePaddle)."""
    xp = ctx.xp
    frames = fft_r2c_grad_kernel(
        ctx,
        xp.empty((x.shape[0], n_fft, out_grad.shape[2]), x.dtype),
        out_grad,
        (1,),
        "ortho" if normalized else "backward",
        True,
        onesided,
    ).astype(x.dtype, copy=False)
    signal = overlap_added(xp, frames * window[:, None], hop_length, -1)
    missing = x.shape[1] - signal.shape[1]
    if missing > 0:
        signal = xp.pad(signal, [(0, 0), (0, missing)])
    return signal
