"""``phiops.optimizer.lr`` (``paddle.optimizer.lr``): every learning-rate scheduler of
PaddlePaddle 3.3.1 (runtime/optimizer/lr.py), with its signature and its rates: LRScheduler (the
base class), NoamDecay, PiecewiseDecay, NaturalExpDecay, InverseTimeDecay, PolynomialDecay,
LinearWarmup, ExponentialDecay, MultiStepDecay, StepDecay, LambdaDecay, ReduceOnPlateau,
CosineAnnealingDecay, MultiplicativeDecay, OneCycleLR, CyclicLR, LinearLR and
CosineAnnealingWarmRestarts. Every optimizer takes any of them as ``learning_rate``.
"""

from __future__ import annotations

from phiops.runtime.optimizer.lr import (
    CosineAnnealingDecay,
    CosineAnnealingWarmRestarts,
    CyclicLR,
    ExponentialDecay,
    InverseTimeDecay,
    LambdaDecay,
    LinearLR,
    LinearWarmup,
    LRScheduler,
    MultiplicativeDecay,
    MultiStepDecay,
    NaturalExpDecay,
    NoamDecay,
    OneCycleLR,
    PiecewiseDecay,
    PolynomialDecay,
    ReduceOnPlateau,
    StepDecay,
)

__all__ = [
    "LRScheduler",
    "NoamDecay",
    "PiecewiseDecay",
    "NaturalExpDecay",
    "InverseTimeDecay",
    "PolynomialDecay",
    "LinearWarmup",
    "ExponentialDecay",
    "MultiStepDecay",
    "StepDecay",
    "LambdaDecay",
    "ReduceOnPlateau",
    "CosineAnnealingDecay",
    "MultiplicativeDecay",
    "OneCycleLR",
    "CyclicLR",
    "LinearLR",
    "CosineAnnealingWarmRestarts",
]
