"""``Optimizer.minimize(loss)`` in a static program (runtime/optimizer/optimizer.py calls
``minimize`` here when the loss is a Value), as PaddlePaddle 3.3.1 builds it, from the same update
rule as the eager step:

1. the backward program: ``gradients(loss, parameters)`` for the program's trainable parameters
   (those not stopping the gradient, in program order), every op built stopping the gradient
   (PaddlePaddle's ``no_grad`` around ``minimize``);
2. the learning rate: a persistable ``pd_op.data`` named ``learning_rate_N`` at the start of the
   main program, set in the startup program by ``full`` + ``builtin.shadow_output``; the rule's
   accumulators (moments, beta powers, velocities: ``<param>_moment1_N`` ...) likewise, per
   parameter;
3. L2 weight decay (SGD, Adam): ``add_n([grad, scale(param, weight_decay)])`` for every
   parameter; Momentum's goes into ``momentum_`` (``l2_decay``), AdamW's into ``adamw_``;
4. the rule's update op for each parameter with a gradient (``sgd_``, ``momentum_``, ``adam_``,
   ``adamw_``, ``adagrad_``...), in place; ``adam_`` and ``adamw_`` in PaddlePaddle's PIR form
   (``build_adam``); then the rule's finishing ops (Adamax's ``scale_`` of ``beta1_pow``).

``exe.run(startup)`` stores the parameters, the learning rate and the state in the scope; each
``exe.run(main, feed=...)`` then reads them from it and writes the updates back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence

from phiops.runtime.common import CPUPlace, DataType, Place
from phiops.runtime.dispatch.op_def import op_api
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.ir.attributes import Attribute
from phiops.runtime.ir.builder import Builder
from phiops.runtime.ir.core import Value
from phiops.runtime.ir.types import NULL_TYPE, SelectedRowsType
from phiops.runtime.optimizer.rule import Accumulator, OpCall
from phiops.runtime.static.backward import gradients
from phiops.runtime.static.build import building_without_gradients, dense_type, dtype_name
from phiops.runtime.static.program import building_startup, current_block, unique_name
from phiops.runtime.static.selected_rows import rows_grad_pd_op
from phiops.runtime.static.variables import persistable_value

if TYPE_CHECKING:
    from phiops.runtime.optimizer.optimizer import Optimizer

__all__ = ["minimize", "persistable_value", "accumulator", "scalar_operand", "build"]


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
    optimizer._check_static()
    if parameters is None:
        parameters = _parameters(loss)
    no_grad = set(no_grad_set or ())
    block = current_block()
    with building_without_gradients():
        grads = gradients([loss], list(parameters), no_grad_set=no_grad)
        pairs = [(p, g) for p, g in zip(parameters, grads) if g is not None]
        # L2 weight decay first, for every parameter, then the updates (PaddlePaddle's order)
        pairs = [(p, optimizer._regularized(p, g)) for p, g in pairs]
        rate = persistable_value(unique_name("learning_rate"), [], loss.dtype, optimizer.get_lr())
        states = {
            id(p): tuple(accumulator(optimizer, p, a) for a in optimizer._accumulators())
            for p, _ in pairs
        }
        start = len(block.ops)
        for parameter, grad in pairs:
            build(optimizer._update_call(parameter, grad, rate, states[id(parameter)]))
        for parameter, _ in pairs:
            for call in optimizer._finish_calls(parameter, states[id(parameter)]):
                build(call)
    return list(block.ops[start:]), pairs


def accumulator(optimizer: Optimizer, parameter: Value, spec: Accumulator) -> Value:
    """``spec`` for ``parameter``: ``<parameter name>_<name>_N`` (a unique name)."""
    parameter_name = parameter.define_op.attributes["parameter_name"].value
    return persistable_value(
        unique_name(optimizer._accumulator_key(parameter_name, spec)),
        spec.shape_for(parameter.shape),
        spec.dtype or parameter.dtype,
        spec.fill,
    )


def build(call: OpCall) -> None:
    """Append ``call``'s op to the current block: through the generated API on Values, or, for
    the ops whose PIR form differs from phiops's spec, as PaddlePaddle builds them."""
    special = _PIR_FORMS.get(call.op)
    if special is None:
        op_api(call.op)(*call.args)
    else:
        special(call)


def scalar_operand(value: float) -> Value:
    """``full([1], value, float32, cpu)``: a Scalar attribute as PaddlePaddle passes it."""
    return op_api("full")([1], value, DataType.FLOAT32, CPUPlace())


def build_adam(call: OpCall) -> None:
    """``pd_op.adam_`` / ``pd_op.adamw_`` as PaddlePaddle 3.3.1 builds them: ``beta1``,
    ``beta2`` and ``epsilon`` as ``full`` operands; ``moment2_max`` (operand and result) absent
    without amsgrad; with a SelectedRows gradient, ``pd_op.adam_dense_param_sparse_grad_`` (the
    same operands; 3.3.1 has no such form of ``adamw_``)."""
    args = call.named()
    betas = [scalar_operand(args[name]) for name in ("beta1", "beta2", "epsilon")]
    parameter, moment1, moment2 = args["param"], args["moment1"], args["moment2"]
    moment2_max = args["moment2_max"]
    beta1_pow, beta2_pow = args["beta1_pow"], args["beta2_pow"]
    operands = [parameter, args["grad"], args["learning_rate"], moment1, moment2, moment2_max]
    operands += [beta1_pow, beta2_pow, None, None]
    types = [v.type for v in (parameter, moment1, moment2)]
    types += [NULL_TYPE if moment2_max is None else moment2_max.type]
    types += [beta1_pow.type, beta2_pow.type, NULL_TYPE]
    attributes: dict[str, Any] = {
        "amsgrad": args["amsgrad"],
        "lazy_mode": args["lazy_mode"],
        "min_row_size_to_use_multithread": 1000,
        "multi_precision": False,
        "use_global_beta_pow": False,
        "stop_gradient": [t is not NULL_TYPE for t in types],
    }
    if call.op == "adamw_":
        attributes.update(
            coeff=args["coeff"], lr_ratio=args["lr_ratio"], with_decay=args["with_decay"]
        )
    name = call.op
    if isinstance(args["grad"].type, SelectedRowsType):
        name = rows_grad_pd_op(call.op)
    Builder(current_block()).create(f"pd_op.{name}", operands + betas, types, attributes)


def build_scale_(call: OpCall) -> None:
    """``pd_op.scale_`` on a persistable value (Adamax's ``beta1_pow``), as PaddlePaddle's
    ``_finish_update`` builds it: the factor a ``full`` operand, the value scaled in place."""
    x, factor, bias, bias_after_scale = call.args
    operands = [x, scalar_operand(factor)]
    attributes = {
        "bias": float(bias),
        "bias_after_scale": bias_after_scale,
        "stop_gradient": [True],
    }
    Builder(current_block()).create("pd_op.scale_", operands, [x.type], attributes)


_PIR_FORMS: dict[str, Callable[[OpCall], None]] = {
    "adam_": build_adam,
    "adamw_": build_adam,
    "scale_": build_scale_,
}
