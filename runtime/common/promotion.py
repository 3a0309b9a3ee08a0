"""PaddlePaddle 3.3.1's type promotion: the dtype an op computes in when its inputs differ.

One set of rules for eager dispatch (runtime/dispatch/dispatcher.py) and static program building
(runtime/static/build.py); which ops they apply to, and to which inputs, is each op's traits in
the registry (ops/op_traits.yaml: ``promotes``, ``same_dtype``, ``float_math``). The rules, as
tests/data/dtype_semantics/ records them:

- equal dtypes stay as they are;
- two floating dtypes promote to the wider (float16 with bfloat16 gives float32);
- a complex dtype with any other promotes to complex, wide enough for both (complex64 with
  float64 gives complex128);
- any other pair (int32 with int64, an integer with a float, bool with anything but complex)
  is refused: InvalidArgumentError naming the op, both dtypes and the cast that makes it work;
- but where one of the two inputs of an elementwise arithmetic or comparison op is a 0-D tensor
  (the ops whose traits give ``zero_d_promotion``: PHI's ``support_promotion_ops``), every pair
  promotes, as PHI's
  ``GetPromoteDtype`` (paddle/phi/common/type_promotion.h) does: a 0-D tensor of the other
  input's kind (integer, floating, complex) takes that input's dtype, like a Python number;
  otherwise, and where both are 0-D, PHI's promotion table (``promote_types``) decides
  (``int32[2] * float64[]`` is float64, ``float32[2] * float64[]`` float32, ``int64[] *
  int32[]`` int64); ``zero_d_promotion: table`` (floor_divide) takes the table for every pair.
  Eager and static building alike, as PaddlePaddle 3.3.1's.

Ops whose inputs are ``same_dtype`` (concat, stack, add_n, matmul, bitwise ops) take one dtype;
a mix is refused the same way, but for the pairs their kernels' data transform takes
(``kernel_transform``). ``divide`` computes integer inputs in float32 (``true_division``), and
the unary ops with ``float_math`` compute the integer dtypes listed for them in float32, as
PaddlePaddle's do.
"""

from __future__ import annotations

from typing import Any, Callable, NamedTuple, Sequence

from phiops.runtime.common.data_type import DataType
from phiops.runtime.errors import InvalidArgumentError

__all__ = [
    "promote_pair",
    "compute_dtype",
    "unary_compute_dtype",
    "PromotionRule",
    "promotion_rule",
    "promote_metas",
    "scalar_result_dtype",
    "zero_d_result_dtype",
    "matmul_operator_dtype",
    "kernel_transform",
    "KERNEL_TRANSFORMS",
    "promote_types",
    "zero_d_tensor_dtype",
]

D = DataType

_INTEGERS = frozenset((D.UINT8, D.INT8, D.INT16, D.INT32, D.INT64))
_WIDE_INTEGERS = frozenset((D.INT32, D.INT64))

_FLOATS = (D.FLOAT16, D.BFLOAT16, D.FLOAT32, D.FLOAT64)


def _float_rank(dtype: DataType) -> int:
    return {D.FLOAT16: 1, D.BFLOAT16: 1, D.FLOAT32: 2, D.FLOAT64: 3}[dtype]


def promote_pair(x: DataType, y: DataType) -> DataType | None:
    """The dtype ``x`` and ``y`` promote to, or None where PaddlePaddle refuses the pair."""
    if x is y:
        return x
    if x in _FLOATS and y in _FLOATS:
        if _float_rank(x) == _float_rank(y):
            return D.FLOAT32  # float16 with bfloat16
        return x if _float_rank(x) > _float_rank(y) else y
    if x.is_complex or y.is_complex:
        wide = D.COMPLEX128 in (x, y) or D.FLOAT64 in (x, y)
        return D.COMPLEX128 if wide else D.COMPLEX64
    return None


# PHI's promoteTypes table (paddle/phi/common/type_promotion.h), rows and columns in this order
_TABLE_ORDER = (
    D.UINT8, D.INT8, D.INT16, D.INT32, D.INT64, D.FLOAT16, D.FLOAT32, D.FLOAT64, D.COMPLEX64,
    D.COMPLEX128, D.BOOL, D.BFLOAT16,
)  # fmt: skip
_TABLE = """
u1 i2 i2 i4 i8 f2 f4 f8 c4 c8 u1 bf
i2 i1 i2 i4 i8 f2 f4 f8 c4 c8 i1 bf
i2 i2 i2 i4 i8 f2 f4 f8 c4 c8 i2 bf
i4 i4 i4 i4 i8 f2 f4 f8 c4 c8 i4 bf
i8 i8 i8 i8 i8 f2 f4 f8 c4 c8 i8 bf
f2 f2 f2 f2 f2 f2 f4 f8 c4 c8 f2 f4
f4 f4 f4 f4 f4 f4 f4 f8 c4 c8 f4 f4
f8 f8 f8 f8 f8 f8 f8 f8 c8 c8 f8 f8
c4 c4 c4 c4 c4 c4 c4 c8 c4 c8 c4 c4
c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8
u1 i1 i2 i4 i8 f2 f4 f8 c4 c8 b1 bf
bf bf bf bf bf f4 f4 f8 c4 c8 bf bf
"""
_SHORT = dict(zip("u1 i1 i2 i4 i8 f2 f4 f8 c4 c8 b1 bf".split(), _TABLE_ORDER))
_PROMOTE_TYPES = {
    (row, column): _SHORT[cell]
    for row, line in zip(_TABLE_ORDER, _TABLE.split("\n")[1:-1])
    for column, cell in zip(_TABLE_ORDER, line.split())
}


def promote_types(x: DataType, y: DataType) -> DataType:
    """PHI's ``promoteTypes`` table: the dtype of any pair of its twelve dtypes."""
    try:
        return _PROMOTE_TYPES[(x, y)]
    except KeyError:
        raise InvalidArgumentError(
            f"type promotion of {x.name.lower()} and {y.name.lower()}: PaddlePaddle's table "
            "has no such pair"
        ) from None


def _scalar_kind(dtype: DataType) -> int:
    """The kinds PHI's is_common_dtype_for_scalar compares (bool is none of them)."""
    if dtype in _INTEGERS:
        return 1
    if dtype in _FLOATS:
        return 2
    return 3 if dtype.is_complex else 0


def zero_d_tensor_dtype(x: DataType, x_0d: bool, y: DataType, y_0d: bool) -> DataType:
    """The dtype ``x <op> y`` computes in where ``x_0d`` or ``y_0d`` (a 0-D tensor), for an op
    with ``zero_d_promotion: number``: the other input's dtype where the 0-D one is of its kind
    and only one is 0-D, else PHI's table."""
    if x_0d != y_0d and _scalar_kind(x) and _scalar_kind(x) == _scalar_kind(y):
        return y if x_0d else x
    return promote_types(x, y)


def _rank(meta: Any) -> int | None:
    try:
        return len(meta.dims)
    except Exception:  # noqa: BLE001 - a meta without dims takes the tensor-tensor rules
        return None


def _suggestion(x_name: str, x: DataType, y_name: str, y: DataType) -> str:
    """Cast the input of the lower kind (bool < integer < float < complex; the narrower of two
    of one kind) to the other's dtype."""
    if _kind_rank(x) > _kind_rank(y) or (_kind_rank(x) == _kind_rank(y) and x > y):
        x_name, x, y_name, y = y_name, y, x_name, x
    return f"cast it first: cast({x_name}, '{y.name.lower()}')"


def _kind_rank(dtype: DataType) -> int:
    if dtype is D.BOOL:
        return 0
    if dtype.is_integer:
        return 1
    return 3 if dtype.is_complex else 2


def compute_dtype(
    op: str,
    named: Sequence[tuple[str, DataType]],
    promotes: bool = True,
    transform: str | None = None,
    true_division: bool = False,
) -> DataType:
    """The dtype ``op`` computes in for its participating inputs ``named`` ((name, dtype) pairs,
    ``x[0]``, ``x[1]``... for a Tensor[] input): promoted, or for an op that does not promote
    the first input's where its kernel's data ``transform`` (``kernel_transform``) takes the
    others; float32 for integers where the op is a ``true_division``. InvalidArgumentError
    naming both dtypes and the cast that would make it work for a pair the rules refuse."""
    first_name, result = named[0]
    for name, dtype in named[1:]:
        promoted = (
            promote_pair(result, dtype) if promotes else kernel_transform(transform, result, dtype)
        )
        if promoted is None:
            rule = (
                "PaddlePaddle promotes only between floating-point dtypes and between complex "
                "and real dtypes"
                if promotes
                else "its inputs must share one dtype"
            )
            raise InvalidArgumentError(
                f"{op}(): {first_name} is {result.name.lower()} and {name} is "
                f"{dtype.name.lower()}: {rule}; {_suggestion(first_name, result, name, dtype)}"
            )
        result = promoted
    if true_division and result in _INTEGERS:
        return D.FLOAT32
    return result


# Real dtypes PHI's data transform turns into a complex kernel's dtype on CPU.
_INTO_COMPLEX = frozenset((D.UINT8, D.INT16, D.FLOAT16, D.BFLOAT16, D.FLOAT32))


# the data transforms of ops/op_traits.yaml's kernel_transform
KERNEL_TRANSFORMS = ("into_complex", "matmul")


def kernel_transform(transform: str | None, kernel: DataType, other: DataType) -> DataType | None:
    """The dtype a no-promotion op computes in when an input of dtype ``other`` meets the kernel
    dtype ``kernel`` (the first input's), or None where PaddlePaddle 3.3.1 refuses: none but
    the pairs its kernels' data ``transform`` casts on the way in (``into_complex``, stack's and
    add_n's: a complex first input takes uint8/int16/float16/bfloat16/float32/float64;
    ``matmul``: complex with those but float64 only for complex128, either order, and float32
    with int32/int64; None: nothing)."""
    if other is kernel:
        return kernel
    if transform == "into_complex":
        return (
            kernel if kernel.is_complex and (other in _INTO_COMPLEX or other is D.FLOAT64) else None
        )
    if transform != "matmul":
        return None
    if kernel is D.FLOAT32 and other in _WIDE_INTEGERS:
        return kernel
    complex_, real = (kernel, other) if kernel.is_complex else (other, kernel)
    if complex_.is_complex and (
        real in _INTO_COMPLEX or (real is D.FLOAT64 and complex_ is D.COMPLEX128)
    ):
        return complex_
    return None


def unary_compute_dtype(float_math: frozenset[DataType], dtype: DataType) -> DataType | None:
    """float32 where ``dtype`` is one of the integer dtypes ``float_math`` that PaddlePaddle
    computes a unary op in float32 for."""
    return D.FLOAT32 if dtype in float_math else None


class PromotionRule(NamedTuple):
    """The rule ``promote_metas`` applies to one op: the participating inputs (positions and
    names), whether they promote (else they must share one dtype, but for the kernel's data
    ``transform``), the integer dtypes a unary op computes in float32 (empty for any other op),
    whether integer inputs compute in float32 (``true_division``), and how a 0-D operand
    promotes (``zero_d``: the traits' ``zero_d_promotion``, number or table; None: as any)."""

    inputs: tuple[tuple[int, str], ...]
    promotes: bool
    float_math: frozenset[DataType] = frozenset()
    transform: str | None = None
    true_division: bool = False
    zero_d: str | None = None


def promotion_rule(info: Any) -> PromotionRule | None:
    """The rule ``promote_metas`` applies to the op of ``info`` (an OpInfo: its ``traits`` and
    ``input_names``), None for an op these rules leave alone."""
    traits, input_names = info.traits, info.input_names
    if traits.float_math:
        float_math = frozenset(DataType[name.upper()] for name in traits.float_math)
        return PromotionRule(((0, input_names[0]),), True, float_math)
    names, promotes = (traits.promotes, True) if traits.promotes else (traits.same_dtype, False)
    if not names:
        return None
    return PromotionRule(
        tuple((input_names.index(name), name) for name in names),
        promotes,
        transform=traits.kernel_transform,
        true_division=traits.true_division,
        zero_d=traits.zero_d_promotion,
    )


def promote_metas(
    op: str,
    rule: PromotionRule,
    metas: Sequence[Any],
    with_dtype: Callable[[Any, DataType], Any],
) -> tuple[DataType, tuple[Any, ...]] | None:
    """``(compute dtype, metas)`` with the participating metas re-made in the compute dtype by
    ``with_dtype(meta, dtype)``, or None for an op with fewer than two participating inputs and
    no unary float32 rule. ``metas`` hold anything with a ``dtype`` (a tuple of them for a
    Tensor[] input, None for an absent optional one); InvalidArgumentError for a refused mix."""
    inputs, promotes, float_math, transform, true_division, _ = rule
    if float_math:
        meta = metas[0]
        target = unary_compute_dtype(float_math, meta.dtype)
        if target is None:
            return None
        return target, (with_dtype(meta, target), *metas[1:])
    named: list[tuple[str, DataType]] = []
    for position, name in inputs:
        meta = metas[position]
        if isinstance(meta, (tuple, list)):
            named.extend((f"{name}[{i}]", item.dtype) for i, item in enumerate(meta))
        elif meta is not None:
            named.append((name, meta.dtype))
    if not named or (len(named) < 2 and not true_division):
        return None
    target = _zero_d_target(rule, metas, named) if rule.zero_d else None
    if target is None:
        target = compute_dtype(op, named, promotes, transform, true_division)
    changed = list(metas)
    for position, _ in inputs:
        meta = metas[position]
        if isinstance(meta, (tuple, list)):
            changed[position] = type(meta)(with_dtype(item, target) for item in meta)
        elif meta is not None:
            changed[position] = with_dtype(meta, target)
    return target, tuple(changed)


def _zero_d_target(
    rule: PromotionRule, metas: Sequence[Any], named: list[tuple[str, DataType]]
) -> DataType | None:
    """The compute dtype by PHI's 0-D tensor rule (``zero_d_tensor_dtype``), or None where it
    does not apply: other than two single inputs, equal dtypes, or no 0-D one."""
    if len(named) != 2 or len(rule.inputs) != 2:
        return None
    (_, x), (_, y) = named
    if x is y:
        return None
    x_rank, y_rank = (_rank(metas[position]) for position, _ in rule.inputs)
    if x_rank is None or y_rank is None or (x_rank and y_rank):
        return None
    if rule.true_division and x in _INTEGERS and y in _INTEGERS:
        return D.FLOAT32
    if rule.zero_d == "table":
        # 3.3.1's floor_divide takes PHI's table even where the 0-D operand is of the other's
        # kind (int16[2] // int32[] is int32; tests/data/dtype_semantics/zero_d_promotion.json)
        return promote_types(x, y)
    target = zero_d_tensor_dtype(x, x_rank == 0, y, y_rank == 0)
    if rule.true_division and target in _INTEGERS | {D.BOOL}:
        return D.FLOAT32
    return target


def scalar_result_dtype(tensor: DataType, number: bool | int | float | complex) -> DataType:
    """The dtype of ``tensor <op> number`` for a Python number (PaddlePaddle 3.3.1): a bool
    takes the tensor's dtype; an int too, int64 with a bool tensor; a float the tensor's
    floating or complex dtype, else float32; a complex the tensor's complex dtype, complex128
    with float64, else complex64."""
    if isinstance(number, bool):
        return tensor
    if isinstance(number, int):
        return D.INT64 if tensor is D.BOOL else tensor
    if isinstance(number, float):
        return tensor if tensor.is_floating_point or tensor.is_complex else D.FLOAT32
    if tensor.is_complex:
        return tensor
    return D.COMPLEX128 if tensor is D.FLOAT64 else D.COMPLEX64


def zero_d_result_dtype(op: str, tensor: DataType, scalar: DataType) -> DataType:
    """The dtype of ``tensor <op> array`` for a 0-D numpy ``array`` (PaddlePaddle 3.3.1): the
    array's dtype when it is of a higher kind (bool < integer < float < complex), complex
    promotion with a complex tensor, else the tensor's dtype; floor_divide takes the higher
    of the two in PHI's DataType order (its kernel key)."""
    if op == "floor_divide" and not (tensor.is_complex or scalar.is_complex):
        return max(tensor, scalar)
    if _kind_rank(scalar) > _kind_rank(tensor):
        return promote_pair(tensor, scalar) if scalar.is_complex else scalar
    if tensor.is_complex and (scalar.is_complex or scalar.is_floating_point):
        return promote_pair(tensor, scalar)
    return tensor


_MATMUL_KERNEL_DTYPES = frozenset((D.INT32, D.INT64, D.FLOAT32, D.FLOAT64))


def matmul_operator_dtype(x: DataType, y: DataType) -> DataType | None:
    """The dtype both operands of ``x @ y`` are cast to (PaddlePaddle 3.3.1's ``@``), or None
    to call matmul as they are: complex with float32/float64/complex promotes as the
    elementwise ops do, complex with anything else is refused (InvalidArgumentError);
    otherwise, where ``x`` is int32/int64/float32/float64 (a CPU matmul kernel's dtype), ``y``
    is cast to ``x``'s dtype (``int32 @ float32`` is int32)."""
    if x is y:
        return None
    real_or_complex = (D.FLOAT32, D.FLOAT64, D.COMPLEX64, D.COMPLEX128)
    if x.is_complex or y.is_complex:
        if x in real_or_complex and y in real_or_complex:
            return promote_pair(x, y)
        raise InvalidArgumentError(
            f"matmul(): x @ y of {x.name.lower()} and {y.name.lower()} is refused (as "
            f"PaddlePaddle 3.3.1's @ refuses it); {_suggestion('x', x, 'y', y)}"
        )
    if x in _MATMUL_KERNEL_DTYPES and not y.is_complex:
        return x
    return None
