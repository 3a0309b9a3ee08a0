"""``phiops.text`` (``paddle.text``): PaddlePaddle 3.3.1's Viterbi decoding of linear-chain CRFs,
``viterbi_decode`` and the layer ``ViterbiDecoder``, over the op ``viterbi_decode``
(runtime/kernels/impl/seq24_kernel.py).

PaddlePaddle's ``paddle.text`` also holds its text data sets (``Conll05st``, ``Imdb``,
``Imikolov``, ``Movielens``, ``UCIHousing``, ``WMT14``, ``WMT16``), which download their data;
phiops has none of them.
"""

from __future__ import annotations

import phiops as _phiops
from phiops.generated import api as _C_ops
from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.nn.layer import Layer

__all__ = ["viterbi_decode", "ViterbiDecoder"]


def viterbi_decode(
    potentials: Tensor,
    transition_params: Tensor,
    lengths: Tensor,
    include_bos_eos_tag: bool = True,
    name: str | None = None,
) -> tuple[Tensor, Tensor]:
    """The highest-scoring tag path of each sequence: ``potentials`` [batch, seq_len, num_tags]
    are the emission scores, ``transition_params`` [num_tags, num_tags] the transition scores,
    ``lengths`` [batch] int64 the sequences' lengths. With ``include_bos_eos_tag`` the last tag
    is the start tag and the one before it the stop tag. Returns ``(scores, path)``: the paths'
    scores [batch] and the paths [batch, max(lengths)] int64."""
    return _C_ops.viterbi_decode(potentials, transition_params, lengths, include_bos_eos_tag)


class ViterbiDecoder(Layer):
    """A layer holding the transition scores ``transitions`` [num_tags, num_tags];
    ``decoder(potential, lengths)`` is ``viterbi_decode(potential, transitions, lengths,
    include_bos_eos_tag)``."""

    def __init__(
        self, transitions: Tensor, include_bos_eos_tag: bool = True, name: str | None = None
    ) -> None:
        super().__init__()
        self.transitions = transitions
        self.include_bos_eos_tag = include_bos_eos_tag
        self.name = name

    def forward(self, potential: Tensor, lengths: Tensor) -> tuple[Tensor, Tensor]:
        return viterbi_decode(
            potential, self.transitions, lengths, self.include_bos_eos_tag, self.name
        )


_phiops._load_api()
