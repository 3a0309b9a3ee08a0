"""The registry holds every per-op fact: the traits of ops/op_traits.yaml, the attributes'
defaults, and the tables derived from them (operators, method aliases, legacy elementwise ops);
there is one op registry."""

from __future__ import annotations

import inspect

import phiops.generated  # noqa: F401  (registers the ops)
from phiops.runtime import dispatch
from phiops.runtime.common.data_type import DataType
from phiops.runtime.common.promotion import promotion_rule
from phiops.runtime.dispatch.op_def import (
    OP_DEFS,
    get_op_def,
    get_op_info,
    legacy_elementwise_ops,
    method_aliases,
    python_operators,
)
from phiops.runtime.dispatch.op_info import NO_DEFAULT, OperatorInfo
from phiops.runtime.static.executor.attributes import default
from phiops.runtime.static.pd_op_names import pd_op_names


def test_promotion_facts_come_from_the_registry() -> None:
    assert get_op_info("add").traits.promotes == ("x", "y")
    assert get_op_info("add_n").traits.same_dtype == ("inputs",)
    assert promotion_rule(get_op_info("where")).inputs == ((1, "x"), (2, "y"))
    assert promotion_rule(get_op_info("concat")).promotes is False
    exp = promotion_rule(get_op_info("exp"))
    assert exp.float_math == frozenset((DataType.INT32, DataType.INT64))
    assert promotion_rule(get_op_info("reshape")) is None
    assert promotion_rule(get_op_info("divide")).true_division
    assert promotion_rule(get_op_info("stack")).transform == "into_complex"
    assert promotion_rule(get_op_info("matmul")).transform == "matmul"


def test_codegen_and_runtime_agree_on_the_rule_names() -> None:
    """The closed sets of names op_traits.yaml's values may take are those the runtime has."""
    from phiops.codegen import op_traits
    from phiops.runtime.common import promotion
    from phiops.runtime.eager import scalar_operands
    from phiops.runtime.static import value_api

    assert op_traits.KERNEL_TRANSFORMS == promotion.KERNEL_TRANSFORMS
    # Values build a scale for every rule but a Tensor's ``power``; Tensors take each rule.
    assert set(op_traits.SCALAR_RULES) == set(value_api._SCALE_RULES) | {"power"}
    assert set(op_traits.SCALAR_RULES) == set(scalar_operands._SCALES) | {"over", "power"}


def test_static_building_quirks_come_from_the_registry() -> None:
    assert get_op_info("less_than").traits.results_stop_gradient
    assert not get_op_info("add").traits.results_stop_gradient
    assert get_op_info("slice").traits.value_attributes == ("starts", "ends")
    assert get_op_info("log").traits.integer_kernel
    assert not get_op_info("sqrt").traits.integer_kernel


def test_pd_op_differences_come_from_the_registry() -> None:
    assert pd_op_names("mish").phiops_name("lambda") == "threshold"
    assert pd_op_names("merged_adam_").pd_op_only == {
        "moment2_max": None,
        "moment2_max_out": None,
        "amsgrad": False,
    }
    assert pd_op_names("embedding_grad").phiops_only == {"sparse": False}
    assert pd_op_names("add").renames == {}


def test_one_operator_table_serves_tensor_and_value() -> None:
    table = {operator.dunder: (operator, op) for operator, op in python_operators()}
    assert table["__add__"] == (OperatorInfo("__add__", scalar_rule="plus"), "add")
    assert table["__rsub__"] == (
        OperatorInfo("__rsub__", reflected=True, scalar_rule="rminus", static_swaps=True),
        "subtract",
    )
    # a Value builds 1 + x as add(x, 1), as PaddlePaddle's math_op_patch does
    assert table["__radd__"][0].reflected and not table["__radd__"][0].static_swaps
    assert not table["__and__"][0].static
    assert len(table) == 24


def test_tensor_and_value_operators_call_the_tables_ops() -> None:
    from phiops.runtime.eager.tensor import Tensor
    from phiops.runtime.ir.core import Value

    for operator, _ in python_operators():
        assert callable(getattr(Tensor, operator.dunder))
        assert (operator.dunder in vars(Value)) == operator.static


def test_method_aliases_come_from_the_registry() -> None:
    aliases = method_aliases()
    assert aliases["astype"] == "cast"
    assert aliases["sub_"] == "subtract_"
    assert aliases["bmm"] == "matmul"
    assert len(aliases) == 22


def test_legacy_elementwise_ops_come_from_the_registry() -> None:
    legacy = legacy_elementwise_ops()
    assert legacy["elementwise_add"] == "add"
    assert legacy["elementwise_floordiv"] == "floor_divide"
    assert len(legacy) == 9


def test_every_attribute_default_is_the_generated_apis() -> None:
    """The registry's defaults are those the generated API functions take (which the static
    executor used to recover from their signatures)."""
    for op_def in OP_DEFS.values():
        parameters = inspect.signature(op_def.api).parameters
        for attr in op_def.attrs:
            expected = parameters[attr.name].default
            if expected is inspect.Parameter.empty:
                assert attr.default is NO_DEFAULT and not attr.has_default, (op_def.name, attr)
            else:
                assert attr.has_default and type(attr.default) is type(expected), attr
                assert attr.default == expected, (op_def.name, attr)


def test_the_executor_reads_defaults_from_the_registry() -> None:
    op_def = get_op_def("full")
    assert default(op_def, "dtype", "here") is DataType.FLOAT32
    assert get_op_info("scale").attrs[1].default == 0.0


def test_there_is_one_op_registry() -> None:
    assert not hasattr(dispatch, "OP_REGISTRY") and not hasattr(dispatch, "register_op")
    assert get_op_info("matmul") is get_op_def("matmul").info
