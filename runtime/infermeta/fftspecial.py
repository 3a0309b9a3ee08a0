"""InferMeta functions of the fftspecial ops (fft_c2c, fft_r2c, fft_c2r and their grads; frame,
overlap_add, stft; maxout, logspace).

PHI's FFT InferMeta functions check only that the transformed extents are not negative; here
they also check what the kernels rely on: the axes are in range, unique and not empty, and the
normalization is one of PaddlePaddle's three names (paddle.fft checks these before calling the
op; phiops checks them at the op, so that ``_C_ops`` calls get a named error too).
"""

from __future__ import annotations

from typing import Sequence

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta.dims import is_known
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor

__all__ = [
    "fftc2_c_infer_meta",
    "fftr2_c_infer_meta",
    "fftc2_r_infer_meta",
    "fftc2_r_grad_infer_meta",
    "frame_infer_meta",
    "overlap_add_infer_meta",
    "overlap_add_grad_infer_meta",
    "check_fft_axes",
    "NORMALIZATIONS",
]

_RUNTIME = MetaConfig()

NORMALIZATIONS = ("backward", "ortho", "forward")

_COMPLEX_OF = {DataType.FLOAT32: DataType.COMPLEX64, DataType.FLOAT64: DataType.COMPLEX128}
_REAL_OF = {complex_: real for real, complex_ in _COMPLEX_OF.items()}


def check_fft_axes(rank: int, axes: Sequence[int], normalization: str) -> tuple[int, ...]:
    """``axes`` as non-negative axes of a rank-``rank`` tensor; InvalidArgumentError naming the
    argument when an axis is out of range or repeated, when there is none, or when
    ``normalization`` is not "backward", "ortho" or "forward"."""
    if normalization not in NORMALIZATIONS:
        raise InvalidArgumentError(
            f"argument 'normalization' must be one of 'backward', 'ortho', 'forward', got "
            f"{normalization!r}"
        )
    if not axes:
        raise InvalidArgumentError("argument 'axes' must name at least one axis, got []")
    normalized = []
    for axis in axes:
        if not -rank <= axis < rank:
            raise InvalidArgumentError(
                f"argument 'axes' must hold axes in [{-rank}, {rank}) for a rank-{rank} input, "
                f"got {list(axes)}"
            )
        normalized.append(axis % rank)
    if len(set(normalized)) != len(normalized):
        raise InvalidArgumentError(f"argument 'axes' must not repeat an axis, got {list(axes)}")
    return tuple(normalized)


def _check_dtype(x: MetaTensor, allowed: dict[DataType, DataType], kind: str) -> None:
    if x.dtype not in allowed:
        raise InvalidArgumentError(
            f"argument 'x' must be {kind} ({' or '.join(d.name.lower() for d in allowed)}), got "
            f"{x.dtype.name.lower()}"
        )


def fftc2_c_infer_meta(
    x: MetaTensor,
    axes: tuple[int, ...],
    normalization: str,
    forward: bool,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's FFTC2CInferMeta: ``out`` has ``x``'s meta; ``x`` must be complex."""
    check_fft_axes(len(x.dims), axes, normalization)
    _check_dtype(x, _REAL_OF, "complex")
    out.share_meta(x)


def fftr2_c_infer_meta(
    x: MetaTensor,
    axes: tuple[int, ...],
    normalization: str,
    forward: bool,
    onesided: bool,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's FFTR2CInferMeta: ``out`` is the complex dtype of ``x``'s, with ``x``'s dims, the
    last transformed axis cut to ``n // 2 + 1`` when ``onesided``."""
    normalized = check_fft_axes(len(x.dims), axes, normalization)
    _check_dtype(x, _COMPLEX_OF, "float32 or float64")
    dims = list(x.dims)
    last = normalized[-1]
    if onesided and is_known(dims[last]):
        dims[last] = dims[last] // 2 + 1
    out.set_dims(tuple(dims))
    out.set_dtype(_COMPLEX_OF[x.dtype])
    out.set_layout(x.layout)


def fftc2_r_infer_meta(
    x: MetaTensor,
    axes: tuple[int, ...],
    normalization: str,
    forward: bool,
    last_dim_size: int,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's FFTC2RInferMeta: ``out`` is the real dtype of ``x``'s, with ``x``'s dims, the last
    transformed axis ``last_dim_size`` long, or ``2 * (m - 1)`` for ``x``'s extent ``m`` there
    when ``last_dim_size`` is 0 (``m`` must then be at least 2)."""
    normalized = check_fft_axes(len(x.dims), axes, normalization)
    _check_dtype(x, _REAL_OF, "complex")
    if last_dim_size < 0:
        raise InvalidArgumentError(
            f"argument 'last_dim_size' must be positive, or 0 for 2 * (m - 1), got {last_dim_size}"
        )
    dims = list(x.dims)
    last = normalized[-1]
    if last_dim_size > 0:
        dims[last] = last_dim_size
    elif is_known(dims[last]):
        if dims[last] < 2:
            raise InvalidArgumentError(
                f"argument 'x' must have at least 2 elements along axis {last} when "
                f"'last_dim_size' is 0 (the output has 2 * (m - 1)), got {dims[last]}"
            )
        dims[last] = 2 * (dims[last] - 1)
    out.set_dims(tuple(dims))
    out.set_dtype(_REAL_OF[x.dtype])
    out.set_layout(x.layout)


def fftc2_r_grad_infer_meta(
    out_grad: MetaTensor,
    axes: tuple[int, ...],
    normalization: str,
    forward: bool,
    last_dim_size: int,
    x_grad: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's FFTC2RGradInferMeta: ``x_grad`` is the complex dtype of ``out_grad``'s, with its
    dims, the last transformed axis cut to ``n // 2 + 1``."""
    normalized = check_fft_axes(len(out_grad.dims), axes, normalization)
    _check_dtype(out_grad, _COMPLEX_OF, "float32 or float64")
    dims = list(out_grad.dims)
    last = normalized[-1]
    if is_known(dims[last]):
        dims[last] = dims[last] // 2 + 1
    x_grad.set_dims(tuple(dims))
    x_grad.set_dtype(_COMPLEX_OF[out_grad.dtype])
    x_grad.set_layout(out_grad.layout)


def _check_signal_axis(axis: int, hop_length: int) -> None:
    if axis not in (0, -1):
        raise InvalidArgumentError(f"argument 'axis' must be 0 or -1, got {axis}")
    if hop_length <= 0:
        raise InvalidArgumentError(f"argument 'hop_length' must be positive, got {hop_length}")


def frame_infer_meta(
    x: MetaTensor,
    frame_length: int,
    hop_length: int,
    axis: int,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's FrameInferMeta: for ``axis`` -1, ``(..., frame_length, n_frames)``; for 0,
    ``(n_frames, frame_length, ...)``; ``n_frames = 1 + (seq_length - frame_length) //
    hop_length``, ``frame_length`` in [1, seq_length]."""
    dims = tuple(x.dims)
    if not dims:
        raise InvalidArgumentError("argument 'x' must have at least 1 dimension, got a 0-D tensor")
    _check_signal_axis(axis, hop_length)
    if frame_length <= 0:
        raise InvalidArgumentError(f"argument 'frame_length' must be positive, got {frame_length}")
    seq_length = dims[0] if axis == 0 else dims[-1]
    if is_known(seq_length) and frame_length > seq_length:
        raise InvalidArgumentError(
            f"argument 'frame_length' must be at most the sequence length {seq_length}, got "
            f"{frame_length}"
        )
    n_frames = 1 + (seq_length - frame_length) // hop_length if is_known(seq_length) else -1
    if axis == 0:
        out.set_dims((n_frames, frame_length) + dims[1:])
    else:
        out.set_dims(dims[:-1] + (frame_length, n_frames))
    out.set_dtype(x.dtype)
    out.set_layout(x.layout)


def overlap_add_infer_meta(
    x: MetaTensor, hop_length: int, axis: int, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """PHI's OverlapAddInferMeta: frames ``(..., frame_length, n_frames)`` (``axis`` -1) or
    ``(n_frames, frame_length, ...)`` (0) give a signal of ``(n_frames - 1) * hop_length +
    frame_length`` samples; ``hop_length`` in [1, frame_length]."""
    dims = tuple(x.dims)
    if len(dims) < 2:
        raise InvalidArgumentError(
            f"argument 'x' must have at least 2 dimensions, got rank {len(dims)}"
        )
    _check_signal_axis(axis, hop_length)
    n_frames, frame_length = (dims[0], dims[1]) if axis == 0 else (dims[-1], dims[-2])
    if is_known(frame_length) and hop_length > frame_length:
        raise InvalidArgumentError(
            f"argument 'hop_length' must be at most the frame length {frame_length}, got "
            f"{hop_length}"
        )
    known = is_known(n_frames) and is_known(frame_length)
    seq_length = (n_frames - 1) * hop_length + frame_length if known else -1
    if axis == 0:
        out.set_dims((seq_length,) + dims[2:])
    else:
        out.set_dims(dims[:-2] + (seq_length,))
    out.set_dtype(x.dtype)
    out.set_layout(x.layout)


def overlap_add_grad_infer_meta(
    x: MetaTensor,
    out_grad: MetaTensor,
    hop_length: int,
    axis: int,
    x_grad: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's OverlapAddGradInferMeta: ``x_grad`` has ``x``'s meta."""
    x_grad.share_meta(x)


def stft_infer_meta(
    x: MetaTensor,
    window: MetaTensor,
    n_fft: int,
    hop_length: int,
    normalized: bool,
    onesided: bool,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's StftInferMeta: ``x`` ``[rows, length]`` and a ``window`` of ``n_fft`` give ``[rows,
    n_fft // 2 + 1 (onesided) or n_fft, 1 + (length - n_fft) // hop_length]``, complex."""
    dims = tuple(x.dims)
    if len(dims) != 2:
        raise InvalidArgumentError(
            f"argument 'x' must be 2-D [rows, length], got dims {list(dims)}"
        )
    _check_dtype(x, _COMPLEX_OF, "float32 or float64")
    if len(window.dims) != 1 or (is_known(window.dims[0]) and window.dims[0] != n_fft):
        raise InvalidArgumentError(
            f"argument 'window' must be 1-D with n_fft ({n_fft}) values, got dims "
            f"{list(window.dims)}"
        )
    if window.dtype != x.dtype:
        raise InvalidArgumentError(
            f"argument 'window' must have x's dtype {x.dtype.name.lower()}, got "
            f"{window.dtype.name.lower()}"
        )
    if hop_length <= 0:
        raise InvalidArgumentError(f"argument 'hop_length' must be positive, got {hop_length}")
    length = dims[1]
    if n_fft <= 0 or (is_known(length) and n_fft > length):
        raise InvalidArgumentError(
            f"argument 'n_fft' must be in [1, the signals' length {length}], got {n_fft}"
        )
    n_frames = 1 + (length - n_fft) // hop_length if is_known(length) else -1
    out.set_dims((dims[0], n_fft // 2 + 1 if onesided else n_fft, n_frames))
    out.set_dtype(_COMPLEX_OF[x.dtype])
    out.set_layout(x.layout)


def max_out_infer_meta(
    x: MetaTensor, groups: int, axis: int, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """PHI's MaxOutInferMeta: a 4-D ``x`` with its channels along ``axis`` (1, -1 or 3) gives
    the channel count divided by ``groups``, which must divide it."""
    dims = tuple(x.dims)
    if len(dims) != 4:
        raise InvalidArgumentError(f"argument 'x' must be 4-D, got dims {list(dims)}")
    if axis not in (1, -1, 3):
        raise InvalidArgumentError(f"argument 'axis' must be 1, -1 or 3, got {axis}")
    if groups <= 0:
        raise InvalidArgumentError(f"argument 'groups' must be positive, got {groups}")
    channel = axis % 4
    channels = dims[channel]
    if is_known(channels) and channels % groups != 0:
        raise InvalidArgumentError(
            f"argument 'groups' ({groups}) must divide the {channels} channels of x along axis "
            f"{axis}"
        )
    out_dims = list(dims)
    out_dims[channel] = channels // groups if is_known(channels) else -1
    out.set_dims(tuple(out_dims))
    out.set_dtype(x.dtype)
    out.set_layout(x.layout)


def logspace_infer_meta(
    start: MetaTensor,
    stop: MetaTensor,
    num: MetaTensor,
    base: MetaTensor,
    dtype: DataType,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's LogspaceInferMeta: start, stop, num and base hold one value each; ``out`` is 1-D
    of ``dtype``, its length (num's value) unknown until the kernel runs."""
    for name, value in (("start", start), ("stop", stop), ("num", num), ("base", base)):
        if all(is_known(extent) for extent in value.dims) and value.numel() != 1:
            raise InvalidArgumentError(
                f"argument '{name}' must hold exactly one value, got dims {list(value.dims)}"
            )
    if num.dtype not in (DataType.INT32, DataType.INT64):
        raise InvalidArgumentError(
            f"argument 'num' must be int32 or int64, got {num.dtype.name.lower()}"
        )
    out.set_dims((-1,))
    out.set_dtype(dtype)
