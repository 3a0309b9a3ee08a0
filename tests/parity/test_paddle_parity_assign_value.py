"""assign_value_ against PaddlePaddle's ``paddle._C_ops.assign_value_`` in dynamic
mode: the same values, shape and dtype written into the same tensor. Runs only where
PaddlePaddle is installed.

Not compared: fewer values than the shape holds (PaddlePaddle leaves the rest uninitialised),
more (it drops the extra ones) and values out of an integer dtype's range (a C++ cast,
undefined): phiops raises for all three. Complex values for a real dtype: PaddlePaddle drops the
imaginary part, phiops raises naming the op (it never drops it silently; see
runtime/dispatch/attributes.py), which is asserted here.
"""

from __future__ import annotations

import numpy as np
import pytest

paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")

import phiops.generated as phi  # noqa: E402
from phiops.runtime.common import CPUPlace, DataType  # noqa: E402

DTYPES = ["bool", "int8", "int32", "int64", "float16", "float32", "float64"]
DTYPES += ["complex64", "complex128"]
VALUES = {
    "reals": ([2, 3], [1, 2.5, -3.75, 0, 7.99, -0.5]),
    "ints": ([3], [-128, 127, 0]),
    "bools": ([2, 1], [True, False]),
    "complex": ([2], [1 + 2j, -3.5 - 1j]),
    "empty": ([0, 2], []),
    "0-d": ([], [6.25]),
}


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("values", list(VALUES), ids=list(VALUES))
def test_assign_value_inplace_equals_paddle(dtype: str, values: str) -> None:
    shape, data = VALUES[values]
    if values == "complex" and not dtype.startswith("complex"):
        with pytest.raises(phi.InvalidArgumentError, match=r"assign_value_\(\): .*complex"):
            phi.assign_value_(
                phi.to_tensor(np.zeros(3, np.float32)), shape, DataType[dtype.upper()], data
            )
        return
    pd_target = paddle.zeros([3], dtype="float32")
    phi_target = phi.to_tensor(np.zeros(3, np.float32))
    pd_out = paddle._C_ops.assign_value_(
        pd_target, shape, getattr(paddle, dtype), data, paddle.CPUPlace()
    )
    phi_out = phi.assign_value_(phi_target, shape, DataType[dtype.upper()], data, CPUPlace())
    want = pd_target.numpy()
    assert pd_out is pd_target and phi_out is phi_target
    assert phi_target.numpy().dtype == want.dtype
    assert phi_target.shape == list(want.shape)
    np.testing.assert_array_equal(phi_target.numpy(), want)
