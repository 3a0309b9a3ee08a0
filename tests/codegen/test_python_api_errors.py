"""Malformed ops/python_api.yaml entries -> exact located diagnostics (one Case per check)."""

from __future__ import annotations

import pytest

from phiops import codegen
from phiops.codegen.python_api import NONE, check_python_api

from .spec_cases import Case, compare, load_case, write_files

API = "ops/api.yaml"
PY = "ops/python_api.yaml"

OPS = (
    "- op : bar\n"
    "  args : (Tensor x, Tensor weight)\n"
    "  output : Tensor(out)\n"
    "  infer_meta :\n    func : UnchangedInferMeta\n"
    "  kernel :\n    func : bar\n"
    "  optional : weight\n"
    "- op : foo\n"
    "  args : (Tensor x, int axis, bool flatten = false, DataType dtype = DataType::INT64)\n"
    "  output : Tensor(out), Tensor(indices)\n"
    "  infer_meta :\n    func : UnchangedInferMeta\n"
    "  kernel :\n    func : foo\n"
)


def case(name: str, entry: str, *expected: str) -> Case:
    return Case(name, {API: OPS, PY: entry}, list(expected))


GOOD = "- api : foo\n  op : foo\n  args : (Tensor x, int axis = -1, str name = None)\n"

CASES = [
    case("valid_entry", GOOD),
    case(
        "unknown_key",
        GOOD + "  mapping : {x : x}\n",
        "ops/python_api.yaml:4:3: api 'foo': unknown key 'mapping'\n  hint: did you mean 'map'?",
    ),
    case(
        "duplicate_key",
        GOOD + "  op : foo\n",
        "ops/python_api.yaml:4:3: api 'foo': duplicate key 'op' (first given at line 2)",
    ),
    case(
        "no_api_key",
        "- op : foo\n  args : (Tensor x)\n",
        "ops/python_api.yaml:1:3: entry has no 'api' key\n"
        "  hint: start the entry with '- api : name'",
    ),
    case(
        "missing_op",
        "- api : foo\n  args : (Tensor x)\n",
        "ops/python_api.yaml:1:3: api 'foo': missing required key 'op'",
    ),
    case(
        "missing_args",
        "- api : foo\n  op : foo\n",
        "ops/python_api.yaml:1:3: api 'foo': missing required key 'args'",
    ),
    case(
        "api_name_not_identifier",
        "- api : foo-bar\n  op : foo\n  args : (Tensor x, int axis)\n",
        "ops/python_api.yaml:1:9: api: 'foo-bar' is not a Python identifier",
    ),
    case(
        "api_name_keyword",
        "- api : lambda\n  op : foo\n  args : (Tensor x, int axis)\n",
        "ops/python_api.yaml:1:9: api: 'lambda' is not a Python identifier",
    ),
    case(
        "op_not_a_string",
        "- api : foo\n  op : [foo]\n  args : (Tensor x, int axis)\n",
        "ops/python_api.yaml:2:8: api 'foo': 'op' must be a string, not a list",
    ),
    case(
        "unknown_op",
        "- api : foo\n  op : fooo\n  args : (Tensor x, int axis)\n",
        "ops/python_api.yaml:2:8: api 'foo': inconsistency: op 'fooo' does not exist\n"
        "  hint: did you mean 'foo'?",
    ),
    case(
        "args_do_not_parse",
        "- api : foo\n  op : foo\n  args : (Tensor x int axis)\n",
        "ops/python_api.yaml:3:20: api 'foo': args: expected ',' or ')' after an argument, "
        "found 'int'",
    ),
    case(
        "default_does_not_fit_type",
        "- api : foo\n  op : foo\n  args : (Tensor x, int axis = 1.5)\n",
        "ops/python_api.yaml:3:32: api 'foo': args: default 1.5 of argument 'axis' does not fit "
        "type int",
    ),
    case(
        "argument_given_twice",
        "- api : foo\n  op : foo\n  args : (Tensor x, int axis, int axis = 0)\n",
        "ops/python_api.yaml:3:31: api 'foo': args: argument 'axis' is given twice",
    ),
    case(
        "argument_is_keyword",
        "- api : foo\n  op : foo\n  args : (Tensor x, int lambda)\n",
        "ops/python_api.yaml:3:25: api 'foo': args: 'lambda' is a Python keyword, not an "
        "argument name",
    ),
    case(
        "required_after_default",
        "- api : foo\n  op : foo\n  args : (Tensor x = None, int axis)\n",
        "ops/python_api.yaml:3:28: api 'foo': args: argument 'axis' without a default follows "
        "'x', which has one\n  hint: Python requires defaulted arguments last",
    ),
    case(
        "argument_not_of_op",
        "- api : foo\n  op : foo\n  args : (Tensor x, int dim)\n",
        "ops/python_api.yaml:3:10: api 'foo': inconsistency: op argument 'axis' of 'foo' gets "
        "no value",
        "ops/python_api.yaml:3:21: api 'foo': inconsistency: argument 'dim' is not an argument "
        "of op 'foo'\n  hint: map it to one with 'map : {dim : ...}'; arguments of 'foo': x, "
        "axis, flatten, dtype",
    ),
    case(
        "argument_misspelt",
        "- api : foo\n  op : foo\n  args : (Tensor x, int axes)\n",
        "ops/python_api.yaml:3:10: api 'foo': inconsistency: op argument 'axis' of 'foo' gets "
        "no value",
        "ops/python_api.yaml:3:21: api 'foo': inconsistency: argument 'axes' is not an argument "
        "of op 'foo'\n  hint: did you mean 'axis'?",
    ),
    case(
        "map_to_unknown_op_argument",
        "- api : foo\n  op : foo\n  args : (Tensor x, int dim)\n  map : {dim : axes}\n",
        "ops/python_api.yaml:3:10: api 'foo': inconsistency: op argument 'axis' of 'foo' gets "
        "no value",
        "ops/python_api.yaml:4:10: api 'foo': inconsistency: argument 'axes' is not an argument "
        "of op 'foo'\n  hint: did you mean 'axis'?",
    ),
    case(
        "map_of_unknown_argument",
        "- api : foo\n  op : foo\n  args : (Tensor x, int axis)\n  map : {dim : axis}\n",
        "ops/python_api.yaml:4:10: api 'foo': inconsistency: map: 'dim' is not an argument of "
        "the function",
    ),
    case(
        "map_not_a_mapping",
        "- api : foo\n  op : foo\n  args : (Tensor x, int axis)\n  map : [dim, axis]\n",
        "ops/python_api.yaml:4:9: api 'foo': 'map' must be a mapping, not a list",
    ),
    case(
        "map_target_not_identifier",
        "- api : foo\n  op : foo\n  args : (Tensor x, int dim)\n  map : {dim : 3}\n",
        "ops/python_api.yaml:3:10: api 'foo': inconsistency: op argument 'axis' of 'foo' gets "
        "no value",
        "ops/python_api.yaml:3:21: api 'foo': inconsistency: argument 'dim' is not an argument "
        "of op 'foo'",
        "ops/python_api.yaml:4:16: api 'foo': 'map.dim' must be a string, not a number",
    ),
    case(
        "two_arguments_one_op_argument",
        "- api : foo\n  op : foo\n  args : (Tensor x, int axis, int dim = 0)\n"
        "  map : {dim : axis}\n",
        "ops/python_api.yaml:4:10: api 'foo': inconsistency: op argument 'axis' is given by "
        "both argument 'axis' and argument 'dim'",
    ),
    case(
        "argument_type_mismatch",
        "- api : foo\n  op : foo\n  args : (Tensor x, Tensor axis)\n",
        "ops/python_api.yaml:3:21: api 'foo': inconsistency: argument 'axis' is Tensor, but op "
        "argument 'axis' of 'foo' is int",
    ),
    case(
        "op_argument_without_value",
        "- api : foo\n  op : foo\n  args : (Tensor x, str name = None)\n",
        "ops/python_api.yaml:3:10: api 'foo': inconsistency: op argument 'axis' of 'foo' gets "
        "no value\n  hint: add an argument for it, map one to it, or give it in 'values'",
    ),
    case(
        "none_default_without_op_default",
        "- api : foo\n  op : foo\n  args : (Tensor x, int axis = None)\n",
        "ops/python_api.yaml:3:21: api 'foo': inconsistency: argument 'axis' defaults to None, "
        "but op argument 'axis' of 'foo' has no default to pass for it\n"
        "  hint: say what None passes with 'if_none : {axis : ...}'",
    ),
    case(
        "values_of_unknown_op_argument",
        GOOD + "  values : {flaten : true}\n",
        "ops/python_api.yaml:4:13: api 'foo': inconsistency: values: 'flaten' is not an "
        "argument of op 'foo'\n  hint: did you mean 'flatten'?",
    ),
    case(
        "values_does_not_fit_type",
        GOOD + "  values : {flatten : 3}\n",
        "ops/python_api.yaml:4:23: api 'foo': values.flatten: default 3 of argument 'flatten' "
        "does not fit type bool",
    ),
    case(
        "values_unknown_data_type",
        GOOD + "  values : {dtype : DataType::INT46}\n",
        "ops/python_api.yaml:4:31: api 'foo': values.dtype: unknown DataType 'INT46' in default "
        "DataType::INT46 of argument 'dtype'\n  hint: did you mean 'INT64'?",
    ),
    case(
        "values_not_a_literal",
        GOOD + "  values : {flatten : [true]}\n",
        "ops/python_api.yaml:4:23: api 'foo': values.flatten: expected a literal, not a list",
    ),
    case(
        "values_code_is_not_a_literal",
        GOOD + "  values : {flatten : \"__import__('os')\"}\n",
        "ops/python_api.yaml:4:24: api 'foo': values.flatten: default __import__('os') of "
        "argument 'flatten' is not a literal or constant expression",
    ),
    case(
        "values_of_an_argument_given",
        GOOD + "  values : {axis : 0}\n",
        "ops/python_api.yaml:4:13: api 'foo': inconsistency: values: op argument 'axis' is "
        "already given by argument 'axis'",
    ),
    case(
        "if_none_of_argument_without_none_default",
        GOOD + "  if_none : {axis : 0}\n",
        "ops/python_api.yaml:4:14: api 'foo': inconsistency: if_none: 'axis' is not an argument "
        "that defaults to None",
    ),
    case(
        "if_none_does_not_fit_type",
        "- api : foo\n  op : foo\n  args : (Tensor x, int axis = None)\n"
        "  if_none : {axis : 1.5}\n",
        "ops/python_api.yaml:4:21: api 'foo': if_none.axis: default 1.5 of argument 'axis' "
        "does not fit type int",
    ),
    case(
        "returns_unknown_output",
        GOOD + "  returns : indexes\n",
        "ops/python_api.yaml:4:13: api 'foo': inconsistency: returns: 'indexes' is not an "
        "output of op 'foo'\n  hint: did you mean 'indices'?",
    ),
    case(
        "returns_output_twice",
        GOOD + "  returns : [out, out]\n",
        "ops/python_api.yaml:4:19: api 'foo': returns: output 'out' is named twice",
    ),
    case(
        "returns_empty_list",
        GOOD + "  returns : []\n",
        "ops/python_api.yaml:4:13: api 'foo': returns: name at least one output",
    ),
    case(
        "optional_tensor_may_default_to_none",
        "- api : bar\n  op : bar\n  args : (Tensor x, Tensor weight = None)\n",
    ),
    case(
        "alias_not_a_list",
        GOOD + "  alias : bar\n",
        "ops/python_api.yaml:4:11: api 'foo': 'alias' must be a list like [a, b], not a string",
    ),
    case(
        "alias_not_identifier",
        GOOD + "  alias : [bar baz]\n",
        "ops/python_api.yaml:4:12: api 'foo': alias: 'bar baz' is not a Python identifier",
    ),
    case(
        "alias_is_own_name",
        GOOD + "  alias : [foo]\n",
        "ops/python_api.yaml:4:12: api 'foo': name 'foo' is already taken by itself\n"
        "  hint: each function and alias needs a name of its own",
    ),
    case(
        "arg_alias_of_unknown_argument",
        GOOD + "  arg_alias : {dim : [axes]}\n",
        "ops/python_api.yaml:4:16: api 'foo': inconsistency: arg_alias: 'dim' is not an argument "
        "of the function",
    ),
    case(
        "arg_alias_is_an_argument",
        GOOD + "  arg_alias : {axis : [x]}\n",
        "ops/python_api.yaml:4:24: api 'foo': arg_alias: 'x' is already an argument of the "
        "function",
    ),
    case(
        "arg_alias_given_to_two_arguments",
        GOOD + "  arg_alias : {x : [input], axis : [input]}\n",
        "ops/python_api.yaml:4:37: api 'foo': arg_alias: 'input' is already an alias of 'x'",
    ),
    case(
        "arg_alias_not_a_mapping",
        GOOD + "  arg_alias : [input]\n",
        "ops/python_api.yaml:4:15: api 'foo': 'arg_alias' must be a mapping, not a list",
    ),
    case(
        "arg_alias_names_not_a_list",
        GOOD + "  arg_alias : {x : input}\n",
        "ops/python_api.yaml:4:20: api 'foo': 'arg_alias.x' must be a list like [a, b], not a "
        "string",
    ),
    case(
        "method_not_a_bool",
        GOOD + "  method : yes please\n",
        "ops/python_api.yaml:4:12: api 'foo': 'method' must be true or false, not a string",
    ),
    case(
        "duplicate_function",
        GOOD + GOOD,
        "ops/python_api.yaml:4:9: api 'foo': name 'foo' is already taken by the entry at line 1",
    ),
    case(
        "alias_taken_by_other_function",
        GOOD + "- api : bar\n  op : foo\n  args : (Tensor x, int axis)\n  alias : [foo]\n",
        "ops/python_api.yaml:7:12: api 'bar': name 'foo' is already taken by the entry at line 1",
    ),
    case(
        "keyword_only_star_at_the_end",
        "- api : foo\n  op : foo\n  args : (Tensor x, int axis = -1, *)\n",
        "ops/python_api.yaml:3:36: api 'foo': args: '*' must be followed by an argument\n"
        "  hint: write the keyword-only arguments after '*', or remove it",
    ),
    case(
        "keyword_only_star_twice",
        "- api : foo\n  op : foo\n  args : (Tensor x, *, int axis = -1, *, Tensor out = None)\n",
        "ops/python_api.yaml:3:39: api 'foo': args: '*' is given twice",
    ),
    case(
        "out_not_an_optional_tensor",
        "- api : foo\n  op : foo\n  args : (Tensor x, int axis = -1, int out = 0)\n"
        "  returns : out\n",
        "ops/python_api.yaml:3:36: api 'foo': argument 'out' is 'int out = 0', but 'out' is the "
        "tensor the result is written into\n  hint: declare it 'Tensor out = None'",
    ),
    case(
        "out_of_a_function_returning_two_tensors",
        "- api : foo\n  op : foo\n"
        "  args : (Tensor x, int axis = -1, str name = None, *, Tensor out = None)\n",
        "ops/python_api.yaml:3:56: api 'foo': inconsistency: argument 'out' needs one Tensor "
        "result, but the function returns out, indices\n"
        "  hint: pick one output with 'returns : name', or drop 'out'",
    ),
    case(
        "keyword_only_argument_without_default_after_defaults",
        "- api : foo\n  op : foo\n"
        "  args : (Tensor x, str name = None, *, int axis, Tensor out = None)\n"
        "  returns : indices\n",
    ),
    case(
        "entry_not_a_mapping",
        "- foo\n",
        "ops/python_api.yaml:1:3: entry 1 is a string, expected a mapping with an 'op' key",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_malformed_entry_reports_located_message(tmp_path, case: Case) -> None:
    actual = load_case(tmp_path, case.files)
    assert compare(actual, case.expected) == case.expected


def test_lint_reports_python_api_errors_and_fails(tmp_path, capsys) -> None:
    from phiops.codegen.lint import main

    paths = write_files(tmp_path, {API: OPS, PY: GOOD + "  mapping : {}\n"})
    assert main([str(p) for p in paths]) == 1
    out = capsys.readouterr().out
    assert f"{paths[1]}:4:3: api 'foo': unknown key 'mapping'" in out


def test_valid_file_gives_the_frozen_model(tmp_path) -> None:
    paths = write_files(
        tmp_path,
        {
            API: OPS,
            PY: "- api : foo\n  op : foo\n  args : (Tensor x, int dim = None, str name = None)\n"
            "  map : {dim : axis}\n  if_none : {dim : 0}\n  returns : [indices]\n"
            "  alias : [bar]\n",
        },
    )
    specs = {op.name: op for op in codegen.load(paths[:1], base=tmp_path).ops}
    found, diagnostics = check_python_api(paths[1], specs, base=tmp_path)
    assert diagnostics == []
    api = found.find("foo")
    assert str(api.args) == "(Tensor x, int dim = None, str name = None)"
    assert api.args.get("dim").default is NONE
    assert api.op_arg("dim") == "axis"
    assert api.returns == ("indices",)
    assert api.alias == ("bar",)
    assert api.is_method
    assert str(api.loc_of("map.dim")) == "ops/python_api.yaml:4:10"
    with pytest.raises(AttributeError):
        api.name = "other"  # type: ignore[misc]


def test_keyword_only_and_out_arguments_in_the_model(tmp_path) -> None:
    paths = write_files(
        tmp_path,
        {
            API: OPS,
            PY: "- api : foo\n  op : foo\n"
            "  args : (Tensor x, int axis = -1, str name = None, *, Tensor out = None)\n"
            "  returns : indices\n",
        },
    )
    specs = {op.name: op for op in codegen.load(paths[:1], base=tmp_path).ops}
    found, diagnostics = check_python_api(paths[1], specs, base=tmp_path)
    assert diagnostics == []
    api = found.find("foo")
    assert api.keyword_only == 3
    assert api.has_out
    assert [arg.name for arg in api.passed_args] == ["x", "axis"]
