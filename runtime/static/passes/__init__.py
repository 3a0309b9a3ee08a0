"""The inference compiler: passes the executor runs when it compiles a plan of a program loaded
for inference (docs/executor.md, "Inference passes"): dead-code elimination, constant folding,
batch-norm folding, bias and activation fusion, memory planning. The ``inference_passes`` flag
names those that run."""

from phiops.runtime.static.passes.config import (
    INFERENCE_PASSES,
    PASS_NAMES,
    enabled_passes,
    mark_inference_program,
    training_reason,
)
from phiops.runtime.static.passes.pipeline import PassReport

__all__ = [
    "INFERENCE_PASSES",
    "PASS_NAMES",
    "PassReport",
    "enabled_passes",
    "mark_inference_program",
    "training_reason",
]
