"""``paddle.io`` for phiops: datasets, samplers and the DataLoader (with worker processes).

Layer: library (may import anything below it; nothing in the runtime imports it)."""

from phiops.runtime.io.batch_sampler import BatchSampler, DistributedBatchSampler
from phiops.runtime.io.dataloader import DataLoader
from phiops.runtime.io.dataset import (
    ChainDataset,
    ComposeDataset,
    ConcatDataset,
    Dataset,
    IterableDataset,
    Subset,
    TensorDataset,
    random_split,
)
from phiops.runtime.io.sampler import (
    RandomSampler,
    Sampler,
    SequenceSampler,
    SubsetRandomSampler,
    WeightedRandomSampler,
)
from phiops.runtime.io.worker import get_worker_info

__all__ = [
    "Dataset",
    "IterableDataset",
    "TensorDataset",
    "ComposeDataset",
    "ChainDataset",
    "ConcatDataset",
    "Subset",
    "random_split",
    "Sampler",
    "SequenceSampler",
    "RandomSampler",
    "WeightedRandomSampler",
    "SubsetRandomSampler",
    "BatchSampler",
    "DistributedBatchSampler",
    "DataLoader",
    "get_worker_info",
]
