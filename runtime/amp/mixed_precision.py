"""``auto_cast`` and ``decorate``: PaddlePaddle's automatic mixed precision in eager mode.

Inside ``auto_cast`` every generated op function hands its tensor inputs to ``cast_inputs``
(runtime/dispatch/amp_state.py) before it runs. The op's destination dtype is PaddlePaddle's
(``GetAmpDestDtype`` in paddle/fluid/eager/amp_utils.h):

- a white-listed op runs in the low-precision dtype (float16 or bfloat16);
- a black-listed op runs in float32;
- any other op (gray): at level OD in float32; at O1 and O2 in float32 when one of its floating
  inputs is float32 and in the low-precision dtype otherwise (with ``use_promote=False``, which
  only O2 honours, in the low-precision dtype unless black-listed);
- an op without a kernel for the low-precision dtype on the input's device runs in float32.

Inputs of dtype float32, float16 or bfloat16 that differ from the destination are cast through the
``cast`` op, so autograd casts their gradients back. batch_norm, layer_norm and sync_batch_norm
cast only their first input (x), keeping scale, bias and statistics in float32.

Like PaddlePaddle 3.3.1, auto-mixed precision acts on GPU (and custom device) tensors only: on the
CPU ``auto_cast`` warns that it has no effect. The phiops flag ``FLAGS_amp_on_cpu`` makes it act on
CPU tensors too (float16/bfloat16 CPU kernels exist for many ops, though numpy runs them slower than
float32): a way to check a mixed-precision model's numerics without a GPU.
"""

from __future__ import annotations

import threading
import weakref
import warnings
from contextlib import contextmanager
from typing import Any, Iterable, Iterator

from phiops.runtime import flags
from phiops.runtime.amp.lists import AMP_DTYPES, LEVELS, black_list, white_list
from phiops.runtime.autograd.engine import register_backward_final_hook
from phiops.runtime.backends import default_place
from phiops.runtime.common import Backend, DataType
from phiops.runtime.dispatch.amp_state import AMP_STATE
from phiops.runtime.dispatch.op_def import OP_DEFS, op_api
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.kernels import KERNEL_FACTORY
from phiops.runtime.tensor.dense_tensor import DenseTensorMeta

__all__ = [
    "AmpSettings",
    "amp_settings",
    "auto_cast",
    "amp_guard",
    "autocast",
    "decorate",
    "amp_decorate",
    "is_autocast_enabled",
    "get_autocast_cpu_dtype",
    "get_autocast_dtype",
    "get_autocast_gpu_dtype",
    "is_float16_supported",
    "is_bfloat16_supported",
]

# FLAGS_amp_on_cpu is defined in runtime/runtime_flags.py, so that it exists before amp loads.

_FLOATS = (DataType.FLOAT32, DataType.FLOAT16, DataType.BFLOAT16)
_AMP_DTYPE = {"float16": DataType.FLOAT16, "bfloat16": DataType.BFLOAT16}
_SAVE_DTYPES = {**_AMP_DTYPE, "float32": DataType.FLOAT32, "float64": DataType.FLOAT64}
# ops whose float16 dtype follows their first input only (GetPromoteType), and which cast only it
_FIRST_INPUT_OPS = frozenset({"batch_norm", "layer_norm", "sync_batch_norm"})


class AmpSettings:
    """The auto_cast context in force: level, low-precision dtype, op lists, use_promote."""

    __slots__ = ("level", "dtype", "amp_dtype", "white", "black", "use_promote")

    def __init__(
        self,
        level: str = "O0",
        dtype: str = "float32",
        white: frozenset[str] = frozenset(),
        black: frozenset[str] = frozenset(),
        use_promote: bool = True,
    ) -> None:
        self.level = level
        self.dtype = dtype
        self.amp_dtype = _AMP_DTYPE.get(dtype)
        self.white = white
        self.black = black
        self.use_promote = use_promote


_LOCAL = threading.local()
_OFF = AmpSettings()


class _LastDtype:
    """The dtype the last auto_cast call named (PaddlePaddle's ``amp_global_state().amp_dtype``:
    set by every auto_cast call, enabled or not, and kept after the context ends; GradScaler
    reads it)."""

    value = "float32"


LAST_AMP_DTYPE = _LastDtype()


def amp_settings() -> AmpSettings:
    """The settings of the innermost auto_cast context of this thread (level O0 outside one)."""
    return getattr(_LOCAL, "settings", _OFF)


def _amp_place(place: Any) -> bool:
    """Whether auto-mixed precision acts on tensors of ``place``."""
    return place.backend is not Backend.CPU or bool(flags.flag_value("amp_on_cpu"))


# (op name, backend, dtype) -> whether the op has a kernel for it, as of the kernel registry's
# generation in _SUPPORTED_AT (each op call under auto_cast asks; the registry changes rarely)
_SUPPORTED: dict[tuple[str, Backend, DataType], bool] = {}
_SUPPORTED_AT = [-1]


def _supports(op_name: str, backend: Backend, dtype: DataType) -> bool:
    """Whether op ``op_name`` has a kernel for ``dtype`` on ``backend`` (or on the CPU, which
    every backend falls back to); cached until a kernel is registered or removed."""
    if _SUPPORTED_AT[0] != KERNEL_FACTORY.generation:
        _SUPPORTED.clear()
        _SUPPORTED_AT[0] = KERNEL_FACTORY.generation
    key = (op_name, backend, dtype)
    supported = _SUPPORTED.get(key)
    if supported is None:
        supported = _SUPPORTED[key] = _look_up_support(op_name, backend, dtype)
    return supported


def _look_up_support(op_name: str, backend: Backend, dtype: DataType) -> bool:
    op = OP_DEFS.get(op_name)
    kernel = op.info.kernel if op is not None else None
    if kernel is None or not KERNEL_FACTORY.has_kernel(kernel):
        return True
    keys = KERNEL_FACTORY.kernels_of(kernel)
    return any(
        key.dtype in (dtype, DataType.ALL_DTYPE) and key.backend in (backend, Backend.CPU)
        for key in keys
    )


def _tensors(inputs: tuple[Any, ...]) -> Iterator[Any]:
    for value in inputs:
        if value is None:
            continue
        if isinstance(value, (list, tuple)):
            yield from (v for v in value if v is not None)
        else:
            yield value


def _dtype_of(value: Any) -> DataType | None:
    meta = getattr(value, "meta", None)
    return getattr(meta, "dtype", None)


def dest_dtype(op_name: str, inputs: tuple[Any, ...], settings: AmpSettings) -> DataType:
    """The dtype op ``op_name`` runs in under ``settings`` (PaddlePaddle's GetAmpDestDtype)."""
    amp = settings.amp_dtype
    if settings.use_promote or settings.level != "O2":
        if op_name in settings.white:
            dst = amp
        elif op_name in settings.black:
            dst = DataType.FLOAT32
        elif settings.level == "OD":
            dst = DataType.FLOAT32
        else:
            candidates = list(_tensors(inputs[:1] if op_name in _FIRST_INPUT_OPS else inputs))
            promoted = any(_dtype_of(t) is DataType.FLOAT32 for t in candidates)
            dst = DataType.FLOAT32 if promoted else amp
    else:
        dst = DataType.FLOAT32 if op_name in settings.black else amp
    if dst is amp:
        first = next(_tensors(inputs), None)
        place = getattr(getattr(first, "meta", None), "place", None)
        if place is not None and not _supports(op_name, place.backend, amp):
            dst = DataType.FLOAT32
    return dst


def _cast_one(value: Any, dst: DataType) -> Any:
    meta = getattr(value, "meta", None)
    dtype = getattr(meta, "dtype", None)
    if dtype is None or dtype is dst or dtype not in _FLOATS or not _amp_place(meta.place):
        return value
    return op_api("cast")(value, dst)


def _cast(value: Any, dst: DataType) -> Any:
    if value is None:
        return None
    if isinstance(value, (list, tuple)):
        return type(value)(_cast_one(v, dst) for v in value)
    return _cast_one(value, dst)


def cast_inputs(op_name: str, inputs: tuple[Any, ...]) -> tuple[Any, ...]:
    """``inputs`` of op ``op_name`` cast to the dtype the auto_cast context in force picks."""
    settings = amp_settings()
    if settings.level == "O0":
        return inputs
    dst = dest_dtype(op_name, inputs, settings)
    if op_name in _FIRST_INPUT_OPS:
        return (_cast(inputs[0], dst), *inputs[1:])
    return tuple(_cast(value, dst) for value in inputs)


AMP_STATE.cast_inputs = cast_inputs


def _custom_list(value: Any, argument: str) -> set[str]:
    if value is None:
        return set()
    if isinstance(value, str) or not isinstance(value, Iterable):
        raise InvalidArgumentError(
            f"auto_cast: {argument} must be a set, list or tuple of op names, got {value!r}"
        )
    names = set(value)
    for name in names:
        if not isinstance(name, str):
            raise InvalidArgumentError(
                f"auto_cast: {argument} must hold op names (str), got {name!r}"
            )
    return names


def _update_list(
    custom_white_list: Any, custom_black_list: Any, level: str, dtype: str
) -> tuple[frozenset[str], frozenset[str]]:
    """PaddlePaddle's lists for ``dtype``/``level`` with the user's additions: an op in the
    custom white list leaves the black list and the other way round."""
    if level == "O0":
        return frozenset(), frozenset()
    white = set(white_list()[dtype][level])
    black = set(black_list()[dtype][level])
    custom_white = _custom_list(custom_white_list, "custom_white_list")
    custom_black = _custom_list(custom_black_list, "custom_black_list")
    overlap = sorted(custom_white & custom_black)
    if overlap:
        raise ValueError(f"Custom white list overlap custom black list: {overlap}")
    white |= custom_white
    black -= custom_white
    black |= custom_black
    white -= custom_black
    return frozenset(white), frozenset(black)


def _check_level(level: Any) -> str:
    if not isinstance(level, str) or level.upper() not in LEVELS:
        raise ValueError("level should be O0, OD, O1 or O2.")
    return level.upper()


def _check_dtype(dtype: Any, what: str) -> str:
    name = getattr(dtype, "name", dtype)
    if isinstance(name, DataType):
        name = name.name
    if not isinstance(name, str) or name.lower() not in AMP_DTYPES:
        raise ValueError(f"If enable amp, dtype should be 'float16' or 'bfloat16'. ({what})")
    return name.lower()


def _enabled_here(enable: bool, who: str | None) -> bool:
    """Whether amp acts at the default place; PaddlePaddle's warning (from ``who``, None for
    none: decorate is silent) when it does not."""
    if not enable:
        return False
    place = default_place()
    if _amp_place(place):
        return True
    if who is None:
        return False
    warnings.warn(
        f"{who} can only be enabled on CUDAPlace, XPUPlace, and CustomPlace, current place is "
        f"{place}, so it makes no effect. (phiops: set FLAGS_amp_on_cpu to use it on the CPU)",
        stacklevel=3,
    )
    return False


@contextmanager
def auto_cast(
    enable: bool = True,
    custom_white_list: Any = None,
    custom_black_list: Any = None,
    level: str = "O1",
    dtype: str = "float16",
    use_promote: bool = True,
) -> Iterator[None]:
    """A context in which ops run in mixed precision (PaddlePaddle's ``paddle.amp.auto_cast``).

    Args:
        enable: Whether mixed precision is on inside the context.
        custom_white_list: Op names to run in the low-precision dtype besides PaddlePaddle's list.
        custom_black_list: Op names to keep in float32 besides PaddlePaddle's list.
        level: "O1" (lists decide, gray ops follow their inputs), "O2" (everything but the black
            list in low precision; parameters cast by ``decorate``), "OD" (only the white list in
            low precision) or "O0" (off).
        dtype: "float16" or "bfloat16".
        use_promote: At O2, run a gray op in float32 when one of its inputs is float32.

    On the CPU it warns and has no effect, as PaddlePaddle's, unless FLAGS_amp_on_cpu is set.
    """
    level = _check_level(level)
    if enable:
        dtype = _check_dtype(dtype, "auto_cast")
    LAST_AMP_DTYPE.value = str(getattr(dtype, "name", dtype)).lower()
    white, black = _update_list(
        custom_white_list, custom_black_list, level, dtype if enable else "float16"
    )
    if not _enabled_here(bool(enable), "amp_guard") or level == "O0":
        settings = _OFF
    else:
        settings = AmpSettings(level, dtype, white, black, bool(use_promote))
    previous = amp_settings()
    previous_active = AMP_STATE.active
    _LOCAL.settings = settings
    AMP_STATE.active = settings.level != "O0"
    try:
        yield
    finally:
        _LOCAL.settings = previous
        AMP_STATE.active = previous_active


amp_guard = auto_cast


def autocast(
    device_type: str | None,
    dtype: str = "float16",
    enabled: bool = True,
    cache_enabled: bool = True,
) -> Any:
    """PaddlePaddle's torch-style ``paddle.amp.autocast``: ``auto_cast(enable=enabled,
    dtype=dtype)``; ``device_type`` and ``cache_enabled`` are accepted and unused, as there."""
    return auto_cast(enable=enabled, dtype=dtype)


def is_autocast_enabled(device_type: Any = None) -> bool:
    """Whether an auto_cast context is in force (and acting) in this thread."""
    return amp_settings().level != "O0"


def get_autocast_dtype(device_type: Any = None) -> str:
    """The low-precision dtype of the auto_cast context in force; outside one (or where it does
    not act), the default AMP dtype "float16", as PaddlePaddle 3.3.1's."""
    if not is_autocast_enabled():
        return "float16"
    return amp_settings().dtype


get_autocast_cpu_dtype = get_autocast_dtype
get_autocast_gpu_dtype = get_autocast_dtype


def is_float16_supported(device: Any = None) -> bool:
    """Whether float16 auto-mixed precision acts on ``device`` (the default place if None):
    True on a GPU, False on the CPU (as PaddlePaddle 3.3.1), unless FLAGS_amp_on_cpu is set."""
    return _supported_on(device)


def is_bfloat16_supported(device: Any = None) -> bool:
    """Whether bfloat16 auto-mixed precision acts on ``device`` (the default place if None)."""
    return _supported_on(device)


def _supported_on(device: Any) -> bool:
    from phiops.runtime.common import to_place

    place = default_place() if device is None else to_place(device, "is_float16_supported")
    return _amp_place(place)


# ---- decorate -----------------------------------------------------------------------------------

_KEEP_FP32_ALWAYS = ("BatchNorm", "BatchNorm1D", "BatchNorm2D", "BatchNorm3D", "SyncBatchNorm")
_KEEP_FP32_FLOAT16 = ("LayerNorm", "InstanceNorm1D", "InstanceNorm2D", "InstanceNorm3D")


def _keeps_fp32(layer: Any, dtype: str, excluded: tuple[type, ...]) -> bool:
    """PaddlePaddle's need_keep_fp32: norm layers keep float32 parameters (LayerNorm and the
    instance norms only for float16), and so do the user's excluded layers."""
    if excluded and isinstance(layer, excluded):
        return True
    names = {cls.__name__ for cls in type(layer).__mro__}
    if names & set(_KEEP_FP32_ALWAYS):
        return True
    return dtype == "float16" and bool(names & set(_KEEP_FP32_FLOAT16))


def _cast_parameter(param: Any, dtype: DataType) -> None:
    """Change a parameter's dtype in place (the same object: optimizers hold it)."""
    meta = param.meta
    if meta.dtype not in _FLOATS or meta.dtype is dtype:
        return
    param.array = param.array.astype(dtype.numpy_dtype)
    param.meta = DenseTensorMeta.get(dtype, meta.dims, meta.layout, meta.place)


def _excluded_types(excluded_layers: Any, models: list[Any]) -> tuple[tuple[type, ...], set[int]]:
    """excluded_layers as layer types and the ids of excluded layer instances."""
    if excluded_layers is None:
        return (), set()
    items = excluded_layers if isinstance(excluded_layers, (list, tuple)) else [excluded_layers]
    types: list[type] = []
    ids: set[int] = set()
    for item in items:
        if isinstance(item, type):
            types.append(item)
        elif hasattr(item, "sublayers"):
            ids.update(id(layer) for layer in item.sublayers(include_self=True))
        else:
            raise TypeError(
                "excluded_layers must be either a nn.Layer instance/type or a list of nn.Layer "
                f"instances/types, got {item!r}"
            )
    return tuple(types), ids


def _set_multi_precision(optimizer: Any, multi_precision: bool) -> None:
    """Make ``optimizer`` keep master weights or not (PaddlePaddle's ``_set_multi_precision``)."""
    if not hasattr(optimizer, "_supports_masters"):
        raise InvalidArgumentError(
            "paddle.amp.decorate: optimizers must be paddle.optimizer.Optimizer instances, got "
            f"{type(optimizer).__name__}"
        )
    if multi_precision and not optimizer._supports_masters:
        raise UnimplementedError(
            f"paddle.amp.decorate(level='O2'): {type(optimizer).__name__} keeps no float32 master "
            "weights in phiops (every optimizer but LBFGS does); pass master_weight=False"
        )
    optimizer._multi_precision = multi_precision


def decorate(
    models: Any,
    optimizers: Any = None,
    level: str = "O1",
    dtype: str = "float16",
    master_weight: bool | None = None,
    save_dtype: str | None = None,
    master_grad: bool = False,
    excluded_layers: Any = None,
) -> Any:
    """Prepare models (and optimizers) for mixed precision (PaddlePaddle's
    ``paddle.amp.decorate``). O1 leaves them as they are; O2 casts every floating parameter to
    ``dtype`` in place, except those of norm layers (BatchNorm always, LayerNorm and the
    instance norms for float16) and of ``excluded_layers``. Returns the models, or ``(models,
    optimizers)`` when optimizers are given, as PaddlePaddle.

    O2 with optimizers sets their ``multi_precision`` to ``master_weight is not False``: each
    float16/bfloat16 parameter then keeps a float32 master weight, created at its first step
    (every optimizer but LBFGS, which is an UnimplementedError).
    ``save_dtype`` (O2): ``state_dict()`` of the models gives their floating entries cast to
    it, the parameters keep their dtype. ``master_grad`` (O2): after each backward the
    float16/bfloat16 gradients of the models' parameters are float32 casts.
    """
    level = _check_level(level)
    if level not in ("O1", "O2"):
        raise ValueError(
            "level should be O1 or O2, O1 represent AMP train mode, O2 represent Pure fp16 train "
            "mode."
        )
    dtype = _check_dtype(dtype, "decorate")
    model_list = models if isinstance(models, (list, tuple)) else [models]
    for model in model_list:
        if not hasattr(model, "sublayers"):
            raise RuntimeError(
                "Current train mode is pure fp16, models should be paddle.nn.Layer, but receive "
                f"{type(model)}."
            )
    if level == "O2" and _enabled_here(True, None):
        if optimizers is not None:
            # PaddlePaddle's _set_multi_precision: master weights unless master_weight=False
            for optimizer in optimizers if isinstance(optimizers, (list, tuple)) else [optimizers]:
                _set_multi_precision(optimizer, master_weight is not False)
        types, ids = _excluded_types(excluded_layers, model_list)
        target = _AMP_DTYPE[dtype]
        for model in model_list:
            for layer in model.sublayers(include_self=True):
                if id(layer) in ids or _keeps_fp32(layer, dtype, types):
                    continue
                for param in layer.parameters(include_sublayers=False):
                    _cast_parameter(param, target)
        if master_grad:
            _keep_master_grads(model_list)
        if save_dtype is not None:
            if save_dtype not in _SAVE_DTYPES:
                raise ValueError(
                    "save_dtype can only be float16 float32 or float64, but your input "
                    f"save_dtype is {save_dtype}."
                )
            for model in model_list:
                for layer in model.sublayers(include_self=True):
                    layer.register_state_dict_hook(_SaveDtypeHook(save_dtype))
    if optimizers is None:
        return models
    return models, optimizers


amp_decorate = decorate


# amp.decorate(master_grad=True): the parameters whose float16/bfloat16 gradients become float32
# at the end of each backward (PaddlePaddle's amp_global_state().model_parameters)
_MASTER_GRAD_PARAMETERS: weakref.WeakValueDictionary[int, Any] = weakref.WeakValueDictionary()
_MASTER_GRAD_HOOK: list[Any] = []


def _keep_master_grads(models: list[Any]) -> None:
    """PaddlePaddle's ``master_grad``: after each ``backward()`` the gradient of every
    float16/bfloat16 parameter of ``models`` is its float32 cast (``set_master_grads``), so that
    clipping, weight decay and the update read float32 gradients."""
    for model in models:
        for parameter in model.parameters():
            _MASTER_GRAD_PARAMETERS[id(parameter)] = parameter
    if not _MASTER_GRAD_HOOK:
        _MASTER_GRAD_HOOK.append(register_backward_final_hook(_set_master_grads))


def _set_master_grads() -> None:
    cast = op_api("cast")
    for parameter in list(_MASTER_GRAD_PARAMETERS.values()):
        grad = parameter._grad
        if grad is not None and grad.meta.dtype in (DataType.FLOAT16, DataType.BFLOAT16):
            parameter._grad = cast(grad, DataType.FLOAT32)


class _SaveDtypeHook:
    """``decorate(save_dtype=...)``'s state-dict hook (PaddlePaddle's ``StateDictHook``): the
    floating entries of ``state_dict()`` become casts to ``save_dtype`` under their names; the
    parameters keep their dtype."""

    def __init__(self, save_dtype: str) -> None:
        self._save_dtype = _SAVE_DTYPES[save_dtype]

    def __call__(self, state_dict: dict) -> None:
        for key, value in list(state_dict.items()):
            dtype = value.meta.dtype
            if dtype.is_floating_point and dtype is not self._save_dtype:
                cast = op_api("cast")(value.detach(), self._save_dtype)
                cast.name = value.name
                state_dict[key] = cast
