"""What ``import phiops`` gives: PaddlePaddle's top-level Python API (phiops/__init__.py loads
this module on first use), with PaddlePaddle's submodules (``phiops.nn``, ``phiops.optimizer``,
``phiops.static``, ...: the facade modules beside this file)."""

from __future__ import annotations

from phiops.generated import *  # noqa: F401,F403
from phiops.generated import __all__ as _generated_names

# After the star import: the facades replace the runtime modules that phiops.generated exports
# under the same names (nn, jit, optimizer).
import phiops.amp as amp
import phiops.autograd as autograd
import phiops.distributed as distributed
import phiops.io as io
import phiops.jit as jit
import phiops.metric as metric
import phiops.nn as nn
import phiops.optimizer as optimizer
import phiops.regularizer as regularizer
import phiops.static as static
from phiops.runtime import ir

_SUBMODULES = (
    "amp",
    "autograd",
    "distributed",
    "io",
    "jit",
    "metric",
    "nn",
    "optimizer",
    "regularizer",
    "static",
)

__all__ = [*dict.fromkeys([*_generated_names, "ir", *_SUBMODULES])]
