"""``phiops.signal`` (``paddle.signal``): the short-time Fourier transform ``stft`` and its
inverse ``istft``, with PaddlePaddle 3.3.1's signatures, checks and results (its
``python/paddle/signal.py``, dynamic-mode branch), and the ``frame``/``overlap_add`` functions
they are built from (PaddlePaddle has them in this module too, outside ``__all__``).

``stft`` frames the (centred, padded) signal with the op ``frame``, multiplies each frame by the
window and transforms it with ``fft_r2c`` (``fft_c2c`` for a complex signal); ``istft`` inverts
each frame with ``fft_c2r`` (``fft_c2c`` for ``return_complex``), windows it, adds the frames up
with ``overlap_add`` and divides by the overlap-added squared window, refusing windows whose
envelope vanishes (the NOLA condition), as PaddlePaddle does. PaddlePaddle's checks are
``assert`` statements: they raise AssertionError here too. Gradients flow through every step.
"""

from __future__ import annotations

import math

import phiops as _phiops
from phiops.generated import api as _C_ops
from phiops.runtime.common import DataType
from phiops.runtime.eager.tensor import Tensor

__all__ = ["stft", "istft"]


def frame(
    x: Tensor, frame_length: int, hop_length: int, axis: int = -1, name: str | None = None
) -> Tensor:
    """The frames of ``x``'s signal along ``axis`` (-1: the last axis, giving ``(...,
    frame_length, n_frames)``; 0: the first, giving ``(n_frames, frame_length, ...)``),
    ``hop_length`` samples apart."""
    if axis not in (0, -1):
        raise ValueError(f"Unexpected axis: {axis}. It should be 0 or -1.")
    if not isinstance(frame_length, int) or frame_length <= 0:
        raise ValueError(
            f"Unexpected frame_length: {frame_length}. It should be an positive integer."
        )
    if not isinstance(hop_length, int) or hop_length <= 0:
        raise ValueError(f"Unexpected hop_length: {hop_length}. It should be an positive integer.")
    if frame_length > x.shape[axis]:
        raise ValueError(
            "Attribute frame_length should be less equal than sequence length, "
            f"but got ({frame_length}) > ({x.shape[axis]})."
        )
    return _C_ops.frame(x, frame_length, hop_length, axis)


def overlap_add(x: Tensor, hop_length: int, axis: int = -1, name: str | None = None) -> Tensor:
    """The frames of ``x`` (``(..., frame_length, n_frames)`` for ``axis`` -1, ``(n_frames,
    frame_length, ...)`` for 0) added up ``hop_length`` samples apart into one signal."""
    if axis not in (0, -1):
        raise ValueError(f"Unexpected axis: {axis}. It should be 0 or -1.")
    if not isinstance(hop_length, int) or hop_length <= 0:
        raise ValueError(f"Unexpected hop_length: {hop_length}. It should be an positive integer.")
    return _C_ops.overlap_add(x, hop_length, axis)


def _centre_window(window: Tensor, n_fft: int) -> Tensor:
    win_length = window.shape[0]
    if win_length >= n_fft:
        return window
    left = (n_fft - win_length) // 2
    return _C_ops.pad(window, [left, n_fft - win_length - left], 0.0)


def _reflect_pad(x: Tensor, pad: int) -> Tensor:
    """``x`` (batch, seq) extended by ``pad`` samples mirrored at each end (without repeating
    the end sample), as ``paddle.nn.functional.pad(mode='reflect')``."""
    if pad == 0:
        return x
    length = x.shape[-1]
    if pad >= length:
        raise ValueError(
            f"stft: reflect padding of {pad} samples needs a signal longer than that, got "
            f"{length} samples"
        )
    left = _C_ops.flip(_C_ops.slice(x, [1], [1], [pad + 1], [1], []), [1])
    right = _C_ops.flip(_C_ops.slice(x, [1], [length - pad - 1], [length - 1], [1], []), [1])
    return _C_ops.concat([left, x, right], 1)


def stft(
    x: Tensor,
    n_fft: int,
    hop_length: int | None = None,
    win_length: int | None = None,
    window: Tensor | None = None,
    center: bool = True,
    pad_mode: str = "reflect",
    normalized: bool = False,
    onesided: bool | None = None,
    name: str | None = None,
) -> Tensor:
    """The short-time Fourier transform of ``x`` (``[seq_length]`` or ``[batch,
    seq_length]``): frames of ``n_fft`` samples ``hop_length`` apart (``n_fft // 4`` by
    default), each multiplied by ``window`` (ones of ``win_length``, centred in ``n_fft``) and
    transformed, scaled by ``1/sqrt(n_fft)`` when ``normalized``; ``[..., n_fft // 2 + 1,
    n_frames]`` for real input with ``onesided`` (the default), else ``[..., n_fft,
    n_frames]``."""
    x_rank = len(x.shape)
    assert x_rank in [1, 2], f"x should be a 1D or 2D real tensor, but got rank of x is {x_rank}"
    if x_rank == 1:
        x = _C_ops.unsqueeze(x, [0])
    if hop_length is None:
        hop_length = int(n_fft // 4)
    assert hop_length > 0, f"hop_length should be > 0, but got {hop_length}."
    if win_length is None:
        win_length = n_fft
    assert (
        0 < n_fft <= x.shape[-1]
    ), f"n_fft should be in (0, seq_length({x.shape[-1]})], but got {n_fft}."
    assert (
        0 < win_length <= n_fft
    ), f"win_length should be in (0, n_fft({n_fft})], but got {win_length}."
    if window is not None:
        assert len(window.shape) == 1 and window.shape[0] == win_length, (
            f"expected a 1D window tensor of size equal to win_length({win_length}), but got "
            f"window with shape {window.shape}."
        )
    else:
        window = _phiops.ones([win_length], dtype=x.dtype)
    window = _centre_window(window, n_fft)
    if center:
        assert pad_mode in [
            "constant",
            "reflect",
        ], f'pad_mode should be "reflect" or "constant", but got "{pad_mode}".'
        pad_length = n_fft // 2
        if pad_mode == "reflect":
            x = _reflect_pad(x, pad_length)
        else:
            x = _C_ops.pad(x, [0, 0, pad_length, pad_length], 0.0)
    x_frames = frame(x, n_fft, hop_length, -1)
    x_frames = _C_ops.transpose(x_frames, [0, 2, 1])  # (batch, n_frames, n_fft)
    x_frames = _phiops.multiply(x_frames, window)
    norm = "ortho" if normalized else "backward"
    if onesided is None:
        onesided = not x_frames.dtype.is_complex
    if x_frames.dtype.is_complex:
        assert not onesided, "onesided should be False when input or window is a complex Tensor."
    if not x.dtype.is_complex:
        out = _phiops.fft._r2c("stft", x_frames, None, -1, norm, True, onesided, None)
    else:
        out = _phiops.fft._c2c("stft", x_frames, None, -1, norm, True, None)
    out = _C_ops.transpose(out, [0, 2, 1])  # (batch, n_fft, n_frames)
    if x_rank == 1:
        out = _C_ops.squeeze(out, [0])
    return out


def istft(
    x: Tensor,
    n_fft: int,
    hop_length: int | None = None,
    win_length: int | None = None,
    window: Tensor | None = None,
    center: bool = True,
    normalized: bool = False,
    onesided: bool = True,
    length: int | None = None,
    return_complex: bool = False,
    name: str | None = None,
) -> Tensor:
    """The inverse of ``stft``: the signal (``[seq_length]`` or ``[batch, seq_length]``) whose
    short-time Fourier transform is ``x`` (``[..., n_fft // 2 + 1, n_frames]`` when
    ``onesided``, else ``[..., n_fft, n_frames]``), by the least-squares overlap-add of the
    windowed inverse transforms; ``length`` cuts it; ``return_complex`` keeps it complex."""
    if not (isinstance(x, Tensor) and x.dtype in (DataType.COMPLEX64, DataType.COMPLEX128)):
        got = x.dtype.name.lower() if isinstance(x, Tensor) else type(x).__name__
        raise TypeError(
            f"The data type of 'x' in istft must be ['complex64', 'complex128'], but received {got}."
        )
    x_rank = len(x.shape)
    assert x_rank in [2, 3], f"x should be a 2D or 3D complex tensor, but got rank of x is {x_rank}"
    if x_rank == 2:
        x = _C_ops.unsqueeze(x, [0])
    if hop_length is None:
        hop_length = int(n_fft // 4)
    if win_length is None:
        win_length = n_fft
    assert (
        0 < hop_length <= win_length
    ), f"hop_length should be in (0, win_length({win_length})], but got {hop_length}."
    assert (
        0 < win_length <= n_fft
    ), f"win_length should be in (0, n_fft({n_fft})], but got {win_length}."
    n_frames = x.shape[-1]
    fft_size = x.shape[-2]
    assert math.prod(x.shape) != 0, "x should not be an empty tensor."
    if onesided:
        assert fft_size == n_fft // 2 + 1, (
            f"fft_size should be equal to n_fft // 2 + 1({n_fft // 2 + 1}) when onesided is "
            f"True, but got {fft_size}."
        )
    else:
        assert fft_size == n_fft, (
            f"fft_size should be equal to n_fft({n_fft}) when onesided is False, but got "
            f"{fft_size}."
        )
    if window is not None:
        assert len(window.shape) == 1 and window.shape[0] == win_length, (
            f"expected a 1D window tensor of size equal to win_length({win_length}), but got "
            f"window with shape {window.shape}."
        )
    else:
        real = DataType.FLOAT32 if x.dtype is DataType.COMPLEX64 else DataType.FLOAT64
        window = _phiops.ones([win_length], dtype=real)
    window = _centre_window(window, n_fft)
    x = _C_ops.transpose(x, [0, 2, 1])  # (batch, n_frames, n_fft)
    norm = "ortho" if normalized else "backward"
    if return_complex:
        assert (
            not onesided
        ), "onesided should be False when input(output of istft) or window is a complex Tensor."
        out = _phiops.fft._c2c("istft", x, None, -1, norm, False, None)
    else:
        assert (
            not window.dtype.is_complex
        ), "Data type of window should not be complex when return_complex is False."
        if onesided is False:
            x = _C_ops.slice(x, [2], [0], [n_fft // 2 + 1], [1], [])
        out = _phiops.fft._c2r("istft", x, None, -1, norm, False, None)
    out = _C_ops.transpose(_phiops.multiply(out, window), [0, 2, 1])  # (batch, n_fft, n_frames)
    out = overlap_add(out, hop_length, -1)  # (batch, seq_length)
    squared = _C_ops.unsqueeze(_phiops.multiply(window, window), [0])
    envelope = overlap_add(
        _C_ops.transpose(_C_ops.tile(squared, [n_frames, 1]), [1, 0]), hop_length, -1
    )  # (seq_length,)
    start = n_fft // 2 if center else 0
    if length is None:
        if center:
            end = out.shape[-1] - n_fft // 2
            out = _C_ops.slice(out, [1], [start], [end], [1], [])
            envelope = _C_ops.slice(envelope, [0], [start], [end], [1], [])
    else:
        out = _C_ops.slice(out, [1], [start], [start + length], [1], [])
        envelope = _C_ops.slice(envelope, [0], [start], [start + length], [1], [])
    if float(_phiops.abs(envelope).numpy().min(initial=float("inf"))) < 1e-11:
        raise ValueError(
            "Abort istft because Nonzero Overlap Add (NOLA) condition failed. For more "
            "information about NOLA constraint please see `scipy.signal.check_NOLA`"
            "(https://docs.scipy.org/doc/scipy/reference/generated/scipy.signal.check_NOLA.html)."
        )
    out = _phiops.divide(out, envelope)
    if x_rank == 2:
        out = _C_ops.squeeze(out, [0])
    return out


_phiops._load_api()  # the ops and paddle's Tensor methods, as `import phiops` gives them
