"""Metrics with PaddlePaddle 3.3.1's interface (``paddle.metric``): the ``Metric`` base class,
``Accuracy``, ``Precision``, ``Recall`` and ``Auc`` (metrics.py), and the ``accuracy`` function
(accuracy.py, with ``auc``: ``paddle.static.auc``, which phiops.static re-exports)."""

from __future__ import annotations

from phiops.runtime.metric.accuracy import accuracy, auc
from phiops.runtime.metric.metrics import Accuracy, Auc, Metric, Precision, Recall

__all__ = ["Metric", "Accuracy", "Precision", "Recall", "Auc", "accuracy"]
