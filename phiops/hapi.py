"""``phiops.hapi`` (``paddle.hapi``): the high-level API (runtime/hapi/): ``Model`` (prepare,
fit, evaluate, predict, save, load, summary), ``summary``, ``flops`` and ``callbacks``; the
same objects are ``phiops.Model``, ``phiops.summary``, ``phiops.flops`` and
``phiops.callbacks``. Dynamic-graph mode only; mixed precision (``amp_configs``) and
``flops`` of a static Program raise ``UnimplementedError``."""

from __future__ import annotations

import phiops as _phiops
import phiops.callbacks as callbacks

from phiops.runtime.hapi import Model, flops, summary

__all__ = ["Model", "callbacks", "flops", "summary"]

_phiops._load_api()  # the ops and paddle's Tensor methods, as `import phiops` gives them
