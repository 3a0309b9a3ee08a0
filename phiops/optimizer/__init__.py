"""``phiops.optimizer`` (``paddle.optimizer``): SGD, Momentum, Adam, AdamW, Adagrad, RMSProp,
Adamax, Adadelta, Lamb, NAdam, RAdam, Rprop, ASGD and LBFGS with PaddlePaddle's interface, taking a
float or a scheduler of ``phiops.optimizer.lr`` as ``learning_rate`` (runtime/optimizer/: one
update rule per optimizer, run eagerly by ``step()`` and built into a static program by
``minimize``); ``Optimizer`` is their base class. ``state_dict()`` / ``set_state_dict()`` use
PaddlePaddle's keys, and ``phiops.save`` / ``phiops.load`` round-trip them as ``.pdopt`` files.

Every optimizer of PaddlePaddle's ``paddle.optimizer`` is here. Parameter groups (dicts
with ``params``, ``learning_rate`` and ``weight_decay``) work eagerly, but for AdamW; other
group options, AdamW's groups and groups in a static program raise ``UnimplementedError``, as
do Rprop and ASGD in a static program. ``weight_decay`` is an ``L1Decay`` or
``L2Decay`` of ``phiops.regularizer`` or a float (``L2Decay``'s coefficient), and a parameter's
own ``ParamAttr(regularizer=...)`` replaces it for that parameter, as in PaddlePaddle.
"""

from __future__ import annotations

import phiops as _phiops

from phiops.optimizer import lr
from phiops.runtime.optimizer import (
    ASGD,
    SGD,
    Adadelta,
    Adagrad,
    Adam,
    Adamax,
    AdamW,
    Lamb,
    LBFGS,
    Momentum,
    NAdam,
    Optimizer,
    RAdam,
    RMSProp,
    Rprop,
)

__all__ = [
    "lr",
    "Optimizer",
    "SGD",
    "Momentum",
    "Adam",
    "AdamW",
    "Adagrad",
    "RMSProp",
    "Adamax",
    "Adadelta",
    "Lamb",
    "NAdam",
    "RAdam",
    "Rprop",
    "ASGD",
    "LBFGS",
]

_phiops._load_api()  # the ops and paddle's Tensor methods, as `import phiops` gives them
