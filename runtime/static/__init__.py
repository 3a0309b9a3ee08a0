"""Static graphs (``phi.static``), DESIGN.md §6: build programs (docs/static.md), run them with the
executor (docs/executor.md), save and load inference models (docs/saved_models.md).

``enable_static()`` turns every generated API call on Values into an operation appended to the
current program; ``data`` and ``create_parameter`` make a program's inputs and parameters;
``nn.cond`` and ``nn.while_loop`` build control flow, ``nn.fc``, ``nn.conv2d``, ``nn.batch_norm``,
``nn.embedding`` and ``nn.layer_norm`` classic layers; parameter initializers are recorded in the startup program. ``Executor.run`` plans a program
once per feed signature and then only runs kernels. ``append_backward`` and ``gradients`` append
backward programs, and ``phiops.runtime.optimizer``'s ``minimize`` appends training (docs/static.md,
Training).
"""

from __future__ import annotations

from phiops.runtime.ir.core import Program, Value
from phiops.runtime.static import initializer, nn
from phiops.runtime.static.backward import append_backward, gradients
from phiops.runtime.static.compiled import BuildStrategy, CompiledProgram
from phiops.runtime.static.executor import Executor
from phiops.runtime.static.framework_api import (
    Variable,
    cpu_places,
    create_global_var,
    cuda_places,
    device_guard,
    name_scope,
    xpu_places,
)
from phiops.runtime.static.input_spec import InputSpec
from phiops.runtime.static.io import load_inference_model, normalize_program, save_inference_model
from phiops.runtime.static.persist import (
    deserialize_persistables,
    deserialize_program,
    load,
    load_from_file,
    load_program_state,
    save,
    save_to_file,
    serialize_persistables,
    serialize_program,
    set_program_state,
)
from phiops.runtime.static.mode import (
    disable_static,
    enable_static,
    in_dynamic_mode,
    in_static_mode,
)
from phiops.runtime.static.program import (
    default_main_program,
    default_startup_program,
    program_guard,
    unique_name_guard,
)
from phiops.runtime.static.scope import Scope, global_scope, scope_guard
from phiops.runtime.static.value_api import install_value_api
from phiops.runtime.static.variables import create_parameter, data

install_value_api()

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
    "save",
    "load",
    "load_program_state",
    "set_program_state",
    "serialize_program",
    "deserialize_program",
    "serialize_persistables",
    "deserialize_persistables",
    "save_to_file",
    "load_from_file",
    "BuildStrategy",
    "CompiledProgram",
    "Variable",
    "name_scope",
    "device_guard",
    "cpu_places",
    "cuda_places",
    "xpu_places",
    "create_global_var",
]
