"""Python spellings of model objects: annotations, defaults, normalisation lines, calls.

Every string returned here is built from identifiers the model validated and literals it
re-printed; nothing from a YAML file is copied into Python source verbatim.
"""

from __future__ import annotations

import keyword
import re
from dataclasses import dataclass

from phiops.codegen.errors import Diagnostic
from phiops.codegen.model import Arg, Call, CallArg, OpSpec, Output

__all__ = [
    "GenerationError",
    "annotation",
    "default_literal",
    "literal",
    "normalise_lines",
    "invoke_call",
    "key_attrs",
    "returns_annotation",
    "PyArg",
    "python_args",
    "candidate_names",
    "output_size",
    "identifier",
    "has_name_arg",
    "name_params",
    "NAME_PARAM",
]

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


class GenerationError(Exception):
    """A spec that is valid YAML schema but cannot be generated; carries a Diagnostic."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(str(diagnostic))
        self.diagnostic = diagnostic


def _error(op: OpSpec, key: str, message: str, hint: str | None = None) -> GenerationError:
    return GenerationError(Diagnostic(op.loc_of(key), op.name, message, hint))


def _arg_error(op: OpSpec, arg: Arg, message: str) -> GenerationError:
    return GenerationError(Diagnostic(arg.loc, op.name, message))


NAME_PARAM = "name"


def identifier(op: OpSpec, name: str, what: str, key: str = "args") -> str:
    """``name`` if it can be a Python parameter name, else a GenerationError. An argument may be
    called ``name`` (``data``'s): it replaces the trailing ``name=None`` of the API function
    (`name_params`); an output may not, so that a caller's ``name=`` never means one."""
    taken = name == NAME_PARAM and what != "argument"
    if not _IDENTIFIER.match(name) or keyword.iskeyword(name) or name.startswith("_") or taken:
        hint = "use an identifier that is not a Python keyword and does not start with '_'"
        raise _error(
            op,
            key,
            f"{what} '{name}' cannot be a Python parameter name",
            hint + (" (an output is never called 'name')" if taken else ""),
        )
    return name


def has_name_arg(op: OpSpec) -> bool:
    """Whether ``op`` has an argument called ``name`` of its own (``data``), which takes the
    place of PaddlePaddle's trailing, unused ``name=None``."""
    return NAME_PARAM in op.args.names


def name_params(op: OpSpec) -> list[str]:
    """The trailing ``name`` parameter of ``op``'s API function: PaddlePaddle's unused
    ``name=None``, or none when the op has an argument of that name."""
    return [] if has_name_arg(op) else ["name: str | None = None"]


_ATTR_ANNOTATIONS = {
    "IntArray": "IntArrayLike",
    "Scalar": "ScalarLike",
    "DataType": "DataTypeLike",
    "Place": "PlaceLike",
    "DataLayout": "DataLayout",
    "int": "int",
    "int64_t": "int",
    "float": "float",
    "double": "float",
    "bool": "bool",
    "str": "str",
}
_LIST_ANNOTATIONS = {
    "int": "Sequence[int]",
    "int64_t": "Sequence[int]",
    "float": "Sequence[float]",
    "double": "Sequence[float]",
    "bool": "Sequence[bool]",
    "str": "Sequence[str]",
    "Scalar": "Sequence[ScalarLike]",
}


def annotation(op: OpSpec, arg: Arg) -> str:
    """The parameter annotation of ``arg`` in the public API."""
    t = arg.type
    if t.is_tensor_like:
        text = "list[Tensor]" if t.is_list else "Tensor"
        return f"{text} | None" if arg.name in op.optional else text
    table = _LIST_ANNOTATIONS if t.is_list else _ATTR_ANNOTATIONS
    try:
        return table[t.base]
    except KeyError:
        raise _arg_error(
            op, arg, f"argument '{arg.name}' of type {t} is not supported by the Python API"
        ) from None


def literal(value: object) -> str:
    """Python source for a literal value the model produced (number, bool, str, tuple)."""
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int):
        return repr(value)
    if isinstance(value, float):
        if value != value:
            return 'float("nan")'
        if value in (float("inf"), float("-inf")):
            return 'float("inf")' if value > 0 else '-float("inf")'
        return repr(value)
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, tuple):
        items = ", ".join(literal(v) for v in value)
        return f"({items},)" if len(value) == 1 else f"({items})"
    raise TypeError(f"not a literal the generator emits: {value!r}")


def default_literal(op: OpSpec, arg: Arg) -> str:
    """Python source of ``arg``'s default, coerced to its declared type."""
    default = arg.default
    assert default is not None
    t = arg.type
    kind, value = default.kind, default.value
    if t.base == "DataType":
        if kind in ("datatype", "undefined"):
            return f"DataType.{value}"
    elif t.base == "DataLayout":
        if kind in ("layout", "undefined"):
            return f"DataLayout.{value}"
    elif t.base == "Place":
        if kind in ("place", "undefined"):
            where, device = value  # type: ignore[misc]
            if where == "cpu":
                return "CPUPlace()"
            if where == "gpu":
                return f"GPUPlace({int(device)})"
            return "None"
    elif t.is_list or t.base == "IntArray":
        if kind == "undefined" or (kind == "list" and not value):
            return "()"
        if kind == "list":
            return literal(tuple(_coerce(op, arg, item, t.base) for item in value))  # type: ignore[union-attr]
        if kind == "int" and t.base == "IntArray":
            return literal((int(value),))  # type: ignore[arg-type]
    elif kind in ("int", "float", "bool", "str"):
        return literal(_coerce(op, arg, value, t.scalar_type or t.base))
    raise _arg_error(
        op, arg, f"default {default.text} of argument '{arg.name}' does not fit type {t}"
    )


def _coerce(op: OpSpec, arg: Arg, value: object, base: str) -> object:
    if base in ("float", "double"):
        if isinstance(value, (int, float)):
            return float(value)
    elif base in ("int", "int64_t", "IntArray"):
        if isinstance(value, (bool, int)):
            return int(value)
        if isinstance(value, float) and value.is_integer():
            return int(value)
    elif base == "bool":
        if isinstance(value, (bool, int)):
            return bool(value)
    elif base == "str":
        if isinstance(value, str):
            return value
    elif base == "Scalar":
        if isinstance(value, (bool, int, float)):
            return value
    raise _arg_error(
        op, arg, f"default {value!r} of argument '{arg.name}' does not fit type {arg.type}"
    )


# (exact type test, normaliser) per attribute type; None test means "always normalise".
_NORMALISERS: dict[str, tuple[str | None, str]] = {
    "bool": ("bool", "to_bool"),
    "int": ("int", "to_int32"),
    "int64_t": ("int", "to_int64"),
    "float": ("float", "to_float32"),
    "double": ("float", "to_float"),
    "str": ("str", "to_str"),
    "IntArray": (None, "to_int_array"),
    "DataType": ("DataType", "to_dtype"),
    "Place": ("Place", "to_place_attr"),
    "Scalar": (None, "to_scalar"),
    "Scalar(int)": ("int", "to_scalar_int"),
    "Scalar(int64_t)": ("int", "to_scalar_int"),
    "Scalar(float)": ("float", "to_scalar_float32"),
    "Scalar(double)": ("float", "to_scalar_float"),
    "Scalar(bool)": ("bool", "to_scalar_bool"),
    "int[]": (None, "to_int_list"),
    "int64_t[]": (None, "to_int_list"),
    "float[]": (None, "to_float32_list"),
    "double[]": (None, "to_float_list"),
    "bool[]": (None, "to_bool_list"),
    "str[]": (None, "to_str_list"),
    "Scalar[]": (None, "to_scalar_list"),
}

# An int of the exact type still goes through the normaliser when it is out of the attribute's
# range, so the range check costs a comparison on the fast path (runtime.dispatch.attributes).
_FLOAT32_OVERFLOW = float(2**128 - 2**103)  # runtime.dispatch.attributes.FLOAT32_OVERFLOW
_INT32_RANGE = (-(2**31), 2**31 - 1)
_INT64_RANGE = (-(2**63), 2**63 - 1)
_INT_RANGES: dict[str, tuple[int, int]] = {
    "int": _INT32_RANGE,
    "int64_t": _INT64_RANGE,
    "Scalar": _INT64_RANGE,
    "Scalar(int)": _INT64_RANGE,
    "Scalar(int64_t)": _INT64_RANGE,
}


def normalise_lines(op: OpSpec, arg: Arg) -> list[str]:
    """The statements that turn the user's value of attribute ``arg`` into its runtime value."""
    type_text = str(arg.type)
    try:
        exact, function = _NORMALISERS[type_text]
    except KeyError:
        raise _arg_error(
            op, arg, f"argument '{arg.name}' of type {arg.type} is not supported by the Python API"
        ) from None
    name = arg.name
    call = f"{name} = _attr.{function}({name}, {op.name!r}, {name!r})"
    int_range = _INT_RANGES.get(type_text)
    out_of_range = "" if int_range is None else f"not {int_range[0]} <= {name} <= {int_range[1]}"
    if type_text in ("float", "Scalar(float)"):
        # inf and nan fail the comparison too and take the normaliser, which accepts them.
        out_of_range = f"not {-_FLOAT32_OVERFLOW!r} < {name} < {_FLOAT32_OVERFLOW!r}"
    if type_text in ("Scalar", "Scalar[]"):
        call = f"{call[:-1]}, {_dtype_sources(op)})"
    if type_text == "DataType":
        # A dtype spelled by its usual name ("float32") takes one C-level lookup in the name
        # table; anything else (a numpy dtype, None, an unknown name) the normaliser, which
        # also says what is wrong.
        return [
            f"if type({name}) is not DataType:",
            f"    {name} = (type({name}) is str and _data_type_named({name})) or {call.split(' = ', 1)[1]}",
        ]
    if type_text == "Scalar":
        return [
            f"if type({name}) not in _REAL_SCALAR_TYPES or (type({name}) is int and {out_of_range}):",
            f"    {call}",
        ]
    if exact is None:
        return [call]
    if out_of_range:
        return [f"if type({name}) is not {exact} or {out_of_range}:", f"    {call}"]
    return [f"if type({name}) is not {exact}:", f"    {call}"]


def _dtype_sources(op: OpSpec) -> str:
    """What the op's data type comes from, as a tuple expression for ``_attr.to_scalar``: its
    ``kernel.data_type`` candidates, then its Tensor inputs (a complex Scalar needs a complex
    one)."""
    names = [n.removeprefix("complex:") for n in candidate_names(op, "data_type")]
    sources = [f"DataType.{n.removeprefix('DataType::')}" if "::" in n else n for n in names]
    sources += [a.name for a in op.inputs if a.name not in sources]
    return "(" + "".join(f"{source}, " for source in sources) + ")"


def candidate_names(op: OpSpec, which: str) -> tuple[str, ...]:
    """``kernel.data_type``/``backend``/``layout`` candidates as OpInfo spells them."""
    if op.kernel is None:
        return ()
    candidates = getattr(op.kernel, which)
    if candidates is None:
        return ()
    names = []
    for item in candidates.items:
        text = str(item)
        if text.startswith("DataType::"):
            names.append(text)
        elif getattr(item, "complex_of", False):
            names.append(f"complex:{item.name}")
        else:
            names.append(item.name)
    return tuple(names)


def key_attrs(op: OpSpec) -> tuple[str, ...]:
    """Attributes whose value can change the kernel or the inferred meta: the InferMeta params
    and the kernel-key candidates, in argument order."""
    chosen = set(op.infer_meta_params())
    for which in ("data_type", "backend", "layout"):
        chosen.update(n.removeprefix("complex:") for n in candidate_names(op, which))
    return tuple(a.name for a in op.attrs if a.name in chosen)


def returns_annotation(op: OpSpec) -> str:
    outputs = op.visible_outputs
    kinds = ["list[Tensor]" if o.type.is_list else "Tensor" for o in outputs]
    if not kinds:  # an op without outputs (p_send)
        return "None"
    if len(kinds) == 1:
        return kinds[0]
    return f"tuple[{', '.join(kinds)}]"


@dataclass(frozen=True)
class PyArg:
    """One parameter of a generated API function."""

    name: str
    annotation: str
    default: str | None
    is_input: bool
    is_list: bool
    optional: bool
    normalise: tuple[str, ...]

    @property
    def signature(self) -> str:
        text = f"{self.name}: {self.annotation}"
        return text if self.default is None else f"{text} = {self.default}"


def python_args(op: OpSpec) -> tuple[PyArg, ...]:
    """The parameters of ``op``'s API function. An optional tensor defaults to None when every
    later parameter has a default too."""
    items: list[PyArg] = []
    args = list(op.args)
    for position, arg in enumerate(args):
        identifier(op, arg.name, "argument")
        is_input = arg.type.is_tensor_like
        optional = is_input and arg.name in op.optional
        if arg.default is not None:
            default = default_literal(op, arg)
        elif optional and all(
            later.default is not None or later.name in op.optional for later in args[position + 1 :]
        ):
            default = "None"
        else:
            default = None
        items.append(
            PyArg(
                name=arg.name,
                annotation=annotation(op, arg),
                default=default,
                is_input=is_input,
                is_list=arg.type.is_list and is_input,
                optional=optional,
                normalise=() if is_input else tuple(normalise_lines(op, arg)),
            )
        )
    return tuple(items)


def _call_arg(op: OpSpec, arg: CallArg) -> str:
    names = set(op.args.names)
    if arg.kind == "name" and arg.name in names:
        return arg.name
    if (
        arg.kind == "literal"
        and arg.literal is not None
        and arg.literal.kind in ("int", "float", "bool", "str")
    ):
        return literal(arg.literal.value)
    if arg.kind == "method" and arg.name in names and arg.method == "dtype":
        return f"{arg.name}.dtype"
    if arg.kind == "not" and arg.name in names:
        return f"not {arg.name}"
    raise _error(
        op,
        "invoke",
        f"invoke argument '{arg.text}' cannot be generated",
        "use an argument name, a literal, x.dtype() or !flag",
    )


def invoke_call(op: OpSpec, call: Call, generated_ops: set[str]) -> str:
    """Python source of an ``invoke`` call, e.g. ``full(shape, 1, dtype, place)``."""
    if call.name not in generated_ops:
        helper = " (a C++ helper of PaddlePaddle)" if call.is_cpp_helper else ""
        raise _error(
            op,
            "invoke",
            f"invoke target '{call.name}'{helper} is not an op generated from these specs",
        )
    # Through an alias: an argument of this op may have the invoked op's name (scale_grad's `scale`).
    return f"_op_{call.name}(" + ", ".join(_call_arg(op, a) for a in call.args) + ")"


def output_size(op: OpSpec, output: Output) -> str:
    """Python expression for the number of tensors of a ``Tensor[]`` output."""
    if output.size_expr is None:
        raise _error(
            op,
            "output",
            f"output '{output.name}' is a Tensor[] without a {{size}} expression; its size cannot be known before the kernel runs",
        )
    tensors = [a.name for a in op.args if a.type.is_tensor_like and not a.type.is_list]
    python = output.size_expr.python(op.args.names, tensors)
    if python is None:
        raise _error(
            op,
            "output",
            f"size expression {{{output.size_expr}}} of output '{output.name}' is not supported",
            "use name.size(), tensor.dims()[i], tensor.dims().size(), an int argument, integers, "
            "+ and -, and one comparison as the condition of c ? a : b",
        )
    return python
