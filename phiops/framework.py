"""``phiops.framework`` (``paddle.framework``): ``get_default_dtype`` and ``set_default_dtype``
(runtime/common/default_dtype.py), the same functions as ``phiops.get_default_dtype`` and
``phiops.set_default_dtype``. PaddlePaddle's module has more (its Program/Variable internals, the
dygraph guards, ``ParamAttr``, ``CPUPlace``, ``save``/``load``, ...): phiops has those at their
public places (``phiops.ParamAttr``, ``phiops.save``) and not here.
"""

from __future__ import annotations

import phiops as _phiops

from phiops.runtime.common.default_dtype import get_default_dtype, set_default_dtype

__all__ = ["get_default_dtype", "set_default_dtype"]

_phiops._load_api()  # the ops and paddle's Tensor methods, as `import phiops` gives them
