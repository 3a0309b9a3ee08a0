"""What a program's ``Value`` offers the user in static mode, as PaddlePaddle's
``paddle/pir/math_op_patch.py`` gives it: ``shape``, ``dtype``, ``ndim``, ``astype``, the tensor
methods (``sum``, ``reshape``, ...) and the Python operators, each building ops through the
generated API.

Operators follow PaddlePaddle's rules: ``+ - * /`` with a Python number become one
``pd_op.scale`` (``x - 1.0`` is ``scale(x, 1, bias=-1)``, ``1.0 - x`` is ``scale(x, -1, bias=1)``,
``x / 4`` is ``scale(x, 0.25)``); an integer value meeting a float is cast to float32 first, as is
one divided by an int (an op whose traits say ``true_division``). Other operators turn the number
into a ``full`` of the value's dtype (shape ``[]``, or the value's shape when the number comes
first) and call the binary op; so
do numpy scalars other than np.float64 (np.float32, np.int64, np.bool_, ...) and 0-D arrays, whatever
the operator. Operands of different dtypes are cast to the compute dtype first (static build).
``install_value_api()`` puts all this on ``phiops.runtime.ir.Value`` (``phiops.runtime.static`` calls it
once) but the operators, which ``install_value_operators`` makes from the registry's table when
the generated package registers the ops.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np

from phiops.runtime.common import DataType, Place
from phiops.runtime.dispatch.op_def import get_op_info, op_api
from phiops.runtime.errors import InvalidArgumentError, PreconditionNotMetError, UnimplementedError
from phiops.runtime.ir.core import Value
from phiops.runtime.static.build import dtype_of_type

__all__ = ["install_value_api", "install_value_operators", "install_value_methods"]

_INTEGER = (DataType.UINT8, DataType.INT8, DataType.INT16, DataType.INT32, DataType.INT64)


def _shape(value: Value) -> list[int]:
    return list(value.type.dims)


def _dtype(value: Value) -> DataType:
    return dtype_of_type(value.type)


def _astype(value: Value, dtype: Any) -> Value:
    return op_api("cast")(value, dtype)


def _scale(value: Value, scale: float, bias: float) -> Value:
    return op_api("scale")(value, scale, bias, True)


# an operator's scalar_rule (ops/op_traits.yaml scalar_operators) -> the pd_op.scale it builds
# for a Value ``v`` meeting a Python number ``s``
_SCALE_RULES: dict[str, Callable[[Value, float], Value]] = {
    "plus": lambda v, s: _scale(v, 1.0, s),
    "minus": lambda v, s: _scale(v, 1.0, -s),
    "rminus": lambda v, s: _scale(v, -1.0, s),
    "times": lambda v, s: _scale(v, s, 0.0),
    "over": lambda v, s: _scale(v, 1.0 / s, 0.0),
}


def _numpy_operand(op: str, self: Value, other: np.generic | np.ndarray) -> Value:
    """A numpy scalar that is no Python number (np.float32, np.int64, np.bool_, ...) or a 0-D
    array, as PaddlePaddle's math_op_patch takes it: ``full([], value)`` of the value's dtype
    (np.float32(2.5) with an int64 value is a full of 2.5 in int64)."""
    if isinstance(other, np.ndarray) and other.ndim != 0:
        raise InvalidArgumentError(
            f"{op}(): a numpy array of shape {list(other.shape)} next to a Value; only a 0-D "
            "array or a number is taken (make it a Value: phi.assign or phi.static.data)"
        )
    number = other.item()
    if isinstance(number, complex):
        raise InvalidArgumentError(
            f"{op}(): a numpy {other.dtype} next to a Value; PaddlePaddle takes no complex "
            "numpy scalar here (use a Python complex or a Value)"
        )
    return op_api("full")([], number, _dtype(self), Place())


def _binary(op: str, reverse: bool = False, scalar_rule: str | None = None) -> Callable:
    # a rule that is no scale (a Tensor's ``power``) builds the op on a full, as no rule does
    scalar = _SCALE_RULES.get(scalar_rule) if scalar_rule else None
    true_division = get_op_info(op).traits.true_division

    def method(self: Value, other: Any) -> Any:
        if isinstance(other, (np.generic, np.ndarray)) and not isinstance(other, (float, int)):
            other = _numpy_operand(op, self, other)
        if isinstance(other, float):
            if _dtype(self) in _INTEGER:
                self = _astype(self, DataType.FLOAT32)
            if scalar is not None:
                return scalar(self, other)
        elif isinstance(other, int):
            other = float(other)
            if true_division and _dtype(self) in _INTEGER:
                self = _astype(self, DataType.FLOAT32)
            if _dtype(self) is DataType.BOOL:
                self = _astype(self, DataType.INT64)
            if scalar is not None:
                return scalar(self, other)
        elif not isinstance(other, Value):
            return NotImplemented
        if not isinstance(other, Value):
            dtype = _dtype(self)
            if reverse:
                shape = _shape(self)
                if any(extent < 0 for extent in shape):
                    raise UnimplementedError(
                        f"a number on the left of a Value of unknown shape {shape} (a {op} "
                        "operator) needs full_batch_size_like, which phiops does not have; put "
                        "the Value first or use phi.full"
                    )
                other = op_api("full")(shape, other, dtype, Place())
            else:
                other = op_api("full")([], other, dtype, Place())
        if reverse:
            self, other = other, self
        return op_api(op)(self, other)

    method.__doc__ = f"Builds ``{op}``{' with the operands swapped' if reverse else ''}."
    return method


def _method(name: str) -> Callable:
    def method(self: Value, *args: Any, **kwargs: Any) -> Any:
        return op_api(name)(self, *args, **kwargs)

    method.__name__ = name
    method.__doc__ = f"Builds ``{name}`` on this value."
    return method


def install_value_api() -> None:
    """Give ``phiops.runtime.ir.Value`` its user-facing properties, methods and operators."""
    Value.shape = property(_shape, doc="The dims, -1 where unknown.")
    Value.dtype = property(_dtype, doc="The element DataType.")
    Value.ndim = property(lambda self: len(self.type.dims), doc="The number of dims.")
    Value.astype = _astype
    Value.__neg__ = lambda self: _scale(self, -1.0, 0.0)
    Value.__abs__ = lambda self: op_api("abs")(self)
    # `==` builds an op, so hashing stays by identity (values key the printer's and verifier's
    # dicts and sets) and truth testing is an error, as in PaddlePaddle: `if x > 0:` cannot be
    # decided while the program is built, and `value in some_list` must not silently succeed
    Value.__hash__ = object.__hash__
    Value.__bool__ = _bool


def install_value_operators(operators: Sequence[tuple[Any, str]]) -> None:
    """Give ``Value`` the Python operators of the registry (``python_operators()``: (OperatorInfo,
    op) pairs, the table Tensor's operators come from too), each building its op; those not
    ``static`` (a Tensor's ``&`` and ``|``) are left out."""
    for operator, op in operators:
        if operator.static:
            setattr(
                Value, operator.dunder, _binary(op, operator.static_swaps, operator.scalar_rule)
            )


def install_value_methods(names: Sequence[str]) -> None:
    """Give ``Value`` the tensor methods ``names`` (runtime/eager/tensor.py's ``TENSOR_METHODS``,
    which ``generated`` installs on Tensor), each building the op of that name; a name ``Value``
    already has keeps its meaning."""
    for name in names:
        if name not in _VALUE_OWN:
            setattr(Value, name, _method(name))


_VALUE_OWN = frozenset(dir(Value)) | {"shape", "dtype", "ndim", "astype"}


def _bool(self: Value) -> bool:
    raise PreconditionNotMetError(
        "bool(Value) is undefined while a program is built (its data exists only when the "
        "program runs): `if x > 0:` or `x in [...]` on Values cannot be decided; compare Values "
        "with `is`, or branch with phi.where"
    )
