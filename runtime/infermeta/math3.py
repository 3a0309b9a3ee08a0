"""InferMeta functions of the math3 ops (atan2, lerp, ...) that no shared function fits."""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta.binary import broadcast_dims
from phiops.runtime.infermeta.dims import dims_match, is_known
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor

__all__ = [
    "atan2_infer_meta",
    "lerp_infer_meta",
    "real_and_imag_grad_infer_meta",
    "complex_infer_meta",
    "complex_grad_infer_meta",
    "as_complex_infer_meta",
    "as_real_infer_meta",
]

_RUNTIME = MetaConfig()


def atan2_infer_meta(
    x: MetaTensor, y: MetaTensor, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """PHI's Atan2InferMeta: ``out`` has ``x``'s dims; float64 when either input is int32 or
    int64, else ``x``'s dtype. The op does not broadcast (paddle.atan2 broadcasts before
    calling it): PHI checks only the ranks and the first extents and then reads ``y`` by
    ``x``'s flat index, so here ``y`` must have ``x``'s dims."""
    if len(x.dims) != len(y.dims):
        raise InvalidArgumentError(
            f"argument 'y' must have the rank of argument 'x' ({len(x.dims)}), got rank "
            f"{len(y.dims)} (dims {list(y.dims)}); broadcast them first (paddle.atan2 does)"
        )
    if not dims_match(tuple(x.dims), tuple(y.dims), config):
        raise InvalidArgumentError(
            f"argument 'y' must have the dims of argument 'x' ({list(x.dims)}), got "
            f"{list(y.dims)}; broadcast them first (paddle.atan2 does)"
        )
    out.share_meta(x)
    if {x.dtype, y.dtype} & {DataType.INT32, DataType.INT64}:
        out.set_dtype(DataType.FLOAT64)


def lerp_infer_meta(
    x: MetaTensor, y: MetaTensor, weight: MetaTensor, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """PHI's LerpInferMeta: ``out`` has the broadcast of ``x``, ``y`` and ``weight``'s dims and
    ``x``'s dtype."""
    dims = broadcast_dims(tuple(x.dims), tuple(y.dims), "x", "y")
    dims = broadcast_dims(dims, tuple(weight.dims), "x and y (broadcast)", "weight")
    out.set_dims(dims)
    out.set_dtype(x.dtype)
    out.set_layout(x.layout)


_COMPLEX_OF = {DataType.FLOAT32: DataType.COMPLEX64, DataType.FLOAT64: DataType.COMPLEX128}
_REAL_OF = {complex_: real for real, complex_ in _COMPLEX_OF.items()}


def _complex_of(dtype: DataType, name: str) -> DataType:
    if dtype.is_complex:
        return dtype
    if dtype not in _COMPLEX_OF:
        raise InvalidArgumentError(
            f"argument '{name}' must be float32 or float64 (or complex), got {dtype.name.lower()}"
        )
    return _COMPLEX_OF[dtype]


def real_and_imag_grad_infer_meta(
    out_grad: MetaTensor, x_grad: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """PHI's RealAndImagGradInferMeta: ``x_grad`` has ``out_grad``'s dims and the complex dtype
    of its real dtype (complex64 for float32, complex128 for float64)."""
    x_grad.set_dims(out_grad.dims)
    x_grad.set_dtype(_complex_of(out_grad.dtype, "out_grad"))
    x_grad.set_layout(out_grad.layout)


def complex_infer_meta(
    real: MetaTensor, imag: MetaTensor, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """PHI's ComplexInferMeta: ``out`` has the broadcast of ``real`` and ``imag``'s dims and the
    complex dtype of ``real``'s (complex64 for float32, complex128 for float64)."""
    out.set_dims(broadcast_dims(tuple(real.dims), tuple(imag.dims), "real", "imag"))
    out.set_dtype(_complex_of(real.dtype, "real"))
    out.set_layout(real.layout)


def complex_grad_infer_meta(
    real: MetaTensor,
    imag: MetaTensor,
    out_grad: MetaTensor,
    real_grad: MetaTensor,
    imag_grad: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """PHI's ComplexGradInferMeta: ``real_grad`` like ``real``, ``imag_grad`` like ``imag``."""
    if real_grad is not None:
        real_grad.share_meta(real)
    if imag_grad is not None:
        imag_grad.share_meta(imag)


def as_complex_infer_meta(x: MetaTensor, out: MetaTensor, config: MetaConfig = _RUNTIME) -> None:
    """PHI's AsComplexInferMeta: ``x``'s last axis, of size 2, becomes the complex dtype of
    ``x``'s (complex64 for float32, complex128 for float64)."""
    dims = tuple(x.dims)
    if not dims:
        raise InvalidArgumentError("argument 'x' must have at least 1 dimension, got a 0-D tensor")
    if is_known(dims[-1]) and dims[-1] != 2:
        raise InvalidArgumentError(
            f"argument 'x' must have a last dimension of size 2, got dims {list(dims)}"
        )
    out.set_dims(dims[:-1])
    out.set_dtype(_complex_of(x.dtype, "x"))
    out.set_layout(x.layout)


def as_real_infer_meta(x: MetaTensor, out: MetaTensor, config: MetaConfig = _RUNTIME) -> None:
    """PHI's AsRealInferMeta: ``x``'s dims with a last axis of size 2 appended, of the real dtype
    of ``x``'s complex one."""
    if x.dtype not in _REAL_OF:
        raise InvalidArgumentError(
            f"argument 'x' must be complex64 or complex128, got {x.dtype.name.lower()}"
        )
    out.set_dims(tuple(x.dims) + (2,))
    out.set_dtype(_REAL_OF[x.dtype])
    out.set_layout(x.layout)
