"""``Layer``, PaddlePaddle's base class of models: parameters, buffers and sublayers found by
attribute assignment, ``state_dict`` with PaddlePaddle's key names (``0.weight``,
``bn._mean``), ``train``/``eval``, forward pre/post hooks; ``Sequential`` and ``LayerList``."""

from __future__ import annotations

import re
import weakref
from collections import OrderedDict
from typing import Any, Callable, Iterator

import numpy as np

from phiops.runtime.common import to_data_type
from phiops.runtime.common.default_dtype import default_data_type
from phiops.runtime.eager.tensor import Tensor, to_tensor
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.static.mode import in_static_mode
from phiops.runtime.static.program import unique_name

__all__ = ["Layer", "Sequential", "LayerList", "create_parameter", "Parameter"]

_FIRST_CAP = re.compile("(.)([A-Z][a-z]+)")
_ALL_CAP = re.compile("([a-z])([A-Z])")


def _snake(name: str) -> str:
    """PaddlePaddle's name scope of a layer class: ``BatchNorm2D`` -> ``batch_norm2d``."""
    return _ALL_CAP.sub(r"\1_\2", _FIRST_CAP.sub(r"\1_\2", name)).lower()


# The tensors create_parameter made, by id with a weak reference: a Layer attribute holding one
# is a parameter even when it takes no gradient (ParamAttr(trainable=False)), as in PaddlePaddle.
_PARAMETERS: dict[int, weakref.ref] = {}


def _is_parameter(tensor: Tensor) -> bool:
    reference = _PARAMETERS.get(id(tensor))
    return reference is not None and reference() is tensor


def create_parameter(
    shape: list[int], dtype: Any, initializer: Any, trainable: bool = True
) -> Tensor:
    """A parameter tensor of ``shape`` initialised by ``initializer`` (stop_gradient=False
    unless not ``trainable``)."""
    numpy_dtype = to_data_type(dtype, "create_parameter(dtype)").numpy_dtype
    parameter = to_tensor(initializer(shape, numpy_dtype))
    parameter.stop_gradient = not trainable
    key = id(parameter)
    _PARAMETERS[key] = weakref.ref(parameter, lambda _: _PARAMETERS.pop(key, None))
    return parameter


class _ParameterType(type):
    def __instancecheck__(cls, obj: Any) -> bool:
        return isinstance(obj, Tensor) and _is_parameter(obj)


class Parameter(metaclass=_ParameterType):
    """``paddle.nn.Parameter`` (PaddlePaddle's EagerParamBase): ``Parameter(data=None,
    requires_grad=True, name=None, ...)`` is a parameter Tensor sharing ``data``'s storage (an
    empty one for None); ``Parameter(shape, dtype, trainable=True, name=None, ...)`` a
    parameter of zeros. Assigned to a Layer's attribute it is registered as the layer's
    parameter (trainable or not), and ``isinstance(t, Parameter)`` tells whether a Tensor is a
    parameter. ``regularizer`` takes an L1Decay/L2Decay as ParamAttr's does; ``optimize_attr``
    other than a learning rate of 1.0 and ``need_clip=False`` are UnimplementedErrors, as in
    ParamAttr."""

    def __new__(cls, *args: Any, **kwargs: Any) -> Tensor:  # type: ignore[misc]
        from phiops.runtime.dispatch.tensor_type import TENSOR_TYPE
        from phiops.runtime.errors import UnimplementedError
        from phiops.runtime.regularizer import set_parameter_regularizer

        known = {"name", "trainable", "requires_grad", "optimize_attr", "regularizer",
                 "do_model_average", "need_clip", "is_distributed", "shape", "dtype", "data"}
        unknown = sorted(set(kwargs) - known)
        if unknown:
            raise InvalidArgumentError(f"Parameter(): unexpected argument {unknown[0]!r}")
        by_shape = (args and isinstance(args[0], (list, tuple))) or "shape" in kwargs
        if by_shape:
            names = ("shape", "dtype")
            values = dict(zip(names, args))
            values.update({k: kwargs[k] for k in names if k in kwargs})
            shape, dtype = values.get("shape"), values.get("dtype")
            if shape is None or dtype is None:
                raise InvalidArgumentError("Parameter(): the shape and dtype must not be None")
            dims = [int(d) for d in shape]
            if any(d < 0 for d in dims):
                raise InvalidArgumentError(
                    f"Parameter(): each dimension of the shape must be >= 0, got {dims}"
                )
            numpy_dtype = to_data_type(dtype, "Parameter(dtype)").numpy_dtype
            parameter = to_tensor(np.zeros(dims, numpy_dtype))
            trainable = kwargs.get("trainable", True)
        else:
            data = args[0] if args else kwargs.get("data")
            requires_grad = args[1] if len(args) > 1 else kwargs.get("requires_grad", True)
            if data is None:
                data = to_tensor(np.zeros([0], default_data_type().numpy_dtype))
            if not isinstance(data, Tensor):
                raise InvalidArgumentError(
                    f"Parameter(): argument 'data' must be a Tensor, got {type(data).__name__}"
                )
            parameter = TENSOR_TYPE.wrap(data.array, data.meta)
            trainable = requires_grad
        optimize_attr = kwargs.get("optimize_attr", {"learning_rate": 1.0})
        if optimize_attr != {"learning_rate": 1.0} or not kwargs.get("need_clip", True):
            raise UnimplementedError(
                "Parameter(): a per-parameter learning rate (optimize_attr) and need_clip=False "
                "are not implemented: phiops's optimizers do not read them"
            )
        parameter.stop_gradient = not trainable
        parameter.name = kwargs.get("name") or unique_name("_eager_param_base")
        if kwargs.get("regularizer") is not None:
            set_parameter_regularizer(parameter, kwargs["regularizer"])
        key = id(parameter)
        _PARAMETERS[key] = weakref.ref(parameter, lambda _: _PARAMETERS.pop(key, None))
        return parameter


class _HookHandle:
    def __init__(self, hooks: dict[int, Callable], key: int) -> None:
        self._hooks, self._key = hooks, key

    def remove(self) -> None:
        self._hooks.pop(self._key, None)


class Layer:
    """Base class of models. Assigning a parameter Tensor (stop_gradient=False, or made by
    ``create_parameter``) or a Layer to an attribute registers it; ``register_buffer`` adds
    state that is saved but not trained."""

    training: bool

    def __init__(self, name_scope: str | None = None, dtype: Any = "float32") -> None:
        object.__setattr__(self, "_parameters", OrderedDict())
        object.__setattr__(self, "_sub_layers", OrderedDict())
        object.__setattr__(self, "_buffers", OrderedDict())
        object.__setattr__(self, "_non_persistable", set())
        object.__setattr__(self, "_forward_pre_hooks", OrderedDict())
        object.__setattr__(self, "_forward_post_hooks", OrderedDict())
        object.__setattr__(self, "_state_dict_hooks", OrderedDict())
        object.__setattr__(self, "_hook_id", 0)
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_dtype", dtype)
        # PaddlePaddle's full name (``linear_0``): its parameters are named ``linear_0.w_0``...
        object.__setattr__(
            self, "_full_name", unique_name(name_scope or _snake(type(self).__name__))
        )

    # -- registration ----------------------------------------------------------------------------
    def __setattr__(self, name: str, value: Any) -> None:
        if "_parameters" not in self.__dict__:
            raise InvalidArgumentError(
                f"{type(self).__name__}: call super().__init__() before assigning attributes"
            )
        was_buffer = name in self._buffers
        for table in (self._parameters, self._sub_layers, self._buffers):
            table.pop(name, None)
        if isinstance(value, Layer):
            self._sub_layers[name] = value
        elif isinstance(value, Tensor) and (
            (not value.stop_gradient and value.is_leaf) or _is_parameter(value)
        ):
            self._parameters[name] = value
        elif was_buffer and (value is None or isinstance(value, Tensor)):
            self._buffers[name] = value  # a registered buffer stays one when reassigned
        else:
            object.__setattr__(self, name, value)
            return
        self.__dict__.pop(name, None)

    def __getattr__(self, name: str) -> Any:
        for table in ("_parameters", "_sub_layers", "_buffers"):
            entries = self.__dict__.get(table)
            if entries is not None and name in entries:
                return entries[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name: str) -> None:
        for table in (self._parameters, self._sub_layers, self._buffers):
            if name in table:
                del table[name]
                return
        object.__delattr__(self, name)

    def create_parameter(
        self,
        shape: list[int],
        attr: Any = None,
        dtype: Any = None,
        is_bias: bool = False,
        default_initializer: Any = None,
    ) -> Tensor:
        """A parameter as PaddlePaddle's ``Layer.create_parameter`` makes it: the initializer of
        ``attr`` (a ParamAttr or an initializer), else the one ``set_global_initializer`` set,
        else ``default_initializer``, else
        Constant(0) for a bias and XavierUniform for a weight; named by ``attr``'s name, else
        the layer's next (``linear_0.w_0``). Made while static mode is on, it is declared in the
        program at once (its initializer's ops in the startup program), as PaddlePaddle does."""
        from phiops.runtime.nn.initializer import Constant, Initializer, XavierUniform
        from phiops.runtime.static.initializer import global_initializer
        from phiops.runtime.nn.param_attr import ParamAttr
        from phiops.runtime.regularizer import set_parameter_regularizer

        if attr is not None and not isinstance(attr, (ParamAttr, Initializer)):
            raise InvalidArgumentError(
                f"create_parameter: attr must be a ParamAttr or an Initializer, got {attr!r}"
            )
        param_attr = attr if isinstance(attr, ParamAttr) else ParamAttr(initializer=attr)
        initializer = param_attr.initializer
        if initializer is None:  # set_global_initializer's comes before the layer's default
            initializer = (
                global_initializer(is_bias)
                or default_initializer
                or (Constant(0.0) if is_bias else XavierUniform())
            )
        parameter = create_parameter(
            list(shape), dtype or default_data_type(), initializer, param_attr.trainable
        )
        parameter.name = param_attr.name or unique_name(
            f"{self._full_name}.{'b' if is_bias else 'w'}"
        )
        if param_attr.regularizer is not None:
            set_parameter_regularizer(parameter, param_attr.regularizer)
        if in_static_mode():
            from phiops.runtime.nn.static_call import declare_parameter

            declare_parameter(self, parameter, initializer)
        return parameter

    def register_buffer(self, name: str, tensor: Tensor | None, persistable: bool = True) -> None:
        """State saved in ``state_dict`` (unless not ``persistable``) but not trained. An unnamed
        buffer is named as the layer's next weight (``batch_norm2d_0.w_1``), as PaddlePaddle
        names BatchNorm's running statistics."""
        if tensor is not None and not isinstance(tensor, Tensor):
            raise InvalidArgumentError(
                f"register_buffer: '{name}' must be a Tensor, got {type(tensor).__name__}"
            )
        for table in (self._parameters, self._sub_layers):
            table.pop(name, None)
        self.__dict__.pop(name, None)
        if tensor is not None and tensor.name is None:
            # PaddlePaddle's BatchNorm makes its running stats as weights: batch_norm2d_0.w_1
            tensor.name = unique_name(f"{self._full_name}.w")
        self._buffers[name] = tensor
        if not persistable:
            self._non_persistable.add(name)

    def add_sublayer(self, name: str, sublayer: Layer) -> Layer:
        self._sub_layers[str(name)] = sublayer
        return sublayer

    def add_parameter(self, name: str, parameter: Tensor) -> Tensor:
        self._parameters[str(name)] = parameter
        return parameter

    # -- traversal -------------------------------------------------------------------------------
    def named_sublayers(
        self, prefix: str = "", include_self: bool = False
    ) -> Iterator[tuple[str, Layer]]:
        if include_self:
            yield prefix, self
        for name, layer in self._sub_layers.items():
            if layer is None:
                continue
            path = f"{prefix}.{name}" if prefix else name
            yield path, layer
            yield from layer.named_sublayers(path)

    def sublayers(self, include_self: bool = False) -> list[Layer]:
        return [layer for _, layer in self.named_sublayers(include_self=include_self)]

    def children(self) -> Iterator[Layer]:
        return iter(layer for layer in self._sub_layers.values() if layer is not None)

    def named_children(self) -> Iterator[tuple[str, Layer]]:
        return iter((n, layer) for n, layer in self._sub_layers.items() if layer is not None)

    def named_parameters(
        self, prefix: str = "", include_sublayers: bool = True
    ) -> Iterator[tuple[str, Tensor]]:
        seen: set[int] = set()
        layers = (
            self.named_sublayers(prefix, include_self=True)
            if include_sublayers
            else [(prefix, self)]
        )
        for path, layer in layers:
            for name, parameter in layer._parameters.items():
                if parameter is None or id(parameter) in seen:
                    continue
                seen.add(id(parameter))
                yield (f"{path}.{name}" if path else name), parameter

    def parameters(self, include_sublayers: bool = True) -> list[Tensor]:
        return [p for _, p in self.named_parameters(include_sublayers=include_sublayers)]

    def named_buffers(
        self, prefix: str = "", include_sublayers: bool = True
    ) -> Iterator[tuple[str, Tensor]]:
        layers = (
            self.named_sublayers(prefix, include_self=True)
            if include_sublayers
            else [(prefix, self)]
        )
        for path, layer in layers:
            for name, buffer in layer._buffers.items():
                if buffer is not None:
                    yield (f"{path}.{name}" if path else name), buffer

    def buffers(self, include_sublayers: bool = True) -> list[Tensor]:
        return [b for _, b in self.named_buffers(include_sublayers=include_sublayers)]

    # -- state -----------------------------------------------------------------------------------
    def state_dict(
        self,
        destination: dict | None = None,
        include_sublayers: bool = True,
        structured_name_prefix: str = "",
        use_hook: bool = True,
        keep_vars: bool = True,
    ) -> OrderedDict:
        """Parameters and persistable buffers by PaddlePaddle's keys (attribute paths).

        ``use_hook``: run the hooks of ``register_state_dict_hook`` (each sublayer's after its
        own entries, then this layer's), as PaddlePaddle; ``keep_vars=False`` gives detached
        tensors."""
        state: OrderedDict = OrderedDict() if destination is None else destination
        return self._state_into(
            state, structured_name_prefix, include_sublayers, use_hook, keep_vars
        )

    def _state_into(
        self,
        state: dict,
        prefix: str,
        include_sublayers: bool,
        use_hook: bool = False,
        keep_vars: bool = True,
    ) -> dict:
        for name, parameter in self._parameters.items():
            if parameter is not None:
                state[prefix + name] = parameter if keep_vars else parameter.detach()
        for name, buffer in self._buffers.items():
            if buffer is not None and name not in self._non_persistable:
                state[prefix + name] = buffer if keep_vars else buffer.detach()
        if include_sublayers:
            for name, layer in self._sub_layers.items():
                if layer is not None:
                    state = layer._state_into(state, f"{prefix}{name}.", True, use_hook, keep_vars)
        if use_hook:
            for hook in list(getattr(self, "_state_dict_hooks", {}).values()):
                result = hook(state)
                if result is not None:
                    state = result
        return state

    def register_state_dict_hook(self, hook: Callable) -> _HookHandle:
        """``hook(state_dict)``, run by ``state_dict()`` on the dict it returns (after the
        entries of this layer and its sublayers): it may change the dict in place or return a
        new one (``paddle.amp.decorate(save_dtype=...)`` casts the floating entries)."""
        if not callable(hook):
            raise InvalidArgumentError(
                f"register_state_dict_hook: the hook must be callable, got {type(hook).__name__}"
            )
        return self._add_hook(getattr(self, "_state_dict_hooks"), hook)

    def set_state_dict(
        self, state_dict: dict, use_structured_name: bool = True
    ) -> tuple[list[str], list[str]]:
        """Copy values into the parameters and buffers of the same keys (shapes must match);
        returns (missing keys, unexpected keys), as PaddlePaddle does."""
        own = self.state_dict(use_hook=False)  # the tensors themselves, not a hook's casts
        missing = [key for key in own if key not in state_dict]
        unexpected = [key for key in state_dict if key not in own]
        for key, target in own.items():
            if key not in state_dict:
                continue
            value = state_dict[key]
            array = value.numpy() if isinstance(value, Tensor) else np.asarray(value)
            if list(array.shape) != target.shape:
                raise InvalidArgumentError(
                    f"set_state_dict: '{key}' has shape {list(array.shape)} in the state dict, "
                    f"the layer's is {target.shape}"
                )
            target.set_value(array)
        return missing, unexpected

    set_dict = set_state_dict
    load_dict = set_state_dict

    # -- modes and calls -------------------------------------------------------------------------
    def train(self) -> Layer:
        for layer in self.sublayers(include_self=True):
            object.__setattr__(layer, "training", True)
        return self

    def eval(self) -> Layer:
        for layer in self.sublayers(include_self=True):
            object.__setattr__(layer, "training", False)
        return self

    def register_forward_pre_hook(self, hook: Callable) -> _HookHandle:
        """``hook(layer, inputs)``: may return new inputs (a tuple, or one value)."""
        return self._add_hook(self._forward_pre_hooks, hook)

    def register_forward_post_hook(self, hook: Callable) -> _HookHandle:
        """``hook(layer, inputs, output)``: may return a new output."""
        return self._add_hook(self._forward_post_hooks, hook)

    def _add_hook(self, hooks: dict, hook: Callable) -> _HookHandle:
        key = self._hook_id
        object.__setattr__(self, "_hook_id", key + 1)
        hooks[key] = hook
        return _HookHandle(hooks, key)

    def forward(self, *inputs: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(f"{type(self).__name__} does not define forward()")

    def __call__(self, *inputs: Any, **kwargs: Any) -> Any:
        if in_static_mode():
            from phiops.runtime.nn.static_call import static_state, struct_name_scope

            with static_state(self), struct_name_scope(self):
                return self._call(inputs, kwargs)
        return self._call(inputs, kwargs)

    def full_name(self) -> str:
        """PaddlePaddle's unique name of the layer (``linear_0``)."""
        return self._full_name

    def _call(self, inputs: tuple, kwargs: dict) -> Any:
        for hook in list(self._forward_pre_hooks.values()):
            result = hook(self, inputs)
            if result is not None:
                inputs = result if isinstance(result, tuple) else (result,)
        output = self.forward(*inputs, **kwargs)
        for hook in list(self._forward_post_hooks.values()):
            result = hook(self, inputs, output)
            if result is not None:
                output = result
        return output

    def clear_gradients(self, set_to_zero: bool = True) -> None:
        for parameter in self.parameters():
            parameter.clear_gradient(set_to_zero)

    def extra_repr(self) -> str:
        return ""

    def __repr__(self) -> str:
        lines = [
            f"({name}): {layer!r}".replace("\n", "\n  ") for name, layer in self.named_children()
        ]
        head = f"{type(self).__name__}({self.extra_repr()}"
        return head + ")" if not lines else head + "\n  " + "\n  ".join(lines) + "\n)"


class Sequential(Layer):
    """Calls its layers in order; built from layers, or (name, layer) pairs."""

    def __init__(self, *layers: Any) -> None:
        super().__init__()
        if (
            len(layers) == 1
            and isinstance(layers[0], (list, tuple))
            and layers[0]
            and isinstance(layers[0][0], (list, tuple))
        ):
            layers = tuple(layers[0])
        for index, layer in enumerate(layers):
            if isinstance(layer, (list, tuple)):
                self.add_sublayer(layer[0], layer[1])
            else:
                self.add_sublayer(str(index), layer)

    def __getitem__(self, index: int) -> Layer:
        return list(self._sub_layers.values())[index]

    def __len__(self) -> int:
        return len(self._sub_layers)

    def forward(self, x: Any) -> Any:
        for layer in self._sub_layers.values():
            x = layer(x)
        return x


class LayerList(Layer):
    """A list of layers registered as sublayers ``0``, ``1``, ..."""

    def __init__(self, sublayers: Any = None) -> None:
        super().__init__()
        for layer in sublayers or ():
            self.append(layer)

    def append(self, layer: Layer) -> LayerList:
        self.add_sublayer(str(len(self._sub_layers)), layer)
        return self

    def extend(self, layers: Any) -> LayerList:
        for layer in layers:
            self.append(layer)
        return self

    def __getitem__(self, index: int) -> Layer:
        return list(self._sub_layers.values())[index]

    def __iter__(self) -> Iterator[Layer]:
        return iter(list(self._sub_layers.values()))

    def __len__(self) -> int:
        return len(self._sub_layers)
