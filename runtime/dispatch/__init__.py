"""Dispatch: op registrations, attribute normalisers and the per-op dispatcher."""

from runtime.dispatch.dispatcher import DISPATCHERS, OpDispatcher, clear_dispatch_caches
from runtime.dispatch.op_info import (
    OP_REGISTRY,
    AttrInfo,
    InputInfo,
    OpInfo,
    OutputInfo,
    get_op_info,
    register_op,
)

__all__ = [
    "DISPATCHERS",
    "OpDispatcher",
    "clear_dispatch_caches",
    "OP_REGISTRY",
    "AttrInfo",
    "InputInfo",
    "OpInfo",
    "OutputInfo",
    "get_op_info",
    "register_op",
]
