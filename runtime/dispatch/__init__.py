"""Dispatch: the OpDef registry, attribute normalisers and the per-op dispatcher (plan, execute)."""

from phiops.runtime.dispatch.dispatcher import DISPATCHERS, OpDispatcher, clear_dispatch_caches
from phiops.runtime.dispatch.op_def import (
    OP_DEFS,
    OpDef,
    get_op_def,
    get_op_info,
    op_api,
    register_op_def,
)
from phiops.runtime.dispatch.op_info import AttrInfo, InputInfo, OpInfo, OpTraits, OutputInfo

__all__ = [
    "OP_DEFS",
    "OpDef",
    "get_op_def",
    "op_api",
    "register_op_def",
    "DISPATCHERS",
    "OpDispatcher",
    "clear_dispatch_caches",
    "AttrInfo",
    "InputInfo",
    "OpInfo",
    "OutputInfo",
    "OpTraits",
    "get_op_info",
]
