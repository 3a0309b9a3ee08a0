"""``phiops.jit`` (``paddle.jit``): ``save`` an eager ``phiops.nn.Layer`` as an inference model
PaddlePaddle loads (it traces the layer's forward in static mode over one ``InputSpec`` per
input), ``load`` one back as a callable ``TranslatedLayer`` (runtime/jit/).

PaddlePaddle's ``paddle.jit`` also has what phiops lacks: ``to_static`` (translating a Python
function or Layer to a program; phiops's ``save`` traces instead), ``not_to_static``,
``ignore_module``, ``enable_to_static``, ``set_code_level`` and ``set_verbosity``.
"""

from __future__ import annotations

import phiops as _phiops

from phiops.runtime.jit import TranslatedLayer, load, save

__all__ = ["save", "load", "TranslatedLayer"]

_phiops._load_api()  # the ops and paddle's Tensor methods, as `import phiops` gives them
