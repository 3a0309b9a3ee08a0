"""``phiops.regularizer`` (``paddle.regularizer``): ``L1Decay`` and ``L2Decay``
(runtime/regularizer.py), with PaddlePaddle 3.3.1's signatures. An optimizer takes one as
``weight_decay`` (a float is ``L2Decay``'s coefficient; AdamW's is its decoupled coefficient and
takes none), and ``ParamAttr(regularizer=...)`` gives one parameter its own, which replaces the
optimizer's for it, as in PaddlePaddle. PaddlePaddle's base class, ``WeightDecayRegularizer``, is
not in its ``__all__`` either; phiops has it as ``phiops.runtime.regularizer.WeightDecayRegularizer``.
"""

from __future__ import annotations

import phiops as _phiops

from phiops.runtime.regularizer import L1Decay, L2Decay

__all__ = ["L1Decay", "L2Decay"]

_phiops._load_api()  # the ops and paddle's Tensor methods, as `import phiops` gives them
