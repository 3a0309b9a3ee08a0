"""The IR core: op and value strings as PaddlePaddle prints them, names, the builder, uses,
verification, unregistered ops and a dialect that plugs in from this file."""

from __future__ import annotations

import json

import pytest

import phiops.generated as phi
from phiops.runtime.ir import (
    Attribute,
    Builder,
    DenseTensorType,
    Dialect,
    OpDef,
    OperandDef,
    Program,
    ResultDef,
    SimpleDialectType,
    VectorType,
)
from phiops.runtime.ir.dialect import unregister_dialect
from tests.ir.fixtures import DATA

F32 = DenseTensorType((2, 3), "f32")
RECORD = json.loads((DATA / "op_strings.json").read_text(encoding="utf-8"))


def test_str_of_program_and_block_as_paddle_prints_them() -> None:
    program = phi.ir.parse_program(RECORD["program"])
    assert str(program) == RECORD["program"]
    assert str(program.block) == RECORD["block"]


def test_str_of_each_operation_numbers_locally_as_paddle() -> None:
    program = phi.ir.parse_program(RECORD["program"])
    assert [str(op) for op in program.block.ops] == RECORD["ops"]


def test_repr_of_each_value_and_str_of_its_type_as_paddle() -> None:
    program = phi.ir.parse_program(RECORD["program"])
    assert [[repr(v) for v in op.results] for op in program.block.ops] == RECORD["values"]
    assert [[str(v.type) for v in op.results] for op in program.block.ops] == RECORD["types"]


def test_program_value_finds_the_value_printed_with_that_name() -> None:
    text = (DATA / "20_control_flow_backward.txt").read_text(encoding="utf-8")
    program = phi.ir.parse_program(text)
    assert program.value("%3").define_op.name == "pd_op.less_than"
    assert program.value("%17").define_op.name == "cf.tuple_pop"
    assert program.value("%stack_0").define_op.name == "cf.stack_create"
    assert program.value("%arg_2").owner.parent.parent.name == "pd_op.while"
    with pytest.raises(phi.NotFoundError):
        program.value("%99")


def test_values_know_their_uses_in_order() -> None:
    program = phi.ir.parse_program((DATA / "09_scale.txt").read_text(encoding="utf-8"))
    x = program.value("%0")
    assert [(op.name, index) for op, index in x.uses] == [("pd_op.scale", 0)] * 4


def test_builder_appends_typed_ops_that_print_as_paddle() -> None:
    program = Program()
    b = Builder(program.block)
    x = b.create(
        "pd_op.data",
        result_types=[F32],
        attributes={
            "dtype": Attribute("dtype", "float32"),
            "name": "x",
            "place": Attribute("place", "undefined:0"),
            "shape": [2, 3],
            "stop_gradient": [True],
        },
    ).result()
    scale = b.create(
        "pd_op.full",
        result_types=[DenseTensorType((1,), "f32")],
        attributes={
            "dtype": Attribute("dtype", "float32"),
            "place": Attribute("place", "cpu"),
            "shape": [1],
            "value": 2,
            "stop_gradient": [True],
        },
    ).result()
    op = b.create(
        "pd_op.scale",
        [x, scale],
        [F32],
        {"bias": 1, "bias_after_scale": True, "stop_gradient": [True]},
    )
    assert op.attributes["bias"] == Attribute("float", 1.0)
    assert program.block.ops[0].attributes["shape"] == Attribute("intarray", (2, 3))
    assert str(program) == (
        "{\n"
        '    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,3],'
        "stop_gradient:[true]} : () -> tensor<2x3xf32>\n"
        '    (%1) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],'
        "stop_gradient:[true],value:2} : () -> tensor<1xf32>\n"
        '    (%2) = "pd_op.scale" (%0, %1) {bias:1,bias_after_scale:true,stop_gradient:[true]} '
        ": (tensor<2x3xf32>, tensor<1xf32>) -> tensor<2x3xf32>\n"
        "}\n"
    )
    assert [use[0] for use in x.uses] == [op]
    phi.ir.verify(program)


def test_builder_rejects_wrong_operand_count_and_unknown_ops() -> None:
    b = Builder(Program().block)
    with pytest.raises(
        phi.InvalidArgumentError, match=r"'pd_op.relu' takes 1 operand\(s\) \(x\), got 0"
    ):
        b.create("pd_op.relu", [], [F32])
    with pytest.raises(phi.NotFoundError, match="pd_op.no_such_op"):
        b.create("pd_op.no_such_op")


def test_verify_rejects_a_vector_where_the_definition_wants_a_tensor() -> None:
    program = Program()
    b = Builder(program.block)
    x = b.create("pd_op.data", result_types=[F32]).result()
    vec = b.create("builtin.combine", [x, x], [VectorType((F32, F32))]).result()
    program.block.append(phi.ir.Operation("pd_op.relu", [vec], [F32]))
    with pytest.raises(
        phi.InvalidArgumentError, match="operand 'x' of 'pd_op.relu' must be a tensor"
    ):
        phi.ir.verify(program)


UNREGISTERED = (
    "{\n"
    '    (%0) = "my.source" () {flag:true,rate:1.5,sizes:[1,2],tag:"a"} : () -> tensor<2xf32>\n'
    '    () = "my.sink" (%0) {} : (tensor<2xf32>) -> \n'
    "}\n"
)


def test_unregistered_ops_are_an_error_naming_them() -> None:
    with pytest.raises(phi.ir.IRParseError, match="unknown dialect 'my' in op \"my.source\""):
        phi.ir.parse_program(UNREGISTERED)


def test_allow_unregistered_keeps_generic_ops_that_print_as_read() -> None:
    program = phi.ir.parse_program(UNREGISTERED, allow_unregistered=True)
    assert str(program) == UNREGISTERED
    assert [op.name for op in program.walk()] == ["my.source", "my.sink"]


class CharDialect(Dialect):
    """A dialect defined only here: one op, one type, one attribute kind of its own."""

    name = "tp"

    def __init__(self) -> None:
        super().__init__()
        self.add_op(
            OpDef(
                "tp.shift",
                (OperandDef("x"),),
                {"by": "int64", "letter": "tp.char"},
                (ResultDef("out"),),
            )
        )

    def parse_type(self, parser, text: str, pos: int):
        if text != "tp.token":
            raise parser.error(f"dialect 'tp' has no type '{text}'", pos)
        return SimpleDialectType(text)

    def parse_attribute(self, parser, kind: str, pos: int) -> object:
        if parser.kinds[parser.i] != "ident" or len(parser.peek()) != 1:
            raise parser.error("a tp.char is one letter", pos)
        letter = parser.peek()
        parser.i += 1
        return letter


@pytest.fixture
def char_dialect():
    phi.ir.register_dialect(CharDialect())
    yield
    unregister_dialect("tp")


def test_a_dialect_from_a_test_file_plugs_into_parser_and_printer(char_dialect) -> None:
    text = (
        "{\n"
        '    (%0) = "builtin.parameter" () {parameter_name:"w"} : () -> tp.token\n'
        '    (%1) = "tp.shift" (%0) {by:3,letter:a} : (tp.token) -> tp.token\n'
        "}\n"
    )
    program = phi.ir.parse_program(text)
    assert str(program) == text
    shift = program.block.ops[1]
    assert shift.attributes["by"] == Attribute("int64", 3)
    assert shift.attributes["letter"] == Attribute("tp.char", "a")
    with pytest.raises(phi.ir.IRParseError, match="3:41: a tp.char is one letter"):
        phi.ir.parse_program(text.replace("letter:a", "letter:ab"))
