"""The pd_op dialect defines every op PaddlePaddle 3.3.1 registers, as 3.3.1 declares it, and
each of them parses and prints back identically.

ops/paddle/registered_ops_3_3_1.json is written from PaddlePaddle 3.3.1's headers by
tests/tools/dump_pd_op_signatures.py: per op, its operands and results (in order), its number of
attributes and their C++ types.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import phiops.generated as phi
from phiops.generated.pd_op_dialect import OPS
from phiops.runtime.ir.dialect import get_dialect

REGISTERED = json.loads(
    (
        Path(__file__).resolve().parents[2] / "ops" / "paddle" / "registered_ops_3_3_1.json"
    ).read_text(encoding="utf-8")
)
# the attribute kind a C++ type of 3.3.1's Build() stores; a kind in the set agrees with it
CPP_KINDS = {
    "bool": {"bool"},
    "int": {"int32", "scalar"},
    "int64_t": {"int64", "scalar"},
    "float": {"float", "scalar"},
    "double": {"double", "scalar"},
    "std::string": {"str"},
    "phi::DataType": {"dtype"},
    "phi::Place": {"place"},
    "std::vector<int>": {"array<int32>"},
    "std::vector<int64_t>": {"array<int64>", "intarray"},
    "std::vector<float>": {"array<float>"},
    "std::vector<double>": {"array<double>"},
    "std::vector<std::string>": {"array<str>"},
    # a Scalar array holds typed scalars: assign_value_ stores Array<Double> (seen in its JSON)
    "std::vector<phi::Scalar>": {"array<scalar>", "array<double>"},
}
SAMPLE_VALUES = {
    "bool": "true",
    "int32": "-1",
    "int64": "4294967296",
    "float": "0.5",
    "double": "1e-07",
    "str": '"a"',
    "dtype": "float32",
    "place": "Place(cpu)",
    "layout": "NCHW",
    "scalar": "2",
    "intarray": "[2,3]",
    "array<int32>": "[1,2]",
    "array<int64>": "[1,2]",
    "array<float>": "[0.5,1]",
    "array<double>": "[1.5]",
    "array<str>": '["a","b"]',
    "array<scalar>": "[1]",
    "array<bool>": "[true,false]",
}
# ops with their own printers (GRAMMAR.md §7), round-tripped by the fixtures
CUSTOM_PRINTED = {"if", "while"}


def _pd_op(name: str):
    return get_dialect("pd_op").lookup(f"pd_op.{name}")


def test_the_reference_list_is_paddle_3_3_1s_whole_dialect() -> None:
    assert len(REGISTERED) == 1617
    assert {"matmul", "if", "while", "fetch", "abs_coo_sp", "masked_fill", "moe_permute"} <= set(
        REGISTERED
    )


def test_every_op_paddle_registers_is_defined() -> None:
    missing = sorted(name for name in REGISTERED if _pd_op(name) is None)
    assert missing == []


@pytest.mark.parametrize("name", sorted(REGISTERED))
def test_definition_agrees_with_paddle_3_3_1(name: str) -> None:
    theirs = REGISTERED[name]
    ours = _pd_op(name)
    if not ours.variadic_operands:
        assert [o.name for o in ours.operands] == theirs["operands"]
    if not ours.variadic_results:
        assert [r.name for r in ours.results] == theirs["results"]
    declared = theirs.get("attributes")
    if declared is None or len(declared) != theirs["attributes_num"]:
        return  # no Build() spells every attribute out: nothing to compare
    assert set(ours.attributes) == set(declared)
    for key, cpp in declared.items():
        if cpp in CPP_KINDS:
            assert ours.attributes[key] in CPP_KINDS[cpp], key


def _op_text(name: str) -> str:
    """A program whose second op is pd_op.`name`, with every operand, result and attribute."""
    opdef = _pd_op(name)
    operand_types = [
        "vec[tensor<2xf32>,tensor<2xf32>]" if o.kind == "vector" else "tensor<2xf32>"
        for o in opdef.operands
    ] or (["tensor<2xf32>"] if opdef.variadic_operands else [])
    result_types = [
        "vec[tensor<2xf32>]" if r.kind == "vector" else "tensor<-1x2xf32>" for r in opdef.results
    ] or (["tensor<2xf32>"] if opdef.variadic_results else [])
    attributes = {k: SAMPLE_VALUES[kind] for k, kind in opdef.attributes.items()}
    attributes["stop_gradient"] = "[" + ",".join(["true"] * len(result_types)) + "]"
    first = len(operand_types)
    definitions = [
        f'    (%{i}) = "pd_op.data" () {{dtype:float32,name:"x{i}",place:Place(cpu),shape:[2],'
        f"stop_gradient:[true]}} : () -> {t}"
        for i, t in enumerate(operand_types)
    ]
    results = ", ".join(f"%{first + i}" for i in range(len(result_types)))
    operands = ", ".join(f"%{i}" for i in range(first))
    attrs = ",".join(f"{k}:{v}" for k, v in sorted(attributes.items()))
    line = (
        f'    ({results}) = "pd_op.{name}" ({operands}) {{{attrs}}} : '
        f"({', '.join(operand_types)}) -> {', '.join(result_types)}"
    )
    return "{\n" + "".join(d + "\n" for d in definitions) + line + "\n}\n"


@pytest.mark.parametrize("name", sorted(set(REGISTERED) - CUSTOM_PRINTED))
def test_every_registered_op_parses_and_prints_back(name: str) -> None:
    text = _op_text(name)
    program = phi.ir.parse_program(text, f"{name}.txt")
    assert str(program) == text


def test_the_sample_program_holds_the_op_and_its_attributes() -> None:
    text = _op_text("matmul")
    assert (
        '"pd_op.matmul" (%0, %1) {stop_gradient:[true],transpose_x:true,transpose_y:true}' in text
    )


def test_the_generated_table_has_every_registered_op() -> None:
    assert set(REGISTERED) <= set(OPS)
