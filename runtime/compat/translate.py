"""Legacy ProgramDesc -> PIR `Program`, as PaddlePaddle 3.3.1's ``paddle.pir.translate_to_pir``
(paddle/fluid/ir_adaptor/translator/) builds it, so that the printed programs are equal.

Each legacy op becomes the pd_op its argument-mapping function names (runtime/compat): the
function's `KernelSignature`, lined up position by position with the signature of the phiops op,
says which legacy input, attribute or tensor carries each argument of the op. Where an op has no
mapping function, PaddlePaddle's own default applies: an argument ``saved_mean`` is the legacy
``SavedMean``, an attribute keeps its name. Then, as PaddlePaddle does:

- every persistable variable an op reads becomes a `builtin.parameter`, all of them first;
- an IntArray or Scalar argument is an operand: the legacy tensor (an IntArray's through a
  `builtin.combine`) when the op has it, else a `pd_op.full_int_array` / `pd_op.full` of the
  attribute;
- an op writing one of its inputs (``batch_norm``'s ``MeanOut``) becomes the in-place pd_op;
- each result carries ``persistable`` and ``stop_gradient`` from its variable; outputs the pd_op
  does not have (``XShape``) are dropped, results the OpDesc lacks are null;
- ``feed``/``fetch`` become `pd_op.feed`/`pd_op.fetch`; ``mul``, ``elementwise_*`` with an
  ``axis`` and ``fill_constant`` with a ``ValueTensor`` have their own translations.

Control flow (PaddlePaddle 3.3.1's ``ProgramTranslator::TranslateIfOperation`` /
``TranslateWhileOperation``): each ``conditional_block`` becomes a `pd_op.if` whose true region is
its sub-block, yielding the op's ``Out`` variables, and whose false region is a fake one
(``fake_false_branch``) yielding each output's value where an enclosing block has one, else a
zero `full` of its extents (-1 taken as 1), inserted at the region's start; ``cond``'s
``logical_not``, ``cast`` and ``select_input`` are ops of their own. A ``while`` becomes a
`pd_op.while` whose loop variables are its ``Out`` but the ``Condition``, one block argument
each, its body yielding the condition and the loop variables as the sub-block leaves them. A
sub-block reads the values of the blocks around it; what it writes stays in it. Only the global
block's ops carry ``persistable``/``stop_gradient`` (PaddlePaddle sets them for the values of
its top-level context only). An ``assign`` to a variable that already has a value becomes
``assign_out_`` of it, ``increment`` becomes ``increment_`` when it writes its input.
"""

from __future__ import annotations

from typing import Any, Callable

from phiops.runtime.compat.opdesc_context import OpDescContext
from phiops.runtime.compat.program_desc import (
    BlockDesc,
    BlockRef,
    OpDesc,
    ProgramDesc,
    VarDesc,
)
from phiops.runtime.dispatch.op_def import OP_DEFS, legacy_elementwise_ops
from phiops.runtime.errors import InvalidArgumentError, NotFoundError, PhiError, UnimplementedError
from phiops.runtime.ir.attributes import Attribute
from phiops.runtime.ir.core import Block, Operation, Program, Region, Value
from phiops.runtime.ir.dialect import OpDef as IrOpDef
from phiops.runtime.ir.dialect import get_dialect
from phiops.runtime.ir.types import (
    ELEMENT_TYPES,
    NULL_TYPE,
    DenseTensorType,
    TensorArrayType,
    Type,
    VectorType,
)

__all__ = [
    "OWN_TRANSLATIONS",
    "own_translations",
    "translate_program_desc",
    "translate_op_by_op",
    "legacy_arguments",
    "LegacyArguments",
]

_ELEMENTS = {name: short for short, name in ELEMENT_TYPES.items()}
# legacy VarType.Type numbers (a `dtype` attribute) -> dtype names
_VAR_DTYPES = {
    0: "bool", 1: "int16", 2: "int32", 3: "int64", 4: "float16", 5: "float32", 6: "float64",
    20: "uint8", 21: "int8", 22: "bfloat16", 23: "complex64", 24: "complex128",
}  # fmt: skip
_NOT_PARAMETERS = ("feed", "fetch")
# fill_constant's place_type -> the place PaddlePaddle 3.3.1 gives its `full`
_PLACE_TYPES = {-1: "undefined:0", 0: "cpu", 1: "gpu:0"}

# legacy ops translated by a rule of their own, as PaddlePaddle's translator has one for each;
# the legacy elementwise ops (ops/op_traits.yaml legacy_elementwise) have one rule between them
_OWN_RULES = (
    "feed",
    "fetch",
    "mul",
    "matmul",
    "top_k",
    "lookup_table",
    "fill_constant",
    "assign",
    "increment",
    "select_input",
    "conditional_block",
    "while",
    "write_to_array",
    "read_from_array",
    "lod_array_length",
    "tensor_array_to_tensor",
)


def own_translations() -> frozenset[str]:
    """The legacy op types translated by a rule of their own (the legacy elementwise ops of the
    registered ops among them)."""
    return frozenset((*_OWN_RULES, *legacy_elementwise_ops()))


def __getattr__(name: str) -> Any:
    # OWN_TRANSLATIONS depends on the registry, which is complete only once the ops are loaded
    if name == "OWN_TRANSLATIONS":
        return own_translations()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _translator_attributes(op: str) -> dict[str, Attribute]:
    """Attributes PaddlePaddle 3.3.1's translator (built with oneDNN, as its CPU wheel is) gives
    the op a legacy op becomes, though neither the legacy op nor the pd_op definition has them
    (ops/op_traits.yaml translator_attributes)."""
    op_def = OP_DEFS.get(op)
    if op_def is None:
        return {}
    return {
        name: Attribute("str", value) for name, value in op_def.info.traits.translator_attributes
    }


# legacy ops holding a sub-block that are translated (as PaddlePaddle 3.3.1 translates them)
_CONTROL_FLOW = ("conditional_block", "while")


_MALFORMED_OP_ERRORS = (IndexError, KeyError, TypeError, ValueError, AttributeError, OverflowError)


class _SubBlockError(UnimplementedError):
    """A legacy op of a sub-block that cannot be translated (its message names the op, the block
    and the model); the ops around it pass it on unchanged."""


def _camel(name: str) -> str:
    """PaddlePaddle's default legacy name of an argument: ``saved_mean`` -> ``SavedMean``."""
    return "".join(part[:1].upper() + part[1:] for part in name.split("_"))


def _tensor_type(var: VarDesc | None, where: str) -> Type:
    if var is None or var.dtype is None or var.shape is None:
        raise UnimplementedError(f"{where}: variable of kind {var.kind if var else '?'}")
    element = _ELEMENTS.get(var.dtype)
    if element is None:
        raise UnimplementedError(f"{where}: element type {var.dtype} has no PIR spelling")
    return DenseTensorType(tuple(var.shape), element)


def _bools(values: list[bool]) -> Attribute:
    return Attribute("array", tuple(Attribute("bool", bool(v)) for v in values))


def _int64s(values: Any) -> Attribute:
    return Attribute("array", tuple(Attribute("int64", int(v)) for v in values))


_ARRAY_ITEMS = {
    "array<int32>": "int32",
    "array<int64>": "int64",
    "array<float>": "float",
    "array<double>": "double",
    "array<str>": "str",
    "array<bool>": "bool",
}


def _attribute(kind: str, value: Any, where: str) -> Attribute:
    """A legacy attribute value as the PIR attribute of ``kind`` (the pd_op table's spelling)."""
    if kind == "bool":
        return Attribute("bool", bool(value))
    if kind in ("int32", "int64"):
        return Attribute(kind, int(value))
    if kind in ("float", "double"):
        return Attribute(kind, float(value))
    if kind == "str":
        return Attribute("str", str(value))
    if kind in _ARRAY_ITEMS:
        item = _ARRAY_ITEMS[kind]
        return Attribute("array", tuple(_attribute(item, v, where) for v in value))
    if kind == "intarray":
        return Attribute("intarray", tuple(int(v) for v in value))
    if kind == "dtype":
        if isinstance(value, int):  # a legacy VarType number; -1: none given
            name = "Undefined" if value == -1 else _VAR_DTYPES.get(value, str(value))
        else:
            name = str(value)
        return Attribute("dtype", name)
    if kind == "place":
        return Attribute("place", "cpu")
    raise UnimplementedError(f"{where}: attribute kind {kind} is not translated")


_EMPTY = {
    "bool": False,
    "int32": 0,
    "int64": 0,
    "float": 0.0,
    "double": 0.0,
    "str": "",
    "intarray": (),
    "dtype": "Undefined",
}


def _empty_attribute(kind: str, where: str) -> Attribute:
    """The value PaddlePaddle's translator gives a pd_op attribute the OpDesc lacks."""
    if kind in _ARRAY_ITEMS:
        return Attribute("array", ())
    if kind == "place":  # the legacy random ops have none: PaddlePaddle leaves it undefined
        return Attribute("place", _PLACE_TYPES[-1])
    if kind not in _EMPTY:
        raise UnimplementedError(f"{where}: an absent attribute of kind {kind}")
    return _attribute(kind, _EMPTY[kind], where)


class LegacyArguments:
    """Where each argument of the pd_op a legacy op becomes comes from: ``sources`` maps a pd_op
    argument (input, attribute, output) to the legacy input, attribute or output name."""

    __slots__ = ("pd_op", "signature", "sources")

    def __init__(self, pd_op: str, signature: Any, sources: dict[str, str]) -> None:
        self.pd_op = pd_op
        self.signature = signature
        self.sources = sources


def legacy_arguments(op: OpDesc, block: BlockDesc, program: ProgramDesc | None) -> LegacyArguments:
    """The pd_op ``op`` becomes and the legacy source of each of its arguments, from the op's
    argument-mapping function (its signature lined up with the phiops op's); an op without one
    maps by PaddlePaddle's default names. The kernel named by the signature must be the pd_op's
    own; the ops with a translation of their own are not asked here."""
    from phiops.runtime.compat import argument_mapping, pd_op_name
    from phiops.runtime.dispatch.op_def import OP_DEFS

    try:
        function = argument_mapping(op.type)
    except NotFoundError:
        function = None
    try:
        name = pd_op_name(op.type)
    except NotFoundError:
        if function is None and op.type not in OP_DEFS:
            raise
        name = op.type
    if function is None:
        return LegacyArguments(name, None, {})
    signature = function(OpDescContext(op, block, program))
    if name not in OP_DEFS and signature.name in OP_DEFS:
        name = signature.name
    op_def = OP_DEFS.get(name)
    own = op_def.signature if op_def is not None else None
    if own is None or own.name != signature.name:
        raise UnimplementedError(
            f"legacy op '{op.type}' maps to kernel '{signature.name}', which is not the kernel of "
            f"pd_op '{name}' ({own.name if own else 'none'}); it has no translation to PIR"
        )
    sources: dict[str, str] = {}
    for ours, theirs in (
        (own.inputs, signature.inputs),
        (own.attrs, signature.attrs),
        (own.outputs, signature.outputs),
    ):
        for pd_name, legacy in zip(ours, theirs):
            sources[pd_name] = legacy
    return LegacyArguments(name, signature, sources)


class _Translator:
    def __init__(self, desc: ProgramDesc) -> None:
        self.desc = desc
        self.block_desc = desc.global_block
        self.program = Program()
        self.block = self.program.block
        # the variables' values, one dict per block being translated (the innermost last)
        self.scopes: list[dict[str, Value]] = [{}]
        # the variables a Tensor[] result holds (split's Out): name -> (the vector, its index);
        # each becomes a `builtin.slice` where it is first read, as PaddlePaddle translates it
        self.unsliced: dict[str, tuple[Value, int]] = {}
        self.report: list | None = None
        self.dialect = get_dialect("pd_op")
        self.special: dict[str, Callable[[OpDesc, str], None]] = {
            "feed": self.feed,
            "fetch": self.fetch,
            "mul": self.mul,
            "matmul": self.matmul_v1,
            "top_k": self.top_k_v1,
            "lookup_table": self.lookup_table_v1,
            "fill_constant": self.fill_constant,
            "assign": self.assign,
            "increment": self.increment,
            "select_input": self.select_input,
            "conditional_block": self.conditional_block,
            "while": self.while_,
            "batch_norm": self.batch_norm,
            "range": self.range_,
            "rnn": self.rnn,
            "tril_triu": self.tril_triu,
            "write_to_array": self.write_to_array,
            "read_from_array": self.read_from_array,
            "lod_array_length": self.lod_array_length,
            "tensor_array_to_tensor": self.tensor_array_to_tensor,
        }
        # the `create_array`s put at the program's start for arrays a `while` carries before
        # any op writes them
        self.arrays_created = 0

    # -- helpers -------------------------------------------------------------------------------
    @property
    def values(self) -> dict[str, Value]:
        """The values the block being translated defines."""
        return self.scopes[-1]

    @property
    def top_level(self) -> bool:
        return len(self.scopes) == 1

    def var(self, name: str) -> VarDesc | None:
        return self.block_desc.find_var(name, self.desc)

    def lookup(self, name: str) -> Value | None:
        """The value of ``name`` in the block being translated or the blocks around it."""
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return None

    def value(self, name: str, where: str) -> Value:
        found = self.lookup(name)
        if found is None and name in self.unsliced:
            vector, index = self.unsliced.pop(name)
            attributes = {"index": Attribute("int32", index), **self.result_flags([name])}
            var = self.var(name)
            found = self.append("builtin.slice", [vector], [_tensor_type(var, where)], attributes).results[0]
            self.values[name] = found
        if found is None:
            raise InvalidArgumentError(f"{where} reads variable '{name}' before any op writes it")
        return found

    def append(
        self, name: str, operands: list, types: list[Type], attributes: dict[str, Attribute]
    ) -> Operation:
        return self.block.append(Operation(name, operands, types, attributes))

    def result_flags(self, names: list[str | None]) -> dict[str, Attribute]:
        """``persistable``/``stop_gradient`` of the results from their variables: none in a
        sub-block."""
        if not self.top_level:
            return {}
        persistable, stop = [], []
        for name in names:
            var = self.var(name) if name is not None else None
            persistable.append(bool(var and var.persistable))
            stop.append(bool(var and var.stop_gradient))
        return {"persistable": _bools(persistable), "stop_gradient": _bools(stop)}

    def full_int_array(self, values: Any) -> Value:
        attributes = {
            "dtype": Attribute("dtype", "int64"),
            "place": Attribute("place", "cpu"),
            "stop_gradient": _bools([True]),
            "value": _int64s(values),
        }
        return self.append(
            "pd_op.full_int_array", [], [DenseTensorType((len(values),), "i64")], attributes
        ).results[0]

    def full_scalar(self, value: Any, legacy_type: str) -> Value:
        """PaddlePaddle's `full` of shape [1] for a Scalar given as a legacy attribute."""
        dtype = {"INT": "int32", "LONG": "int64", "BOOLEAN": "bool", "FLOAT64": "float64"}.get(
            legacy_type, "float32"
        )
        attributes = {
            "dtype": Attribute("dtype", dtype),
            "place": Attribute("place", "cpu"),
            "shape": Attribute("intarray", (1,)),
            "stop_gradient": _bools([True]),
            "value": Attribute("double", float(value)),
        }
        element = _ELEMENTS[dtype]
        return self.append("pd_op.full", [], [DenseTensorType((1,), element)], attributes).results[
            0
        ]

    def reshape(self, source: Value, shape: list[int], attributes: dict[str, Attribute]) -> Value:
        target = self.full_int_array(shape)
        element = source.type.element if isinstance(source.type, DenseTensorType) else "f32"
        return self.append(
            "pd_op.reshape", [source, target], [DenseTensorType(tuple(shape), element)], attributes
        ).results[0]

    def combine(self, values: list[Value]) -> Value:
        vector = VectorType(tuple(v.type for v in values))
        return self.append("builtin.combine", values, [vector], {}).results[0]

    def stack(self, values: list[Value]) -> Value:
        """``pd_op.stack`` (axis 0) of a ``builtin.combine`` of ``values``, which share a type:
        an IntArray given as a list of extent tensors."""
        first = values[0].type
        result = DenseTensorType((len(values), *first.dims), first.element)
        attributes = {"axis": Attribute("int32", 0), "stop_gradient": _bools([True])}
        return self.append("pd_op.stack", [self.combine(values)], [result], attributes).results[0]

    # -- the program ---------------------------------------------------------------------------
    def translate(self, report: list | None = None) -> Program:
        """The program; with ``report``, an op of the global block that cannot be translated is
        recorded there as (0, index, op, error) instead of raising, and its outputs become
        unattached values, and every op (those of sub-blocks too) is recorded as (block index,
        index, op, the operations it became)."""
        self.report = report
        self.parameters()
        for index, op in enumerate(self.block_desc.ops):
            where = f"{self.desc.source}: op {index} ('{op.type}')"
            start = len(self.block.ops)
            entries = len(report) if report is not None else 0
            try:
                self.translate_op(op, where)
            except PhiError as error:
                if report is None:
                    raise
                del self.block.ops[start:]
                del report[entries:]
                report.append((0, index, op, error))
                for names in op.outputs.values():
                    for name in names:
                        var = self.var(name)
                        known = var is not None and var.dtype is not None and var.shape is not None
                        self.values[name] = Value(_tensor_type(var, where) if known else NULL_TYPE)
                continue
            if report is not None:
                report.insert(entries, (0, index, op, self.block.ops[start:]))
        return self.program

    def translate_block(self, index: int, block: Block) -> None:
        """The ops of legacy block ``index`` into ``block``, in a scope of their own (the caller
        pushes and pops it). An op that cannot be translated raises UnimplementedError naming
        it, the block and the model."""
        outer_desc, outer_block = self.block_desc, self.block
        self.block_desc, self.block = self.desc.blocks[index], block
        try:
            for position, op in enumerate(self.block_desc.ops):
                where = f"{self.desc.source}: block {index} op {position} ('{op.type}')"
                start = len(block.ops)
                entries = len(self.report) if self.report is not None else 0
                try:
                    self.translate_op(op, where)
                except _SubBlockError:
                    raise
                except PhiError as error:
                    raise _SubBlockError(
                        f"{self.desc.source}: legacy op '{op.type}' (op {position} of block "
                        f"{index}) is not translated: {error}"
                    ) from None
                if self.report is not None:
                    self.report.insert(entries, (index, position, op, block.ops[start:]))
        finally:
            self.block_desc, self.block = outer_desc, outer_block

    def translate_op(self, op: OpDesc, where: str) -> None:
        try:
            self._translate_op(op, where)
        except PhiError:
            raise
        except _MALFORMED_OP_ERRORS as error:
            # a desc that parses but that no PaddlePaddle writes (an op lacking the inputs or
            # attributes its type has, one of the wrong type): named with the op, never raw
            raise InvalidArgumentError(
                f"{where}: malformed legacy op '{op.type}' ({type(error).__name__}: {error})"
            ) from None

    def _translate_op(self, op: OpDesc, where: str) -> None:
        if op.type not in _CONTROL_FLOW:
            for name, value in op.attrs.items():
                if isinstance(value, BlockRef) or (
                    isinstance(value, tuple) and value and isinstance(value[0], BlockRef)
                ):
                    raise UnimplementedError(
                        f"{where}: legacy op '{op.type}' holds a sub-block (attribute '{name}'); "
                        f"of the ops with sub-blocks only {' and '.join(_CONTROL_FLOW)} are "
                        "translated"
                    )
        handler = self.special.get(op.type)
        if handler is not None:
            handler(op, where)
        elif op.type in legacy_elementwise_ops():
            self.elementwise(op, where)
        else:
            self.generic(op, where)

    def parameters(self) -> None:
        for op in self.block_desc.ops:
            if op.type in _NOT_PARAMETERS:
                continue
            for names in op.inputs.values():
                for name in names:
                    var = self.var(name)
                    if var is None or not var.persistable or name in self.values:
                        continue
                    if var.kind != "DENSE_TENSOR":
                        continue
                    attributes = {
                        "parameter_name": Attribute("str", name),
                        "persistable": _bools([True]),
                        "stop_gradient": _bools([var.stop_gradient]),
                    }
                    where = f"{self.desc.source}: parameter '{name}'"
                    parameter = self.append(
                        "builtin.parameter", [], [_tensor_type(var, where)], attributes
                    )
                    self.values[name] = parameter.results[0]

    def feed(self, op: OpDesc, where: str) -> None:
        name = self.single_output(op, "Out", where)
        attributes = {"col": Attribute("int32", int(op.attrs.get("col", 0)))}
        attributes["name"] = Attribute("str", name)
        attributes.update(self.result_flags([name]))
        result = self.append("pd_op.feed", [], [_tensor_type(self.var(name), where)], attributes)
        self.values[name] = result.results[0]

    def fetch(self, op: OpDesc, where: str) -> None:
        name = self.single_input(op, "X", where)
        source = self.value(name, where)
        attributes = {
            "col": Attribute("int32", int(op.attrs.get("col", 0))),
            "name": Attribute("str", name),
        }
        self.append("pd_op.fetch", [source], [source.type], attributes)

    def mul(self, op: OpDesc, where: str) -> None:
        """``mul`` flattens X and Y to matrices at ``x_num_col_dims``/``y_num_col_dims``, then
        `matmul`, then the result takes X's leading and Y's trailing dims."""
        x = self.value(self.single_input(op, "X", where), where)
        y = self.value(self.single_input(op, "Y", where), where)
        out_name = self.single_output(op, "Out", where)
        x_cols, y_cols = int(op.attrs.get("x_num_col_dims", 1)), int(
            op.attrs.get("y_num_col_dims", 1)
        )
        x_dims, y_dims = tuple(x.type.dims), tuple(y.type.dims)

        def product(dims: tuple[int, ...]) -> int:
            total = 1
            for d in dims:
                if d < 0:
                    return -1
                total *= d
            return total

        stop = {"stop_gradient": _bools([True])}
        x2 = self.reshape(x, [product(x_dims[:x_cols]), product(x_dims[x_cols:])], stop)
        y2 = self.reshape(y, [product(y_dims[:y_cols]), product(y_dims[y_cols:])], stop)
        flags = self.result_flags([out_name])
        attributes = {"transpose_x": Attribute("bool", False)}
        attributes["transpose_y"] = Attribute("bool", False)
        attributes.update(flags)
        matrix_type = DenseTensorType((x2.type.dims[0], y2.type.dims[1]), x.type.element)
        product_value = self.append("pd_op.matmul", [x2, y2], [matrix_type], attributes).results[0]
        # in a sub-block the reshape keeps the stop_gradient its builder gives it
        last = dict(flags) if flags else dict(stop)
        out = self.reshape(product_value, list(x_dims[:x_cols] + y_dims[y_cols:]), last)
        out.type = _tensor_type(self.var(out_name), where)
        self.values[out_name] = out

    def matmul_v1(self, op: OpDesc, where: str) -> None:
        """The first ``matmul``: `matmul` with ``transpose_X``/``transpose_Y``, then `scale` by
        ``alpha`` (a `full` of shape [1]) when it is not 1, as PaddlePaddle translates it."""
        x = self.value(self.single_input(op, "X", where), where)
        y = self.value(self.single_input(op, "Y", where), where)
        out_name = self.single_output(op, "Out", where)
        out_type = _tensor_type(self.var(out_name), where)
        flags = self.result_flags([out_name])
        attributes = {
            "transpose_x": Attribute("bool", bool(op.attrs.get("transpose_X", False))),
            "transpose_y": Attribute("bool", bool(op.attrs.get("transpose_Y", False))),
            **flags,
        }
        out = self.append("pd_op.matmul", [x, y], [out_type], attributes).results[0]
        alpha = float(op.attrs.get("alpha", 1.0))
        if alpha != 1.0:
            factor = self.full_scalar(alpha, "FLOAT")
            scale_attributes = {
                "bias": Attribute("float", 0.0),
                "bias_after_scale": Attribute("bool", True),
                **flags,
            }
            out = self.append("pd_op.scale", [out, factor], [out_type], scale_attributes).results[0]
        self.values[out_name] = out

    def top_k_v1(self, op: OpDesc, where: str) -> None:
        """The first ``top_k``: the ``k`` largest along the last axis, sorted, from the ``K``
        tensor when given, else the ``k`` attribute. PaddlePaddle 3.3.1's translator has no rule
        for it (it asks for a ``pd_op.topk_v1`` that does not exist); phiops makes it `topk` with
        ``axis`` -1, ``largest`` and ``sorted``, what the legacy kernel computes."""
        x = self.value(self.single_input(op, "X", where), where)
        k_names = op.input("K")
        if k_names:
            k = self.value(k_names[0], where)
        else:
            k = self.full_scalar(int(op.attrs.get("k", 1)), "INT")
        out_name = self.single_output(op, "Out", where)
        indices_name = self.single_output(op, "Indices", where)
        attributes = {
            "axis": Attribute("int32", -1),
            "largest": Attribute("bool", True),
            "sorted": Attribute("bool", True),
            **self.result_flags([out_name, indices_name]),
        }
        types = [
            _tensor_type(self.var(out_name), where),
            _tensor_type(self.var(indices_name), where),
        ]
        created = self.append("pd_op.topk", [x, k], types, attributes)
        self.values[out_name], self.values[indices_name] = created.results

    def lookup_table_v1(self, op: OpDesc, where: str) -> None:
        """The first ``lookup_table``, whose ``Ids`` end in an axis of 1: `embedding` (dense:
        ``is_sparse`` is read as false, as PaddlePaddle translates it), then `squeeze` of axis
        -2. The embedding's result takes the type of ``Out``, the squeeze's drops that type's
        second-last axis, as PaddlePaddle prints them."""
        ids = self.value(self.single_input(op, "Ids", where), where)
        weight = self.value(self.single_input(op, "W", where), where)
        out_name = self.single_output(op, "Out", where)
        out_type = _tensor_type(self.var(out_name), where)
        flags = self.result_flags([out_name])
        kinds = self.dialect.lookup("pd_op.embedding").attributes
        attributes = {
            "padding_idx": _attribute(
                kinds["padding_idx"], int(op.attrs.get("padding_idx", -1)), where
            ),
            "sparse": Attribute("bool", False),
            **flags,
        }
        embedded = self.append("pd_op.embedding", [ids, weight], [out_type], attributes)
        axis = self.full_int_array([-2])
        dims = tuple(out_type.dims)
        squeezed = (
            DenseTensorType(dims[:-2] + dims[-1:], out_type.element) if len(dims) >= 2 else out_type
        )
        created = self.append("pd_op.squeeze", [embedded.results[0], axis], [squeezed], dict(flags))
        self.values[out_name] = created.results[0]

    def elementwise(self, op: OpDesc, where: str) -> None:
        """Y aligned with X from ``axis`` is reshaped to X's rank first, as PaddlePaddle does."""
        axis = int(op.attrs.get("axis", -1))
        x = self.value(self.single_input(op, "X", where), where)
        y = self.value(self.single_input(op, "Y", where), where)
        x_rank, y_dims = len(x.type.dims), tuple(y.type.dims)
        if axis != -1:
            if axis < 0:
                axis += x_rank
            append = x_rank - axis - len(y_dims)
            if append > 0:  # else numpy's trailing alignment is the same
                if -1 in y_dims:
                    raise UnimplementedError(
                        f"{where}: Y of unknown shape {list(y_dims)} aligned at axis {axis}"
                    )
                shape = [1] * axis + list(y_dims) + [1] * append
                y = self.reshape(y, shape, {"stop_gradient": _bools([True])})
        out_name = self.single_output(op, "Out", where)
        attributes = self.result_flags([out_name])
        result = self.append(
            f"pd_op.{legacy_elementwise_ops()[op.type]}",
            [x, y],
            [_tensor_type(self.var(out_name), where)],
            attributes,
        )
        self.values[out_name] = result.results[0]

    def fill_constant(self, op: OpDesc, where: str) -> None:
        """`full` from the attributes, or `full_with_tensor` when a tensor gives the value or
        the shape."""
        out_name = self.single_output(op, "Out", where)
        out_type = _tensor_type(self.var(out_name), where)
        dtype = _attribute("dtype", op.attrs.get("dtype", 5), where)
        tensors = [op.input(n) for n in ("ShapeTensor", "ShapeTensorList", "ValueTensor")]
        if not any(tensors):
            place_type = int(op.attrs.get("place_type", -1))
            if place_type not in _PLACE_TYPES:
                raise UnimplementedError(f"{where}: fill_constant with place_type {place_type}")
            attributes = {
                "dtype": dtype,
                "place": Attribute("place", _PLACE_TYPES[place_type]),
                "shape": Attribute("intarray", tuple(int(v) for v in op.attrs.get("shape", ()))),
                "value": Attribute("double", float(op.attrs.get("value", 0.0))),
            }
            attributes.update(self.result_flags([out_name]))
            result = self.append("pd_op.full", [], [out_type], attributes)
            self.values[out_name] = result.results[0]
            return
        shape_tensor, shape_list, value_tensor = tensors
        if shape_list:
            # as PaddlePaddle's translator: the value, then the extents stacked into one tensor
            value = self._fill_value(op, value_tensor, where)
            shape = self.stack([self.value(n, where) for n in shape_list])
        else:
            if shape_tensor:
                shape = self.value(shape_tensor[0], where)
            else:
                shape = self.full_int_array(op.attrs.get("shape", ()))
            value = self._fill_value(op, value_tensor, where)
        attributes = {"dtype": dtype}
        attributes.update(self.result_flags([out_name]))
        result = self.append("pd_op.full_with_tensor", [value, shape], [out_type], attributes)
        self.values[out_name] = result.results[0]

    def _fill_value(self, op: OpDesc, value_tensor: list[str], where: str) -> Value:
        if value_tensor:
            return self.value(value_tensor[0], where)
        return self.full_scalar(op.attrs.get("value", 0.0), "FLOAT")

    # -- control flow and the ops around it ----------------------------------------------------
    def assign(self, op: OpDesc, where: str) -> None:
        """``assign`` to a variable that has a value (in this block or one around it) is
        ``assign_out_`` of that value, else ``assign``."""
        source = self.value(self.single_input(op, "X", where), where)
        out_name = self.single_output(op, "Out", where)
        out_type = _tensor_type(self.var(out_name), where)
        existing = self.lookup(out_name)
        attributes = self.result_flags([out_name])
        if existing is None:
            created = self.append("pd_op.assign", [source], [out_type], attributes)
        else:
            created = self.append("pd_op.assign_out_", [source, existing], [out_type], attributes)
        self.values[out_name] = created.results[0]

    def increment(self, op: OpDesc, where: str) -> None:
        """``increment(X, step)``: ``increment_`` when it writes X, else ``increment``; the
        attribute ``value`` is the step."""
        x_name, out_name = self.single_input(op, "X", where), self.single_output(op, "Out", where)
        name = "pd_op.increment_" if out_name == x_name else "pd_op.increment"
        attributes = {"value": Attribute("float", float(op.attrs.get("step", 1.0)))}
        attributes.update(self.result_flags([out_name]))
        created = self.append(
            name,
            [self.value(x_name, where)],
            [_tensor_type(self.var(out_name), where)],
            attributes,
        )
        self.values[out_name] = created.results[0]

    def select_input(self, op: OpDesc, where: str) -> None:
        """``select_input(Mask, X)``: the ``Mask``-th of the X values, each an operand."""
        operands = [self.value(self.single_input(op, "Mask", where), where)]
        operands += [self.value(name, where) for name in op.input("X")]
        out_name = self.single_output(op, "Out", where)
        created = self.append(
            "pd_op.select_input",
            operands,
            [_tensor_type(self.var(out_name), where)],
            self.result_flags([out_name]),
        )
        self.values[out_name] = created.results[0]

    def single_input(self, op: OpDesc, parameter: str, where: str) -> str:
        names = op.input(parameter)
        if len(names) != 1:
            raise InvalidArgumentError(
                f"{where}: legacy op '{op.type}' takes one variable as input '{parameter}', "
                f"got {list(names)}"
            )
        return names[0]

    def single_output(self, op: OpDesc, parameter: str, where: str) -> str:
        names = op.output(parameter)
        if len(names) != 1:
            raise InvalidArgumentError(
                f"{where}: legacy op '{op.type}' writes one variable as output '{parameter}', "
                f"got {list(names)}"
            )
        return names[0]

    def sub_block(self, op: OpDesc, where: str) -> int:
        ref = op.attrs.get("sub_block")
        if not isinstance(ref, BlockRef) or not 0 < ref.index < len(self.desc.blocks):
            raise InvalidArgumentError(
                f"{where}: attribute 'sub_block' names no block of the model"
            )
        return ref.index

    def conditional_block(self, op: OpDesc, where: str) -> None:
        """`pd_op.if`: the sub-block is the true region; the false region is PaddlePaddle's
        fake one."""
        block_index = self.sub_block(op, where)
        cond = self.value(self.single_input(op, "Cond", where), where)
        for name in op.input("Input"):
            self.value(name, where)
        outputs = [name for name in op.output("Out") if name != "@EMPTY@"]
        types = [_tensor_type(self.var(name), where) for name in outputs]
        attributes = {"fake_false_branch": Attribute("bool", True)}
        attributes.update(self.result_flags(outputs))
        if_op = self.append("pd_op.if", [cond], types, attributes)
        if_op.regions = [Region(if_op), Region(if_op)]
        true_block = if_op.regions[0].add_block()
        self.scopes.append({})
        try:
            self.translate_block(block_index, true_block)
            true_values = [self.value(name, where) for name in outputs]
        finally:
            self.scopes.pop()
        true_block.append(Operation("cf.yield", true_values, []))
        false_block = if_op.regions[1].add_block()
        false_values = []
        for name, true_value in zip(outputs, true_values):
            existing = self.lookup(name)
            if existing is None:
                existing = self.zeros(false_block, true_value.type, where)
            false_values.append(existing)
        false_block.append(Operation("cf.yield", false_values, []))
        for name, result in zip(outputs, if_op.results):
            self.values[name] = result

    def zeros(self, block: Block, like: Type, where: str) -> Value:
        """A zero `full` of ``like``'s extents (-1 taken as 1), inserted at ``block``'s start:
        what PaddlePaddle's fake false branch yields."""
        if not isinstance(like, DenseTensorType):
            raise UnimplementedError(f"{where}: a fake false branch yielding a {like}")
        dims = tuple(abs(d) for d in like.dims)
        attributes = {
            "dtype": Attribute("dtype", like.dtype),
            "place": Attribute("place", "cpu"),
            "shape": Attribute("intarray", dims),
            "stop_gradient": _bools([True]),
            "value": Attribute("double", 0.0),
        }
        full = Operation("pd_op.full", [], [DenseTensorType(dims, like.element)], attributes)
        return block.insert(0, full).results[0]

    def while_(self, op: OpDesc, where: str) -> None:
        """`pd_op.while`: its loop variables are the op's Out but the Condition, each a block
        argument of the body; the body yields the condition and the loop variables."""
        block_index = self.sub_block(op, where)
        cond_name = self.single_input(op, "Condition", where)
        loop_vars = [name for name in op.output("Out") if name != cond_name]
        for name in loop_vars:
            self.create_unwritten_array(name, where)
        inputs = [self.value(name, where) for name in loop_vars]
        operands = [self.value(cond_name, where), *inputs]
        attributes = self.result_flags(loop_vars)
        while_op = self.append("pd_op.while", operands, [v.type for v in inputs], attributes)
        while_op.regions = [Region(while_op)]
        body = while_op.regions[0].add_block()
        self.scopes.append({name: body.add_arg(v.type) for name, v in zip(loop_vars, inputs)})
        try:
            self.translate_block(block_index, body)
            yielded = [self.value(name, where) for name in (cond_name, *loop_vars)]
        finally:
            self.scopes.pop()
        body.append(Operation("cf.yield", yielded, []))
        for name, result in zip(loop_vars, while_op.results):
            self.values[name] = result

    # -- tensor arrays (LoDTensorArray variables) -----------------------------------------------
    def _array_type(self, name: str, where: str) -> TensorArrayType:
        var = self.var(name)
        if var is None or var.kind != "DENSE_TENSOR_ARRAY":
            raise InvalidArgumentError(
                f"{where}: variable '{name}' is a {var.kind if var else 'missing'} variable, "
                "not a DENSE_TENSOR_ARRAY"
            )
        element = _ELEMENTS.get(var.dtype or "")
        if element is None:
            raise UnimplementedError(f"{where}: tensor array of element type {var.dtype}")
        return TensorArrayType(element)

    def _create_array(self, name: str, attributes: dict[str, Attribute], where: str) -> Operation:
        type_ = self._array_type(name, where)
        attributes = {"dtype": Attribute("dtype", self.var(name).dtype), **attributes}
        return Operation("pd_op.create_array", [], [type_], attributes)

    def create_unwritten_array(self, name: str, where: str) -> None:
        """A tensor array a ``while`` carries before any op wrote it: a `create_array` at the
        program's start, with its variable's flags, as PaddlePaddle's translator creates it."""
        var = self.var(name)
        if self.lookup(name) is not None or var is None or var.kind != "DENSE_TENSOR_ARRAY":
            return
        persistable, stop = bool(var.persistable), bool(var.stop_gradient)
        flags = {"persistable": _bools([persistable]), "stop_gradient": _bools([stop])}
        created = self._create_array(name, flags, where)
        self.program.block.insert(self.arrays_created, created)
        self.arrays_created += 1
        self.scopes[0][name] = created.results[0]

    def write_to_array(self, op: OpDesc, where: str) -> None:
        """`array_write_(array, x, i)`; an array no op wrote before is a `create_array` first."""
        out_name = self.single_output(op, "Out", where)
        x = self.value(self.single_input(op, "X", where), where)
        i = self.value(self.single_input(op, "I", where), where)
        array = self.lookup(out_name)
        if array is None:
            created = self._create_array(out_name, {"stop_gradient": _bools([True])}, where)
            array = self.block.append(created).results[0]
        attributes = self.result_flags([out_name])
        created = self.append("pd_op.array_write_", [array, x, i], [array.type], attributes)
        self.values[out_name] = created.results[0]

    def read_from_array(self, op: OpDesc, where: str) -> None:
        """`array_read(array, i)`."""
        out_name = self.single_output(op, "Out", where)
        array = self.value(self.single_input(op, "X", where), where)
        i = self.value(self.single_input(op, "I", where), where)
        created = self.append(
            "pd_op.array_read",
            [array, i],
            [_tensor_type(self.var(out_name), where)],
            self.result_flags([out_name]),
        )
        self.values[out_name] = created.results[0]

    def lod_array_length(self, op: OpDesc, where: str) -> None:
        """`array_length(array)`."""
        out_name = self.single_output(op, "Out", where)
        array = self.value(self.single_input(op, "X", where), where)
        created = self.append(
            "pd_op.array_length",
            [array],
            [_tensor_type(self.var(out_name), where)],
            self.result_flags([out_name]),
        )
        self.values[out_name] = created.results[0]

    def tensor_array_to_tensor(self, op: OpDesc, where: str) -> None:
        """`array_to_tensor(array) {axis, use_stack}`."""
        out_name = self.single_output(op, "Out", where)
        index_name = self.single_output(op, "OutIndex", where)
        array = self.value(self.single_input(op, "X", where), where)
        attributes = {
            "axis": Attribute("int32", int(op.attrs.get("axis", 0))),
            "use_stack": Attribute("bool", bool(op.attrs.get("use_stack", False))),
            **self.result_flags([out_name, index_name]),
        }
        types = [_tensor_type(self.var(n), where) for n in (out_name, index_name)]
        created = self.append("pd_op.array_to_tensor", [array], types, attributes)
        self.values[out_name], self.values[index_name] = created.results

    # -- every other op ------------------------------------------------------------------------
    def batch_norm(self, op: OpDesc, where: str) -> None:
        """`batch_norm` as any op, except that its saved statistics (`SavedMean`,
        `SavedVariance`) have the channel extent of `Scale`: PaddlePaddle 3.3.1's ``jit.save``
        in legacy mode leaves their variables' dims unset, which reads as 0-D (its translator
        then declares `tensor<f32>`, and its executor never checks the declaration)."""
        channels = self.value(self.single_input(op, "Scale", where), where).type
        types = {}
        for parameter in ("SavedMean", "SavedVariance"):
            names = op.output(parameter)
            var = self.var(names[0]) if names else None
            if var is not None and var.shape == () and isinstance(channels, DenseTensorType):
                types[parameter] = DenseTensorType(channels.dims, _tensor_type(var, where).element)
        self.generic(op, where, types)

    def range_(self, op: OpDesc, where: str) -> None:
        """`range` is `arange`, whose `dtype` the legacy op does not have: PaddlePaddle's
        translator takes it from `Out`'s variable (the kernel's data type)."""
        self.generic(op, where)
        out = self.var(op.output("Out")[0])
        if out is not None and out.dtype is not None:
            self.block.ops[-1].attributes["dtype"] = Attribute("dtype", out.dtype)

    def rnn(self, op: OpDesc, where: str) -> None:
        """`rnn`, whose pd_op reads a `dropout_state_in` the legacy op does not have (it only
        writes `DropoutState`): PaddlePaddle's translator gives it an empty uint8 `full`."""
        attributes = {
            "dtype": Attribute("dtype", "uint8"),
            "place": Attribute("place", "cpu"),
            "shape": Attribute("intarray", (0,)),
            "stop_gradient": _bools([True]),
            "value": Attribute("double", 0.0),
        }
        state = self.append("pd_op.full", [], [DenseTensorType((0,), "u8")], attributes)
        self.generic(op, where, operands={"dropout_state_in": state.results[0]})

    def tril_triu(self, op: OpDesc, where: str) -> None:
        """`tril_triu` is `tril` when its `lower` attribute is true, else `triu`, as PaddlePaddle
        translates it (pd_op.tril_triu has no phiops kernel)."""
        name = "tril" if op.attrs.get("lower", False) else "triu"
        x = self.value(self.single_input(op, "X", where), where)
        (out_name,) = op.output("Out")
        attributes = {
            "diagonal": Attribute("int32", int(op.attrs.get("diagonal", 0))),
            **self.result_flags([out_name]),
        }
        created = self.append(f"pd_op.{name}", [x], [_tensor_type(self.var(out_name), where)], attributes)
        self.values[out_name] = created.results[0]

    def generic(
        self,
        op: OpDesc,
        where: str,
        result_types: dict[str, Type] | None = None,
        operands: dict[str, Value] | None = None,
    ) -> None:
        """The pd_op the op's argument mapping names; ``result_types`` overrides the type of a
        result (by legacy output name) that the desc's variable declares wrongly, ``operands``
        gives a pd_op operand the legacy op lacks."""
        from phiops.runtime.dispatch.op_def import OP_DEFS

        arguments = legacy_arguments(op, self.block_desc, self.desc)
        name = arguments.pd_op
        inputs = {n for names in op.inputs.values() for n in names}
        if any(n in inputs for names in op.outputs.values() for n in names):
            if not name.endswith("_") and self.dialect.lookup(f"pd_op.{name}_") is not None:
                name += "_"
        ir_def: IrOpDef | None = self.dialect.lookup(f"pd_op.{name}")
        if ir_def is None:
            raise NotFoundError(f"{where}: becomes pd_op.{name}, which the pd_op dialect lacks")
        op_def = OP_DEFS.get(name) or OP_DEFS.get(arguments.pd_op)
        attr_types = {a.name: a.type for a in op_def.attrs} if op_def is not None else {}
        sources = arguments.sources
        given = operands or {}
        operands: list[Value | None] = []
        for operand in ir_def.operands:
            if operand.name in given:
                operands.append(given[operand.name])
                continue
            legacy = sources.get(operand.name)
            attr_type = attr_types.get(operand.name)
            if attr_type is not None:  # an IntArray or Scalar argument
                operands.append(self.mutable(op, operand.name, legacy, attr_type, where))
                continue
            names = op.input(legacy or _camel(operand.name))
            if not names:
                if operand.optional:
                    operands.append(None)
                    continue
                raise InvalidArgumentError(
                    f"{where}: input '{legacy or _camel(operand.name)}' (pd_op {name} "
                    f"'{operand.name}') is missing"
                )
            values = [self.value(n, where) for n in names]
            operands.append(self.combine(values) if operand.kind == "vector" else values[0])
        attributes: dict[str, Attribute] = {}
        for attr, kind in ir_def.attributes.items():
            legacy = sources.get(attr, attr)
            if legacy in op.attrs:
                attributes[attr] = _attribute(kind, op.attrs[legacy], where)
            else:  # PaddlePaddle translates an absent attribute as its type's empty value
                attributes[attr] = _empty_attribute(kind, where)
        attributes.update(_translator_attributes(name))
        output_names: list[str | None] = []
        types: list[Type] = []
        vectors: dict[int, tuple[str, ...]] = {}
        for result in ir_def.results:
            legacy = sources.get(result.name) or _camel(result.name)
            names = op.output(legacy)
            if not names:  # PaddlePaddle leaves a result the OpDesc lacks null (dropout's Mask)
                output_names.append(None)
                types.append(NULL_TYPE)
                continue
            output_names.append(names[0])
            if result.kind == "vector":  # a Tensor[] result: every variable of the output
                types.append(VectorType(tuple(_tensor_type(self.var(n), where) for n in names)))
                vectors[len(types) - 1] = names
            elif result_types and legacy in result_types:
                types.append(result_types[legacy])
            else:
                types.append(_tensor_type(self.var(names[0]), where))
        attributes.update(self.result_flags(output_names))
        created = self.append(f"pd_op.{name}", operands, types, attributes)
        for position, (var_name, value) in enumerate(zip(output_names, created.results)):
            if position in vectors:
                for index, element in enumerate(vectors[position]):
                    self.unsliced[element] = (value, index)
            elif var_name is not None:
                self.values[var_name] = value

    def mutable(
        self, op: OpDesc, argument: str, legacy: str | None, attr_type: str, where: str
    ) -> Value:
        """An IntArray/Scalar argument: its legacy tensor(s) when given, else a constant op of
        its attribute."""
        is_int_array = attr_type == "IntArray"
        candidates = [legacy] if legacy else [_camel(argument), argument]
        for candidate in candidates:
            names = op.input(candidate)
            if names:
                values = [self.value(n, where) for n in names]
                return self.combine(values) if is_int_array else values[0]
        for candidate in candidates:
            if candidate in op.attrs:
                value = op.attrs[candidate]
                if is_int_array:
                    return self.full_int_array(value)
                return self.full_scalar(value, op.attr_types[candidate])
        raise InvalidArgumentError(
            f"{where}: argument '{argument}' has neither a tensor nor an attribute "
            f"(looked for {candidates})"
        )


def translate_program_desc(desc: ProgramDesc) -> Program:
    """The PIR program of a legacy `ProgramDesc` (`phiops.runtime.formats.pdmodel` reads one
    from a ``.pdmodel`` file; its ``translate_to_pir`` takes the file's bytes or path too)."""
    if not isinstance(desc, ProgramDesc):
        raise InvalidArgumentError(
            "translate_program_desc: expected a ProgramDesc (runtime.compat.program_desc), got "
            f"{type(desc).__name__}"
        )
    return _Translator(desc).translate()


def translate_op_by_op(
    desc: ProgramDesc,
) -> tuple[Program, list[tuple[int, int, OpDesc, Any]]]:
    """The program and, per legacy op (a control-flow op's sub-block ops after it), (block
    index, index, op, the operations it became, or the error that stopped its translation):
    what the CLI reports. An op of a sub-block that cannot be translated stops its control-flow
    op of the global block, whose entry holds the error."""
    report: list[tuple[int, int, OpDesc, Any]] = []
    program = _Translator(desc).translate(report)
    return program, report
