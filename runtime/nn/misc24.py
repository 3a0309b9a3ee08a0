"""``paddle.nn`` layers over the misc24 ops of issue 24 (kernels in
runtime/kernels/impl/misc24_kernel.py), with PaddlePaddle 3.3.1's signatures: ``SpectralNorm``
(op ``spectral_norm``). ``paddle.nn.utils.spectral_norm`` is runtime/nn/utils.py's composite, as
PaddlePaddle's own does not call the op."""

from __future__ import annotations

import math
from typing import Any, Sequence

from phiops.runtime.dispatch.op_def import op_api
from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.nn.initializer import Normal
from phiops.runtime.nn.layer import Layer

__all__ = ["SpectralNorm"]

LAYER_NAMES = tuple(__all__)


class SpectralNorm(Layer):
    """PaddlePaddle 3.3.1's ``paddle.nn.SpectralNorm``: ``SpectralNorm(weight_shape)(weight)``
    divides ``weight`` by its largest singular value, estimated by ``power_iters`` power
    iterations (op ``spectral_norm``) from the vectors ``weight_u`` [h] and ``weight_v`` [w],
    parameters drawn from Normal(0, 1) that are not trained (stop_gradient) and not updated by
    the call (PaddlePaddle's op reads them only). ``h`` is ``weight_shape[dim]``, ``w`` the
    product of the other extents."""

    def __init__(
        self,
        weight_shape: Sequence[int],
        dim: int = 0,
        power_iters: int = 1,
        eps: float = 1e-12,
        dtype: Any = "float32",
    ) -> None:
        super().__init__()
        shape = [int(extent) for extent in weight_shape]
        if math.prod(shape) <= 0:
            raise InvalidArgumentError(
                f"SpectralNorm: no extent of weight_shape may be 0, got {shape}"
            )
        if not -len(shape) <= dim < len(shape):
            raise InvalidArgumentError(
                f"SpectralNorm: dim must be less than the length of weight_shape ({len(shape)}), "
                f"got {dim}"
            )
        self._power_iters, self._eps, self._dim, self._dtype = power_iters, eps, dim, dtype
        self._weight_shape = shape
        h = shape[dim]
        w = math.prod(shape) // h
        self.weight_u = self.create_parameter(
            [h], dtype=dtype, default_initializer=Normal(0.0, 1.0)
        )
        self.weight_u.stop_gradient = True
        self.weight_v = self.create_parameter(
            [w], dtype=dtype, default_initializer=Normal(0.0, 1.0)
        )
        self.weight_v.stop_gradient = True

    def forward(self, x: Tensor) -> Tensor:
        return op_api("spectral_norm")(
            x, self.weight_u, self.weight_v, self._dim, self._power_iters, self._eps
        )
