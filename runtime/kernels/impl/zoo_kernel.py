"""``full_with_tensor``: the kernel of the op that deployed dynamic-shape programs build for
``paddle.full`` with a tensor shape or value (issue 26, the model zoo).

PaddlePaddle 3.3.1 (paddle/phi/kernels/cpu/full_kernel.cc, ``FullWithTensorKernel``) reads
``value`` as a Scalar (a tensor of exactly one element, of any data type, on the CPU) and fills
as ``full`` does, so that the value converts to ``dtype`` as a C++ cast does (and NaN, inf or
an out-of-range value for an integer dtype is an error here, as in ``full``).
"""

from __future__ import annotations

from phiops.runtime.common import Backend, DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.impl.full_kernel import full_kernel
from phiops.runtime.kernels.kernel import Array, Kernel, KernelContext
from phiops.runtime.kernels.registration import ALL_TYPES, register_kernel


def _value_of_any_dtype(kernel: Kernel) -> None:
    # value lends one element, converted like a Scalar: any dtype, read on the CPU
    kernel.input_at(0).set_backend(Backend.ALL_BACKEND).set_dtype(DataType.ALL_DTYPE)


# PaddlePaddle registers full_with_tensor on CPU for bool, uint8, int8, int16, int32, int64,
# float16, bfloat16, float32, float64, complex64, complex128: ALL_TYPES.
@register_kernel("full_with_tensor", dtypes=ALL_TYPES, configure=_value_of_any_dtype)
def full_with_tensor_kernel(
    ctx: KernelContext, value: Array, shape: tuple[int, ...], dtype: DataType
) -> Array:
    if value.size != 1:
        raise InvalidArgumentError(
            f"argument 'value' must hold exactly one element, got a tensor of shape "
            f"{list(value.shape)}"
        )
    number = value.reshape(-1)[0].item()
    return full_kernel(ctx, shape, number, dtype)
