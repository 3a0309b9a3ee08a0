"""Grad kernels of the loss24b ops of issue 24, for the dtypes PaddlePaddle 3.3.1 registers on CPU.

hsigmoid_loss_grad (paddle/phi/kernels/cpu/hsigmoid_loss_grad.h): from pre_out = log(1 + exp(pre)),
the gradient of each path column is (1 - exp(-pre_out)) - bit = sigmoid(pre) - bit, scaled by the
sample's out_grad; it is added to bias[index] and spread to w[index] and x[i] through the dot
product. Like PHI's, it ignores the forward's clipping to [-40, 40] (no zero subgradient there).
"""

from __future__ import annotations

from phiops.runtime.backends import scatter_at
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.kernels.impl.loss24b_kernel import hsigmoid_paths, keep_dtypes
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType
FLOATS = (D.FLOAT32, D.FLOAT64)


@register_kernel("hsigmoid_loss_grad", dtypes=FLOATS, configure=keep_dtypes((2, 3, 4)))
def hsigmoid_loss_grad_kernel(
    ctx: KernelContext,
    x: Array,
    w: Array,
    label: Array,
    path: Array | None,
    code: Array | None,
    bias: Array | None,
    pre_out: Array,
    out_grad: Array,
    num_classes: int,
    is_sparse: bool,
) -> tuple[Array, Array, Array]:
    if is_sparse:
        raise UnimplementedError(
            "hsigmoid_loss_grad: is_sparse=True (a SelectedRows gradient of w) is not "
            "implemented; use is_sparse=False"
        )
    xp = ctx.xp
    dtype = x.dtype
    index, on_path, bit = hsigmoid_paths(xp, label, path, code, num_classes, w.shape[0])
    for value, name, shape in ((pre_out, "pre_out", index.shape), (out_grad, "out_grad", (len(x), 1))):
        if tuple(value.shape) != tuple(shape):
            raise InvalidArgumentError(
                f"argument '{name}' must be {list(shape)} for x {list(x.shape)} and the tree, got "
                f"{list(value.shape)}"
            )
    grad = dtype.type(1) - dtype.type(1) / xp.exp(pre_out)
    grad = xp.where(on_path & bit, grad - dtype.type(1), grad) * out_grad.reshape(-1, 1)
    grad = xp.where(on_path, grad, dtype.type(0)).astype(dtype)
    x_grad = xp.einsum("nl,nld->nd", grad, w[index]).astype(dtype)
    rows, cols = xp.nonzero(on_path)
    nodes = index[rows, cols]
    w_grad = xp.zeros(w.shape, dtype)
    scatter_at("add", w_grad, nodes, grad[rows, cols][:, None] * x[rows])
    bias_grad = None
    if bias is not None:
        flat = xp.zeros(bias.size, dtype)
        scatter_at("add", flat, nodes, grad[rows, cols])
        bias_grad = flat.reshape(bias.shape)
    return x_grad, w_grad, bias_grad
