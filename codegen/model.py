"""The op-spec model: frozen dataclasses, tuples not lists, every YAML-born object with a `loc`.

Nothing downstream of `phiops.codegen.load` sees raw YAML.  Every string mini-language value (`args`,
`output`, `forward`, ...) is parsed by `phiops.codegen.parse` into these classes, and each class prints
back its canonical spelling with `str()`.  Round-trip rule: `normalise(str(obj)) ==
normalise(source)`, where `phiops.codegen.lexer.normalise` compares token texts, so only whitespace
between tokens may differ (`Tensor (out)` prints as `Tensor(out)`, `int axis=-1` as
`int axis = -1`).

Names here are the contract of the generator; add fields, never rename.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Union

TENSOR = "Tensor"
SCALAR = "Scalar"
INT_ARRAY = "IntArray"
BASIC_TYPES = ("int", "int64_t", "float", "double", "bool", "str")
ENUM_TYPES = ("DataType", "DataLayout", "Place")
TYPE_BASES = (TENSOR, SCALAR, INT_ARRAY) + BASIC_TYPES + ENUM_TYPES
SCALAR_TYPES = ("bool", "int", "int64_t", "float", "double")
# Which bases may carry `[]`.
LIST_BASES = (TENSOR, SCALAR) + BASIC_TYPES

KERNEL_KINDS = ("dense", "selected_rows", "sparse_coo", "sparse_csr")

DATA_TYPES = (
    "UNDEFINED",
    "BOOL",
    "UINT8",
    "INT8",
    "UINT16",
    "INT16",
    "UINT32",
    "INT32",
    "UINT64",
    "INT64",
    "FLOAT8_E4M3FN",
    "FLOAT8_E5M2",
    "BFLOAT16",
    "FLOAT16",
    "FLOAT32",
    "FLOAT64",
    "COMPLEX64",
    "COMPLEX128",
    "PSTRING",
    "ALL_DTYPE",
)
DATA_LAYOUTS = (
    "UNDEFINED",
    "ANY",
    "NHWC",
    "NCHW",
    "NCDHW",
    "NDHWC",
    "ONEDNN",
    "SPARSE_COO",
    "SPARSE_CSR",
    "STRIDED",
    "PSTRING_UNION",
    "ALL_LAYOUT",
)


@dataclass(frozen=True)
class Location:
    file: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"

    def shifted(self, offset: int) -> Location:
        """The location `offset` characters further on the same line."""
        return Location(self.file, self.line, self.col + offset)

    def sort_key(self) -> tuple[str, int, int]:
        return (self.file, self.line, self.col)


@dataclass(frozen=True)
class Type:
    base: str
    is_list: bool = False
    scalar_type: str | None = None  # T of `Scalar(T)`

    @property
    def is_tensor(self) -> bool:
        return self.base == TENSOR and not self.is_list

    @property
    def is_tensor_list(self) -> bool:
        return self.base == TENSOR and self.is_list

    @property
    def is_tensor_like(self) -> bool:
        """`Tensor` or `Tensor[]`: an input rather than an attribute."""
        return self.base == TENSOR

    def matches(self, other: Type) -> bool:
        """Equal, or equal up to the `(T)` of a Scalar (a bare `Scalar` matches `Scalar(T)`)."""
        if self == other:
            return True
        return (
            self.base == other.base == SCALAR
            and self.is_list == other.is_list
            and (self.scalar_type is None or other.scalar_type is None)
        )

    def __str__(self) -> str:
        text = self.base
        if self.scalar_type is not None:
            text += f"({self.scalar_type})"
        if self.is_list:
            text += "[]"
        return text


@dataclass(frozen=True)
class Default:
    """A default value.

    kind: int | float | bool | str | list | datatype | layout | place | undefined.
    value: the Python value: int/float/bool/str; a tuple for `list`; the member name for
    `datatype`/`layout` ("FLOAT32"); ("cpu", None) / ("gpu", id) for `place`.  `undefined` is
    `{}` on a Place (value ("undefined", None)), DataType (value "UNDEFINED") or DataLayout
    (value "UNDEFINED").  text: the canonical C++ spelling, suffixes kept (`0.9f`, `10000L`).
    """

    kind: str
    value: object
    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Arg:
    type: Type
    name: str
    default: Default | None
    loc: Location = field(compare=False)

    def __str__(self) -> str:
        text = f"{self.type} {self.name}"
        if self.default is not None:
            text += f" = {self.default}"
        return text


@dataclass(frozen=True)
class ArgList:
    args: tuple[Arg, ...]

    def __str__(self) -> str:
        return "(" + ", ".join(str(a) for a in self.args) + ")"

    def __iter__(self):
        return iter(self.args)

    def __len__(self) -> int:
        return len(self.args)

    @cached_property
    def names(self) -> tuple[str, ...]:
        return tuple(a.name for a in self.args)

    def get(self, name: str) -> Arg | None:
        for arg in self.args:
            if arg.name == name:
                return arg
        return None


class _NotSupported(Exception):
    """A size expression beyond SizeExpr.python's grammar."""


_COMPARISONS = frozenset({"<", "<=", ">", ">=", "==", "!="})


class _SizeParser:
    """Recursive descent over a size expression's tokens (see SizeExpr.python)."""

    def __init__(self, tokens, names: set[str], tensors: set[str]) -> None:
        self.tokens, self.names, self.tensors, self.i = tokens, names, tensors, 0

    def _peek(self, offset: int = 0) -> str | None:
        j = self.i + offset
        return self.tokens[j].text if j < len(self.tokens) else None

    def _take(self, *texts: str) -> None:
        for text in texts:
            if self._peek() != text:
                raise _NotSupported
            self.i += 1

    def ternary(self) -> str:
        condition = self.comparison()
        if self._peek() != "?":
            return condition
        self.i += 1
        then = self.ternary()
        self._take(":")
        otherwise = self.ternary()
        return f"({then} if {condition} else {otherwise})"

    def comparison(self) -> str:
        left = self.sum()
        op = self._peek()
        if op in ("<", ">", "=", "!") and self._peek(1) == "=":  # the lexer splits `<=` in two
            op += "="
            self.i += 1
        if op in _COMPARISONS:
            self.i += 1
            return f"{left} {op} {self.sum()}"
        return left

    def sum(self) -> str:
        parts = [self.operand()]
        while self._peek() in ("+", "-"):
            parts.append(self._peek())
            self.i += 1
            parts.append(self.operand())
        return " ".join(parts)

    def operand(self) -> str:
        if self.i >= len(self.tokens):
            raise _NotSupported
        tok = self.tokens[self.i]
        if tok.kind == "number" and tok.text.isdigit():
            self.i += 1
            return str(int(tok.text))
        if tok.text == "(":
            self.i += 1
            inner = self.ternary()
            self._take(")")
            return f"({inner})"
        if tok.kind != "name" or tok.text not in self.names:
            raise _NotSupported
        self.i += 1
        if self._peek() != ".":
            return tok.text
        method = self._peek(1)
        if method == "size":
            self._take(".", "size", "(", ")")
            return f"len({tok.text})"
        if method == "dims" and tok.text in self.tensors:
            self._take(".", "dims", "(", ")")
            if self._peek() == ".":
                self._take(".", "size", "(", ")")
                return f"len({tok.text}.dims)"
            self._take("[")
            index = self.ternary()
            self._take("]")
            # an index outside the dims (a bad axis, a 0-D input) counts no outputs, so that
            # the InferMeta function, not an IndexError in the wrapper, reports the bad input
            return f"dict(enumerate({tok.text}.dims)).get({index}, 0)"
        raise _NotSupported


@dataclass(frozen=True)
class SizeExpr:
    """The `{...}` count of a `Tensor[]` output, kept as C++ text and its tokens."""

    text: str
    tokens: tuple = field(compare=False)  # tuple[lexer.Token, ...], EOF excluded

    def names(self) -> tuple[str, ...]:
        """Identifiers the expression refers to (method names after `.` excluded)."""
        found = []
        prev = None
        for tok in self.tokens:
            if tok.kind == "name" and not (prev is not None and prev.text == "."):
                found.append(tok.text)
            prev = tok
        return tuple(found)

    def python(self, arg_names, tensor_names=()) -> str | None:
        """A safe Python expression for the count, or None when the text is beyond its grammar.

        The grammar: integers and argument names; ``n.size()`` (the length of a list argument);
        ``t.dims()[i]`` (0 for an index outside the dims) and ``t.dims().size()`` of a Tensor
        argument ``t`` (in the InferMeta wrapper, where ``t`` is a MetaTensor); ``+``/``-``; parentheses; one comparison
        (``< <= > >= == !=``) as the condition of ``c ? a : b`` (unbind's count). Every name must
        be in ``arg_names`` (``dims`` only of names in ``tensor_names``)."""
        parser = _SizeParser(self.tokens, set(arg_names), set(tensor_names))
        try:
            result = parser.ternary()
        except _NotSupported:
            return None
        return result if parser.i == len(self.tokens) else None

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Output:
    """One output.  An unnamed one is called `out`, or `out_<i>` (its position) when the op
    has several outputs; `name_given` says which, so that it prints back as written."""

    type: Type  # Tensor or Tensor[]
    name: str
    name_given: bool
    size_expr: SizeExpr | None
    tensor_kind: str | None  # `StringTensor` of `Tensor(out@StringTensor)`
    loc: Location = field(compare=False)

    def __str__(self) -> str:
        text = str(self.type)
        if self.name_given:
            text += f"({self.name}" + (f"@{self.tensor_kind}" if self.tensor_kind else "") + ")"
        if self.size_expr is not None:
            text += "{" + str(self.size_expr) + "}"
        return text


@dataclass(frozen=True)
class OutputList:
    outputs: tuple[Output, ...]

    def __str__(self) -> str:
        return ", ".join(str(o) for o in self.outputs)

    def __iter__(self):
        return iter(self.outputs)

    def __len__(self) -> int:
        return len(self.outputs)

    @cached_property
    def names(self) -> tuple[str, ...]:
        return tuple(o.name for o in self.outputs)

    def get(self, name: str) -> Output | None:
        for out in self.outputs:
            if out.name == name:
                return out
        return None


@dataclass(frozen=True)
class Pair:
    """An `inplace`/`view` pair: `output` may share memory with `input`."""

    input: str
    output: str
    loc: Location = field(compare=False)

    def __str__(self) -> str:
        return f"({self.input} -> {self.output})"


@dataclass(frozen=True)
class Candidate:
    """A kernel-key candidate naming an argument; `complex(x)` sets complex_of."""

    name: str
    complex_of: bool = False

    def __str__(self) -> str:
        return f"complex({self.name})" if self.complex_of else self.name


@dataclass(frozen=True)
class DataTypeConst:
    """A constant `DataType::X` candidate."""

    name: str

    def __str__(self) -> str:
        return f"DataType::{self.name}"


@dataclass(frozen=True)
class Candidates:
    """`kernel.data_type/backend/layout`: `a > b` (ordered: first set one wins) or `a, b`."""

    items: tuple[Union[Candidate, DataTypeConst], ...]
    ordered: bool
    loc: Location = field(compare=False)

    def __str__(self) -> str:
        return (" > " if self.ordered else ", ").join(str(i) for i in self.items)

    def arg_names(self) -> tuple[str, ...]:
        return tuple(i.name for i in self.items if isinstance(i, Candidate))


@dataclass(frozen=True)
class KernelFunc:
    """One kernel of `kernel.func`, with its dispatch kinds `{in, ... -> out, ...}` if given."""

    name: str
    input_kinds: tuple[str, ...] | None = None
    output_kinds: tuple[str, ...] | None = None

    @property
    def is_dense(self) -> bool:
        kinds = (self.input_kinds or ()) + (self.output_kinds or ())
        return all(k == "dense" for k in kinds)

    @property
    def is_selected_rows(self) -> bool:
        """Whether this is a SelectedRows kernel: its kinds dense or selected_rows, one at least
        selected_rows (`merge_selected_rows {selected_rows -> selected_rows}`)."""
        kinds = (self.input_kinds or ()) + (self.output_kinds or ())
        return "selected_rows" in kinds and all(k in ("dense", "selected_rows") for k in kinds)

    def __str__(self) -> str:
        if self.input_kinds is None:
            return self.name
        return (
            f"{self.name} {{{', '.join(self.input_kinds)} -> "
            f"{', '.join(self.output_kinds or ())}}}"
        )


@dataclass(frozen=True)
class KernelSpec:
    """`kernel:`; the 2022 misspelling `kernel.dtype` is read into `data_type`."""

    funcs: tuple[KernelFunc, ...]
    param: tuple[str, ...] | None
    data_type: Candidates | None
    backend: Candidates | None
    layout: Candidates | None
    force_backend: str | None
    use_gpudnn: str | None
    loc: Location = field(compare=False)
    # Parallel to `param`: a literal item (`false` in sparse `matmul`'s `[x, y, false, false]`)
    # as a Default, None for an argument name.  None when every item is a name.
    param_literals: tuple[Default | None, ...] | None = None

    @property
    def dense_func(self) -> KernelFunc | None:
        """The kernel for dense tensors: kinds all dense, or the first one without kinds."""
        for func in self.funcs:
            if func.input_kinds is not None and func.is_dense:
                return func
        for func in self.funcs:
            if func.input_kinds is None:
                return func
        return None

    @property
    def dispatch_func(self) -> KernelFunc | None:
        """The kernel the op's dispatcher is built on: the dense one, else (an op whose kernels
        are all for SelectedRows, `merge_selected_rows`) the first SelectedRows kernel; the
        dispatcher selects the kernel of each call by its inputs' kinds. None for an op whose
        kernels are for the sparse kinds only (those come from sparse_ops.yaml)."""
        dense = self.dense_func
        if dense is not None:
            return dense
        return next((func for func in self.funcs if func.is_selected_rows), None)


@dataclass(frozen=True)
class InferMetaSpec:
    func: str
    param: tuple[str, ...] | None
    spmd_rule: str | None
    local_shape: str | None
    global_shape: str | None
    loc: Location = field(compare=False)
    param_literals: tuple[Default | None, ...] | None = None  # as in KernelSpec
    dtype: str | None = None  # 2022 `infer_meta.dtype`, kept only


@dataclass(frozen=True)
class CallArg:
    """One argument of an `invoke`/`composite` call.

    kind: `name` (`x`), `literal` (`0.0f`, `true`; `literal` holds it), `method` (`x.dtype()`:
    name `x`, method `dtype`), `not` (`!reverse`: name `reverse`), `keyword` (`transpose_x=false`:
    name `transpose_x`, `literal` holds the value).
    """

    kind: str
    text: str
    name: str | None = None
    method: str | None = None
    literal: Default | None = None

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Call:
    name: str
    args: tuple[CallArg, ...]
    loc: Location = field(compare=False)

    @property
    def is_cpp_helper(self) -> bool:
        """`*_impl(...)` targets are hand-written C++ helpers of PaddlePaddle, not ops."""
        return self.name.endswith("_impl")

    def __str__(self) -> str:
        return f"{self.name}(" + ", ".join(str(a) for a in self.args) + ")"


@dataclass(frozen=True)
class ForwardSig:
    name: str
    args: ArgList
    outputs: OutputList
    loc: Location = field(compare=False)

    def __str__(self) -> str:
        return f"{self.name} {self.args} -> {self.outputs}"


@dataclass(frozen=True)
class DataTransform:
    skip_transform: tuple[str, ...] = ()
    support_trans_dtype: tuple[str, ...] = ()


@dataclass(frozen=True)
class OpSpec:
    name: str
    is_backward: bool
    key: str  # op | backward_op | api | backward_api
    args: ArgList
    outputs: OutputList
    infer_meta: InferMetaSpec | None
    kernel: KernelSpec | None
    invoke: Call | None
    composite: Call | None
    forward: ForwardSig | None
    backward: str | None
    inplace: tuple[Pair, ...]
    view: tuple[Pair, ...]
    optional: tuple[str, ...]
    intermediate: tuple[str, ...]
    no_need_buffer: tuple[str, ...]
    data_transform: DataTransform | None
    traits: tuple[str, ...]
    interfaces: tuple[str, ...]
    support_dygraph_mode: bool
    support_tensor: tuple[str, ...]
    loc: Location = field(compare=False)
    key_locs: tuple[tuple[str, Location], ...] = field(default=(), compare=False)

    @property
    def inputs(self) -> tuple[Arg, ...]:
        """Tensor and Tensor[] args."""
        return tuple(a for a in self.args if a.type.is_tensor_like)

    @property
    def attrs(self) -> tuple[Arg, ...]:
        """Non-tensor args."""
        return tuple(a for a in self.args if not a.type.is_tensor_like)

    def kernel_params(self) -> tuple[str, ...]:
        """Names passed to the kernel: kernel.param, else all args in order."""
        if self.kernel is not None and self.kernel.param is not None:
            return self.kernel.param
        return self.args.names

    def infer_meta_params(self) -> tuple[str, ...]:
        """Names passed to InferMeta: infer_meta.param, else kernel.param, else all args."""
        if self.infer_meta is not None and self.infer_meta.param is not None:
            return self.infer_meta.param
        return self.kernel_params()

    def is_optional(self, name: str) -> bool:
        return name in self.optional

    @property
    def visible_outputs(self) -> tuple[Output, ...]:
        """Outputs the public API returns: all but the intermediate ones."""
        return tuple(o for o in self.outputs if o.name not in self.intermediate)

    def loc_of(self, key: str) -> Location:
        """Location of the value of `key` (dotted for sub-keys: `kernel.param`), else the entry."""
        for name, loc in self.key_locs:
            if name == key:
                return loc
        if "." in key:
            return self.loc_of(key.rsplit(".", 1)[0])
        return self.loc


@dataclass(frozen=True)
class SpecSet:
    ops: tuple[OpSpec, ...]
    backward_ops: tuple[OpSpec, ...]
    files: tuple[str, ...]

    @cached_property
    def _ops_by_name(self) -> dict[str, OpSpec]:
        return {op.name: op for op in self.ops}

    @cached_property
    def _backward_by_name(self) -> dict[str, OpSpec]:
        return {op.name: op for op in self.backward_ops}

    def op(self, name: str) -> OpSpec:
        """The forward op `name`; KeyError if there is none."""
        return self._ops_by_name[name]

    def backward_op(self, name: str) -> OpSpec:
        """The backward op `name`; KeyError if there is none."""
        return self._backward_by_name[name]

    def find(self, name: str) -> OpSpec | None:
        """The forward or backward op `name`, or None."""
        return self._ops_by_name.get(name) or self._backward_by_name.get(name)
