"""``phiops.metric`` (``paddle.metric``): empty so far. PaddlePaddle's Metric, Accuracy,
Precision, Recall, Auc and the ``accuracy`` function are missing from phiops, as are the
``accuracy`` and ``auc`` ops they run on.
"""

from __future__ import annotations

__all__: list[str] = []
