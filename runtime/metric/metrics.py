"""The metrics of ``paddle.metric``: ``Metric`` (the base class: ``reset``, ``update``,
``accumulate``, ``name`` and ``compute``), ``Accuracy`` (top-k), ``Precision``, ``Recall`` and
``Auc`` (ROC area from bucketed predictions), with PaddlePaddle 3.3.1's signatures and results.

As in PaddlePaddle, ``compute`` runs ops on tensors (Accuracy's: ``argsort``, ``slice``,
``equal``, ``cast``) and ``update`` / ``accumulate`` keep their counts in numpy.
"""

from __future__ import annotations

import abc
from typing import Any, Sequence

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.dispatch.op_def import op_api
from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError

__all__ = ["Metric", "Accuracy", "Precision", "Recall", "Auc"]


class Metric(metaclass=abc.ABCMeta):
    """The base class of metrics: ``compute`` (optional, on tensors: returns its arguments by
    default) turns a batch's outputs into what ``update`` takes; ``update`` adds a batch to the
    running state; ``accumulate`` gives the metric over every batch since ``reset``; ``name``
    names it."""

    def __init__(self) -> None:
        pass

    @abc.abstractmethod
    def reset(self) -> None:
        """Clear the running state."""
        raise NotImplementedError(f"function 'reset' not implemented in {type(self).__name__}.")

    @abc.abstractmethod
    def update(self, *args: Any) -> Any:
        """Add one batch to the running state."""
        raise NotImplementedError(f"function 'update' not implemented in {type(self).__name__}.")

    @abc.abstractmethod
    def accumulate(self) -> Any:
        """The metric over every batch since the last ``reset``."""
        raise NotImplementedError(
            f"function 'accumulate' not implemented in {type(self).__name__}."
        )

    @abc.abstractmethod
    def name(self) -> Any:
        """The metric's name (a list of names for several values)."""
        raise NotImplementedError(f"function 'name' not implemented in {type(self).__name__}.")

    def compute(self, *args: Any) -> Any:
        """Preprocess a batch's outputs and labels with ops; returns its arguments unchanged."""
        return args


def _as_array(kind: str, label: str, value: Any) -> np.ndarray:
    """``value`` (a Tensor or a numpy array) as an array; InvalidArgumentError otherwise."""
    if isinstance(value, Tensor):
        return value.numpy()
    if isinstance(value, (np.ndarray, np.generic)):
        return np.asarray(value)
    raise InvalidArgumentError(
        f"{kind}.update: {label} must be a numpy ndarray or a Tensor, got {type(value).__name__}"
    )


def _check_samples(kind: str, preds: np.ndarray, labels: np.ndarray) -> None:
    if preds.ndim == 0 or labels.ndim == 0:
        raise InvalidArgumentError(
            f"{kind}.update: preds and labels must have a sample dimension, got shapes "
            f"{list(preds.shape)} and {list(labels.shape)}"
        )
    if preds.shape[0] < labels.shape[0]:
        raise InvalidArgumentError(
            f"{kind}.update: preds has {preds.shape[0]} samples, labels {labels.shape[0]}"
        )


def _one_per_sample(kind: str, label: str, array: np.ndarray) -> np.ndarray:
    """``array`` ([N] or [N, 1]) as [N]; InvalidArgumentError for more values per sample."""
    flat = array.reshape(array.shape[0], -1)
    if flat.shape[1] != 1:
        raise InvalidArgumentError(
            f"{kind}.update: {label} must hold one value per sample ([N] or [N, 1]), got shape "
            f"{list(array.shape)}"
        )
    return flat[:, 0]


class Accuracy(Metric):
    """Top-k accuracy for each k of ``topk``. ``compute(pred, label)`` marks, per sample, which
    of its ``max(topk)`` best predictions is the label (float32 [N, maxk]); ``update`` counts
    them and returns the batch's accuracy (a list with several k); ``name()`` is ``[name]`` or
    ``[f'{name}_top{k}' ...]``."""

    def __init__(
        self, topk: Sequence[int] = (1,), name: str | None = None, *args: Any, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        if isinstance(topk, int) or not isinstance(topk, (list, tuple)) or not topk:
            raise InvalidArgumentError(
                f"Accuracy: topk must be a non-empty tuple or list of ints, got {topk!r}"
            )
        for k in topk:
            if isinstance(k, bool) or not isinstance(k, int) or k < 1:
                raise InvalidArgumentError(
                    f"Accuracy: each k of topk must be a positive int, got {k!r} in {topk!r}"
                )
        if name is not None and not isinstance(name, str):
            raise InvalidArgumentError(f"Accuracy: name must be a str, got {name!r}")
        self.topk = topk
        self.maxk = max(topk)
        self._init_name(name)
        self.reset()

    def compute(self, pred: Tensor, label: Tensor, *args: Any) -> Tensor:
        """Which of each sample's ``maxk`` best predictions equals its label: float32
        [N, maxk]. ``label`` holds class ids ([N] or [N, 1]) or one-hot / soft labels
        ([N, D], their argmax is the class)."""
        for label_name, value in (("pred", pred), ("label", label)):
            if not isinstance(value, Tensor):
                raise InvalidArgumentError(
                    f"Accuracy.compute: {label_name} must be a Tensor, got {type(value).__name__}"
                )
        if pred.ndim == 0 or pred.shape[-1] < self.maxk:
            raise InvalidArgumentError(
                f"Accuracy.compute: pred must have at least max(topk) = {self.maxk} classes in "
                f"its last dimension, got shape {pred.shape}"
            )
        _, order = op_api("argsort")(pred, -1, True, False)
        last = len(order.shape) - 1
        order = op_api("slice")(order, [last], [0], [self.maxk], [1], [])
        if len(label.shape) == 1 or (len(label.shape) == 2 and label.shape[-1] == 1):
            label = op_api("reshape")(label, [-1, 1])
        elif label.shape[-1] != 1:
            label = op_api("argmax")(label, -1, True, False, DataType.INT64)
        correct = op_api("equal")(order, op_api("cast")(label, order.dtype))
        return op_api("cast")(correct, DataType.FLOAT32)

    def update(self, correct: Any, *args: Any) -> float | list[float]:
        """Count a batch's ``compute`` output (a Tensor or array [..., maxk]); returns the
        batch's accuracy for each k (one float with a single k)."""
        correct = _as_array("Accuracy", "correct", correct)
        if correct.ndim == 0 or correct.shape[-1] < self.maxk:
            raise InvalidArgumentError(
                f"Accuracy.update: correct must have max(topk) = {self.maxk} columns (compute's "
                f"output), got shape {list(correct.shape)}"
            )
        num_samples = np.prod(np.array(correct.shape[:-1]))
        accs = []
        for i, k in enumerate(self.topk):
            num_corrects = correct[..., :k].sum()
            accs.append(float(num_corrects) / num_samples)
            self.total[i] += num_corrects
            self.count[i] += num_samples
        return accs[0] if len(self.topk) == 1 else accs

    def reset(self) -> None:
        """Zero the counts."""
        self.total = [0.0] * len(self.topk)
        self.count = [0] * len(self.topk)

    def accumulate(self) -> float | list[float]:
        """The accuracy over every batch since ``reset`` for each k (one float with one k)."""
        rates = [float(t) / c if c > 0 else 0.0 for t, c in zip(self.total, self.count)]
        return rates[0] if len(self.topk) == 1 else rates

    def _init_name(self, name: str | None) -> None:
        name = name or "acc"
        if self.maxk != 1:
            self._name = [f"{name}_top{k}" for k in self.topk]
        else:
            self._name = [name]

    def name(self) -> list[str]:
        """``[name]``, or ``[f'{name}_top{k}' for k in topk]`` when a k is above 1."""
        return self._name


class Precision(Metric):
    """Binary precision, tp / (tp + fp): a prediction is positive when it rounds to 1
    (``floor(pred + 0.5)``)."""

    def __init__(self, name: str = "precision", *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tp = 0
        self.fp = 0
        self._name = name

    def update(self, preds: Any, labels: Any) -> None:
        """Count a batch: ``preds`` (probabilities, [N] or [N, 1]) against ``labels`` (0 or 1)."""
        preds = _as_array("Precision", "preds", preds)
        labels = _as_array("Precision", "labels", labels)
        _check_samples("Precision", preds, labels)
        count = labels.shape[0]
        predicted = _one_per_sample("Precision", "preds", preds[:count])
        predicted = np.floor(predicted + 0.5).astype("int32")
        actual = _one_per_sample("Precision", "labels", labels)
        positive = predicted == 1
        self.tp += int(np.count_nonzero(positive & (actual == 1)))
        self.fp += int(np.count_nonzero(positive & (actual != 1)))

    def reset(self) -> None:
        """Zero the counts."""
        self.tp = 0
        self.fp = 0

    def accumulate(self) -> float:
        """tp / (tp + fp), 0.0 with no positive prediction."""
        predicted_positive = self.tp + self.fp
        return float(self.tp) / predicted_positive if predicted_positive != 0 else 0.0

    def name(self) -> str:
        """The name given (``precision``)."""
        return self._name


class Recall(Metric):
    """Binary recall, tp / (tp + fn): a prediction is positive when ``rint(pred)`` is 1."""

    def __init__(self, name: str = "recall", *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tp = 0
        self.fn = 0
        self._name = name

    def update(self, preds: Any, labels: Any) -> None:
        """Count a batch: ``preds`` (probabilities, [N] or [N, 1]) against ``labels`` (0 or 1)."""
        preds = _as_array("Recall", "preds", preds)
        labels = _as_array("Recall", "labels", labels)
        _check_samples("Recall", preds, labels)
        count = labels.shape[0]
        predicted = np.rint(_one_per_sample("Recall", "preds", preds[:count])).astype("int32")
        actual = _one_per_sample("Recall", "labels", labels)
        positive = actual == 1
        self.tp += int(np.count_nonzero(positive & (predicted == 1)))
        self.fn += int(np.count_nonzero(positive & (predicted != 1)))

    def accumulate(self) -> float:
        """tp / (tp + fn), 0.0 with no positive label."""
        actual_positive = self.tp + self.fn
        return float(self.tp) / actual_positive if actual_positive != 0 else 0.0

    def reset(self) -> None:
        """Zero the counts."""
        self.tp = 0
        self.fn = 0

    def name(self) -> str:
        """The name given (``recall``)."""
        return self._name


class Auc(Metric):
    """Area under the ROC curve, as PaddlePaddle computes it: each prediction's positive-class
    probability falls into one of ``num_thresholds + 1`` buckets (``int(p *
    num_thresholds)``), and ``accumulate`` sums trapezoids over the buckets from the top.
    ``curve='PR'`` is refused: PaddlePaddle 3.3.1 accepts it but computes the ROC area."""

    def __init__(
        self,
        curve: str = "ROC",
        num_thresholds: int = 4095,
        name: str = "auc",
        *args: Any,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        if curve == "PR":
            raise UnimplementedError(
                "Auc: curve='PR' is not implemented (PaddlePaddle 3.3.1 computes the ROC area "
                "for it too); use curve='ROC'"
            )
        if curve != "ROC":
            raise InvalidArgumentError(f"Auc: curve must be 'ROC' or 'PR', got {curve!r}")
        if isinstance(num_thresholds, bool) or not isinstance(num_thresholds, int):
            raise InvalidArgumentError(
                f"Auc: num_thresholds must be a positive int, got {num_thresholds!r}"
            )
        if num_thresholds < 1:
            raise InvalidArgumentError(
                f"Auc: num_thresholds must be a positive int, got {num_thresholds}"
            )
        self._curve = curve
        self._num_thresholds = num_thresholds
        self._name = name
        self.reset()

    def update(self, preds: Any, labels: Any) -> None:
        """Count a batch: ``preds`` ([N, 2], column 1 the positive class's probability in
        [0, 1]) against ``labels`` ([N] or [N, 1], nonzero for positive)."""
        labels = _as_array("Auc", "labels", labels)
        preds = _as_array("Auc", "preds", preds)
        _check_samples("Auc", preds, labels)
        if preds.ndim != 2 or preds.shape[1] < 2:
            raise InvalidArgumentError(
                f"Auc.update: preds must have shape [N, 2] (column 1 the positive class's "
                f"probability), got {list(preds.shape)}"
            )
        positive = _one_per_sample("Auc", "labels", labels).astype(bool)
        scores = preds[: labels.shape[0], 1]
        buckets = (scores * self._num_thresholds).astype(np.int64)
        if buckets.size and (buckets.min() < 0 or buckets.max() > self._num_thresholds):
            raise InvalidArgumentError(
                "Auc.update: preds[:, 1] must be probabilities in [0, 1], got values from "
                f"{scores.min()} to {scores.max()}"
            )
        self._stat_pos += np.bincount(buckets[positive], minlength=self._num_thresholds + 1)
        self._stat_neg += np.bincount(buckets[~positive], minlength=self._num_thresholds + 1)

    @staticmethod
    def trapezoid_area(x1: float, x2: float, y1: float, y2: float) -> float:
        """The area of a trapezoid between x1 and x2 under heights y1 and y2."""
        return abs(x1 - x2) * (y1 + y2) / 2.0

    def accumulate(self) -> float:
        """The ROC area over every batch since ``reset``; 0.0 without both classes."""
        tot_pos = 0.0
        tot_neg = 0.0
        auc = 0.0
        for idx in range(self._num_thresholds, -1, -1):
            tot_pos_prev, tot_neg_prev = tot_pos, tot_neg
            tot_pos += self._stat_pos[idx]
            tot_neg += self._stat_neg[idx]
            auc += self.trapezoid_area(tot_neg, tot_neg_prev, tot_pos, tot_pos_prev)
        return auc / tot_pos / tot_neg if tot_pos > 0.0 and tot_neg > 0.0 else 0.0

    def reset(self) -> None:
        """Empty the buckets."""
        self._stat_pos = np.zeros(self._num_thresholds + 1)
        self._stat_neg = np.zeros(self._num_thresholds + 1)

    def name(self) -> str:
        """The name given (``auc``)."""
        return self._name
