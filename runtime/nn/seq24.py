"""``paddle.nn.functional`` functions and ``paddle.nn`` layers over the seq24 ops of issue 24
(sequence, NLP and graph ops; kernels in runtime/kernels/impl/seq24_kernel.py), with
PaddlePaddle 3.3.1's signatures: ``gather_tree``."""

from __future__ import annotations

from phiops.runtime.dispatch.op_def import op_api
from phiops.runtime.eager.tensor import Tensor

__all__ = ["gather_tree"]

FUNCTIONAL_NAMES = ("gather_tree",)


def gather_tree(ids: Tensor, parents: Tensor) -> Tensor:
    """The full id sequences of beam search's final beams: ``ids`` [max_time, batch, beam]
    traced back through ``parents`` (the beam each id came from at the step before); op
    ``gather_tree``."""
    return op_api("gather_tree")(ids, parents)
