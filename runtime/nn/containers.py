"""``ParameterList`` and ``LayerDict``, PaddlePaddle 3.3.1's containers
(python/paddle/nn/layer/container.py): parameters and sublayers registered under PaddlePaddle's
names (``0``, ``1``, ... and the dict's keys), so ``state_dict`` keys match."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Mapping
from typing import Any, Iterator

from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.errors import InvalidArgumentError, OutOfRangeError
from phiops.runtime.nn.layer import Layer, _is_parameter

__all__ = ["ParameterList", "LayerDict"]


def _check_parameter(param: Any, where: str) -> None:
    if not isinstance(param, Tensor) or not (_is_parameter(param) or not param.stop_gradient):
        raise InvalidArgumentError(
            f"{where}: expected a parameter (a Tensor made by create_parameter, or one with "
            f"stop_gradient=False), got {type(param).__name__}"
        )


class ParameterList(Layer):
    """A list of parameters, registered as ``"0"``, ``"1"``, ... (their ``state_dict`` keys)."""

    def __init__(self, parameters: Iterable[Tensor] | None = None) -> None:
        super().__init__()
        if parameters is not None:
            for index, param in enumerate(parameters):
                _check_parameter(param, "ParameterList")
                self.add_parameter(str(index), param)

    def _key(self, idx: int) -> str:
        if not isinstance(idx, int) or isinstance(idx, bool):
            raise InvalidArgumentError(
                f"ParameterList: an index must be an int, got {type(idx).__name__}"
            )
        size = len(self._parameters)
        if not -size <= idx < size:
            raise OutOfRangeError(
                f"ParameterList: index {idx} is out of range for {size} parameters"
            )
        return str(idx % size)

    def __getitem__(self, idx: int) -> Tensor:
        return self._parameters[self._key(idx)]

    def __setitem__(self, idx: int, param: Tensor) -> None:
        """Copy ``param``'s values into the parameter at ``idx`` (PaddlePaddle assigns, it does
        not replace the parameter)."""
        if not isinstance(param, Tensor):
            raise InvalidArgumentError(
                f"ParameterList: param must be a Tensor, got {type(param).__name__}"
            )
        self._parameters[self._key(idx)].set_value(param)

    def __len__(self) -> int:
        return len(self._parameters)

    def __iter__(self) -> Iterator[Tensor]:
        return iter(list(self._parameters.values()))

    def append(self, parameter: Tensor) -> ParameterList:
        """Register ``parameter`` under the next index."""
        _check_parameter(parameter, "ParameterList.append")
        self.add_parameter(str(len(self._parameters)), parameter)
        return self


class LayerDict(Layer):
    """An ordered dict of sublayers, registered under their keys."""

    def __init__(self, sublayers: Any = None) -> None:
        super().__init__()
        if sublayers is not None:
            self.update(sublayers)

    def __getitem__(self, key: str) -> Layer:
        return self._sub_layers[key]

    def __setitem__(self, key: str, sublayer: Layer) -> Layer:
        return self.add_sublayer(key, sublayer)

    def __delitem__(self, key: str) -> None:
        del self._sub_layers[key]

    def __len__(self) -> int:
        return len(self._sub_layers)

    def __iter__(self) -> Iterator[str]:
        return iter(self._sub_layers)

    def __contains__(self, key: str) -> bool:
        return key in self._sub_layers

    def clear(self) -> None:
        """Remove every sublayer."""
        self._sub_layers.clear()

    def pop(self, key: str) -> Layer:
        """Remove the sublayer ``key`` and return it."""
        layer = self[key]
        del self[key]
        return layer

    def keys(self) -> Iterable[str]:
        return self._sub_layers.keys()

    def items(self) -> Iterable[tuple[str, Layer]]:
        return self._sub_layers.items()

    def values(self) -> Iterable[Layer]:
        return self._sub_layers.values()

    def update(self, sublayers: Any) -> None:
        """Add the sublayers of a mapping (LayerDict, dict, OrderedDict) or of a sequence of
        (key, layer) pairs, in order."""
        if isinstance(sublayers, (OrderedDict, LayerDict, Mapping)):
            pairs = list(sublayers.items())
        elif isinstance(sublayers, Iterable) and not isinstance(sublayers, (str, bytes)):
            pairs = []
            for index, pair in enumerate(sublayers):
                if not isinstance(pair, (tuple, list)) or len(pair) != 2:
                    raise InvalidArgumentError(
                        f"LayerDict.update: element {index} of sublayers must be a (key, layer) "
                        f"pair, got {pair!r}"
                    )
                pairs.append(tuple(pair))
        else:
            raise InvalidArgumentError(
                "LayerDict.update: sublayers must be a mapping or an iterable of (key, layer) "
                f"pairs, got {type(sublayers).__name__}"
            )
        for key, layer in pairs:
            if not isinstance(layer, Layer):
                raise InvalidArgumentError(
                    f"LayerDict.update: the value of key {key!r} must be a Layer, got "
                    f"{type(layer).__name__}"
                )
            self.add_sublayer(key, layer)
