"""Optimizers with PaddlePaddle 3.3.1's interface (``paddle.optimizer``): SGD, Momentum, Adam,
AdamW, Adagrad, RMSProp, Adamax, Adadelta, Lamb, NAdam, RAdam, Rprop, ASGD and LBFGS (lbfgs.py,
``step(closure)``: not an update rule), and the learning-rate schedulers of ``lr``.

Each optimizer is one update rule (runtime/optimizer/rule.py): the per-parameter state it keeps
(accumulators with PaddlePaddle's names, shapes and initial values) and the generated op that
updates a parameter (``sgd_``, ``momentum_``, ``adam_``, ``adamw_``, ``adagrad_``, ``rmsprop_``,
``adamax_``, ``adadelta_``, ``lamb_``, ``nadam_``, ``radam_``, ``rprop_``, ``asgd_``; multi-tensor
``merged_momentum_`` / ``merged_adam_`` with ``use_multi_tensor``, the default of Momentum, Adam and
AdamW here, off in PaddlePaddle). The base class (optimizer.py) runs a rule eagerly in ``step()``,
through the generated API, and builds it into a static program in ``minimize()``
(static_program.py); ``state_dict()`` / ``set_state_dict()`` use PaddlePaddle's keys, so
``phiops.save`` / ``phiops.load`` of a ``.pdopt`` file round-trips.

``weight_decay`` is an ``L1Decay`` or ``L2Decay`` (runtime/regularizer.py), a float meaning
``L2Decay``: SGD and Adam add its term to the gradient, Momentum passes L2 to its op as
``l2_decay``; a parameter's own regularizer (``ParamAttr(regularizer=...)``) replaces the
optimizer's for it. AdamW's is the decoupled coefficient. ``grad_clip`` (runtime/nn/clip.py:
ClipGradByValue, ClipGradByNorm, ClipGradByGlobalNorm) clips the gradients first, eagerly.
Parameter groups (dicts with ``params`` and their own ``learning_rate`` factor and
``weight_decay``) follow PaddlePaddle's rules eagerly (each group clipped and updated on its
own); the optimizers of issues 24 and 25 also take their PaddlePaddle group options
(``beta1``, ``rho``, ``epsilon`` ...: ``_group_options``). Other group options (SGD's, Momentum's,
Adam's), AdamW's groups, groups and
``grad_clip`` in a static program, Rprop and ASGD in a static program, and
half-precision master weights raise ``UnimplementedError``.
"""

from __future__ import annotations

from phiops.runtime.optimizer import lr
from phiops.runtime.optimizer.adadelta import Adadelta
from phiops.runtime.optimizer.adagrad import Adagrad
from phiops.runtime.optimizer.adam import Adam, AdamW
from phiops.runtime.optimizer.adamax import Adamax
from phiops.runtime.optimizer.asgd import ASGD
from phiops.runtime.optimizer.lamb import Lamb
from phiops.runtime.optimizer.lbfgs import LBFGS
from phiops.runtime.optimizer.momentum import Momentum
from phiops.runtime.optimizer.nadam import NAdam, RAdam
from phiops.runtime.optimizer.optimizer import Optimizer
from phiops.runtime.optimizer.rmsprop import RMSProp
from phiops.runtime.optimizer.rprop import Rprop
from phiops.runtime.optimizer.sgd import SGD

__all__ = [
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
    "lr",
]
