"""``Optimizer.minimize(loss)`` in a static program (runtime/optimizer.py calls ``minimize`` here
when the loss is a Value), as PaddlePaddle 3.3.1 builds it:

1. the backward program: ``gradients(loss, parameters)`` for the program's trainable parameters
   (those not stopping the gradient, in program order), every op built stopping the gradient
   (PaddlePaddle's ``no_grad`` around ``minimize``);
2. the learning rate: a persistable ``pd_op.data`` named ``learning_rate_N`` at the start of the
   main program, set in the startup program by ``full`` + ``builtin.shadow_output``; optimizer
   state (moments, beta powers, velocities: ``<param>_moment1_N`` ...) likewise, per parameter;
3. L2 weight decay (SGD, Adam): ``add_n([grad, scale(param, weight_decay)])`` for every
   parameter; Momentum's goes into ``momentum_`` (``l2_decay``), AdamW's into ``adamw_``;
4. one update op per parameter with a gradient (``sgd_``, ``momentum_``, ``adam_``, ``adamw_``),
   in place.

``exe.run(startup)`` stores the parameters, the learning rate and the state in the scope; each
``exe.run(main, feed=...)`` then reads them from it and writes the updates back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Sequence

from phiops.runtime.common import CPUPlace, DataType, Place
from phiops.runtime.dispatch.op_def import op_api
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.ir.attributes import Attribute
from phiops.runtime.ir.builder import Builder
from phiops.runtime.ir.core import Value
from phiops.runtime.ir.types import NULL_TYPE
from phiops.runtime.static.backward import gradients
from phiops.runtime.static.build import building_without_gradients, dense_type, dtype_name
from phiops.runtime.static.program import building_startup, current_block, unique_name

if TYPE_CHECKING:
    from phiops.runtime.optimizer import Optimizer

__all__ = ["minimize", "persistable_value", "accumulator", "scalar_operand", "adam_op"]


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


def _parameters(loss: Value) -> list[Value]:
    block = loss.define_op.parent
    return [
        op.results[0]
        for op in block.ops
        if op.name == "builtin.parameter" and not op.results[0].stop_gradient
    ]


def minimize(
    optimizer: Optimizer,
    loss: Value,
    parameters: Sequence[Value] | None = None,
    no_grad_set: Iterable[Value] | None = None,
) -> tuple[list[Any], list[tuple[Value, Value]]]:
    """Append the backward program and ``optimizer``'s update ops for ``loss``; returns (the ops
    appended for the updates, the (parameter, gradient) pairs), as PaddlePaddle's ``minimize``."""
    kind = type(optimizer).__name__
    if loss.define_op is None:
        raise InvalidArgumentError(f"{kind}.minimize(): the loss must be computed by an op")
    count = 1
    for extent in loss.shape:
        count *= extent
    if count != 1:
        raise InvalidArgumentError(
            f"{kind}.minimize(): the loss must have one element, got shape {loss.shape} "
            "(reduce it with phi.mean)"
        )
    if optimizer._grad_clip is not None:
        raise UnimplementedError(
            f"{kind}.minimize() in a static program: grad_clip is not implemented there (it is "
            "eagerly); pass grad_clip=None"
        )
    if parameters is None:
        parameters = _parameters(loss)
    no_grad = set(no_grad_set or ())
    block = current_block()
    with building_without_gradients():
        grads = gradients([loss], list(parameters), no_grad_set=no_grad)
        pairs = [(p, g) for p, g in zip(parameters, grads) if g is not None]
        # L2 weight decay first, for every parameter, then the updates (PaddlePaddle's order)
        pairs = [(p, optimizer._static_regularized(p, g)) for p, g in pairs]
        rate = persistable_value(unique_name("learning_rate"), [], loss.dtype, optimizer.get_lr())
        optimizer._static_state([p for p, _ in pairs])
        start = len(block.ops)
        for parameter, grad in pairs:
            optimizer._static_update(parameter, grad, rate)
    return list(block.ops[start:]), pairs


def accumulator(
    parameter: Value, name: str, fill: float, shape: Sequence[int] | None = None
) -> Value:
    """Optimizer state for ``parameter``: ``<parameter name>_<name>_N`` (a unique name)."""
    parameter_name = parameter.define_op.attributes["parameter_name"].value
    return persistable_value(
        unique_name(f"{parameter_name}_{name}"),
        list(parameter.shape) if shape is None else list(shape),
        parameter.dtype,
        fill,
    )


def scalar_operand(value: float) -> Value:
    """``full([1], value, float32, cpu)``: a Scalar attribute as PaddlePaddle passes it."""
    return op_api("full")([1], value, DataType.FLOAT32, CPUPlace())


def adam_op(
    parameter: Value,
    grad: Value,
    rate: Value,
    state: Sequence[Value],
    beta1: float,
    beta2: float,
    epsilon: float,
    lazy_mode: bool,
    decay: tuple[float, bool] | None = None,
) -> None:
    """``pd_op.adam_`` as PaddlePaddle 3.3.1 builds it: its ``moment2_max`` operand and result
    (amsgrad, which phiops' ``adam_`` does not have) absent; with ``decay`` (coeff, with_decay),
    ``pd_op.adamw_`` (lr_ratio 1)."""
    moment1, moment2, beta1_pow, beta2_pow = state
    betas = [scalar_operand(beta1), scalar_operand(beta2), scalar_operand(epsilon)]
    operands = [parameter, grad, rate, moment1, moment2, None, beta1_pow, beta2_pow, None, None]
    types = [v.type for v in (parameter, moment1, moment2)]
    types += [NULL_TYPE, beta1_pow.type, beta2_pow.type, NULL_TYPE]
    attributes: dict[str, Any] = {
        "amsgrad": False,
        "lazy_mode": lazy_mode,
        "min_row_size_to_use_multithread": 1000,
        "multi_precision": False,
        "use_global_beta_pow": False,
        "stop_gradient": [t is not NULL_TYPE for t in types],
    }
    if decay is not None:
        attributes.update(coeff=decay[0], lr_ratio=1.0, with_decay=decay[1])
    name = "pd_op.adam_" if decay is None else "pd_op.adamw_"
    Builder(current_block()).create(name, operands + betas, types, attributes)
