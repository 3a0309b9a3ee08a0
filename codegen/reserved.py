"""Names an op of phiops' own specs may not take.

An op's name becomes a function in the generated modules (``generated/api.py``,
``backward.py``, ``inplace.py`` with a ``_`` appended, re-exported by ``generated/__init__.py``)
beside the names those modules import or define, and the Python builtins their code calls. An op
named ``type`` or ``tuple`` would shadow a builtin the generated code needs; one named ``seed``,
``nn`` or ``no_grad`` would replace, or be replaced by, what the package exports under that name.
``validate_op`` refuses them with a located error. tests/codegen/test_reserved_names.py derives
the names the generated package really binds and uses and fails when one is missing here.
"""

from __future__ import annotations

import keyword

__all__ = ["RESERVED_OP_NAMES", "reserved_reason"]

# Python builtins the generated code calls or catches.
_BUILTINS_USED = frozenset("""
    AttributeError ImportError KeyError OSError TypeError ValueError bool dict filter float
    frozenset int isinstance len list open range sorted str tuple type zip
    """.split())

# What the generated modules import or define beside the op functions (the runtime's names that
# generated/__init__.py re-exports included).
_PACKAGE_NAMES = frozenset("""
    AlreadyExistsError Any ArgumentMappingContext AttrInfo Backend CPUPlace Callable DataLayout
    DataType DataTypeLike GPUPlace GradSpec INPLACE_METHODS InputInfo IntArray IntArrayLike
    InvalidArgumentError KernelSignature MAPPINGS MetaConfig MetaTensor NotFoundError OPS OpDef
    OpInfo OpTraits OperatorInfo OutputInfo PD_OP_NAMES ParamAttr PhiError Place PlaceLike
    PreconditionNotMetError SCALAR_OPERAND_DTYPES SIGNATURES Scalar ScalarLike Sequence
    TENSOR_METHODS Tensor UnimplementedError annotations assign_inplace bool_ cat check_inplace
    check_registry complex128 complex64 concatenate disable_static enable_grad
    enable_static float16 float32 float64 functools get_flags get_infer_meta grad
    in_dynamic_mode install_operators int16 int32 int64 int8 ir is_grad_enabled jit
    keyword_aliases load nn no_grad optimizer rand randn register_generated_mappings
    register_op_def register_op_table save seed set_flags set_grad_enabled set_printoptions
    sort standard_normal static to_tensor uint8 write_out api backward inplace registry
    signatures infer_meta python_api tensor_methods compat_signatures pd_op_dialect generated
    phiops runtime codegen
    """.split())

RESERVED_OP_NAMES = frozenset(keyword.kwlist) | _BUILTINS_USED | _PACKAGE_NAMES


def reserved_reason(name: str) -> str | None:
    """Why ``name`` cannot be an op's name (as written or with the in-place ``_``), or None."""
    for candidate in (name, name + "_"):
        if keyword.iskeyword(candidate):
            return f"'{candidate}' is a Python keyword"
        if candidate in _BUILTINS_USED:
            return f"the generated code calls the builtin '{candidate}', which it would shadow"
        if candidate in _PACKAGE_NAMES:
            return f"the generated package already binds '{candidate}'"
    return None
