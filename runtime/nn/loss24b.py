"""The losses of ``paddle.nn.functional`` and ``paddle.nn`` over the loss24b ops of issue 24
(hsigmoid_loss, ...), each following the dynamic-mode branch of its namesake in PaddlePaddle
3.3.1's python/paddle/nn/functional/loss.py and python/paddle/nn/layer/loss.py."""

from __future__ import annotations

from typing import Any

from phiops.runtime.dispatch.op_def import op_api
from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.nn.layer import Layer

__all__ = ["hsigmoid_loss", "class_center_sample", "HSigmoidLoss"]

FUNCTIONAL_NAMES = ("hsigmoid_loss", "class_center_sample")
LAYER_NAMES = ("HSigmoidLoss",)


def _count(value: object, where: str, name: str, least: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise InvalidArgumentError(
            f"{where}: argument '{name}' must be an int of at least {least}, got {value!r}"
        )
    return value


def hsigmoid_loss(
    input: Tensor,  # noqa: A002 - PaddlePaddle's name
    label: Tensor,
    num_classes: int,
    weight: Tensor,
    bias: Tensor | None = None,
    path_table: Tensor | None = None,
    path_code: Tensor | None = None,
    is_sparse: bool = False,
    name: str | None = None,
) -> Tensor:
    """The hierarchical sigmoid loss [N, 1] of ``input`` [N, D] for the int64 classes ``label``
    (op hsigmoid_loss, whose docstring gives the formula): over the default binary tree of
    ``num_classes`` classes (``weight`` [num_classes - 1, D], ``bias`` [num_classes - 1, 1]), or
    over a custom tree given by ``path_table`` (each sample's node indices, ended by a negative
    one) and ``path_code`` (the branch taken at each). ``is_sparse=True`` (a SelectedRows
    gradient of ``weight``) raises UnimplementedError in the backward."""
    _count(num_classes, "hsigmoid_loss", "num_classes", 2)
    out, _, _ = op_api("hsigmoid_loss")(
        input, label, weight, bias, path_table, path_code, num_classes, is_sparse
    )
    return out


def class_center_sample(
    label: Tensor,
    num_classes: int,
    num_samples: int,
    group: Any = None,
) -> tuple[Tensor, Tensor]:
    """PartialFC's class-center sampling in one process (op class_center_sample): returns
    (remapped_label, sampled_class_center), the distinct classes of the 1-D ``label`` in
    ascending order followed by random other classes up to ``num_samples``, and each label's
    index among them. As 3.3.1's dynamic mode (whose program random seed is 0), each call draws
    from a fresh engine seeded from the OS; the op's ``fix_seed``/``seed`` give PaddlePaddle's
    numbers. ``group`` is None or False (one process); a group of several processes raises
    UnimplementedError."""
    if group is not None and group is not False:
        if not hasattr(group, "nranks"):
            raise InvalidArgumentError(
                "class_center_sample: argument 'group' must be None, False or a "
                f"paddle.distributed group, got {group!r}"
            )
        if group.nranks != 1:
            raise UnimplementedError(
                f"class_center_sample over a group of {group.nranks} processes is not "
                "implemented; phiops samples the centers of one process"
            )
    _count(num_classes, "class_center_sample", "num_classes", 1)
    _count(num_samples, "class_center_sample", "num_samples", 1)
    if num_samples > num_classes:
        raise InvalidArgumentError(
            f"class_center_sample: argument 'num_samples' must be at most num_classes "
            f"({num_classes}), got {num_samples}"
        )
    if len(label.shape) != 1 or label.shape[0] < 1:
        raise InvalidArgumentError(
            "class_center_sample: argument 'label' must be a non-empty 1-D tensor, got shape "
            f"{list(label.shape)}"
        )
    remapped, sampled = op_api("class_center_sample")(
        label, num_classes, num_samples, 0, 0, 1, False, 0
    )
    return remapped, sampled


class HSigmoidLoss(Layer):
    """The hierarchical sigmoid loss as a layer: parameters ``weight`` [C, feature_size] (Xavier
    uniform) and ``bias`` [C, 1] (zeros; None when ``bias_attr`` is False) in the default dtype,
    C = num_classes - 1 for the default tree or num_classes (the non-leaf nodes) with
    ``is_custom``, whose ``forward`` then takes ``path_table`` and ``path_code``. As 3.3.1,
    ``is_sparse`` without ``is_custom`` is turned off."""

    def __init__(
        self,
        feature_size: int,
        num_classes: int,
        weight_attr: Any = None,
        bias_attr: Any = None,
        is_custom: bool = False,
        is_sparse: bool = False,
        name: str | None = None,
    ) -> None:
        super().__init__()
        _count(feature_size, "HSigmoidLoss", "feature_size", 1)
        _count(num_classes, "HSigmoidLoss", "num_classes", 1 if is_custom else 2)
        self._feature_size, self._num_classes = feature_size, num_classes
        self._is_custom, self._is_sparse = is_custom, bool(is_sparse and is_custom)
        self._weight_attr, self._bias_attr, self._name = weight_attr, bias_attr, name
        nodes = num_classes if is_custom else num_classes - 1
        self.weight = self.create_parameter([nodes, feature_size], weight_attr)
        self.bias = (
            None if bias_attr is False else self.create_parameter([nodes, 1], bias_attr, is_bias=True)
        )

    def forward(
        self,
        input: Tensor,  # noqa: A002 - PaddlePaddle's name
        label: Tensor,
        path_table: Tensor | None = None,
        path_code: Tensor | None = None,
    ) -> Tensor:
        return hsigmoid_loss(
            input,
            label,
            self._num_classes,
            self.weight,
            self.bias,
            path_table=path_table,
            path_code=path_code,
            is_sparse=self._is_sparse,
            name=self._name,
        )

    def extra_repr(self) -> str:
        return f"feature_size={self._feature_size}, num_classes={self._num_classes}"
