"""``phiops.optimizer`` (``paddle.optimizer``): SGD, Momentum, Adam and AdamW with PaddlePaddle's
interface, taking a float or a scheduler of ``phiops.optimizer.lr`` as ``learning_rate``
(runtime/nn/optimizer.py over runtime/optimizer.py's update rules, which also append the updates
of a static program in ``minimize``); ``Optimizer`` is their base class.

PaddlePaddle's ``paddle.optimizer`` also has Adagrad, Adadelta, Adamax, RMSProp, Lamb, LBFGS,
NAdam, RAdam, ASGD and Rprop, which phiops lacks; phiops's optimizers take no parameter groups
(dicts) and no regularizer objects (a float ``weight_decay`` is L2Decay's), and say so with
``UnimplementedError``.
"""

from __future__ import annotations

import phiops as _phiops

from phiops.optimizer import lr
from phiops.runtime.nn.optimizer import SGD, Adam, AdamW, Momentum
from phiops.runtime.optimizer import Optimizer

__all__ = ["lr", "Optimizer", "SGD", "Momentum", "Adam", "AdamW"]

_phiops._load_api()  # the ops and paddle's Tensor methods, as `import phiops` gives them
