"""``paddle.callbacks``: the hooks ``Model.fit``/``evaluate``/``predict`` call, with
PaddlePaddle 3.3.1's ``logs`` dicts and ``params`` (batch_size, epochs, steps, verbose, metrics).

``VisualDL`` and ``WandbCallback`` raise ``UnimplementedError``: phiops depends on neither."""

from __future__ import annotations

import numbers
import os
import time
import warnings
from typing import Any, Iterator, Sequence

import numpy as np

from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.hapi.progressbar import ProgressBar
from phiops.runtime.optimizer.lr import LRScheduler as _LRSchedulerBase

_MODES = ("train", "eval", "predict")


def config_callbacks(
    callbacks: Any = None,
    model: Any = None,
    batch_size: int | None = None,
    epochs: int | None = None,
    steps: int | None = None,
    log_freq: int = 2,
    verbose: int = 2,
    save_freq: int = 1,
    save_dir: str | None = None,
    metrics: list[str] | None = None,
    mode: str = "train",
) -> CallbackList:
    """The callbacks a run uses: the user's, with a ``ProgBarLogger`` first (when ``verbose``),
    a ``ModelCheckpoint`` and an ``LRScheduler`` last unless given, as PaddlePaddle adds them."""
    given = callbacks or []
    cbks = list(given if isinstance(given, (list, tuple)) else [given])
    for k in cbks:
        if not isinstance(k, Callback):
            raise InvalidArgumentError(
                f"Model: callbacks must be paddle.callbacks.Callback instances, got {type(k).__name__}"
            )
    if not any(isinstance(k, ProgBarLogger) for k in cbks) and verbose:
        cbks = [ProgBarLogger(log_freq, verbose=verbose), *cbks]
    if not any(isinstance(k, ModelCheckpoint) for k in cbks):
        cbks = [*cbks, ModelCheckpoint(save_freq, save_dir)]
    for k in cbks:
        if isinstance(k, EarlyStopping):
            k.save_dir = save_dir
    if not any(isinstance(k, LRScheduler) for k in cbks):
        cbks = [*cbks, LRScheduler()]
    cbk_list = CallbackList(cbks)
    cbk_list.set_model(model)
    metrics = (metrics or []) if mode != "test" else []
    cbk_list.set_params(
        {
            "batch_size": batch_size,
            "epochs": epochs,
            "steps": steps,
            "verbose": verbose,
            "metrics": metrics,
        }
    )
    return cbk_list


class CallbackList:
    """Calls each callback's hook in order."""

    def __init__(self, callbacks: Sequence[Callback]) -> None:
        self.callbacks = list(callbacks)
        self.params: dict[str, Any] = {}
        self.model = None

    def append(self, callback: Callback) -> None:
        self.callbacks.append(callback)

    def __iter__(self) -> Iterator[Callback]:
        return iter(self.callbacks)

    def set_params(self, params: dict[str, Any]) -> None:
        for c in self.callbacks:
            c.set_params(params)

    def set_model(self, model: Any) -> None:
        for c in self.callbacks:
            c.set_model(model)

    def _call(self, name: str, *args: Any) -> None:
        for c in self.callbacks:
            getattr(c, name)(*args)

    def on_begin(self, mode: str, logs: dict | None = None) -> None:
        self._call(f"on_{mode}_begin", logs)

    def on_end(self, mode: str, logs: dict | None = None) -> None:
        self._call(f"on_{mode}_end", logs)

    def on_epoch_begin(self, epoch: int | None = None, logs: dict | None = None) -> None:
        self._call("on_epoch_begin", epoch, logs)

    def on_epoch_end(self, epoch: int | None = None, logs: dict | None = None) -> None:
        self._call("on_epoch_end", epoch, logs)

    def on_batch_begin(self, mode: str, step: int | None = None, logs: dict | None = None) -> None:
        self._call(f"on_{mode}_batch_begin", step, logs)

    def on_batch_end(self, mode: str, step: int | None = None, logs: dict | None = None) -> None:
        self._call(f"on_{mode}_batch_end", step, logs)


class Callback:
    """Base class of the callbacks: every hook does nothing. ``self.model`` is the ``Model``
    being run, ``self.params`` its ``{'batch_size', 'epochs', 'steps', 'verbose', 'metrics'}``."""

    def __init__(self) -> None:
        self.model: Any = None
        self.params: dict[str, Any] = {}

    def set_params(self, params: dict[str, Any]) -> None:
        """Called by the Model with the run's parameters."""
        self.params = params

    def set_model(self, model: Any) -> None:
        """Called by the Model with itself."""
        self.model = model

    def on_train_begin(self, logs: dict | None = None) -> None:
        """Called once before training."""

    def on_train_end(self, logs: dict | None = None) -> None:
        """Called once after training, with the last epoch's logs."""

    def on_eval_begin(self, logs: dict | None = None) -> None:
        """Called before evaluation, with ``{'steps': ..., 'metrics': [...]}``."""

    def on_eval_end(self, logs: dict | None = None) -> None:
        """Called after evaluation, with the loss and the metrics."""

    def on_predict_begin(self, logs: dict | None = None) -> None:
        """Called before prediction, with ``{'steps': ...}``."""

    def on_predict_end(self, logs: dict | None = None) -> None:
        """Called after prediction."""

    def on_epoch_begin(self, epoch: int, logs: dict | None = None) -> None:
        """Called at the start of each training epoch (0-based)."""

    def on_epoch_end(self, epoch: int, logs: dict | None = None) -> None:
        """Called at the end of each training epoch with its last logs."""

    def on_train_batch_begin(self, step: int, logs: dict | None = None) -> None:
        """Called before each training batch."""

    def on_train_batch_end(self, step: int, logs: dict | None = None) -> None:
        """Called after each training batch with loss, metrics, step and batch_size."""

    def on_eval_batch_begin(self, step: int, logs: dict | None = None) -> None:
        """Called before each evaluation batch."""

    def on_eval_batch_end(self, step: int, logs: dict | None = None) -> None:
        """Called after each evaluation batch."""

    def on_predict_batch_begin(self, step: int, logs: dict | None = None) -> None:
        """Called before each prediction batch."""

    def on_predict_batch_end(self, step: int, logs: dict | None = None) -> None:
        """Called after each prediction batch."""


def _new_timer() -> dict[str, float]:
    return {"data_time": 0.0, "batch_time": 0.0, "count": 0, "samples": 0}


class ProgBarLogger(Callback):
    """Prints the loss and metrics every ``log_freq`` steps: verbose 0 silent, 1 a progress bar,
    2 a line per print, 3 also reader cost, batch cost and samples per second."""

    def __init__(self, log_freq: int = 1, verbose: int = 2) -> None:
        super().__init__()
        if not isinstance(log_freq, int) or isinstance(log_freq, bool) or log_freq <= 0:
            raise InvalidArgumentError(
                f"ProgBarLogger: log_freq must be a positive int, got {log_freq!r}"
            )
        self.epochs: int | None = None
        self.steps: int | None = None
        self.progbar = None
        self.verbose = verbose
        self.log_freq = log_freq

    def _is_print(self) -> bool:
        return bool(self.verbose)

    def on_train_begin(self, logs: dict | None = None) -> None:
        self.epochs = self.params["epochs"]
        self.train_metrics = self.params["metrics"]
        self._train_timer = _new_timer()
        if self._is_print():
            print(
                "The loss value printed in the log is the current step, and the metric is the "
                "average value of previous steps."
            )

    def on_epoch_begin(self, epoch: int | None = None, logs: dict | None = None) -> None:
        self.steps = self.params["steps"]
        self.epoch = epoch
        self.train_step = 0
        if self.epochs and self._is_print():
            print(f"Epoch {epoch + 1}/{self.epochs}")
        self.train_progbar = ProgressBar(num=self.steps, verbose=self.verbose)
        self._train_timer["batch_start_time"] = time.time()

    def _updates(self, logs: dict, mode: str) -> None:
        values = [(k, logs[k]) for k in getattr(self, f"{mode}_metrics") if k in logs]
        timer = getattr(self, f"_{mode}_timer", None)
        if self.verbose == 3 and timer is not None:
            cnt = timer["count"] if timer["count"] > 0 else 1.0
            samples = timer["samples"] if timer["samples"] > 0 else 1.0
            values.append(("avg_reader_cost", "%.5f sec" % (timer["data_time"] / cnt)))
            values.append(("avg_batch_cost", "%.5f sec" % (timer["batch_time"] / cnt)))
            elapsed = timer["data_time"] + timer["batch_time"]
            values.append(("ips", "%.5f samples/sec" % (samples / elapsed if elapsed else 0.0)))
            timer.update(count=0, samples=0, data_time=0.0, batch_time=0.0)
        getattr(self, f"{mode}_progbar").update(getattr(self, f"{mode}_step"), values)

    def _batch_begin(self, mode: str) -> None:
        timer = getattr(self, f"_{mode}_timer")
        timer["batch_data_end_time"] = time.time()
        timer["data_time"] += timer["batch_data_end_time"] - timer["batch_start_time"]

    def _batch_end(self, mode: str, logs: dict | None) -> None:
        logs = logs or {}
        timer = getattr(self, f"_{mode}_timer")
        step = getattr(self, f"{mode}_step") + 1
        setattr(self, f"{mode}_step", step)
        samples = logs.get("batch_size", 1)
        if mode == "eval":
            self.evaled_samples += samples
        elif mode == "test":
            self.tested_samples += samples
        timer["batch_time"] += time.time() - timer["batch_data_end_time"]
        timer["count"] += 1
        timer["samples"] += samples
        total = getattr(self, f"{mode}_steps" if mode != "train" else "steps")
        if self._is_print() and step % self.log_freq == 0:
            if total is None or step < total:
                self._updates(logs, mode)
        timer["batch_start_time"] = time.time()

    def on_train_batch_begin(self, step: int, logs: dict | None = None) -> None:
        self._batch_begin("train")

    def on_train_batch_end(self, step: int, logs: dict | None = None) -> None:
        self._batch_end("train", logs)

    def on_epoch_end(self, epoch: int, logs: dict | None = None) -> None:
        if self._is_print() and self.steps is not None:
            self._updates(logs or {}, "train")

    def on_eval_begin(self, logs: dict | None = None) -> None:
        logs = logs or {}
        self.eval_steps = logs.get("steps", None)
        self.eval_metrics = logs.get("metrics", [])
        self.eval_step = 0
        self.evaled_samples = 0
        self._eval_timer = _new_timer()
        self.eval_progbar = ProgressBar(num=self.eval_steps, verbose=self.verbose)
        if self._is_print():
            print("Eval begin...")
        self._eval_timer["batch_start_time"] = time.time()

    def on_eval_batch_begin(self, step: int, logs: dict | None = None) -> None:
        self._batch_begin("eval")

    def on_eval_batch_end(self, step: int, logs: dict | None = None) -> None:
        self._batch_end("eval", logs)

    def on_predict_begin(self, logs: dict | None = None) -> None:
        logs = logs or {}
        self.test_steps = logs.get("steps", None)
        self.test_metrics = logs.get("metrics", [])
        self.test_step = 0
        self.tested_samples = 0
        self._test_timer = _new_timer()
        self.test_progbar = ProgressBar(num=self.test_steps, verbose=self.verbose)
        if self._is_print():
            print("Predict begin...")
        self._test_timer["batch_start_time"] = time.time()

    def on_predict_batch_begin(self, step: int, logs: dict | None = None) -> None:
        self._batch_begin("test")

    def on_predict_batch_end(self, step: int, logs: dict | None = None) -> None:
        self._batch_end("test", logs)

    def on_eval_end(self, logs: dict | None = None) -> None:
        if self._is_print() and self.eval_steps is not None:
            self._updates(logs or {}, "eval")
            print(f"Eval samples: {self.evaled_samples}")

    def on_predict_end(self, logs: dict | None = None) -> None:
        if self._is_print():
            if self.test_step % self.log_freq != 0 or self.verbose == 1:
                self._updates(logs or {}, "test")
            print(f"Predict samples: {self.tested_samples}")


class ModelCheckpoint(Callback):
    """Saves the model to ``save_dir/<epoch>`` every ``save_freq`` epochs and to
    ``save_dir/final`` at the end of training (nothing when ``save_dir`` is None)."""

    def __init__(self, save_freq: int = 1, save_dir: str | None = None) -> None:
        super().__init__()
        self.save_freq = save_freq
        self.save_dir = save_dir

    def on_epoch_begin(self, epoch: int | None = None, logs: dict | None = None) -> None:
        self.epoch = epoch

    def _is_save(self) -> bool:
        return bool(self.model and self.save_dir)

    def on_epoch_end(self, epoch: int, logs: dict | None = None) -> None:
        if self._is_save() and self.epoch % self.save_freq == 0:
            path = f"{self.save_dir}/{epoch}"
            print(f"save checkpoint at {os.path.abspath(path)}")
            self.model.save(path)

    def on_train_end(self, logs: dict | None = None) -> None:
        if self._is_save():
            path = f"{self.save_dir}/final"
            print(f"save checkpoint at {os.path.abspath(path)}")
            self.model.save(path)


def _scheduler_of(model: Any) -> Any:
    optimizer = getattr(model, "_optimizer", None)
    scheduler = getattr(optimizer, "_scheduler", None) if optimizer is not None else None
    return scheduler if isinstance(scheduler, _LRSchedulerBase) else None


class LRScheduler(Callback):
    """Steps the optimizer's learning-rate scheduler after every batch (``by_step``) or every
    epoch (``by_epoch``); the two are exclusive."""

    def __init__(self, by_step: bool = True, by_epoch: bool = False) -> None:
        super().__init__()
        if by_step and by_epoch:
            raise InvalidArgumentError(
                "LRScheduler: by_step option is mutually exclusive with by_epoch"
            )
        self.by_step = by_step
        self.by_epoch = by_epoch

    def on_epoch_end(self, epoch: int, logs: dict | None = None) -> None:
        scheduler = _scheduler_of(self.model)
        if self.by_epoch and scheduler is not None:
            scheduler.step()

    def on_train_batch_end(self, step: int, logs: dict | None = None) -> None:
        scheduler = _scheduler_of(self.model)
        if self.by_step and scheduler is not None:
            scheduler.step()


def _monitored(logs: dict | None, monitor: str, owner: str) -> float | None:
    if logs is None or monitor not in logs:
        warnings.warn(f"Monitor of {owner} should be loss or metric name.")
        return None
    current = logs[monitor]
    if isinstance(current, (list, tuple)):
        return current[0]
    if isinstance(current, numbers.Number):
        return current
    return None


class EarlyStopping(Callback):
    """Stops training when ``monitor`` (in the evaluation logs) has not improved by
    ``min_delta`` for ``patience`` evaluations; saves the best model to ``save_dir/best_model``."""

    def __init__(
        self,
        monitor: str = "loss",
        mode: str = "auto",
        patience: int = 0,
        verbose: int = 1,
        min_delta: float = 0,
        baseline: float | None = None,
        save_best_model: bool = True,
    ) -> None:
        super().__init__()
        self.monitor = monitor
        self.patience = patience
        self.verbose = verbose
        self.baseline = baseline
        self.min_delta = abs(min_delta)
        self.wait_epoch = 0
        self.best_weights = None
        self.stopped_epoch = 0
        self.save_best_model = save_best_model
        self.save_dir: str | None = None
        if mode not in ("auto", "min", "max"):
            warnings.warn(f"EarlyStopping mode {mode} is unknown, fallback to auto mode.")
            mode = "auto"
        if mode == "min":
            self.monitor_op = np.less
        elif mode == "max" or "acc" in self.monitor:
            self.monitor_op = np.greater
        else:
            self.monitor_op = np.less
        if self.monitor_op is np.less:
            self.min_delta *= -1

    def on_train_begin(self, logs: dict | None = None) -> None:
        self.wait_epoch = 0
        if self.baseline is not None:
            self.best_value = self.baseline
        else:
            self.best_value = np.inf if self.monitor_op is np.less else -np.inf
            self.best_weights = None

    def on_eval_end(self, logs: dict | None = None) -> None:
        current = _monitored(logs, self.monitor, "EarlyStopping")
        if current is None:
            return
        if self.monitor_op(current - self.min_delta, self.best_value):
            self.best_value = current
            self.wait_epoch = 0
            if self.save_best_model and self.save_dir is not None:
                self.model.save(os.path.join(self.save_dir, "best_model"))
        else:
            self.wait_epoch += 1
        if self.wait_epoch >= self.patience:
            self.model.stop_training = True
            if self.verbose > 0:
                print(f"Epoch {self.stopped_epoch + 1}: Early stopping.")
                if self.save_best_model and self.save_dir is not None:
                    best = os.path.abspath(os.path.join(self.save_dir, "best_model"))
                    print(f"Best checkpoint has been saved at {best}")
        self.stopped_epoch += 1


class ReduceLROnPlateau(Callback):
    """Multiplies the learning rate by ``factor`` when ``monitor`` has not improved for
    ``patience`` evaluations (not below ``min_lr``; ``cooldown`` evaluations between cuts)."""

    def __init__(
        self,
        monitor: str = "loss",
        factor: float = 0.1,
        patience: int = 10,
        verbose: int = 1,
        mode: str = "auto",
        min_delta: float = 1e-4,
        cooldown: int = 0,
        min_lr: float = 0,
    ) -> None:
        super().__init__()
        if factor >= 1.0:
            raise InvalidArgumentError("ReduceLROnPlateau does not support a factor >= 1.0.")
        self.monitor = monitor
        self.factor = factor
        self.min_lr = min_lr
        self.min_delta = min_delta
        self.patience = patience
        self.verbose = verbose
        self.cooldown = cooldown
        self.cooldown_counter = 0
        self.wait = 0
        self.best: float = 0
        self.mode = mode
        self.epoch = 0
        self._reset()

    def _reset(self) -> None:
        if self.mode not in ("auto", "min", "max"):
            warnings.warn(
                f"Learning rate reduction mode {self.mode} is unknown, fallback to auto mode."
            )
            self.mode = "auto"
        if self.mode == "min" or (self.mode == "auto" and "acc" not in self.monitor):
            self.monitor_op = lambda a, b: np.less(a, b - self.min_delta)
            self.best = np.inf
        else:
            self.monitor_op = lambda a, b: np.greater(a, b + self.min_delta)
            self.best = -np.inf
        self.cooldown_counter = 0
        self.wait = 0

    def on_train_begin(self, logs: dict | None = None) -> None:
        self._reset()

    def in_cooldown(self) -> bool:
        return self.cooldown_counter > 0

    def on_eval_end(self, logs: dict | None = None) -> None:
        optimizer = getattr(self.model, "_optimizer", None)
        if optimizer is None or _scheduler_of(self.model) is not None:
            warnings.warn(
                "ReduceLROnPlateau: expected the optimizer's learning_rate to be a float."
            )
            return
        current = _monitored(logs, self.monitor, "ReduceLROnPlateau")
        if current is None:
            return
        if self.in_cooldown():
            self.cooldown_counter -= 1
            self.wait = 0
        if self.monitor_op(current, self.best):
            self.best = current
            self.wait = 0
        elif not self.in_cooldown():
            self.wait += 1
            if self.wait >= self.patience:
                old_lr = optimizer.get_lr()
                if old_lr > np.float32(self.min_lr):
                    new_lr = max(old_lr * self.factor, self.min_lr)
                    optimizer.set_lr(new_lr)
                    if self.verbose > 0:
                        print(
                            f"\nEpoch {self.epoch + 1}: ReduceLROnPlateau reducing learning rate to {new_lr}."
                        )
                    self.cooldown_counter = self.cooldown
                    self.wait = 0
        self.epoch += 1


class VisualDL(Callback):
    """Would write the logs for VisualDL: phiops does not depend on visualdl."""

    def __init__(self, log_dir: str) -> None:
        raise UnimplementedError(
            "paddle.callbacks.VisualDL is not implemented in phiops (it needs visualdl)"
        )


class WandbCallback(Callback):
    """Would log to Weights & Biases: phiops does not depend on wandb."""

    def __init__(
        self,
        project: str | None = None,
        entity: str | None = None,
        name: str | None = None,
        dir: str | None = None,
        mode: str | None = None,
        job_type: str | None = None,
        **kwargs: Any,
    ) -> None:
        raise UnimplementedError(
            "paddle.callbacks.WandbCallback is not implemented in phiops (it needs wandb)"
        )
