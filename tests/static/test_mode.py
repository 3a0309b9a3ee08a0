"""enable_static / disable_static: what each mode does with a call, and that eager comes back."""

from __future__ import annotations

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.dispatch.dispatcher import DISPATCHERS, OpDispatcher
from phiops.runtime.dispatch.op_def import get_op_def
from phiops.runtime.dispatch.build_mode import BUILD_MODE
from phiops.runtime.static.build import build_call


def test_static_mode_is_on_inside_the_fixture():
    assert not phi.in_dynamic_mode()
    assert phi.static.in_static_mode()


def test_disable_static_gives_eager_calls_back():
    phi.disable_static()
    assert phi.in_dynamic_mode()
    out = phi.add(phi.to_tensor([1.0, 2.0]), phi.to_tensor([3.0, 4.0]))
    np.testing.assert_array_equal(out.numpy(), [4.0, 6.0])
    assert BUILD_MODE.builder is None
    assert all(isinstance(d, OpDispatcher) for d in DISPATCHERS)


def test_enable_static_installs_the_builder_and_empties_plan_caches():
    phi.disable_static()
    phi.full([2], 1.0, phi.float32)  # an eager call caches a plan
    assert get_op_def("full").dispatcher.cache
    kinds = [type(d) for d in DISPATCHERS]
    phi.enable_static()
    assert BUILD_MODE.builder is build_call
    # The dispatchers stay what they are (OpDispatcher, or the sparse ops' subclass of it that
    # selects by output kind): static mode is a check on the slow path.
    assert [type(d) for d in DISPATCHERS] == kinds
    assert all(isinstance(d, OpDispatcher) for d in DISPATCHERS)
    assert not get_op_def("full").dispatcher.cache


def test_a_call_without_tensor_inputs_builds_in_static_mode(programs):
    main, _ = programs
    out = phi.full([2], 1.0, phi.float32)
    assert isinstance(out, phi.static.Value)
    assert [op.name for op in main.block.ops] == ["pd_op.full"]


def test_enable_static_twice_and_disable_twice_are_harmless():
    phi.enable_static()
    phi.disable_static()
    phi.disable_static()
    assert phi.in_dynamic_mode()
    phi.enable_static()
    assert not phi.in_dynamic_mode()


def test_static_mode_records_no_eager_gradients_and_restores_grad_mode():
    assert not phi.is_grad_enabled()
    phi.disable_static()
    assert phi.is_grad_enabled()


def test_calls_build_into_the_default_main_program_outside_a_guard():
    before = len(phi.static.default_main_program().block.ops)
    phi.static.data("default_program_input", [1])
    assert len(phi.static.default_main_program().block.ops) == before + 1


def test_program_guard_restores_the_previous_programs():
    outer = phi.static.default_main_program()
    outer_startup = phi.static.default_startup_program()
    main, startup = phi.static.Program(), phi.static.Program()
    with phi.static.program_guard(main, startup):
        assert phi.static.default_main_program() is main
        assert phi.static.default_startup_program() is startup
    assert phi.static.default_main_program() is outer
    assert phi.static.default_startup_program() is outer_startup


def test_program_guard_without_startup_keeps_the_current_startup():
    startup = phi.static.default_startup_program()
    with phi.static.program_guard(phi.static.Program()):
        assert phi.static.default_startup_program() is startup


def test_program_guard_rejects_what_is_not_a_program():
    with pytest.raises(
        phi.InvalidArgumentError, match="'main_program' expects a phi.static.Program"
    ):
        with phi.static.program_guard("main"):
            pass


def test_data_needs_static_mode():
    phi.disable_static()
    with pytest.raises(phi.PreconditionNotMetError, match=r"data\(\) builds a static program"):
        phi.static.data("x", [1])


def test_create_parameter_needs_static_mode():
    phi.disable_static()
    with pytest.raises(phi.PreconditionNotMetError, match="call phi.enable_static"):
        phi.static.create_parameter([1], "float32")


def test_a_value_in_eager_mode_is_rejected_by_name(programs):
    x = phi.static.data("x", [2])
    phi.disable_static()
    with pytest.raises(phi.InvalidArgumentError, match=r"exp\(\): argument 'x' expects a Tensor"):
        phi.exp(x)


def test_an_eager_tensor_in_static_mode_is_rejected_by_name(programs):
    phi.disable_static()
    tensor = phi.to_tensor([1.0])
    phi.enable_static()
    with pytest.raises(phi.InvalidArgumentError, match=r"exp\(\): argument 'x' is an eager Tensor"):
        phi.exp(tensor)
