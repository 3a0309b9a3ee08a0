"""Blocks with keyword arguments, printed as GRAMMAR.md §1 and §3 describe them: after the block's
`{`, a line `^kw:` at the ops' indent, then one `%kwarg_<name>` per line, indented once more.
The text gives no type for them; each takes the type its first use prints."""

from __future__ import annotations

from pathlib import Path

import pytest

import phiops.generated as phi
from phiops.runtime.errors import AlreadyExistsError, InvalidArgumentError, UnimplementedError
from phiops.runtime.ir import Builder, DenseTensorType, Program

F32 = DenseTensorType((2, 3), "f32")
ONE = DenseTensorType((1,), "f32")
SCALE = (
    '    (%0) = "pd_op.scale" (%kwarg_x, %kwarg_lr) {bias:0,bias_after_scale:true,'
    "stop_gradient:[true]} : (tensor<2x3xf32>, tensor<1xf32>) -> tensor<2x3xf32>\n"
)
TEXT = "{\n    ^kw:\n        %kwarg_x\n        %kwarg_lr\n" + SCALE + "}\n"


def _program_with_kwargs() -> Program:
    program = Program()
    x = program.block.add_kwarg("x", F32)
    lr = program.block.add_kwarg("lr", ONE)
    Builder(program.block).create(
        "pd_op.scale",
        [x, lr],
        [F32],
        {"bias": 0, "bias_after_scale": True, "stop_gradient": [True]},
    )
    return program


def test_a_block_with_keyword_arguments_prints_them_after_its_brace() -> None:
    assert str(_program_with_kwargs()) == TEXT


def test_keyword_arguments_print_in_the_order_they_were_added() -> None:
    program = Program()
    for name in ("b", "a", "c0"):
        program.block.add_kwarg(name, F32)
    assert str(program) == "{\n    ^kw:\n        %kwarg_b\n        %kwarg_a\n        %kwarg_c0\n}\n"


def test_parsed_keyword_arguments_print_back_identically() -> None:
    assert str(phi.ir.parse_program(TEXT)) == TEXT


def test_a_parsed_keyword_argument_takes_the_type_of_its_first_use() -> None:
    program = phi.ir.parse_program(TEXT)
    assert list(program.block.kwargs) == ["x", "lr"]
    assert program.block.kwargs["x"].type == F32
    assert program.value("%kwarg_lr") is program.block.kwargs["lr"]
    assert program.value("%kwarg_lr").type == ONE


def test_parse_print_parse_of_keyword_arguments_gives_an_equal_program() -> None:
    first = phi.ir.parse_program(TEXT)
    assert phi.ir.parse_program(str(first)) == first == _program_with_kwargs()


def test_programs_whose_keyword_arguments_differ_in_type_are_not_equal() -> None:
    other = Program()
    other.block.add_kwarg("x", DenseTensorType((2, 3), "f64"))
    other.block.add_kwarg("lr", ONE)
    assert other != _program_with_kwargs()


def test_keyword_arguments_of_a_nested_block_print_at_its_ops_indent() -> None:
    text = (
        "{\n"
        '    (%0) = "pd_op.full" () {dtype:bool,place:Place(cpu),shape:[1],stop_gradient:[true],'
        "value:1} : () -> tensor<1xb>\n"
        '    (%1) = "pd_op.if" (%0) {stop_gradient:[true]} -> tensor<2x3xf32> {\n'
        "        ^kw:\n"
        "            %kwarg_y\n"
        '        () = "cf.yield" (%kwarg_y) {} : (tensor<2x3xf32>) -> \n'
        "    } else {\n"
        "        ^kw:\n"
        "            %kwarg_z\n"
        '        () = "cf.yield" (%kwarg_z) {} : (tensor<2x3xf32>) -> \n'
        "    }\n"
        "}\n"
    )
    program = phi.ir.parse_program(text)
    assert str(program) == text
    branch = program.block.ops[1].regions[0].blocks[0]
    assert branch.kwargs["y"].type == F32


def test_a_keyword_argument_is_visible_only_in_its_block() -> None:
    text = (
        "{\n"
        '    (%0) = "pd_op.full" () {dtype:bool,place:Place(cpu),shape:[1],stop_gradient:[true],'
        "value:1} : () -> tensor<1xb>\n"
        '    (%1) = "pd_op.if" (%0) {stop_gradient:[true]} -> tensor<2x3xf32> {\n'
        "        ^kw:\n"
        "            %kwarg_y\n"
        '        () = "cf.yield" (%kwarg_y) {} : (tensor<2x3xf32>) -> \n'
        "    } else {\n"
        '        () = "cf.yield" (%kwarg_y) {} : (tensor<2x3xf32>) -> \n'
        "    }\n"
        "}\n"
    )
    with pytest.raises(phi.ir.IRParseError) as error:
        phi.ir.parse_program(text, "k.txt")
    assert str(error.value).splitlines()[0] == (
        "k.txt:8:26: value %kwarg_y is not visible here (defined in another block)"
    )


def _error(text: str) -> str:
    with pytest.raises(phi.ir.IRParseError) as error:
        phi.ir.parse_program(text, "k.txt")
    return str(error.value).splitlines()[0]


def test_kw_without_any_keyword_argument_is_an_error() -> None:
    assert _error("{\n    ^kw:\n}\n") == (
        "k.txt:3:1: expected a keyword argument like '%kwarg_x' after '^kw:', found '}'"
    )


def test_a_keyword_argument_not_named_kwarg_is_an_error() -> None:
    assert _error("{\n    ^kw:\n        %3\n}\n") == (
        "k.txt:3:9: block keyword argument %3 must be named like '%kwarg_x'"
    )


def test_a_keyword_argument_declared_twice_is_an_error() -> None:
    assert _error("{\n    ^kw:\n        %kwarg_x\n        %kwarg_x\n}\n") == (
        "k.txt:4:9: value %kwarg_x is defined twice (first at 3:9)"
    )


def test_kw_without_its_colon_is_an_error() -> None:
    assert _error("{\n    ^kw\n        %kwarg_x\n}\n").startswith("k.txt:3:9: expected ':'")


def test_a_second_use_with_another_type_is_an_error() -> None:
    second_use = SCALE.replace("(%0)", "(%1)").replace("tensor<2x3xf32>, t", "tensor<2x4xf32>, t")
    assert _error(TEXT[:-2] + second_use + "}\n") == (
        "k.txt:6:27: operand 0 of 'pd_op.scale' is printed with type tensor<2x4xf32> but "
        "%kwarg_x has type tensor<2x3xf32>"
    )


def test_add_kwarg_rejects_a_name_that_cannot_be_printed() -> None:
    with pytest.raises(InvalidArgumentError, match="must be letters, digits and '_'"):
        Program().block.add_kwarg("a-b", F32)


def test_add_kwarg_rejects_a_name_used_twice() -> None:
    block = Program().block
    block.add_kwarg("x", F32)
    with pytest.raises(AlreadyExistsError, match="already has a keyword argument 'x'"):
        block.add_kwarg("x", F32)


def test_saving_keyword_arguments_to_a_program_file_is_unimplemented(tmp_path: Path) -> None:
    with pytest.raises(UnimplementedError, match="keyword arguments"):
        phi.ir.save_program_json(_program_with_kwargs(), tmp_path / "p.json")


def test_verify_accepts_operands_that_are_keyword_arguments() -> None:
    phi.ir.verify(phi.ir.parse_program(TEXT))
