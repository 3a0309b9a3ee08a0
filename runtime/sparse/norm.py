"""Batch normalization of a sparse COO tensor's values (PaddlePaddle 3.3.1's
``paddle.sparse.nn.BatchNorm`` / ``SyncBatchNorm``: the ``sparse_batch_norm`` kernels, which run
the dense batch norm on the values ``[nnz, C]``).

The layers are ``BatchNorm1D`` on the values: statistics over the stored entries, per channel
(the last dim), running statistics updated as ``BatchNorm1D`` updates them; the output keeps
the input's pattern. Gradients flow to the input's values, the scale and the shift through the
dense batch norm and ``values()``.
"""

from __future__ import annotations

from typing import Any

from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.nn import functional as F
from phiops.runtime.nn.layers import BatchNorm1D
from phiops.runtime.nn.norm_upsample import SyncBatchNorm as _DenseSyncBatchNorm
from phiops.runtime.sparse.autograd import attach
from phiops.runtime.sparse.creation import (
    dense,
    grad_values,
    storage_of,
    values,
    with_values,
    wrap_sparse,
)
from phiops.runtime.tensor.kinds import TensorKind

__all__ = ["BatchNorm", "SyncBatchNorm"]


def _normalize_values(layer: Any, x: Any, op: str, use_global_stats: Any) -> Tensor:
    storage = storage_of(x, op, "x", (TensorKind.SPARSE_COO,))
    if storage.values.array.ndim != 2:
        raise InvalidArgumentError(
            f"{op}(): argument 'x' must have values [nnz, C] (all dims but the channels sparse), "
            f"got values of shape {list(storage.values.array.shape)}"
        )
    channels = storage.values.array.shape[1]
    features = layer.weight.shape[0]
    if channels != features:
        raise InvalidArgumentError(
            f"{op}(): x has {channels} channels, but the layer was made for {features}"
        )
    normalized = F.batch_norm(
        values(x),
        layer._mean,
        layer._variance,
        layer.weight,
        layer.bias,
        layer.training,
        layer._momentum,
        layer._epsilon,
        "NC",
        use_global_stats,
    )
    out = wrap_sparse(with_values(storage, normalized.array))

    def backward(grad: Tensor) -> list[Any]:
        return [dense(grad_values(grad, storage))]

    return attach(op, [normalized], out, backward)


class BatchNorm(BatchNorm1D):
    """Batch normalization of a sparse COO tensor ``[N, D, H, W, C]`` (or ``[N, H, W, C]``)
    over its stored values' channels: ``BatchNorm1D`` on ``values()``, the pattern kept.
    ``data_format`` must be ``"NDHWC"`` or ``"NHWC"``. With ``use_global_stats`` None the
    running statistics are used when not training (PaddlePaddle fixes that choice at the first
    call; phiops decides it at each)."""

    def __init__(
        self,
        num_features: int,
        momentum: float = 0.9,
        epsilon: float = 1e-05,
        weight_attr: Any = None,
        bias_attr: Any = None,
        data_format: str = "NDHWC",
        use_global_stats: bool | None = None,
        name: str | None = None,
    ) -> None:
        if data_format not in ("NDHWC", "NHWC"):
            raise InvalidArgumentError(
                f"BatchNorm: argument 'data_format' must be 'NDHWC' or 'NHWC' (sparse), got "
                f"{data_format!r}"
            )
        super().__init__(
            num_features,
            momentum=momentum,
            epsilon=epsilon,
            weight_attr=weight_attr,
            bias_attr=bias_attr,
            data_format="NCL",
            use_global_stats=use_global_stats,
            name=name,
        )
        self._data_format_sparse = data_format

    def forward(self, input: Any) -> Tensor:
        return _normalize_values(self, input, "BatchNorm", self._use_global_stats)


class SyncBatchNorm(_DenseSyncBatchNorm):
    """``BatchNorm`` of a sparse COO tensor's values whose statistics PaddlePaddle gathers over
    every training process; phiops runs in one process, so it is the same as ``BatchNorm``."""

    def __init__(
        self,
        num_features: int,
        momentum: float = 0.9,
        epsilon: float = 1e-05,
        weight_attr: Any = None,
        bias_attr: Any = None,
        data_format: str = "NCHW",
        name: str | None = None,
    ) -> None:
        super().__init__(num_features, momentum, epsilon, weight_attr, bias_attr, data_format, name)

    def forward(self, x: Any) -> Tensor:
        return _normalize_values(self, x, "SyncBatchNorm", None)

    @classmethod
    def convert_sync_batchnorm(cls, layer: Any) -> Any:
        """``layer`` with every sparse ``BatchNorm`` in it (itself included) replaced by a
        ``SyncBatchNorm`` holding its parameters and statistics."""
        if isinstance(layer, BatchNorm):
            converted = cls(
                layer.weight.shape[0],
                layer._momentum,
                layer._epsilon,
                data_format=layer._data_format_sparse,
            )
            converted.weight, converted.bias = layer.weight, layer.bias
            converted._mean, converted._variance = layer._mean, layer._variance
            return converted
        for name, sublayer in list(layer.named_children()):
            setattr(layer, name, cls.convert_sync_batchnorm(sublayer))
        return layer
