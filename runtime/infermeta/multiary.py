"""InferMeta functions of ops with a Tensor[] input or more than three tensor inputs."""

from __future__ import annotations

from runtime.common import DataType, promote_types
from runtime.core.meta_tensor import MetaConfig, MetaTensor
from runtime.errors import InvalidArgumentError
from runtime.infermeta.unary import check_axis

_RUNTIME = MetaConfig()


def _require_tensors(x: list[MetaTensor]) -> None:
    if not x:
        raise InvalidArgumentError("argument 'x' must hold at least one tensor, got an empty list")


def concat_infer_meta(
    x: list[MetaTensor], axis: int, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """Join ``x`` along ``axis``: every tensor has the same rank (at least 1) and the same
    dims except along ``axis``; the dtype is the highest of the inputs' (the kernel runs on
    inputs cast to it)."""
    _require_tensors(x)
    if isinstance(axis, bool) or not isinstance(axis, int):
        raise InvalidArgumentError(
            f"argument 'axis' must be an integer, got {type(axis).__name__} {axis!r}"
        )
    first = x[0].dims
    rank = len(first)
    if rank == 0:
        raise InvalidArgumentError(
            "argument 'x' holds 0-D tensors, which cannot be concatenated; use stack, or tensors "
            "of rank >= 1"
        )
    index = check_axis(axis, rank, "axis")
    total = 0
    for position, item in enumerate(x):
        dims = item.dims
        if len(dims) != rank:
            raise InvalidArgumentError(
                f"argument 'x[{position}]' with dims {list(dims)} must have the rank of 'x[0]' "
                f"with dims {list(first)}"
            )
        for i, (extent, expected) in enumerate(zip(dims, first)):
            if i != index and extent != expected:
                raise InvalidArgumentError(
                    f"argument 'x[{position}]' with dims {list(dims)} does not match 'x[0]' with "
                    f"dims {list(first)} outside axis {index}: dimension {i} differs "
                    f"({extent} vs {expected})"
                )
        total += dims[index]
    out.set_dims(first[:index] + (total,) + first[index + 1 :])
    out.set_dtype(promote_types([item.dtype for item in x]))
    out.set_layout(x[0].layout)


def stack_infer_meta(
    x: list[MetaTensor], axis: int, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """Stack ``x``, tensors of equal dims, along a new dimension ``axis`` in
    [-(rank + 1), rank + 1); the dtype is the highest of the inputs'."""
    _require_tensors(x)
    first = x[0].dims
    for position, item in enumerate(x):
        if item.dims != first:
            raise InvalidArgumentError(
                f"argument 'x[{position}]' with dims {list(item.dims)} must have the dims of "
                f"'x[0]' {list(first)}"
            )
    rank = len(first)
    if not -(rank + 1) <= axis <= rank:
        raise InvalidArgumentError(
            f"argument 'axis' must be in [{-(rank + 1)}, {rank + 1}) for stacking tensors of rank "
            f"{rank}, got {axis}"
        )
    index = axis + rank + 1 if axis < 0 else axis
    out.set_dims(first[:index] + (len(x),) + first[index:])
    out.set_dtype(promote_types([item.dtype for item in x]))
    out.set_layout(x[0].layout)


# Optimizers ----------------------------------------------------------------------------------
# PaddlePaddle's SgdInferMeta / AdamInferMeta. An optional output whose input is None
# (master_param_out without master_param) is left without dims and dtype: the op returns None.


def _numel(dims: tuple[int, ...]) -> int:
    count = 1
    for extent in dims:
        count *= extent
    return count


def _require_one_element(tensor: MetaTensor, name: str) -> None:
    if _numel(tensor.dims) != 1:
        raise InvalidArgumentError(
            f"argument '{name}' must hold exactly one element, got dims {list(tensor.dims)} "
            f"({_numel(tensor.dims)} elements)"
        )


def _require_param_dims(tensor: MetaTensor, name: str, param: MetaTensor) -> None:
    if tensor.dims != param.dims:
        raise InvalidArgumentError(
            f"argument '{name}' with dims {list(tensor.dims)} must have the dims of argument "
            f"'param' {list(param.dims)}"
        )


def _master_param_out(
    param: MetaTensor, master_param: MetaTensor | None, multi_precision: bool, out: MetaTensor
) -> None:
    """With ``multi_precision`` and a master copy: ``param``'s dims in float32 for a half
    precision ``param``, else in ``param``'s dtype."""
    if master_param is None or not multi_precision:
        return
    half = (DataType.FLOAT16, DataType.BFLOAT16)
    out.set_dims(param.dims)
    out.set_dtype(DataType.FLOAT32 if param.dtype in half else param.dtype)
    out.set_layout(param.layout)


def sgd_infer_meta(
    param: MetaTensor,
    learning_rate: MetaTensor,
    grad: MetaTensor,
    master_param: MetaTensor | None,
    multi_precision: bool,
    param_out: MetaTensor,
    master_param_out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``param_out`` like ``param``; ``learning_rate`` holds one element, ``grad`` (and
    ``master_param`` when given) have ``param``'s dims."""
    _require_one_element(learning_rate, "learning_rate")
    _require_param_dims(grad, "grad", param)
    if master_param is not None:
        _require_param_dims(master_param, "master_param", param)
    param_out.share_meta(param)
    _master_param_out(param, master_param, multi_precision, master_param_out)


def adam_infer_meta(
    param: MetaTensor,
    grad: MetaTensor,
    learning_rate: MetaTensor,
    moment1: MetaTensor,
    moment2: MetaTensor,
    beta1_pow: MetaTensor,
    beta2_pow: MetaTensor,
    master_param: MetaTensor | None,
    skip_update: MetaTensor | None,
    beta1: bool | int | float,
    beta2: bool | int | float,
    epsilon: bool | int | float,
    lazy_mode: bool,
    min_row_size_to_use_multithread: int,
    multi_precision: bool,
    use_global_beta_pow: bool,
    param_out: MetaTensor,
    moment1_out: MetaTensor,
    moment2_out: MetaTensor,
    beta1_pow_out: MetaTensor,
    beta2_pow_out: MetaTensor,
    master_param_out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """Every output like its input; ``learning_rate``, ``beta1_pow``, ``beta2_pow`` and
    ``skip_update`` hold one element; ``grad``, the moments and ``master_param`` have
    ``param``'s dims."""
    _require_one_element(learning_rate, "learning_rate")
    _require_one_element(beta1_pow, "beta1_pow")
    _require_one_element(beta2_pow, "beta2_pow")
    if skip_update is not None:
        _require_one_element(skip_update, "skip_update")
    for value, name in ((beta1, "beta1"), (beta2, "beta2"), (epsilon, "epsilon")):
        if isinstance(value, complex):
            raise InvalidArgumentError(f"argument '{name}' must be a real number, got {value!r}")
    for tensor, name in ((grad, "grad"), (moment1, "moment1"), (moment2, "moment2")):
        _require_param_dims(tensor, name, param)
    if master_param is not None:
        _require_param_dims(master_param, "master_param", param)
    param_out.share_meta(param)
    moment1_out.share_meta(moment1)
    moment2_out.share_meta(moment2)
    beta1_pow_out.share_meta(beta1_pow)
    beta2_pow_out.share_meta(beta2_pow)
    _master_param_out(param, master_param, multi_precision, master_param_out)
