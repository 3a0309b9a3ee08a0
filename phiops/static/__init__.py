"""``phiops.static`` (``paddle.static``): static graphs (runtime/static/). Build programs
(``Program``, ``program_guard``, ``data``, ``create_parameter``, ``InputSpec``), differentiate
them (``append_backward``, ``gradients``), run them (``Executor``, ``Scope``), and save and load
inference models (``save_inference_model``, ``load_inference_model``, ``normalize_program``).
``enable_static()`` makes every API call on a ``Value`` append an operation to the current program.
Submodules: ``nn`` (control flow: ``cond``, ``while_loop``; the classic layers ``fc``,
``conv2d``, ``batch_norm``, ``embedding``, ``layer_norm``), ``initializer`` (the initializers of
``phiops.nn.initializer``) and ``io`` (the saved-model functions).

Programs' state: ``save`` / ``load`` (``PREFIX.pdparams``, ``.pdopt``, ``.json``, as
PaddlePaddle writes them), ``load_program_state`` / ``set_program_state``, ``serialize_program`` /
``deserialize_program``, ``serialize_persistables`` / ``deserialize_persistables``,
``save_to_file`` / ``load_from_file`` (runtime/static/persist.py); ``CompiledProgram`` and
``BuildStrategy`` (runtime/static/compiled.py); ``name_scope``, ``device_guard``, ``cpu_places`` /
``cuda_places`` / ``xpu_places``, ``create_global_var`` and ``Variable`` (phiops's program values
are PIR ``Value``\\ s; runtime/static/framework_api.py). Still missing: ExponentialMovingAverage,
``Print``, ``py_func``, WeightNormParamAttr and the IPU names. ``accuracy`` and ``auc`` are
``paddle.static``'s metric functions (runtime/metric/accuracy.py), as PaddlePaddle 3.3.1 builds
them in a PIR program.
"""

from __future__ import annotations

import phiops as _phiops

from phiops.runtime.static import *  # noqa: F401,F403
from phiops.runtime.static import __all__ as _runtime_names

# the facade submodules replace the runtime's modules of the same names (importing a submodule
# sets the package's attribute; `from phiops.static import nn` would find the runtime's)
import phiops.static.initializer as _initializer  # noqa: E402,F401
import phiops.static.io as _io  # noqa: E402,F401
import phiops.static.nn as _nn  # noqa: E402,F401

from phiops.runtime.metric.accuracy import accuracy, auc  # noqa: E402

__all__ = [*_runtime_names, "accuracy", "auc"]

_phiops._load_api()  # the ops and paddle's Tensor methods, as `import phiops` gives them
