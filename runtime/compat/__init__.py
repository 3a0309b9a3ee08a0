"""Argument mapping for PaddlePaddle's legacy ops (DESIGN.md §7).

``argument_mapping("elementwise_add")`` is the function that maps a legacy op instance, read
through an `ArgumentMappingContext` (a legacy OpDesc, or `LegacyCallContext` over an eager call),
to the `KernelSignature` of the phiops kernel it runs. The functions are generated from
ops/op_compat.yaml into generated/compat_signatures.py where the file says enough, and written by
hand in runtime/compat/mappings.py where it does not; ``import generated`` registers the generated
ones.
"""

from __future__ import annotations

from phiops.runtime.compat import (
    mappings as _mappings,
)  # noqa: F401  (registers the hand-written ones)
from phiops.runtime.compat.context import LegacyCallContext
from phiops.runtime.compat.registry import (
    GENERATED,
    HAND_WRITTEN,
    MappingEntry,
    MappingFunction,
    argument_mapping,
    legacy_op_types,
    mapping_entry,
    pd_op_name,
    register_argument_mapping,
    register_generated_mappings,
)
from phiops.runtime.dispatch.signature import (
    ArgumentMappingContext,
    KernelSignature,
    grad_var_name,
)

__all__ = [
    "ArgumentMappingContext",
    "KernelSignature",
    "LegacyCallContext",
    "MappingEntry",
    "MappingFunction",
    "GENERATED",
    "HAND_WRITTEN",
    "argument_mapping",
    "grad_var_name",
    "legacy_op_types",
    "mapping_entry",
    "pd_op_name",
    "register_argument_mapping",
    "register_generated_mappings",
]
