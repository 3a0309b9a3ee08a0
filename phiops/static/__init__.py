"""``phiops.static`` (``paddle.static``): static graphs (runtime/static/). Build programs
(``Program``, ``program_guard``, ``data``, ``create_parameter``, ``InputSpec``), differentiate
them (``append_backward``, ``gradients``), run them (``Executor``, ``Scope``), and save and load
inference models (``save_inference_model``, ``load_inference_model``, ``normalize_program``).
``enable_static()`` makes every API call on a ``Value`` append an operation to the current program.
Submodules: ``nn`` (control flow: ``cond``, ``while_loop``), ``initializer`` (the initializers of
``phiops.nn.initializer``) and ``io`` (the saved-model functions).

PaddlePaddle's ``paddle.static`` also has what phiops lacks: ``Variable`` (phiops's program values
are PIR ``Value``\\ s), CompiledProgram and BuildStrategy, ExponentialMovingAverage, ``save`` /
``load`` of program state, ``serialize_program`` / ``deserialize_program``, ``name_scope``,
``device_guard``, ``cpu_places`` / ``cuda_places``, ``Print``, ``py_func``, ``create_global_var``,
``accuracy`` and ``auc``.
"""

from __future__ import annotations

import phiops as _phiops

from phiops.runtime.static import (
    Executor,
    InputSpec,
    Program,
    Scope,
    Value,
    append_backward,
    create_parameter,
    data,
    default_main_program,
    default_startup_program,
    disable_static,
    enable_static,
    global_scope,
    gradients,
    in_dynamic_mode,
    in_static_mode,
    load_inference_model,
    normalize_program,
    program_guard,
    save_inference_model,
    scope_guard,
    unique_name_guard,
)
from phiops.static import initializer, io, nn

__all__ = [
    "Program",
    "Value",
    "program_guard",
    "unique_name_guard",
    "default_main_program",
    "default_startup_program",
    "enable_static",
    "disable_static",
    "in_dynamic_mode",
    "in_static_mode",
    "data",
    "create_parameter",
    "initializer",
    "nn",
    "append_backward",
    "gradients",
    "Executor",
    "InputSpec",
    "Scope",
    "global_scope",
    "scope_guard",
    "save_inference_model",
    "load_inference_model",
    "normalize_program",
]

_phiops._load_api()  # the ops and paddle's Tensor methods, as `import phiops` gives them
