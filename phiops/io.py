"""``phiops.io`` (``paddle.io``): empty so far. phiops has no data loading: PaddlePaddle's Dataset,
IterableDataset, TensorDataset, ComposeDataset, ChainDataset, Subset, ``random_split``,
DataLoader, ``get_worker_info`` and the samplers (Sampler, SequenceSampler, RandomSampler,
WeightedRandomSampler, SubsetRandomSampler, BatchSampler, DistributedBatchSampler) are all
missing, so ``from phiops.io import DataLoader`` is an ImportError.

Saving and loading tensors and state dicts is ``phiops.save`` / ``phiops.load`` (``.pdparams``),
as in PaddlePaddle; inference models are ``phiops.static.save_inference_model`` and
``phiops.jit.save``.
"""

from __future__ import annotations

__all__: list[str] = []
