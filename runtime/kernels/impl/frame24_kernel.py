"""Kernels of the frame24 framework ops (issue 24): empty, empty_like, depend, share_data,
memcpy_d2h, memcpy_h2d, npu_identity and read_file (trans_layout runs the transpose kernel; its
grad is in frame24_grad_kernel.py).

Semantics are PaddlePaddle 3.3.1's CPU kernels':

- ``empty``/``empty_like`` allocate without initialising (the values are whatever the memory
  held), as PHI's EmptyKernel does.
- ``depend``, ``share_data`` and ``npu_identity`` return ``x`` itself: PHI shares x's
  allocation (``ShareDataWith``), so writes through the result are seen in ``x``. ``depend``'s
  ``dep`` only orders a program; PaddlePaddle's eager call refuses an output that is not ``x``
  ("Input(X) and Output(Out) variable should be the same"), phiops returns ``x``.
- ``memcpy_d2h`` copies ``x`` to the host (dst_place_type 0); 1, CUDA pinned memory, needs a GPU
  build (3.3.1's CPU build fails reading an uninitialised tensor there); anything else is an
  InvalidArgumentError, as PHI's. ``memcpy_h2d`` copies ``x`` onto the kernel's place for a
  dst_place_type in [0, 3] or 6, those 3.3.1 accepts (on CPU: a copy on the CPU); another is an
  OutOfRangeError, as 3.3.1's.
- ``read_file`` reads a regular file's bytes.
"""

from __future__ import annotations

import os
import stat

import numpy as np

from phiops.runtime.backends import to_numpy
from phiops.runtime.common import Backend, DataType
from phiops.runtime.errors import (
    InvalidArgumentError,
    NotFoundError,
    OutOfRangeError,
    UnimplementedError,
)
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import ALL_TYPES, register_kernel

D = DataType
# PaddlePaddle 3.3.1's CPU registrations (float8 aside, which phiops has not).
EMPTY_DTYPES = ALL_TYPES
MEMCPY_DTYPES = ALL_TYPES
DEPEND_DTYPES = (D.FLOAT32, D.FLOAT64, D.INT32, D.INT64, D.COMPLEX64, D.COMPLEX128)
SHARE_DATA_DTYPES = (D.BOOL, D.UINT8, D.INT8, D.INT32, D.INT64, D.FLOAT16, D.FLOAT32, D.FLOAT64)
NPU_IDENTITY_DTYPES = (D.BOOL, D.UINT8, D.INT8, D.INT16, D.INT32, D.INT64) + (
    D.FLOAT16,
    D.FLOAT32,
    D.FLOAT64,
)
FILE_DTYPES = (D.UINT8,)


def _shape_only(kernel: Kernel) -> None:
    # x only lends its shape: any backend, any dtype, no transform.
    kernel.input_at(0).set_backend(Backend.ALL_BACKEND).set_dtype(DataType.ALL_DTYPE)


@register_kernel("empty", dtypes=EMPTY_DTYPES)
def empty_kernel(ctx: KernelContext, shape: tuple[int, ...], dtype: DataType) -> Array:
    return ctx.xp.empty(shape, dtype=dtype.numpy_dtype)


@register_kernel("empty_like", dtypes=EMPTY_DTYPES, configure=_shape_only)
def empty_like_kernel(ctx: KernelContext, x: Array, dtype: DataType) -> Array:
    out_dtype = x.dtype if dtype is DataType.UNDEFINED else dtype.numpy_dtype
    return ctx.xp.empty(x.shape, dtype=out_dtype)


@register_kernel("depend", dtypes=DEPEND_DTYPES)
def depend_kernel(ctx: KernelContext, x: Array, dep: list[Array]) -> Array:
    return x


@register_kernel("share_data", dtypes=SHARE_DATA_DTYPES)
def share_data_kernel(ctx: KernelContext, x: Array) -> Array:
    return x


@register_kernel("npu_identity", dtypes=NPU_IDENTITY_DTYPES)
def npu_identity_kernel(ctx: KernelContext, x: Array, format: int) -> Array:
    return x


# memcpy_d2h's result lives on the host whatever x's place: a CPU kernel (PHI sets its output
# backend to CPU); the dispatcher brings a device input to it.
@register_kernel("memcpy_d2h", dtypes=MEMCPY_DTYPES, backends=("CPU",))
def memcpy_d2h_kernel(ctx: KernelContext, x: Array, dst_place_type: int) -> Array:
    if dst_place_type == 0:
        return np.array(to_numpy(x), copy=True)
    if dst_place_type == 1:
        raise UnimplementedError(
            "memcpy_d2h(): argument 'dst_place_type' 1 copies into CUDA pinned memory, which "
            "phiops does not allocate (PaddlePaddle 3.3.1's CPU build cannot either); use 0, the "
            "CPU"
        )
    raise InvalidArgumentError(
        f"memcpy_d2h(): argument 'dst_place_type' must be 0 (CPU) or 1 (CUDA pinned memory), "
        f"got {dst_place_type}"
    )


@register_kernel("memcpy_h2d", dtypes=MEMCPY_DTYPES)
def memcpy_h2d_kernel(ctx: KernelContext, x: Array, dst_place_type: int) -> Array:
    if not (0 <= dst_place_type <= 3 or dst_place_type == 6):
        raise OutOfRangeError(
            f"memcpy_h2d(): argument 'dst_place_type' must be in [0, 3] or 6, got {dst_place_type}"
        )
    return x.copy()


@register_kernel("read_file", dtypes=FILE_DTYPES)
def read_file_kernel(ctx: KernelContext, filename: str) -> Array:
    try:
        info = os.stat(filename)
    except FileNotFoundError:
        raise NotFoundError(f"read_file(): argument 'filename': no such file {filename!r}") from None
    except OSError as error:
        raise InvalidArgumentError(
            f"read_file(): argument 'filename': cannot read {filename!r}: {error.strerror or error}"
        ) from None
    if not stat.S_ISREG(info.st_mode):
        # a directory cannot be read; a FIFO or a device would block or never end
        raise InvalidArgumentError(
            f"read_file(): argument 'filename': {filename!r} is not a regular file"
        )
    try:
        data = np.fromfile(filename, dtype=np.uint8)
    except OSError as error:
        raise InvalidArgumentError(
            f"read_file(): argument 'filename': cannot read {filename!r}: {error}"
        ) from None
    return data if ctx.xp is np else ctx.xp.asarray(data)
