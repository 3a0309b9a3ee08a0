"""The OpDef registry: one definition per op of ops/, holding every fact the runtime looks up."""

from __future__ import annotations

from pathlib import Path

import pytest

from phiops import codegen
from phiops.codegen.generate import SPARSE_SPEC_FILES
import phiops.generated as phi
from phiops.generated.signatures import SIGNATURES
from phiops.runtime.api_functions import API_FUNCTIONS
from phiops.runtime.dispatch import OP_DEFS, OpDef, get_op_def, op_api
from phiops.runtime.dispatch.signature import KernelSignature
from phiops.runtime.errors import NotFoundError, UnimplementedError

REPO = Path(__file__).resolve().parents[2]
# the dense ops' files (the sparse ones are a namespace of their own: generated/sparse_api.py)
SPARSE = {Path(name).name for name in SPARSE_SPEC_FILES}
SPECS = codegen.load(
    sorted(p for p in (REPO / "ops").glob("*.yaml") if p.name not in SPARSE), base=REPO
)
ALL_OPS = list(SPECS.ops) + list(SPECS.backward_ops)


def test_every_op_in_the_specs_has_exactly_one_op_def() -> None:
    assert sorted(OP_DEFS) == sorted(op.name for op in ALL_OPS)


@pytest.mark.parametrize("spec", ALL_OPS, ids=lambda op: op.name)
def test_op_def_holds_the_spec_facts_of_its_op(spec: codegen.OpSpec) -> None:
    op = get_op_def(spec.name)
    assert isinstance(op, OpDef)
    assert [i.name for i in op.inputs] == [a.name for a in spec.inputs]
    assert [a.name for a in op.attrs] == [a.name for a in spec.attrs]
    assert [o.name for o in op.outputs] == [o.name for o in spec.outputs]
    assert set(op.optional) == set(spec.optional)
    assert set(op.intermediate) == set(spec.intermediate)
    assert op.inplace == tuple((p.input, p.output) for p in spec.inplace)
    assert op.view == tuple((p.input, p.output) for p in spec.view)
    assert op.no_need_buffer == tuple(spec.no_need_buffer)
    assert op.backward == spec.backward
    assert op.is_backward == spec.is_backward


@pytest.mark.parametrize("spec", ALL_OPS, ids=lambda op: op.name)
def test_op_def_binds_infer_meta_signature_grad_and_api(spec: codegen.OpSpec) -> None:
    op = get_op_def(spec.name)
    module = phi._backward if spec.is_backward else phi._api
    assert op.api is getattr(module, spec.name)
    if spec.invoke is None:
        assert callable(op.infer_meta)
        assert isinstance(op.signature, KernelSignature)
        assert op.signature is SIGNATURES[spec.name]
        assert op.signature.name == spec.kernel.dispatch_func.name
        assert op.signature.params == spec.kernel_params()
        assert set(op.signature.inputs) <= {a.name for a in spec.inputs}
        assert op.signature.outputs == tuple(o.name for o in spec.outputs)
        assert op.dispatcher is not None and op.dispatcher.info is op.info
    else:
        assert op.infer_meta is None and op.signature is None and op.dispatcher is None
    if spec.backward is None:
        assert op.grad is None
    else:
        assert op.grad.op == spec.name and op.grad.backward == spec.backward


def test_unknown_op_is_a_not_found_error_naming_it() -> None:
    with pytest.raises(NotFoundError, match="no op named 'no_such_op'"):
        get_op_def("no_such_op")
    with pytest.raises(UnimplementedError, match="'no_such_op'"):
        op_api("no_such_op")


def test_api_functions_is_a_read_only_view_of_the_op_defs() -> None:
    assert API_FUNCTIONS["matmul_grad"] is get_op_def("matmul_grad").api
    assert set(API_FUNCTIONS) == set(OP_DEFS)
    with pytest.raises(TypeError):
        API_FUNCTIONS["add"] = phi.add  # type: ignore[index]
