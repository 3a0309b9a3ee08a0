"""float16 registrations, on the GPU only, of the kernels auto-mixed precision runs in low
precision (runtime/amp).

phiops's kernels register the dtypes of PaddlePaddle 3.3.1's CPU kernels, where matmul has no
float16; PaddlePaddle's GPU matmul has one, and ``paddle.amp.auto_cast`` runs a white-listed op
in float32 when its kernel lacks the low-precision dtype. CuPy computes float16 matrix products
through cuBLAS, so the xp-generic matmul kernels serve float16 on the GPU as they are. Without
CuPy these registrations are skipped. conv2d's float16 GPU kernel is not registered: it has not
been run on a GPU yet (under auto_cast on the GPU conv2d runs in float32).
"""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.kernels.impl.matmul_grad_kernel import matmul_grad_kernel
from phiops.runtime.kernels.impl.matmul_kernel import matmul_kernel
from phiops.runtime.kernels.registration import register_kernel

GPU_HALF_DTYPES = (DataType.FLOAT16,)

register_kernel("matmul", dtypes=GPU_HALF_DTYPES, backends=["GPU"])(matmul_kernel)
register_kernel("matmul_grad", dtypes=GPU_HALF_DTYPES, backends=["GPU"])(matmul_grad_kernel)
