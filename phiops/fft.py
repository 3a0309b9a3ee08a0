"""``phiops.fft`` (``paddle.fft``): discrete Fourier transforms, with PaddlePaddle 3.3.1's
signatures, argument checks and results (its ``python/paddle/fft.py``, dynamic-mode branch).

Every transform is one of three ops (ops/api.yaml, kernels in
runtime/kernels/impl/fftspecial_kernel.py): ``fft_c2c`` (complex to complex), ``fft_r2c`` (real
to complex, the last axis one-sided or not) and ``fft_c2r`` (a one-sided spectrum to real),
after the input is cut or zero-padded to the lengths asked for (``n``, ``s``). Integer inputs
are transformed as float32 (complex64), real inputs of ``fft``/``ifft``/``fftn``/... with the
real-to-complex op. ``norm`` is "backward" (no scaling forward, 1/n inverse), "ortho"
(1/sqrt(n) both ways) or "forward" (1/n forward, none inverse); anything else is a
ValueError, as in PaddlePaddle.

``fftfreq``/``rfftfreq`` give the sample frequencies and ``fftshift``/``ifftshift`` move the
zero frequency to the middle and back. The functions take PaddlePaddle's keyword aliases
(``input`` for ``x``, ``dim`` for ``axis``/``axes``) and its ``out=``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

import phiops as _phiops
from phiops.generated import api as _C_ops
from phiops.generated.python_api import keyword_aliases, write_out
from phiops.runtime.common import DataType
from phiops.runtime.common.default_dtype import default_data_type
from phiops.runtime.dispatch.attributes import to_dtype
from phiops.runtime.eager.tensor import Tensor, to_tensor
from phiops.runtime.errors import UnimplementedError

__all__ = [
    "fft",
    "ifft",
    "rfft",
    "irfft",
    "hfft",
    "ihfft",
    "fft2",
    "ifft2",
    "rfft2",
    "irfft2",
    "hfft2",
    "ihfft2",
    "fftn",
    "ifftn",
    "rfftn",
    "irfftn",
    "hfftn",
    "ihfftn",
    "fftfreq",
    "rfftfreq",
    "fftshift",
    "ifftshift",
]

_AXIS_ALIASES = {"x": ("input",), "axis": ("dim",)}
_AXES_ALIASES = {"x": ("input",), "axes": ("dim",)}

_COMPLEX_OF = {DataType.FLOAT32: DataType.COMPLEX64, DataType.FLOAT64: DataType.COMPLEX128}


# -- PaddlePaddle's checks (python/paddle/fft.py) ------------------------------------------------


def _check_normalization(norm: Any) -> None:
    if norm not in ("forward", "backward", "ortho"):
        raise ValueError(f"Unexpected norm: {norm}. Norm should be forward, backward or ortho")


def _check_fft_n(n: Any) -> None:
    if not isinstance(n, int) or isinstance(n, bool):
        raise ValueError(f"Invalid FFT argument n({n}), it should be an integer.")
    if n <= 0:
        raise ValueError(f"Invalid FFT argument n({n}), it should be positive.")


def _check_fft_shape(x: Tensor, s: Any) -> None:
    if not isinstance(s, Sequence):
        raise ValueError(f"Invalid FFT argument s({s}), it should be a sequence of integers.")
    if len(s) > x.ndim:
        raise ValueError(
            "Length of FFT argument s should not be larger than the rank of input. "
            f"Received s: {s}, rank of x: {x.ndim}"
        )
    for size in s:
        if not isinstance(size, int) or isinstance(size, bool) or size <= 0:
            raise ValueError(f"FFT sizes {s} contains invalid value ({size})")


def _check_fft_axis(x: Tensor, axis: Any) -> None:
    ndim = x.ndim
    if not isinstance(axis, int) or isinstance(axis, bool):
        raise ValueError(f"Invalid FFT axis ({axis}), it should be an integer.")
    if axis < -ndim or axis >= ndim:
        raise ValueError(f"Invalid FFT axis ({axis}), it should be in range [-{ndim}, {ndim})")


def _check_fft_axes(x: Tensor, axes: Any) -> None:
    ndim = x.ndim
    if not isinstance(axes, Sequence):
        raise ValueError(f"Invalid FFT axes ({axes}), it should be a sequence of integers.")
    if len(axes) > ndim:
        raise ValueError(
            "Length of fft axes should not be larger than the rank of input. "
            f"Received, len of axes: {len(axes)}, rank of x: {ndim}"
        )
    for axis in axes:
        if not isinstance(axis, int) or axis < -ndim or axis >= ndim:
            raise ValueError(
                f"FFT axes {axes} contains invalid value ({axis}), it should be in range "
                f"[-{ndim}, {ndim})"
            )


def _check_at_least_ndim(x: Tensor, rank: int) -> None:
    if x.ndim < rank:
        raise ValueError(f"The rank of the input ({x.ndim}) should >= {rank}")


def _check_two(s: Any, axes: Any) -> None:
    if s is not None and (not isinstance(s, Sequence) or len(s) != 2):
        raise ValueError(f"Invalid FFT argument s ({s}), it should be a sequence of 2 integers.")
    if axes is not None and (not isinstance(axes, Sequence) or len(axes) != 2):
        raise ValueError(
            f"Invalid FFT argument axes ({axes}), it should be a sequence of 2 integers."
        )


def _check_tensor(function: str, x: Any) -> None:
    if not isinstance(x, Tensor):
        raise TypeError(f"paddle.fft.{function}: 'x' must be a Tensor, not {type(x).__name__}")


# -- input preparation ---------------------------------------------------------------------------


def _as_complex(x: Tensor) -> Tensor:
    """Integers become the default dtype's complex dtype (complex64 for float32), floats their
    complex dtype, complex inputs stay."""
    if x.dtype.is_complex:
        return x
    if x.dtype.is_floating_point and x.dtype in _COMPLEX_OF:
        return _C_ops.cast(x, _COMPLEX_OF[x.dtype])
    if x.dtype.is_floating_point:  # float16/bfloat16: PaddlePaddle has no complex32 either
        return _C_ops.cast(_C_ops.cast(x, DataType.FLOAT32), DataType.COMPLEX64)
    return _C_ops.cast(x, default_data_type().to_complex)


def _as_real(x: Tensor) -> Tensor:
    """Integers (and bool) become the default dtype (float32 unless set); floats and complex
    numbers stay (the op rejects complex ones)."""
    if x.dtype.is_complex or x.dtype.is_floating_point:
        return x
    return _C_ops.cast(x, default_data_type())


def _resize(x: Tensor, s: Sequence[int], axes: Sequence[int]) -> Tensor:
    """``x`` cut or zero-padded at the end of each of ``axes`` to the lengths ``s``."""
    if len(s) != len(axes):
        raise ValueError("length of `s` should equals length of `axes`.")
    shape = x.shape
    to_slice = [(axis, size) for axis, size in zip(axes, s) if shape[axis] > size]
    to_pad = [(axis, size - shape[axis]) for axis, size in zip(axes, s) if shape[axis] < size]
    if to_slice:
        x = _C_ops.slice(
            x,
            [axis for axis, _ in to_slice],
            [0] * len(to_slice),
            [size for _, size in to_slice],
            [1] * len(to_slice),
            [],
        )
    if to_pad:
        paddings = [0] * (2 * x.ndim)
        for axis, extra in to_pad:
            paddings[2 * axis + 1] = extra
        x = _C_ops.pad(x, paddings, 0.0)
    return x


def _normalize_axes(x: Tensor, axes: Sequence[int]) -> list[int]:
    return [axis if axis >= 0 else axis + x.ndim for axis in axes]


def _one_axis(x: Tensor, n: Any, axis: Any, norm: Any, half: bool) -> tuple[Tensor, list[int]]:
    _check_normalization(norm)
    axis = -1 if axis is None else axis
    _check_fft_axis(x, axis)
    axes = _normalize_axes(x, [axis])
    if n is not None:
        _check_fft_n(n)
        x = _resize(x, [n // 2 + 1 if half else n], axes)
    return x, axes


def _many_axes(
    x: Tensor, s: Any, axes: Any, norm: Any, *, sort_all: bool, half: bool
) -> tuple[Tensor, list[int] | None, list[int]]:
    """PaddlePaddle's fftn_c2c / fftn_r2c / fftn_c2r preparation: the axes (all, or the last
    len(s)), sorted (all of them for c2c, all but the last otherwise), ``s`` reordered with
    them, ``x`` resized; returns x, s and the axes."""
    _check_normalization(norm)
    if s is not None:
        _check_fft_shape(x, s)
    rank = x.ndim
    if axes is None:
        axes = list(range(rank)) if s is None else list(range(rank - len(s), rank))
    else:
        _check_fft_axes(x, axes)
        axes = _normalize_axes(x, axes)
        order = np.argsort(axes if sort_all else axes[:-1], kind="stable").tolist()
        tail = [] if sort_all else [axes[-1]]
        axes = [axes[i] for i in order] + tail
        if s is not None:
            if len(s) != len(axes):
                raise ValueError(
                    f"Length of s ({len(s)}) and length of axes ({len(axes)}) does not match."
                )
            s = [s[i] for i in order] + ([] if sort_all else [s[-1]])
    if s is not None:
        sizes = list(s)
        if half:
            sizes[-1] = sizes[-1] // 2 + 1
        x = _resize(x, sizes, axes)
    return x, (None if s is None else list(s)), axes


def _c2c(function: str, x: Tensor, n, axis, norm, forward: bool, out) -> Tensor:  # noqa: ANN001
    x, axes = _one_axis(_as_complex(x), n, axis, norm, half=False)
    return write_out(f"fft.{function}", out, _C_ops.fft_c2c(x, axes, norm, forward))


def _r2c(
    function: str, x: Tensor, n, axis, norm, forward: bool, onesided: bool, out
) -> Tensor:  # noqa: ANN001
    x, axes = _one_axis(_as_real(x), n, axis, norm, half=False)
    return write_out(f"fft.{function}", out, _C_ops.fft_r2c(x, axes, norm, forward, onesided))


def _c2r(function: str, x: Tensor, n, axis, norm, forward: bool, out) -> Tensor:  # noqa: ANN001
    x, axes = _one_axis(_as_complex(x), n, axis, norm, half=True)
    result = _C_ops.fft_c2r(x, axes, norm, forward, 0 if n is None else n)
    return write_out(f"fft.{function}", out, result)


def _c2c_n(function: str, x: Tensor, s, axes, norm, forward: bool, out) -> Tensor:  # noqa: ANN001
    x, _, axes = _many_axes(_as_complex(x), s, axes, norm, sort_all=True, half=False)
    return write_out(f"fft.{function}", out, _C_ops.fft_c2c(x, axes, norm, forward))


def _r2c_n(
    function: str, x: Tensor, s, axes, norm, forward: bool, onesided: bool, out
) -> Tensor:  # noqa: ANN001
    x, _, axes = _many_axes(_as_real(x), s, axes, norm, sort_all=False, half=False)
    return write_out(f"fft.{function}", out, _C_ops.fft_r2c(x, axes, norm, forward, onesided))


def _c2r_n(function: str, x: Tensor, s, axes, norm, forward: bool, out) -> Tensor:  # noqa: ANN001
    x, s, axes = _many_axes(_as_complex(x), s, axes, norm, sort_all=False, half=True)
    result = _C_ops.fft_c2r(x, axes, norm, forward, 0 if s is None else s[-1])
    return write_out(f"fft.{function}", out, result)


# -- one axis ------------------------------------------------------------------------------------


@keyword_aliases(_AXIS_ALIASES)
def fft(
    x: Tensor,
    n: int | None = None,
    axis: int = -1,
    norm: str = "backward",
    name: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """The 1-D discrete Fourier transform of ``x`` along ``axis``, ``x`` cut or zero-padded to
    ``n`` points first; a complex tensor (real inputs through the real-to-complex op)."""
    _check_tensor("fft", x)
    if x.dtype.is_complex:
        return _c2c("fft", x, n, axis, norm, True, out)
    return _r2c("fft", x, n, axis, norm, True, False, out)


@keyword_aliases(_AXIS_ALIASES)
def ifft(
    x: Tensor,
    n: int | None = None,
    axis: int = -1,
    norm: str = "backward",
    name: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """The 1-D inverse discrete Fourier transform of ``x`` along ``axis`` (``n`` as ``fft``)."""
    _check_tensor("ifft", x)
    if x.dtype.is_complex:
        return _c2c("ifft", x, n, axis, norm, False, out)
    return _r2c("ifft", x, n, axis, norm, False, False, out)


@keyword_aliases(_AXIS_ALIASES)
def rfft(
    x: Tensor,
    n: int | None = None,
    axis: int = -1,
    norm: str = "backward",
    name: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """The 1-D discrete Fourier transform of real ``x`` along ``axis``: the ``n // 2 + 1``
    non-negative frequency terms."""
    _check_tensor("rfft", x)
    return _r2c("rfft", x, n, axis, norm, True, True, out)


@keyword_aliases(_AXIS_ALIASES)
def irfft(
    x: Tensor,
    n: int | None = None,
    axis: int = -1,
    norm: str = "backward",
    name: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """The inverse of ``rfft``: a real signal of ``n`` points (``2 * (m - 1)`` when ``n`` is
    None) from its one-sided spectrum ``x``."""
    _check_tensor("irfft", x)
    return _c2r("irfft", x, n, axis, norm, False, out)


@keyword_aliases(_AXIS_ALIASES)
def hfft(
    x: Tensor,
    n: int | None = None,
    axis: int = -1,
    norm: str = "backward",
    name: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """The discrete Fourier transform of a Hermitian-symmetric signal given by its first half
    ``x``: a real tensor of ``n`` points (``2 * (m - 1)`` when ``n`` is None)."""
    _check_tensor("hfft", x)
    return _c2r("hfft", x, n, axis, norm, True, out)


@keyword_aliases(_AXIS_ALIASES)
def ihfft(
    x: Tensor,
    n: int | None = None,
    axis: int = -1,
    norm: str = "backward",
    name: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """The inverse of ``hfft``: the ``n // 2 + 1`` non-negative frequency terms of the inverse
    transform of real ``x``."""
    _check_tensor("ihfft", x)
    return _r2c("ihfft", x, n, axis, norm, False, True, out)


# -- n axes --------------------------------------------------------------------------------------


@keyword_aliases(_AXES_ALIASES)
def fftn(
    x: Tensor,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: str = "backward",
    name: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """The N-D discrete Fourier transform over ``axes`` (all, or the last ``len(s)``), ``x``
    cut or zero-padded to ``s`` first."""
    _check_tensor("fftn", x)
    if x.dtype.is_complex:
        return _c2c_n("fftn", x, s, axes, norm, True, out)
    return _r2c_n("fftn", x, s, axes, norm, True, False, out)


@keyword_aliases(_AXES_ALIASES)
def ifftn(
    x: Tensor,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: str = "backward",
    name: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """The N-D inverse discrete Fourier transform (``s`` and ``axes`` as ``fftn``)."""
    _check_tensor("ifftn", x)
    if x.dtype.is_complex:
        return _c2c_n("ifftn", x, s, axes, norm, False, out)
    return _r2c_n("ifftn", x, s, axes, norm, False, False, out)


@keyword_aliases(_AXES_ALIASES)
def rfftn(
    x: Tensor,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: str = "backward",
    name: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """The N-D discrete Fourier transform of real ``x``, the last axis one-sided."""
    _check_tensor("rfftn", x)
    return _r2c_n("rfftn", x, s, axes, norm, True, True, out)


@keyword_aliases(_AXES_ALIASES)
def irfftn(
    x: Tensor,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: str = "backward",
    name: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """The inverse of ``rfftn``: a real tensor, ``s[-1]`` (or ``2 * (m - 1)``) long on the last
    axis."""
    _check_tensor("irfftn", x)
    return _c2r_n("irfftn", x, s, axes, norm, False, out)


@keyword_aliases(_AXES_ALIASES)
def hfftn(
    x: Tensor,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: str = "backward",
    name: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """The N-D discrete Fourier transform of a Hermitian-symmetric signal given by its
    one-sided half ``x``: a real tensor."""
    _check_tensor("hfftn", x)
    return _c2r_n("hfftn", x, s, axes, norm, True, out)


@keyword_aliases(_AXES_ALIASES)
def ihfftn(
    x: Tensor,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: str = "backward",
    name: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """The inverse of ``hfftn``: the N-D inverse transform of real ``x``, the last axis
    one-sided."""
    _check_tensor("ihfftn", x)
    return _r2c_n("ihfftn", x, s, axes, norm, False, True, out)


# -- two axes ------------------------------------------------------------------------------------


def _two(function: str, x: Tensor, s: Any, axes: Any) -> None:
    _check_tensor(function, x)
    _check_at_least_ndim(x, 2)
    _check_two(s, axes)


@keyword_aliases(_AXES_ALIASES)
def fft2(
    x: Tensor,
    s: Sequence[int] | None = None,
    axes: Sequence[int] = (-2, -1),
    norm: str = "backward",
    name: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """``fftn`` over two axes (the last two by default); ``x`` must be at least 2-D."""
    _two("fft2", x, s, axes)
    return fftn(x, s, axes, norm, name, out=out)


@keyword_aliases(_AXES_ALIASES)
def ifft2(
    x: Tensor,
    s: Sequence[int] | None = None,
    axes: Sequence[int] = (-2, -1),
    norm: str = "backward",
    name: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """``ifftn`` over two axes (the last two by default); ``x`` must be at least 2-D."""
    _two("ifft2", x, s, axes)
    return ifftn(x, s, axes, norm, name, out=out)


@keyword_aliases(_AXES_ALIASES)
def rfft2(
    x: Tensor,
    s: Sequence[int] | None = None,
    axes: Sequence[int] = (-2, -1),
    norm: str = "backward",
    name: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """``rfftn`` over two axes (the last two by default); ``x`` must be at least 2-D."""
    _two("rfft2", x, s, axes)
    return rfftn(x, s, axes, norm, name, out=out)


@keyword_aliases(_AXES_ALIASES)
def irfft2(
    x: Tensor,
    s: Sequence[int] | None = None,
    axes: Sequence[int] = (-2, -1),
    norm: str = "backward",
    name: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """``irfftn`` over two axes (the last two by default); ``x`` must be at least 2-D."""
    _two("irfft2", x, s, axes)
    return irfftn(x, s, axes, norm, name, out=out)


@keyword_aliases(_AXES_ALIASES)
def hfft2(
    x: Tensor,
    s: Sequence[int] | None = None,
    axes: Sequence[int] = (-2, -1),
    norm: str = "backward",
    name: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """``hfftn`` over two axes (the last two by default); ``x`` must be at least 2-D."""
    _two("hfft2", x, s, axes)
    return hfftn(x, s, axes, norm, name, out=out)


@keyword_aliases(_AXES_ALIASES)
def ihfft2(
    x: Tensor,
    s: Sequence[int] | None = None,
    axes: Sequence[int] = (-2, -1),
    norm: str = "backward",
    name: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """``ihfftn`` over two axes (the last two by default); ``x`` must be at least 2-D."""
    _two("ihfft2", x, s, axes)
    return ihfftn(x, s, axes, norm, name, out=out)


# -- frequencies and shifts ----------------------------------------------------------------------


def _frequencies(
    function: str,
    values: np.ndarray,
    dtype: DataType,
    out: Tensor | None,
    device: Any,
    requires_grad: bool,
) -> Tensor:
    if device is not None:
        raise UnimplementedError(
            f"paddle.fft.{function}: 'device' is not supported by phiops; the tensor is made "
            "on the current device (phiops.set_device)"
        )
    result = to_tensor(values.astype(dtype.numpy_dtype), stop_gradient=not requires_grad)
    return write_out(f"fft.{function}", out, result)


def fftfreq(
    n: int,
    d: float = 1.0,
    dtype: Any = None,
    name: str | None = None,
    *,
    out: Tensor | None = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    """The sample frequencies of an ``n``-point transform with sample spacing ``d``:
    ``[0, 1, ..., (n - 1) // 2, -(n // 2), ..., -1] / (d * n)``, of ``dtype`` (float32 by
    default)."""
    if d * n == 0:
        raise ValueError("d or n should not be 0.")
    dtype_ = default_data_type() if dtype is None else to_dtype(dtype, "fft.fftfreq", "dtype")
    indices = np.roll(np.arange(-(n // 2), (n + 1) // 2), -(n // 2)).astype(dtype_.numpy_dtype)
    values = indices * dtype_.numpy_dtype.type(1.0 / (n * d))
    return _frequencies("fftfreq", values, dtype_, out, device, requires_grad)


def rfftfreq(
    n: int,
    d: float = 1.0,
    dtype: Any = None,
    name: str | None = None,
    *,
    out: Tensor | None = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    """The non-negative sample frequencies of an ``n``-point real transform with sample
    spacing ``d``: ``[0, 1, ..., n // 2] / (d * n)``, of ``dtype`` (float32 by default)."""
    if d * n == 0:
        raise ValueError("d or n should not be 0.")
    dtype_ = default_data_type() if dtype is None else to_dtype(dtype, "fft.rfftfreq", "dtype")
    indices = np.arange(0, 1 + n // 2).astype(dtype_.numpy_dtype)
    values = indices * dtype_.numpy_dtype.type(1.0 / (n * d))
    return _frequencies("rfftfreq", values, dtype_, out, device, requires_grad)


def _shift(function: str, x: Tensor, axes: Any, inverse: bool) -> Tensor:
    _check_tensor(function, x)
    shape = x.shape
    if axes is None:
        axes = list(range(x.ndim))
    elif isinstance(axes, int):
        axes = [axes]
    else:
        axes = list(axes)
    shifts = [(shape[axis] + inverse) // 2 for axis in axes]
    return _C_ops.roll(x, shifts, axes)


@keyword_aliases(_AXES_ALIASES)
def fftshift(x: Tensor, axes: Sequence[int] | int | None = None, name: str | None = None) -> Tensor:
    """``x`` rolled by half its extent along ``axes`` (every axis by default), moving the zero
    frequency of a spectrum to the middle."""
    return _shift("fftshift", x, axes, inverse=False)


@keyword_aliases(_AXES_ALIASES)
def ifftshift(
    x: Tensor, axes: Sequence[int] | int | None = None, name: str | None = None
) -> Tensor:
    """The inverse of ``fftshift``: ``x`` rolled back by ``(n + 1) // 2`` along ``axes``."""
    return _shift("ifftshift", x, axes, inverse=True)


_phiops._load_api()  # the ops and paddle's Tensor methods, as `import phiops` gives them
