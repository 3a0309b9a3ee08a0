"""A program's inputs and parameters: ``data`` (a `pd_op.data` feed) and ``create_parameter``
(a `builtin.parameter` in the main program, its initializer and `builtin.set_parameter` in the
startup program), built as PaddlePaddle 3.3.1 builds them."""

from __future__ import annotations

from typing import Any, Sequence

from phiops.runtime.common import DataType, Place, to_data_type
from phiops.runtime.dispatch.op_def import op_api
from phiops.runtime.errors import AlreadyExistsError, InvalidArgumentError, PreconditionNotMetError
from phiops.runtime.ir.attributes import Attribute
from phiops.runtime.ir.builder import Builder
from phiops.runtime.ir.core import Value
from phiops.runtime.static.build import dense_type, dtype_name
from phiops.runtime.static.initializer import (
    Constant,
    Initializer,
    XavierUniform,
    global_initializer,
)
from phiops.runtime.static.mode import in_static_mode
from phiops.runtime.static.program import (
    building_startup,
    current_block,
    default_main_program,
    unique_name,
)

__all__ = ["data", "create_parameter", "persistable_value"]


def _require_static(function: str) -> None:
    if not in_static_mode():
        raise PreconditionNotMetError(
            f"{function}() builds a static program: call phi.enable_static() first"
        )


def _shape(function: str, shape: Any, unknown_allowed: bool) -> tuple[int, ...]:
    if isinstance(shape, int) and not isinstance(shape, bool):
        shape = [shape]
    if not isinstance(shape, (list, tuple)):
        raise InvalidArgumentError(
            f"{function}(): argument 'shape' expects a list of ints, got "
            f"{type(shape).__name__} {shape!r}"
        )
    dims = []
    for position, extent in enumerate(shape):
        if extent is None and unknown_allowed:
            extent = -1
        if isinstance(extent, bool) or not isinstance(extent, int):
            raise InvalidArgumentError(
                f"{function}(): argument 'shape[{position}]' expects an int"
                f"{' or None' if unknown_allowed else ''}, got {type(extent).__name__} {extent!r}"
            )
        if extent < (-1 if unknown_allowed else 0):
            expected = ">= 0, or -1 or None for an unknown extent" if unknown_allowed else ">= 0"
            raise InvalidArgumentError(
                f"{function}(): argument 'shape[{position}]' must be {expected}, got {extent}"
            )
        dims.append(extent)
    return tuple(dims)


def data(name: str, shape: Sequence[int | None], dtype: Any = "float32") -> Value:
    """A program input named ``name``: `pd_op.data`, fed by the executor. ``None`` or -1 in
    ``shape`` is an unknown extent (the batch size, typically). Data ops stay ahead of the
    block's other ops, as PaddlePaddle places them."""
    _require_static("data")
    if not isinstance(name, str) or not name:
        raise InvalidArgumentError(
            f"data(): argument 'name' expects a non-empty str, got {type(name).__name__} {name!r}"
        )
    dims = _shape("data", shape, unknown_allowed=True)
    dtype = to_data_type(dtype, "data(): argument 'dtype'")
    block = current_block()
    # PaddlePaddle puts a data op before the block's first op that is not one (parameters,
    # inserted at the start, come after the data ops made before them)
    first_other = next((i for i, op in enumerate(block.ops) if op.name != "pd_op.data"), None)
    op = Builder(block, first_other).create(
        "pd_op.data",
        (),
        [dense_type(dims, dtype)],
        {
            "dtype": dtype_name(dtype),
            "name": name,
            "place": "undefined:0",
            "shape": list(dims),
            "stop_gradient": [True],
        },
    )
    return op.results[0]


def _parameter_names(block) -> set[str]:
    return {
        op.attributes["parameter_name"].value for op in block.ops if op.name == "builtin.parameter"
    }


def create_parameter(
    shape: Sequence[int],
    dtype: Any,
    name: str | None = None,
    default_initializer: Initializer | None = None,
    is_bias: bool = False,
) -> Value:
    """A trainable parameter: `builtin.parameter` at the start of the main program, its value
    computed in the startup program by ``set_global_initializer``'s initializer, else
    ``default_initializer`` (``XavierUniform()`` for a weight,
    ``Constant(0.0)`` for a bias when none is given) and stored by `builtin.set_parameter`.
    Without a ``name`` it is ``create_parameter_N.w_0`` (``.b_0`` for a bias)."""
    _require_static("create_parameter")
    dims = _shape("create_parameter", shape, unknown_allowed=False)
    dtype = to_data_type(dtype, "create_parameter(): argument 'dtype'")
    if dtype is DataType.UNDEFINED:
        raise InvalidArgumentError("create_parameter(): argument 'dtype' must be a real dtype")
    default_initializer = global_initializer(is_bias) or default_initializer
    if default_initializer is None:
        if not dtype.is_floating_point:
            raise InvalidArgumentError(
                f"create_parameter(): a parameter of dtype {dtype_name(dtype)} needs a "
                "default_initializer (the default ones, XavierUniform and Constant(0.0) for a "
                "bias, are for floating-point parameters)"
            )
        default_initializer = Constant(0.0) if is_bias else XavierUniform()
    if not isinstance(default_initializer, Initializer):
        raise InvalidArgumentError(
            "create_parameter(): argument 'default_initializer' expects an initializer "
            f"(phi.static.initializer.Constant, ...), got {type(default_initializer).__name__}"
        )
    if name is None:
        name = f"{unique_name('create_parameter')}.{'b' if is_bias else 'w'}_0"
    elif not isinstance(name, str) or not name:
        raise InvalidArgumentError(
            f"create_parameter(): argument 'name' expects a non-empty str, got {name!r}"
        )
    main = default_main_program().block
    if name in _parameter_names(main):
        raise AlreadyExistsError(
            f"create_parameter(): the program already has a parameter named {name!r}"
        )
    with building_startup() as startup:
        initial = default_initializer.build(dims, dtype)
        init_op = initial.define_op
        init_op.attributes["persistable"] = Attribute("array", (Attribute("bool", True),))
        Builder(startup.block).create(
            "builtin.set_parameter", [initial], [], {"parameter_name": name}
        )
    flags = {key: [False] for key in ("is_distributed",)}
    flags.update({key: [True] for key in ("is_parameter", "need_clip", "persistable", "trainable")})
    op = Builder(main, 0).create(
        "builtin.parameter",
        (),
        [dense_type(dims, dtype)],
        {"parameter_name": name, "stop_gradient": [False], **flags},
    )
    return op.results[0]


def persistable_value(name: str, shape: Sequence[int], dtype: DataType, fill: float) -> Value:
    """A value kept in the scope between runs: ``full`` + ``builtin.shadow_output`` named
    ``name`` in the startup program, a persistable ``pd_op.data`` at the start of the main one
    (PaddlePaddle's ``create_persistable_value``)."""
    with building_startup() as startup:
        initial = op_api("full")(list(shape), fill, dtype, Place())
        initial.define_op.attributes["persistable"] = Attribute("array", (Attribute("bool", True),))
        Builder(startup.block).create("builtin.shadow_output", [initial], [], {"output_name": name})
    op = Builder(current_block(), 0).create(
        "pd_op.data",
        (),
        [dense_type(shape, dtype)],
        {
            "dtype": dtype_name(dtype),
            "name": name,
            "persistable": [True],
            "place": "undefined:0",
            "shape": list(shape),
            "stop_gradient": [True],
        },
    )
    return op.results[0]
