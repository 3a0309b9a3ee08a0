"""``phiops.jit`` (``paddle.jit``): ``to_static`` runs a Layer's forward or a Python function as
static programs, traced once per input signature (shapes and dtypes, or the ``InputSpec``\\ s
given) and run by the executor, with gradients through a traced backward program
(runtime/jit/static_function.py); ``enable_to_static`` switches translation off and on;
``not_to_static``, ``ignore_module``, ``set_code_level`` and ``set_verbosity`` as PaddlePaddle's
(the last three change nothing for tracing). ``save`` writes an eager or ``to_static`` Layer as
an inference model PaddlePaddle loads (it traces the layer's forward in static mode over one
``InputSpec`` per input), ``load`` reads one back as a callable ``TranslatedLayer``
(runtime/jit/).

PaddlePaddle translates a function's Python source (AST and bytecode); phiops traces it, so
Python control flow that depends on a tensor's value raises an error pointing to
``paddle.static.nn.cond``, and PaddlePaddle's ``paddle.jit`` also has what phiops lacks:
``marker``, ``sot`` and ``TranslatedLayer``'s training.
"""

from __future__ import annotations

import phiops as _phiops

from phiops.runtime.jit import (
    StaticFunction,
    TranslatedLayer,
    enable_to_static,
    ignore_module,
    load,
    not_to_static,
    save,
    set_code_level,
    set_verbosity,
    to_static,
)

__all__ = [
    "save",
    "load",
    "TranslatedLayer",
    "to_static",
    "StaticFunction",
    "enable_to_static",
    "not_to_static",
    "ignore_module",
    "set_code_level",
    "set_verbosity",
]

_phiops._load_api()  # the ops and paddle's Tensor methods, as `import phiops` gives them
