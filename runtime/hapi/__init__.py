"""PaddlePaddle's high-level API (``paddle.Model``, ``paddle.callbacks``, ``paddle.summary``,
``paddle.flops``) for the dynamic graph, built on phiops's nn, optimizer, io and metric."""

from __future__ import annotations

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
from phiops.runtime.hapi.flops import flops
from phiops.runtime.hapi.model import Model
from phiops.runtime.hapi.summary import summary

__all__ = [
    "Model",
    "summary",
    "flops",
    "Callback",
    "ProgBarLogger",
    "ModelCheckpoint",
    "EarlyStopping",
    "LRScheduler",
    "ReduceLROnPlateau",
    "VisualDL",
    "WandbCallback",
]
