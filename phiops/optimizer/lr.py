"""``phiops.optimizer.lr`` (``paddle.optimizer.lr``): the learning-rate schedulers phiops has
(runtime/optimizer/lr.py): StepDecay and CosineAnnealingDecay, and their base class LRScheduler.

PaddlePaddle has more that phiops lacks: NoamDecay, PiecewiseDecay, NaturalExpDecay,
InverseTimeDecay, PolynomialDecay, LinearWarmup, ExponentialDecay, MultiStepDecay, LambdaDecay,
ReduceOnPlateau, MultiplicativeDecay, OneCycleLR, CyclicLR, LinearLR and
CosineAnnealingWarmRestarts.
"""

from __future__ import annotations

from phiops.runtime.optimizer.lr import CosineAnnealingDecay, LRScheduler, StepDecay

__all__ = ["LRScheduler", "StepDecay", "CosineAnnealingDecay"]
