"""Static graphs: the executor and its scopes, saved inference models (DESIGN.md §6)."""

from runtime.static.executor import Executor
from runtime.static.io import load_inference_model, normalize_program, save_inference_model
from runtime.static.scope import Scope, global_scope, scope_guard

__all__ = [
    "Executor",
    "Scope",
    "global_scope",
    "scope_guard",
    "save_inference_model",
    "load_inference_model",
    "normalize_program",
]
