"""The mini-language parsers build the model and print it back canonically."""

from __future__ import annotations

import pytest

from phiops.codegen.lexer import canonical, normalise, tokenize
from phiops.codegen.model import Candidate, DataTypeConst, KernelFunc, Location, Type
from phiops.codegen.parse import (
    ParseError,
    parse_args,
    parse_call,
    parse_candidates,
    parse_forward,
    parse_kernel_funcs,
    parse_outputs,
    parse_pairs,
    parse_type,
)


def locate(offset: int) -> Location:
    return Location("f.yaml", 3, 10 + offset)


@pytest.mark.parametrize(
    "text, base, is_list, scalar_type",
    [
        ("Tensor", "Tensor", False, None),
        ("Tensor[]", "Tensor", True, None),
        ("Scalar", "Scalar", False, None),
        ("Scalar(int64_t)", "Scalar", False, "int64_t"),
        ("Scalar[]", "Scalar", True, None),
        ("IntArray", "IntArray", False, None),
        ("int64_t[]", "int64_t", True, None),
        ("str[]", "str", True, None),
        ("DataType", "DataType", False, None),
        ("Place", "Place", False, None),
    ],
)
def test_type_parses_and_prints(text, base, is_list, scalar_type) -> None:
    type_ = parse_type(text)
    assert (type_.base, type_.is_list, type_.scalar_type) == (base, is_list, scalar_type)
    assert str(type_) == text


def test_tensor_type_properties() -> None:
    assert Type("Tensor").is_tensor and not Type("Tensor").is_tensor_list
    assert Type("Tensor", True).is_tensor_list and not Type("Tensor", True).is_tensor
    assert not Type("int").is_tensor_like


def test_bare_scalar_matches_any_scalar_type() -> None:
    assert Type("Scalar").matches(Type("Scalar", False, "int"))
    assert Type("Scalar", False, "float").matches(Type("Scalar"))
    assert not Type("Scalar", False, "float").matches(Type("Scalar", False, "int"))
    assert not Type("Scalar").matches(Type("Scalar", True))


@pytest.mark.parametrize(
    "decl, kind, value",
    [
        ("int axis = -1", "int", -1),
        ("int num_thresholds = (2 << 12) - 1", "int", 8191),
        ("int64_t max_average_window = INT64_MAX", "int", 2**63 - 1),
        ("int64_t min_average_window = 10000L", "int", 10000),
        ("int dropout_seed = true", "int", 1),
        ("int q = -7/2", "int", -3),
        ("float lower = 1.0f/8", "float", 0.125),
        ("float rho = 0.95f", "float", 0.95),
        ("float average_window = 0", "float", 0.0),
        ("double rtol = 1e-5", "float", 1e-5),
        ("float epsilon = 1.0e-6f", "float", 1e-6),
        ("Scalar min = 0.", "float", 0.0),
        ("Scalar stop_update = false", "bool", False),
        ("Scalar(int) minlength = 0", "int", 0),
        ("Scalar(double) value = 1", "float", 1.0),
        ("bool keepdim = false", "bool", False),
        ('str data_layout = "AnyLayout"', "str", "AnyLayout"),
        ('str doc = "say \\"\\"\\"hi\\"\\"\\""', "str", 'say """hi"""'),
        ("int[] strides = {1, 1}", "list", (1, 1)),
        ("IntArray axis = {}", "list", ()),
        ("float[] scale = {1.0f, 2}", "list", (1.0, 2.0)),
        ('str[] names = {"a", "b"}', "list", ("a", "b")),
        ("DataType dtype = DataType::FLOAT32", "datatype", "FLOAT32"),
        ("DataType dtype = {}", "undefined", "UNDEFINED"),
        ("Place place = CPUPlace()", "place", ("cpu", None)),
        ("Place place = GPUPlace(1)", "place", ("gpu", 1)),
        ("Place place = {}", "undefined", ("undefined", None)),
    ],
)
def test_default_is_folded_and_coerced(decl, kind, value) -> None:
    (arg,) = parse_args(f"({decl})", locate).args
    assert (arg.default.kind, arg.default.value) == (kind, value)
    assert type(arg.default.value) is type(value)
    assert normalise(str(arg)) == normalise(decl)


def test_default_text_keeps_cpp_suffixes() -> None:
    args = parse_args("(float a=0.9f, int64_t b=10000L, float c=1.0f/8)", locate)
    assert [a.default.text for a in args] == ["0.9f", "10000L", "1.0f / 8"]


def test_args_print_canonically() -> None:
    text = (
        "(Tensor x,  Tensor[] ys, Scalar(int64_t) axis, int[] p={0,0}, DataType d=DataType::INT64)"
    )
    args = parse_args(text, locate)
    assert str(args) == (
        "(Tensor x, Tensor[] ys, Scalar(int64_t) axis, int[] p = {0, 0}, "
        "DataType d = DataType::INT64)"
    )
    assert args.names == ("x", "ys", "axis", "p", "d")


def test_arg_locations_point_at_the_type() -> None:
    args = parse_args("(Tensor x, int axis)", locate)
    assert [str(a.loc) for a in args] == ["f.yaml:3:11", "f.yaml:3:21"]


def test_empty_args() -> None:
    assert str(parse_args("()", locate)) == "()"


@pytest.mark.parametrize(
    "text, printed, names",
    [
        ("Tensor", "Tensor", ["out"]),
        ("Tensor (out)", "Tensor(out)", ["out"]),
        ("Tensor(q), Tensor(r)", "Tensor(q), Tensor(r)", ["q", "r"]),
        ("Tensor[](x_grad) {x.size()}", "Tensor[](x_grad){x.size()}", ["x_grad"]),
        ("Tensor[]{sections.size()}", "Tensor[]{sections.size()}", ["out"]),
        ("Tensor(out@StringTensor)", "Tensor(out@StringTensor)", ["out"]),
        ("Tensor, Tensor[]{x.size()}", "Tensor, Tensor[]{x.size()}", ["out_0", "out_1"]),
    ],
)
def test_outputs_parse_and_print(text, printed, names) -> None:
    outputs = parse_outputs(text, locate)
    assert str(outputs) == printed
    assert list(outputs.names) == names


def test_unnamed_output_is_called_out() -> None:
    (out,) = parse_outputs("Tensor", locate).outputs
    assert (out.name, out.name_given) == ("out", False)


def test_string_tensor_kind() -> None:
    (out,) = parse_outputs("Tensor(out@StringTensor)", locate).outputs
    assert (out.name, out.tensor_kind) == ("out", "StringTensor")


@pytest.mark.parametrize(
    "expr, python",
    [
        ("x.size()", "len(x)"),
        ("num", "num"),
        ("w.size()-1", "len(w) - 1"),
        ("max_level - min_level + 1", "max_level - min_level + 1"),
        (
            "axis<0 ? input.dims()[input.dims().size()+axis]:input.dims()[axis]",
            "(dict(enumerate(input.dims)).get(len(input.dims) + axis, 0) if axis < 0 "
            "else dict(enumerate(input.dims)).get(axis, 0))",
        ),
        ("(num + 1) - x.size()", "(num + 1) - len(x)"),
        ("num >= 2 ? num : 2", "(num if num >= 2 else 2)"),
        ("input.dims()[0]", "dict(enumerate(input.dims)).get(0, 0)"),
        ("input.dims().size()", "len(input.dims)"),
        # dims of a name that is not a Tensor argument
        ("x.dims()[0]", None),
        ("unknown.size()", None),
        ("x.size() * 2", None),
        ("num < 2 < 3 ? 1 : 2", None),
        ("num ? 1", None),
        ("input.dims()[]", None),
        ("input.dims", None),
        ("num == 1 ? 2 : 3", "(2 if num == 1 else 3)"),
        ("num != 1 ? 2 : 3", "(2 if num != 1 else 3)"),
        ("num = 1 ? 2 : 3", None),
    ],
)
def test_size_expression_to_python(expr, python) -> None:
    (out,) = parse_outputs(f"Tensor[](out){{{expr}}}", locate).outputs
    names = ["x", "num", "w", "max_level", "min_level", "axis", "input"]
    assert out.size_expr.python(names, ["input"]) == python


@pytest.mark.parametrize(
    "dims, axis, count",
    [((2, 3, 4), 0, 2), ((2, 3, 4), 2, 4), ((2, 3, 4), -1, 4), ((5,), -1, 5)]
    # a bad axis or a 0-D input counts none: unbind's InferMeta then names the bad argument
    + [((2, 3), 2, 0), ((2, 3), -3, 0), ((), 0, 0)],
)
def test_unbinds_count_evaluates_to_the_axis_extent(dims, axis, count) -> None:
    """The Python of unbind's spec (PaddlePaddle's text) counts its outputs for a MetaTensor."""
    from phiops.runtime.tensor.meta_tensor import MetaTensor

    text = "axis<0 ? input.dims()[input.dims().size()+axis]:input.dims()[axis]"
    (out,) = parse_outputs(f"Tensor[](out){{{text}}}", locate).outputs
    python = out.size_expr.python(["input", "axis"], ["input"])
    meta = MetaTensor(name="input")
    meta.set_dims(dims)
    assert eval(python, {}, {"input": meta, "axis": axis}) == count


def test_forward_signature() -> None:
    sig = parse_forward("abs_grad(Tensor x, Tensor grad_out) -> Tensor(grad_x)", locate)
    assert sig.name == "abs_grad"
    assert str(sig) == "abs_grad (Tensor x, Tensor grad_out) -> Tensor(grad_x)"


def test_pairs_in_both_spellings() -> None:
    assert [
        str(p) for p in parse_pairs("(mean -> mean_out), (variance -> variance_out)", locate)
    ] == ["(mean -> mean_out)", "(variance -> variance_out)"]
    grouped = parse_pairs("(scale -> out_scale, in_accum -> out_accum)", locate)
    assert [(p.input, p.output) for p in grouped] == [
        ("scale", "out_scale"),
        ("in_accum", "out_accum"),
    ]


@pytest.mark.parametrize(
    "text, kinds",
    [
        ("full(shape, 1, dtype, place)", ["name", "literal", "name", "name"]),
        ("cast (out_grad, x.dtype())", ["name", "method"]),
        ("cumsum(out_grad, axis, !reverse)", ["name", "name", "not"]),
        ("scale(out_grad, 0.0f, -1, true)", ["name", "literal", "literal", "literal"]),
        ("matmul_double_grad(x, transpose_x=false)", ["name", "keyword"]),
        ("zeros_like()", []),
    ],
)
def test_call_argument_kinds(text, kinds) -> None:
    call = parse_call(text, locate)
    assert [a.kind for a in call.args] == kinds


def test_call_argument_details() -> None:
    call = parse_call("cast(out_grad, x.dtype(), !reverse, 0.5f, t=true)", locate)
    method, negation, literal, keyword = call.args[1:]
    assert (method.name, method.method) == ("x", "dtype")
    assert negation.name == "reverse"
    assert (literal.literal.kind, literal.literal.value, literal.text) == ("float", 0.5, "0.5f")
    assert (keyword.name, keyword.literal.value) == ("t", True)
    assert str(call) == "cast(out_grad, x.dtype(), !reverse, 0.5f, t = true)"
    assert not call.is_cpp_helper and parse_call("copy_to_impl(x)", locate).is_cpp_helper


@pytest.mark.parametrize(
    "text, items, ordered",
    [
        ("x", [Candidate("x")], False),
        ("dtype > x", [Candidate("dtype"), Candidate("x")], True),
        ("a, b", [Candidate("a"), Candidate("b")], False),
        ("complex(out_grad)", [Candidate("out_grad", complex_of=True)], False),
        ("DataType::FLOAT32", [DataTypeConst("FLOAT32")], False),
    ],
)
def test_candidates(text, items, ordered) -> None:
    candidates, notes = parse_candidates(text, locate)
    assert list(candidates.items) == items and candidates.ordered == ordered
    assert str(candidates) == text and notes == ()


@pytest.mark.parametrize(
    "text, printed, ordered, notes",
    [
        ("place>", "place", True, ["empty candidate after '>' in 'place>'"]),
        ("x, y,", "x, y", False, ["empty candidate after ',' in 'x, y,'"]),
        ("> x > y", "x > y", True, ["empty candidate before '>' in '> x > y'"]),
        ("x > > y", "x > y", True, ["empty candidate after '>' in 'x > > y'"]),
        ("complex(x) >", "complex(x)", True, ["empty candidate after '>' in 'complex(x) >'"]),
    ],
)
def test_empty_candidates_are_dropped_with_a_note(text, printed, ordered, notes) -> None:
    candidates, found = parse_candidates(text, locate)
    assert (str(candidates), candidates.ordered, list(found)) == (printed, ordered, notes)
    assert candidates.loc == locate(0)


@pytest.mark.parametrize("text", [">", ",", "", "x, y > z", "x >> y"])
def test_candidates_without_a_name_or_mixing_separators_raise(text) -> None:
    with pytest.raises(ParseError):
        parse_candidates(text, locate)


def test_kernel_funcs_with_dispatch_kinds() -> None:
    funcs = parse_kernel_funcs(
        "adagrad {dense, dense -> dense} " "adagrad_sr {dense, selected_rows -> dense}, other"
    )
    assert funcs == (
        KernelFunc("adagrad", ("dense", "dense"), ("dense",)),
        KernelFunc("adagrad_sr", ("dense", "selected_rows"), ("dense",)),
        KernelFunc("other"),
    )


@pytest.mark.parametrize(
    "text",
    [
        "(Tensor x, int n = 1 + )",
        "(Tensor x int n)",
        "(Tensor x,)",
        "(int n = {1, {2}})",
        "(int n = 1abc)",
        "(Tensor 1x)",
        "(int n = INT128_MAX)",
        '(str s = "unterminated)',
    ],
)
def test_malformed_args_raise_parse_error(text) -> None:
    with pytest.raises(ParseError):
        parse_args(text, locate)


def test_canonical_spacing() -> None:
    assert canonical(tokenize("( 2<<12 )-1")) == "(2 << 12) - 1"
    assert canonical(tokenize("x.size( )-1")) == "x.size() - 1"
    assert canonical(tokenize("{ 1,-1 }")) == "{1, -1}"
    assert normalise("Tensor[] (x)  { n }") == "Tensor [ ] ( x ) { n }"
