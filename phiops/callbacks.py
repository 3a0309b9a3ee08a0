"""``phiops.callbacks`` (``paddle.callbacks``): the hooks of ``phiops.Model``'s loops
(runtime/hapi/callbacks.py): ``Callback``, ``ProgBarLogger``, ``ModelCheckpoint``,
``EarlyStopping``, ``LRScheduler`` and ``ReduceLROnPlateau``, with PaddlePaddle 3.3.1's
signatures, ``logs`` and ``params``. ``VisualDL`` and ``WandbCallback`` raise
``UnimplementedError``: phiops depends on neither visualdl nor wandb."""

from __future__ import annotations

import phiops as _phiops

from phiops.runtime.hapi.callbacks import (
    Callback,
    EarlyStopping,
    LRScheduler,
    ModelCheckpoint,
    ProgBarLogger,
    ReduceLROnPlateau,
    VisualDL,
    WandbCallback,
)

__all__ = [
    "Callback",
    "ProgBarLogger",
    "ModelCheckpoint",
    "VisualDL",
    "LRScheduler",
    "EarlyStopping",
    "ReduceLROnPlateau",
    "WandbCallback",
]

_phiops._load_api()  # the ops and paddle's Tensor methods, as `import phiops` gives them
