"""Property: any ArgList/OutputList the model can hold prints to text that parses back to it."""

from __future__ import annotations

import keyword

from hypothesis import given, settings
from hypothesis import strategies as st

from phiops.codegen.lexer import normalise
from phiops.codegen.model import Arg, ArgList, Location, Output, OutputList, SizeExpr, Type
from phiops.codegen.parse import parse_args, parse_outputs, parse_default_tokens
from phiops.codegen.lexer import tokenize

LOC = Location("f", 1, 1)
NAMES = st.from_regex(r"[a-z_][a-z0-9_]{0,8}", fullmatch=True).filter(
    lambda n: n not in ("true", "false") and not keyword.iskeyword(n)
)

ATTR_TYPES = st.sampled_from(
    [
        Type("int"),
        Type("int64_t"),
        Type("float"),
        Type("double"),
        Type("bool"),
        Type("str"),
        Type("int", True),
        Type("int64_t", True),
        Type("float", True),
        Type("str", True),
        Type("IntArray"),
        Type("Scalar"),
        Type("Scalar", False, "int"),
        Type("Scalar", False, "float"),
        Type("DataType"),
        Type("Place"),
    ]
)

INTS = st.integers(-(2**31), 2**31 - 1).map(str)
FLOATS = st.sampled_from(["0.5", "1.0f", "1e-5", "0.", "2"])
# No NUL: a string literal holding one is rejected (see test_errors.py, nul_in_string_default).
STRINGS = st.text(st.characters(codec="ascii", exclude_characters='\\"\n\r\x00'), max_size=6).map(
    lambda s: f'"{s}"'
)


def default_texts(type_: Type) -> st.SearchStrategy[str]:
    base = type_.scalar_type if type_.base == "Scalar" and type_.scalar_type else type_.base
    if type_.is_list or type_.base == "IntArray":
        item = {"int": INTS, "int64_t": INTS, "IntArray": INTS, "float": FLOATS, "str": STRINGS}[
            base
        ]
        return st.lists(item, max_size=3).map(lambda xs: "{" + ", ".join(xs) + "}")
    return {
        "int": INTS,
        "int64_t": INTS,
        "float": FLOATS | INTS,
        "double": FLOATS,
        "bool": st.sampled_from(["true", "false"]),
        "str": STRINGS,
        "Scalar": FLOATS | INTS | st.just("false"),
        "DataType": st.sampled_from(["DataType::FLOAT32", "DataType::UNDEFINED", "{}"]),
        "Place": st.sampled_from(["CPUPlace()", "GPUPlace(0)", "{}"]),
    }[base]


@st.composite
def arg_lists(draw) -> ArgList:
    names = draw(st.lists(NAMES, min_size=0, max_size=6, unique=True))
    n_tensors = draw(st.integers(0, len(names)))
    args = []
    with_defaults = False
    for index, name in enumerate(names):
        if index < n_tensors:
            args.append(
                Arg(draw(st.sampled_from([Type("Tensor"), Type("Tensor", True)])), name, None, LOC)
            )
            continue
        type_ = draw(ATTR_TYPES)
        with_defaults = with_defaults or draw(st.booleans())
        default = None
        if with_defaults:
            text = draw(default_texts(type_))
            default = parse_default_tokens(list(tokenize(text)[:-1]), type_, name)
        args.append(Arg(type_, name, default, LOC))
    return ArgList(tuple(args))


@settings(max_examples=150, deadline=None)
@given(arg_lists())
def test_arg_list_round_trips(args: ArgList) -> None:
    text = str(args)
    parsed = parse_args(text, lambda offset: LOC)
    assert parsed == args
    assert str(parsed) == text


@st.composite
def output_lists(draw) -> OutputList:
    names = draw(st.lists(NAMES, min_size=1, max_size=4, unique=True))
    outputs = []
    for name in names:
        is_list = draw(st.booleans())
        size = None
        if is_list and draw(st.booleans()):
            size_text = draw(st.sampled_from(["x.size()", "n", "w.size() - 1"]))
            size = SizeExpr(size_text, tuple(tokenize(size_text)[:-1]))
        outputs.append(Output(Type("Tensor", is_list), name, True, size, None, LOC))
    return OutputList(tuple(outputs))


@settings(max_examples=100, deadline=None)
@given(output_lists())
def test_output_list_round_trips(outputs: OutputList) -> None:
    text = str(outputs)
    parsed = parse_outputs(text, lambda offset: LOC)
    assert parsed == outputs
    assert normalise(str(parsed)) == normalise(text)
