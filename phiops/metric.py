"""``phiops.metric`` (``paddle.metric``): the ``Metric`` base class, ``Accuracy`` (top-k),
``Precision``, ``Recall``, ``Auc`` (ROC area from PaddlePaddle's bucketed counts) and the
``accuracy(input, label, k)`` function, with PaddlePaddle 3.3.1's signatures and results
(runtime/metric/). ``accuracy`` is ``topk`` then the ``accuracy`` op, in eager and static mode;
``Auc(curve='PR')`` raises
``UnimplementedError`` (PaddlePaddle computes the ROC area for it).
"""

from __future__ import annotations

import phiops as _phiops

from phiops.runtime.metric import Accuracy, Auc, Metric, Precision, Recall, accuracy

__all__ = ["Metric", "Accuracy", "Precision", "Recall", "Auc", "accuracy"]

_phiops._load_api()  # the ops and paddle's Tensor methods, as `import phiops` gives them
