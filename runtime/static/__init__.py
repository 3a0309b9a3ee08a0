"""Static graphs: the executor and its scopes (DESIGN.md §6)."""

from runtime.static.executor import Executor
from runtime.static.scope import Scope, global_scope, scope_guard

__all__ = ["Executor", "Scope", "global_scope", "scope_guard"]
