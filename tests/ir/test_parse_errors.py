"""Malformed PIR texts, each with the exact message and line:column the parser must report."""

from __future__ import annotations

import pytest

import phiops.generated as phi

FULL = '    (%0) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[2],stop_gradient:[true],value:1} : () -> tensor<2xf32>'
BOOL = '    (%0) = "pd_op.full" () {dtype:bool,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xb>'


def prog(*lines):
    return "{\n" + "\n".join(lines) + "\n}\n"


def relu(res, arg, t="tensor<2xf32>"):
    return f'    ({res}) = "pd_op.relu" ({arg}) {{stop_gradient:[true]}} : ({t}) -> tensor<2xf32>'


CASES = {
    "unknown_op": prog(FULL, '    (%1) = "pd_op.nope" (%0) {} : (tensor<2xf32>) -> tensor<2xf32>'),
    "unknown_dialect": prog(
        FULL, '    (%1) = "foo.relu" (%0) {} : (tensor<2xf32>) -> tensor<2xf32>'
    ),
    "malformed_op_name": prog(FULL, '    (%1) = "relu" (%0) {} : (tensor<2xf32>) -> tensor<2xf32>'),
    "undefined_value": prog(FULL, relu("%1", "%7")),
    "use_before_definition": prog(FULL, relu("%2", "%1"), relu("%1", "%0")),
    "defined_twice": prog(FULL, relu("%1", "%0"), relu("%1", "%0")),
    "operand_count": prog(
        FULL,
        '    (%1) = "pd_op.relu" (%0, %0) {} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>',
    ),
    "missing_operands": prog(FULL, '    (%1) = "pd_op.relu" () {} : () -> tensor<2xf32>'),
    "result_count": prog(
        FULL,
        '    (%1, %2) = "pd_op.relu" (%0) {} : (tensor<2xf32>) -> tensor<2xf32>, tensor<2xf32>',
    ),
    "operand_type_count": prog(
        FULL, '    (%1) = "pd_op.add" (%0, %0) {} : (tensor<2xf32>) -> tensor<2xf32>'
    ),
    "operand_type_mismatch": prog(FULL, relu("%1", "%0", "tensor<3xf32>")),
    "null_operand_not_optional": prog(relu("%1", "<<NULL VALUE>>", "<<NULL TYPE>>")),
    "vector_for_tensor": prog(
        FULL,
        '    (%1) = "builtin.combine" (%0, %0) {} : (tensor<2xf32>, tensor<2xf32>) -> vec[tensor<2xf32>,tensor<2xf32>]',
        relu("%2", "%1", "vec[tensor<2xf32>,tensor<2xf32>]"),
    ),
    "malformed_tensor_type": prog(FULL, relu("%1", "%0", "tensor<2x3>")),
    "unknown_element_type": prog(FULL.replace("-> tensor<2xf32>", "-> tensor<2xf33>")),
    "malformed_type": prog(FULL.replace("-> tensor<2xf32>", "-> f32")),
    "unclosed_vector_type": prog(FULL.replace("-> tensor<2xf32>", "-> vec[tensor<2xf32>")),
    "unknown_dialect_type": prog(FULL.replace("-> tensor<2xf32>", "-> foo.bar")),
    "unknown_dtype": prog(FULL.replace("dtype:float32", "dtype:float33")),
    "attribute_wrong_kind_bool": prog(
        '    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(cpu),shape:[2,3],stop_gradient:[true]} : () -> tensor<2x3xf32>',
        '    (%1) = "pd_op.matmul" (%0, %0) {transpose_x:1,transpose_y:false} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>',
    ),
    "attribute_wrong_kind_str": prog(FULL.replace("value:1", 'value:"one"')),
    "attribute_int32_overflow": prog(
        FULL, '    (%1) = "pd_op.softmax" (%0) {axis:3000000000} : (tensor<2xf32>) -> tensor<2xf32>'
    ),
    "unknown_attribute_value": prog(FULL.replace("place:Place(cpu)", "place:cpu")),
    "attribute_twice": prog(FULL.replace("value:1", "value:1,value:2")),
    "unterminated_string": prog(
        '    (%0) = "pd_op.data" () {dtype:float32,name:"x,place:Place(cpu),shape:[2],stop_gradient:[true]} : () -> tensor<2xf32>'
    ),
    "malformed_number": prog(FULL.replace("value:1", "value:1.2.3")),
    "malformed_number_letters": prog(FULL.replace("shape:[2]", "shape:[2abc]")),
    "missing_arrow": prog(FULL.replace(" -> ", " ")),
    "missing_equals": prog(FULL.replace(" = ", " ")),
    "missing_colon": prog(FULL.replace(" : ", " ")),
    "unbalanced_attribute_brace": prog(FULL.replace("value:1}", "value:1")),
    "extra_closing_brace": prog(FULL) + "}\n",
    "unclosed_program": "{\n" + FULL + "\n",
    "unclosed_region": "{\n"
    + BOOL
    + "\n"
    + '    () = "pd_op.if" (%0) {} ->  {\n        () = "cf.yield" () {} : () -> \n    } else {\n        () = "cf.yield" () {} : () -> \n',
    "empty_input": "",
    "whitespace_only": "  \n\n",
    "stray_character": prog(FULL.replace("(%0) =", "(%0) @=")),
    "deep_attribute_nesting": prog(FULL.replace("shape:[2]", "shape:" + "[" * 5000 + "]" * 5000)),
    "deep_type_nesting": prog(FULL.replace("-> tensor<2xf32>", "-> " + "vec[" * 5000 + "]" * 5000)),
    "deep_region_nesting": "{\n"
    + '(%0) = "pd_op.full" () {dtype:bool,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xb>\n'
    + '() = "pd_op.if" (%0) {} ->  {\n' * 3000,
    "more_result_types": prog(FULL + ", tensor<2xf32>"),
    "missing_result_type": prog(
        '    (%0, %1) = "pd_op.split_with_num" () {} : () -> tensor<2xf32>'
    ),
    "bad_op_id": prog(FULL.replace('"pd_op.full"', '"pd_op.full" [id:x]')),
    "while_block_args": prog(
        '    (%0) = "pd_op.full" () {dtype:bool,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xb>',
        '    (%1) = "pd_op.while" (cond=%0, inputs=%0) { ',
        "    ^",
        '        () = "cf.yield" (%0, %0) {} : (tensor<1xb>, tensor<1xb>) -> ',
        "    }",
    ),
    "if_null_condition": prog(
        '    () = "pd_op.if" (<<NULL VALUE>>) {} ->  {', "    } else {", "    }"
    ),
    "value_from_inner_block": prog(
        '    (%0) = "pd_op.full" () {dtype:bool,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xb>',
        '    () = "pd_op.if" (%0) {} ->  {',
        '        (%1) = "pd_op.logical_not" (%0) {} : (tensor<1xb>) -> tensor<1xb>',
        '        () = "cf.yield" () {} : () -> ',
        "    } else {",
        '        () = "cf.yield" () {} : () -> ',
        "    }",
        '    (%2) = "pd_op.logical_not" (%1) {} : (tensor<1xb>) -> tensor<1xb>',
    ),
    "expected_attribute_value": prog(FULL.replace("value:1", "value:")),
    "trailing_garbage": prog(FULL) + "x\n",
}

EXPECTED = {
    "unknown_op": (
        3,
        12,
        "unknown op \"pd_op.nope\": dialect 'pd_op' defines no such op "
        "(allow_unregistered=True keeps it as a generic op)",
    ),
    # phiops's own dialects; an op package imported earlier in the process (the custom-op
    # example's) adds its own, which test_malformed_text_reports_message_and_location allows
    "unknown_dialect": (
        3,
        12,
        "unknown dialect 'foo' in op \"foo.relu\" (registered dialects: builtin, cf, pd_op)",
    ),
    "malformed_op_name": (
        3,
        12,
        'malformed op name "relu": expected "<dialect>.<op>", like "pd_op.matmul"',
    ),
    "undefined_value": (3, 26, "undefined value %7"),
    "use_before_definition": (3, 26, "value %1 is used before its definition (line 4)"),
    "defined_twice": (4, 6, "value %1 is defined twice (first at 3:6)"),
    "operand_count": (3, 30, "'pd_op.relu' takes 1 operand(s) (x), got 2"),
    "missing_operands": (3, 12, "'pd_op.relu' takes 1 operand(s) (x), got 0"),
    "result_count": (3, 5, "'pd_op.relu' has 1 result(s), got 2"),
    "operand_type_count": (3, 38, "'pd_op.add' has 2 operand(s) but 1 operand type(s)"),
    "operand_type_mismatch": (
        3,
        26,
        "operand 0 of 'pd_op.relu' is printed with type tensor<3xf32> but %0 has type tensor<2xf32>",
    ),
    "null_operand_not_optional": (
        2,
        26,
        "operand 'x' of 'pd_op.relu' is not optional but is <<NULL VALUE>>",
    ),
    "vector_for_tensor": (
        4,
        26,
        "operand 'x' of 'pd_op.relu' must be a tensor, got vec[tensor<2xf32>,tensor<2xf32>]",
    ),
    "malformed_tensor_type": (
        3,
        56,
        "malformed tensor type 'tensor<2x3>': expected dims and an element type joined by 'x', "
        "like tensor<2x3xf32>",
    ),
    "unknown_element_type": (
        2,
        108,
        "unknown element type 'f33' in 'tensor<2xf33>' (element types: f32 f64 f16 bf16 b i8 u8 "
        "i16 i32 i64 c64 c128 f8e4m3fn f8e5m2 index undefined)",
    ),
    "malformed_type": (
        2,
        108,
        "malformed type 'f32': expected tensor<...>, vec[...], <<NULL TYPE>> or a dialect type",
    ),
    "unclosed_vector_type": (3, 1, "expected ',' or ']' between types, found '}'"),
    "unknown_dialect_type": (2, 108, "unknown dialect 'foo' in type 'foo.bar'"),
    "unknown_dtype": (
        2,
        35,
        "attribute 'dtype' of 'pd_op.full': unknown data type 'float33' (data types: Undefined "
        "bfloat16 bool complex128 complex64 float16 float32 float64 float8_e4m3fn float8_e5m2 "
        "int16 int32 int64 int8 pstring uint8)",
    ),
    "attribute_wrong_kind_bool": (
        3,
        49,
        "attribute 'transpose_x' of 'pd_op.matmul' must be a bool (true/false), got 1",
    ),
    "attribute_wrong_kind_str": (
        2,
        97,
        "attribute 'value' of 'pd_op.full' must be a double, got \"one\"",
    ),
    "attribute_int32_overflow": (
        3,
        39,
        "attribute 'axis' of 'pd_op.softmax' is an int32 and 3000000000 does not fit",
    ),
    "unknown_attribute_value": (
        2,
        49,
        "attribute 'place' of 'pd_op.full' must be a Place(...), got cpu",
    ),
    "attribute_twice": (2, 99, "attribute 'value' of 'pd_op.full' is given twice"),
    "unterminated_string": (2, 48, "unterminated string"),
    "malformed_number": (2, 97, "malformed number '1.2.3'"),
    "malformed_number_letters": (2, 67, "malformed number '2abc'"),
    "missing_arrow": (2, 105, "expected '->' after the operand types, found 'tensor<2xf32>'"),
    "missing_equals": (2, 10, "expected '=' after the results, found '\"pd_op.full\"'"),
    "missing_colon": (2, 100, "expected ':' before the operand types, found '('"),
    "unbalanced_attribute_brace": (2, 99, "expected ',' or '}' between attributes, found ':'"),
    "extra_closing_brace": (4, 1, "expected end of input after the program's block, found '}'"),
    "unclosed_program": (3, 1, "unclosed program: expected '}' before end of input"),
    "unclosed_region": (
        7,
        1,
        "unclosed false branch of pd_op.if: expected '}' before end of input",
    ),
    "empty_input": (1, 1, "empty input: expected '{' to open the program's block"),
    "whitespace_only": (3, 1, "empty input: expected '{' to open the program's block"),
    "stray_character": (2, 10, "stray character '@'"),
    "deep_attribute_nesting": (2, 130, "nesting deeper than 64 levels"),
    "deep_type_nesting": (2, 367, "nesting deeper than 64 levels"),
    "deep_region_nesting": (67, 17, "nesting deeper than 64 levels"),
    "more_result_types": (2, 123, "'pd_op.full' has 1 result(s) but 2 result type(s)"),
    "missing_result_type": (2, 53, "'pd_op.split_with_num' has 2 result(s) but 1 result type(s)"),
    "bad_op_id": (2, 29, "expected an integer op id, found 'x'"),
    "while_block_args": (4, 5, "pd_op.while has 1 input(s) but 0 block argument(s)"),
    "if_null_condition": (2, 22, "the condition of pd_op.if cannot be <<NULL VALUE>>"),
    "value_from_inner_block": (9, 33, "value %1 is not visible here (defined in another block)"),
    "expected_attribute_value": (2, 97, "expected an attribute value, found '}'"),
    "trailing_garbage": (4, 1, "expected end of input after the program's block, found 'x'"),
}


def test_the_table_covers_at_least_thirty_malformed_texts() -> None:
    assert len(CASES) >= 30 and set(CASES) == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(CASES))
def test_malformed_text_reports_message_and_location(name: str) -> None:
    line, col, message = EXPECTED[name]
    with pytest.raises(phi.ir.IRParseError) as caught:
        phi.ir.parse_program(CASES[name], "t.pir")
    error = caught.value
    if name == "unknown_dialect":
        from phiops.runtime.ir.dialect import registered_dialects

        dialects = registered_dialects()
        assert {"builtin", "cf", "pd_op"} <= set(dialects)
        message = message.replace("builtin, cf, pd_op", ", ".join(dialects))
    assert (error.line, error.col, error.message) == (line, col, message)
    text_line = CASES[name].split("\n")[line - 1] if CASES[name] else ""
    assert str(error) == f"t.pir:{line}:{col}: {message}\n{text_line}\n{' ' * (col - 1)}^"


def test_parse_error_is_a_value_error_and_a_phiops_error() -> None:
    with pytest.raises(ValueError):
        phi.ir.parse_program("", "t.pir")
    with pytest.raises(phi.PhiError):
        phi.ir.parse_program("", "t.pir")


def test_source_name_defaults_to_string() -> None:
    with pytest.raises(phi.ir.IRParseError, match=r"^<string>:1:1: empty input"):
        phi.ir.parse_program("")


# What the caret stands under, for a reader of the message: the token that is wrong or, where
# something is missing, the token found in its place ("" is the end of the input).
AT = {
    "attribute_int32_overflow": "3000000000",
    "attribute_twice": "value:2",
    "attribute_wrong_kind_bool": "1,",
    "attribute_wrong_kind_str": '"one"',
    "bad_op_id": "x]",
    "deep_attribute_nesting": "[[",
    "deep_region_nesting": "(%0)",
    "deep_type_nesting": "[vec[",
    "defined_twice": "%1) =",
    "empty_input": "",
    "expected_attribute_value": "} :",
    "extra_closing_brace": "}",
    "if_null_condition": "<<NULL VALUE>>",
    "malformed_number": "1.2.3",
    "malformed_number_letters": "2abc",
    "malformed_op_name": '"relu"',
    "malformed_tensor_type": "tensor<2x3>",
    "malformed_type": "f32",
    "missing_arrow": "tensor<2xf32>",
    "missing_colon": "() ->",
    "missing_equals": '"pd_op.full"',
    "missing_operands": '"pd_op.relu"',
    "missing_result_type": "tensor<2xf32>",
    "more_result_types": "tensor<2xf32>",
    "null_operand_not_optional": "<<NULL VALUE>>",
    "operand_count": "%0) {}",
    "operand_type_count": "(tensor<2xf32>) ->",
    "operand_type_mismatch": "%0)",
    "result_count": "(%1, %2)",
    "stray_character": "@",
    "trailing_garbage": "x",
    "unbalanced_attribute_brace": ": ()",
    "unclosed_program": "",
    "unclosed_region": "",
    "unclosed_vector_type": "}",
    "undefined_value": "%7",
    "unknown_attribute_value": "cpu",
    "unknown_dialect": '"foo.relu"',
    "unknown_dialect_type": "foo.bar",
    "unknown_dtype": "float33",
    "unknown_element_type": "tensor<2xf33>",
    "unknown_op": '"pd_op.nope"',
    "unterminated_string": '"x,',
    "use_before_definition": "%1)",
    "value_from_inner_block": "%1)",
    "vector_for_tensor": "%1)",
    "while_block_args": "^",
    "whitespace_only": "",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_caret_stands_under_the_offending_token(name: str) -> None:
    line, col, _ = EXPECTED[name]
    lines = CASES[name].split("\n")
    at = lines[line - 1][col - 1 :] if line <= len(lines) else ""
    assert at.startswith(AT[name]) and (AT[name] or at == "")
