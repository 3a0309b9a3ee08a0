"""``paddle.Model``: training, evaluation and prediction loops over a ``nn.Layer`` with
callbacks, as PaddlePaddle 3.3.1's ``paddle.hapi.model.Model`` runs them in dynamic-graph mode."""

from __future__ import annotations

import inspect
import os
import warnings
from contextlib import nullcontext
from typing import Any, Sequence

import numpy as np

from phiops.runtime.amp.grad_scaler import GradScaler
from phiops.runtime.amp.mixed_precision import _amp_place, auto_cast, decorate as amp_decorate
from phiops.runtime.autograd import no_grad
from phiops.runtime.backends import default_place
from phiops.runtime.eager.tensor import Tensor, to_tensor
from phiops.runtime.errors import InvalidArgumentError, PreconditionNotMetError
from phiops.runtime.formats import pdparams
from phiops.runtime.hapi.callbacks import EarlyStopping, config_callbacks
from phiops.runtime.io.batch_sampler import DistributedBatchSampler
from phiops.runtime.io.dataloader import DataLoader
from phiops.runtime.io.dataset import Dataset
from phiops.runtime.metric.metrics import Metric
from phiops.runtime.nn.clip import ClipGradByGlobalNorm, ClipGradByNorm
from phiops.runtime.nn.layer import Layer
from phiops.runtime.static.input_spec import InputSpec

__all__ = ["Model"]

_AMP_LEVELS = ("O0", "O1", "O2")
_AMP_LIST_KEYS = ("custom_white_list", "custom_black_list", "custom_black_varnames")
_AMP_SCALER_KEYS = (
    "init_loss_scaling",
    "incr_ratio",
    "decr_ratio",
    "incr_every_n_steps",
    "decr_every_n_nan_or_inf",
    "use_dynamic_loss_scaling",
)


def _to_list(value: Any) -> list[Any]:
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        return list(value)
    return [value]


def _to_numpy(value: Any) -> np.ndarray:
    return value.numpy() if isinstance(value, Tensor) else np.asarray(value)


def _as_tensor(value: Any) -> Tensor:
    return value if isinstance(value, Tensor) else to_tensor(value)


def _flatten(data: Any) -> list[Any]:
    if isinstance(data, (list, tuple)):
        out: list[Any] = []
        for item in data:
            out.extend(_flatten(item))
        return out
    if isinstance(data, dict):
        return _flatten([data[k] for k in sorted(data)])
    return [data]


def _rename_state(state: dict[str, Any], renamed: dict[str, str]) -> dict[str, Any]:
    """The optimizer state with its per-parameter keys (``<param name>_moment1_0``) renamed
    from the saved parameters' names to the network's: the file's ``.pdparams`` tensors carry
    the names they were saved under, and a network built in another process (or another
    network in this one) names its parameters otherwise."""
    if not renamed:
        return state
    prefixes = sorted(renamed, key=len, reverse=True)
    out: dict[str, Any] = {}
    for key, value in state.items():
        for old in prefixes:
            if key.startswith(old + "_"):
                key = renamed[old] + key[len(old) :]
                break
        out[key] = value
    return out


def _forward_arg_names(network: Layer) -> list[str]:
    params = inspect.signature(network.forward).parameters.values()
    return [
        p.name
        for p in params
        if p.kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    ]


class Model:
    """A ``network`` (an ``nn.Layer``) with its training machinery: ``prepare`` gives it an
    optimizer, a loss and metrics; ``fit``, ``evaluate`` and ``predict`` run over a ``Dataset``
    or a ``DataLoader``; ``save``/``load`` write and read PaddlePaddle's files. ``inputs`` and
    ``labels`` are ``InputSpec``s (a list, or one); ``inputs`` is needed by
    ``save(training=False)`` and ``summary()`` without ``input_size``."""

    def __init__(self, network: Layer, inputs: Any = None, labels: Any = None) -> None:
        if not isinstance(network, Layer):
            raise InvalidArgumentError(
                f"Model: argument 'network' expects a paddle.nn.Layer, got {type(network).__name__}"
            )
        self.mode = "train"
        self.network = network
        self._loss: Any = None
        self._optimizer: Any = None
        self._metrics: list[Metric] = []
        self._prepared = False
        self._amp_level = "O0"
        self._amp_configs: dict[str, Any] = {}
        self._amp_custom_lists: dict[str, Any] = {}
        self._scaler: Any = None
        self._test_dataloader: Any = None
        self._accumulate = 1
        self.stop_training = False
        self.num_iters: int | None = None
        if inputs is not None and not isinstance(inputs, (list, tuple, dict, InputSpec)):
            raise InvalidArgumentError(
                "Model: argument 'inputs' must be an InputSpec or a list, tuple or dict of them, "
                f"got {type(inputs).__name__}"
            )
        self._inputs = self._verify_spec(inputs, is_input=True)
        self._labels = self._verify_spec(labels)
        self._explicit_inputs = inputs is not None

    # -- specs ------------------------------------------------------------------------------
    def _verify_spec(self, specs: Any, is_input: bool = False) -> list[InputSpec]:
        if specs is None:
            if not is_input:
                return []
            names = _forward_arg_names(self.network)[:]
            return [InputSpec([None], "float32", n) for n in names]
        if isinstance(specs, dict):
            if not is_input:
                raise InvalidArgumentError("Model: argument 'labels' cannot be a dict")
            missing = [n for n in _forward_arg_names(self.network) if n not in specs]
            if missing:
                raise InvalidArgumentError(
                    f"Model: argument 'inputs' lacks the forward arguments {missing}"
                )
            out = [specs[n] for n in _forward_arg_names(self.network)]
        else:
            out = _to_list(specs)
        what = "inputs" if is_input else "labels"
        for i, spec in enumerate(out):
            if not isinstance(spec, InputSpec):
                raise InvalidArgumentError(
                    f"Model: argument '{what}[{i}]' expects a paddle.static.InputSpec, got "
                    f"{type(spec).__name__}"
                )
            if spec.name is None:
                raise InvalidArgumentError(
                    f"Model: Requires {what}[{i}].name != None, but receive `None`."
                )
        return out

    # -- prepare ----------------------------------------------------------------------------
    def prepare(
        self,
        optimizer: Any = None,
        loss: Any = None,
        metrics: Any = None,
        amp_configs: Any = None,
    ) -> None:
        """Set the optimizer, the loss (a Layer or a callable ``loss(*outputs, *labels)``) and the
        metrics (``paddle.metric.Metric``s) used by the loops. ``amp_configs`` turns on mixed
        precision as PaddlePaddle's: 'O1'/'O2' or a dict with 'level', the op lists
        ('custom_white_list', 'custom_black_list', 'custom_black_varnames') and ``GradScaler``'s
        arguments ('init_loss_scaling', 'incr_ratio', ...); training steps then run the forward
        in ``paddle.amp.auto_cast`` and the backward through a ``GradScaler``, and 'O2' casts
        the network's parameters with ``paddle.amp.decorate``. On the CPU, as PaddlePaddle,
        both warn and do nothing unless FLAGS_amp_on_cpu is set."""
        if loss is not None and not isinstance(loss, Layer) and not callable(loss):
            raise InvalidArgumentError(
                "Model.prepare: 'loss' must be sub classes of `paddle.nn.Layer` or any callable "
                f"function, got {type(loss).__name__}"
            )
        metric_list = _to_list(metrics)
        for metric in metric_list:
            if not isinstance(metric, Metric):
                raise InvalidArgumentError(
                    f"Model.prepare: {type(metric).__name__} is not sub class of Metric"
                )
        self._optimizer = optimizer
        self._loss = loss
        self._metrics = metric_list
        self._prepare_amp(amp_configs)
        if self._amp_level == "O2" and self.mode == "train" and _amp_place(default_place()):
            if self._optimizer is None:
                self.network = amp_decorate(models=self.network, level="O2")
            else:
                self.network, self._optimizer = amp_decorate(
                    models=self.network, optimizers=self._optimizer, level="O2"
                )
        self._scaler = None
        self._prepared = True

    def _prepare_amp(self, amp_configs: Any) -> None:
        """PaddlePaddle's ``Model._prepare_amp``: the level ('O0', 'O1', 'O2'; a dict without
        'level' means 'O1'), the custom op lists for ``auto_cast`` and the ``GradScaler``
        arguments, each key checked."""
        self._amp_level, self._amp_configs, self._amp_custom_lists = "O0", {}, {}
        if not amp_configs:
            return
        if isinstance(amp_configs, str):
            if amp_configs not in _AMP_LEVELS:
                raise InvalidArgumentError(
                    "Model.prepare: The level of amp_configs should be 'O0', 'O1' or 'O2', got "
                    f"{amp_configs!r}"
                )
            self._amp_level = amp_configs
            self._check_pure_fp16_configs()
            return
        if not isinstance(amp_configs, dict):
            raise InvalidArgumentError(
                "Model.prepare: amp_configs must be None, 'O0', 'O1', 'O2' or a dict, got "
                f"{type(amp_configs).__name__}"
            )
        level = amp_configs.get("level", "O1")
        if level not in _AMP_LEVELS:
            raise InvalidArgumentError(
                f"Model.prepare: amp_configs['level'] should be 'O0', 'O1' or 'O2', got {level!r}"
            )
        self._amp_level = level
        keys = set(amp_configs) - {"level"}
        if not keys or level == "O0":
            return
        if "use_pure_fp16" in keys:
            raise InvalidArgumentError(
                "Model.prepare: 'use_pure_fp16' is an invalid parameter, the level of mixed "
                "precision training only depends on 'O1' or 'O2'"
            )
        self._check_pure_fp16_configs()
        if "custom_black_varnames" in keys:
            # PaddlePaddle accepts it here, then its dynamic-mode auto_cast fails on it
            raise InvalidArgumentError(
                "Model.prepare: amp_configs['custom_black_varnames'] names variables of a static "
                "program; dynamic mode's auto_cast has no such argument"
            )
        for key in sorted(keys & set(_AMP_LIST_KEYS)):
            self._amp_custom_lists[key] = amp_configs[key]
        keys -= set(_AMP_LIST_KEYS)
        unknown = keys - set(_AMP_SCALER_KEYS) - {"use_fp16_guard"}
        if unknown:
            raise InvalidArgumentError(
                "Model.prepare: Except for 'level', the keys of 'amp_configs' must be accepted by "
                f"mixed precision APIs, but {tuple(sorted(unknown))} could not be recognized"
            )
        if "use_fp16_guard" in keys:
            raise InvalidArgumentError(
                "Model.prepare: 'use_fp16_guard' is supported in static graph mode only"
            )
        self._amp_configs = {key: amp_configs[key] for key in sorted(keys)}

    def _check_pure_fp16_configs(self) -> None:
        clip = getattr(self._optimizer, "_grad_clip", None)
        if self._amp_level == "O2" and clip is not None:
            if not isinstance(clip, (ClipGradByGlobalNorm, ClipGradByNorm)):
                raise InvalidArgumentError(
                    "Model.prepare: Only ClipGradByNorm and ClipGradByGlobalNorm are supported in "
                    f"amp training with level=O2 currently, got {type(clip).__name__}"
                )

    def _auto_cast(self) -> Any:
        """The ``auto_cast`` context of a training step: on unless the level is 'O0'."""
        if self._amp_level == "O0":
            return nullcontext()
        return auto_cast(enable=True, level=self._amp_level, **self._amp_custom_lists)

    # -- one batch --------------------------------------------------------------------------
    def _check_prepared(self, what: str) -> None:
        if not self._prepared:
            raise PreconditionNotMetError(
                f"Model.{what}: model not ready, please call `model.prepare()` first"
            )

    def _forward(self, inputs: Any) -> list[Any]:
        return _to_list(self.network(*[_as_tensor(x) for x in _to_list(inputs)]))

    def _losses(self, what: str, outputs: list[Any], labels: list[Any]) -> list[Any]:
        try:
            return _to_list(self._loss(*(outputs + labels)))
        except TypeError as error:
            raise InvalidArgumentError(
                f"Model.{what}: the loss could not be called with {len(outputs)} network "
                f"output(s) and {len(labels)} label(s): {error}"
            ) from error

    def _update_metrics(self, outputs: list[Any], labels: list[Any]) -> list[Any]:
        results = []
        for metric in self._metrics:
            outs = metric.compute(*(outputs + labels))
            results.append(metric.update(*[_to_numpy(m) for m in _to_list(outs)]))
        return results

    def train_batch(self, inputs: Any, labels: Any = None, update: bool = True) -> Any:
        """Run one training step on a batch: forward, loss, backward and (with ``update``) an
        optimizer step. Returns the losses as numpy arrays, with the metrics' batch values
        (``(losses, metrics)``) when there are metrics."""
        self._check_prepared("train_batch")
        if self._optimizer is None or self._loss is None:
            raise PreconditionNotMetError(
                "Model.train_batch: model not ready, please call `model.prepare()` with an "
                "optimizer and a loss first"
            )
        self.network.train()
        self.mode = "train"
        label_list = [_as_tensor(l) for l in _to_list(labels)]
        if self._amp_level != "O0" and self._scaler is None:
            self._scaler = GradScaler(**self._amp_configs)  # once, as PaddlePaddle's
        with self._auto_cast():
            outputs = self._forward(inputs)
        losses = self._losses("train_batch", outputs, label_list)
        final_loss = losses[0]
        for extra in losses[1:]:
            final_loss = final_loss + extra
        if self._amp_level != "O0":
            scaled = self._scaler.scale(final_loss)
            scaled.backward()
            if update:
                self._scaler.minimize(self._optimizer, scaled)
                self.network.clear_gradients()
        else:
            final_loss.backward()
            if update:
                self._optimizer.step()
                self.network.clear_gradients()
        with no_grad():
            metrics = self._update_metrics(outputs, label_list)
        loss_values = [_to_numpy(l) for l in losses]
        return (loss_values, metrics) if metrics else loss_values

    @no_grad()
    def eval_batch(self, inputs: Any, labels: Any = None) -> Any:
        """Run the network in eval mode on a batch; returns the losses (numpy), the metrics'
        batch values, or ``(losses, metrics)``, as PaddlePaddle does."""
        self._check_prepared("eval_batch")
        self.network.eval()
        self.mode = "eval"
        label_list = [_as_tensor(l) for l in _to_list(labels)]
        outputs = self._forward(inputs)
        losses = self._losses("eval_batch", outputs, label_list) if self._loss else []
        metrics = self._update_metrics(outputs, label_list)
        loss_values = [_to_numpy(l) for l in losses]
        if self._loss and metrics:
            return loss_values, metrics
        if self._loss:
            return loss_values
        return metrics

    @no_grad()
    def predict_batch(self, inputs: Any) -> list[np.ndarray]:
        """The network's outputs (numpy arrays) for a batch, in eval mode."""
        self.network.eval()
        self.mode = "test"
        return [_to_numpy(o) for o in self._forward(inputs)]

    # -- files ------------------------------------------------------------------------------
    def save(self, path: str, training: bool = True) -> None:
        """``training=True``: ``path.pdparams`` (the network's state dict) and ``path.pdopt``
        (the optimizer's, when it has state). ``training=False``: an inference model
        (``phiops.jit.save`` with the ``inputs`` InputSpecs)."""
        if not isinstance(path, str) or not os.path.basename(path):
            raise InvalidArgumentError(
                f"Model.save: The input path MUST be format of dirname/file_prefix, got {path!r}"
            )
        dirname = os.path.dirname(path)
        if dirname:
            os.makedirs(dirname, exist_ok=True)
        if not training:
            from phiops.runtime.jit import save as jit_save

            if not self._explicit_inputs:
                raise PreconditionNotMetError(
                    "Model.save(training=False): saving an inference model needs 'inputs' "
                    "(InputSpecs) given to Model()"
                )
            jit_save(self.network, path, input_spec=self._inputs)
            return
        pdparams.save(self.network.state_dict(), path + ".pdparams")
        if self._optimizer is not None:
            state = self._optimizer.state_dict()
            if state:
                pdparams.save(state, path + ".pdopt")

    def load(self, path: str, skip_mismatch: bool = False, reset_optimizer: bool = False) -> None:
        """Load ``path.pdparams`` into the network (shapes must match, or the mismatched ones are
        skipped with a warning when ``skip_mismatch``) and ``path.pdopt`` into the optimizer
        unless ``reset_optimizer``. The optimizer state's keys are renamed from the saved
        parameter names to this network's, so that files saved by another process (or by
        PaddlePaddle) restore the accumulators instead of being ignored."""
        base, ext = os.path.splitext(path)
        if ext not in ("", ".pdparams", ".pdopt", ".pdmodel"):
            raise InvalidArgumentError(f"Model.load: Unknown postfix {ext} from weights ({path!r})")
        path = base
        if not os.path.exists(path + ".pdparams"):
            raise InvalidArgumentError(
                f"Model.load: Failed to load parameters, {path + '.pdparams'} does not exist"
            )
        param_state = pdparams.load(path + ".pdparams")
        matched = []
        renamed: dict[str, str] = {}  # the saved parameter name -> this network's
        for key, param in self.network.state_dict(use_hook=False).items():
            state = param_state.get(key)
            saved_name = getattr(state, "name", None)
            if saved_name and param.name and saved_name != param.name:
                renamed[saved_name] = param.name
            try:
                if state is None:
                    raise InvalidArgumentError(f"{key} is not found in the providing file.")
                state = _to_numpy(state)
                if list(state.shape) != list(param.shape):
                    raise InvalidArgumentError(
                        f"{key} receives a shape {list(state.shape)}, but the expected shape is "
                        f"{list(param.shape)}."
                    )
            except InvalidArgumentError as error:
                if not skip_mismatch:
                    raise InvalidArgumentError(f"Model.load: {error}") from None
                warnings.warn(f"Skip loading for {key}. {error}")
                reset_optimizer = True
                continue
            matched.append((param, state))
        for param, state in matched:
            param.set_value(state)
        if reset_optimizer or self._optimizer is None or not os.path.exists(path + ".pdopt"):
            return
        optim_state = pdparams.load(path + ".pdopt")
        if optim_state:
            self._optimizer.set_state_dict(_rename_state(optim_state, renamed))

    def parameters(self, *args: Any, **kwargs: Any) -> list[Tensor]:
        """The network's parameters."""
        return self.network.parameters(*args, **kwargs)

    # -- loops ------------------------------------------------------------------------------
    def _loader(
        self, data: Any, batch_size: int, shuffle: bool, drop_last: bool, num_workers: int
    ) -> Any:
        if isinstance(data, Dataset):
            sampler = DistributedBatchSampler(
                data, batch_size=batch_size, shuffle=shuffle, drop_last=drop_last
            )
            return DataLoader(
                data, batch_sampler=sampler, num_workers=num_workers, return_list=True
            )
        if data is None or not hasattr(data, "__iter__"):
            raise InvalidArgumentError(
                f"Model: data must be a paddle.io.Dataset or a DataLoader (iterable), got {type(data).__name__}"
            )
        return data

    @staticmethod
    def _len_data_loader(loader: Any) -> int | None:
        try:
            return len(loader)
        except Exception:
            return None

    def _metrics_name(self) -> list[str]:
        names = ["loss"] if self._loss else []
        for m in self._metrics:
            names.extend(_to_list(m.name()))
        return names

    def _reset_metrics(self) -> None:
        for metric in self._metrics:
            metric.reset()

    def _split(self, data: list[Any], mode: str) -> tuple[list[Any], list[Any]]:
        n_inputs = len(self._inputs)
        n_labels = len(data) - n_inputs
        if self._labels and n_labels != len(self._labels):
            raise InvalidArgumentError(
                f"Model.{mode}: a batch has {len(data)} fields, {n_inputs} input(s) and "
                f"{n_labels} label(s), but the Model's labels are {len(self._labels)}"
            )
        if n_labels < 0:
            raise InvalidArgumentError(
                f"Model.{mode}: a batch has {len(data)} fields, fewer than the network's "
                f"{n_inputs} input(s)"
            )
        return data[:n_inputs], data[n_inputs:]

    def _run_one_epoch(self, loader: Any, callbacks: Any, mode: str) -> Any:
        logs: dict[str, Any] = {}
        outputs = []
        steps = self._len_data_loader(loader)
        for step, data in enumerate(loader):
            data = _flatten(data)
            batch_size = data[0].shape[0]
            callbacks.on_batch_begin(mode, step, logs)
            if mode != "predict":
                inputs, labels = self._split(data, mode)
                if mode == "train":
                    update = (step + 1) % self._accumulate == 0 or step + 1 == steps
                    outs = self.train_batch(inputs, labels, update)
                else:
                    outs = self.eval_batch(inputs, labels)
                if self._metrics and self._loss:
                    values: list[Any] = [[float(l) for l in outs[0]]]
                elif self._loss:
                    values = [[float(l) for l in outs]]
                else:
                    values = []
                for metric in self._metrics:
                    values.extend(_to_list(metric.accumulate()))
                for k, v in zip(self._metrics_name(), values):
                    logs[k] = v
            else:
                inputs = data[: len(self._inputs)] if self._inputs else data
                outputs.append(self.predict_batch(inputs))
            logs["step"] = step
            logs["batch_size"] = batch_size
            callbacks.on_batch_end(mode, step, logs)
            if self.num_iters is not None:
                self.num_iters -= 1
                if self.num_iters <= 0:
                    self.stop_training = True
                    self.num_iters = None
                    break
        self._reset_metrics()
        if mode == "predict":
            return logs, outputs
        return logs

    def fit(
        self,
        train_data: Any = None,
        eval_data: Any = None,
        batch_size: int | Sequence[int] = 1,
        epochs: int = 1,
        eval_freq: int = 1,
        log_freq: int = 10,
        save_dir: str | None = None,
        save_freq: int = 1,
        verbose: int = 2,
        drop_last: bool = False,
        shuffle: bool = True,
        num_workers: int = 0,
        callbacks: Any = None,
        accumulate_grad_batches: int = 1,
        num_iters: int | None = None,
    ) -> None:
        """Train for ``epochs`` over ``train_data`` (a Dataset, batched here, or a DataLoader),
        evaluating on ``eval_data`` every ``eval_freq`` epochs, with the callbacks (a
        ``ProgBarLogger``, a ``ModelCheckpoint`` to ``save_dir`` and an ``LRScheduler`` added
        unless given). ``batch_size`` may be ``[train, eval]``; ``num_iters`` stops after that
        many steps; ``accumulate_grad_batches`` steps the optimizer every that many batches."""
        if train_data is None:
            raise InvalidArgumentError("Model.fit: train_data must be given!")
        self._check_prepared("fit")
        if self._optimizer is None or self._loss is None:
            raise PreconditionNotMetError(
                "Model.fit: model not ready, please call `model.prepare()` with an optimizer and a loss first"
            )
        if isinstance(batch_size, (list, tuple)) and all(isinstance(x, int) for x in batch_size):
            if len(batch_size) != 2:
                raise InvalidArgumentError(
                    "Model.fit: batch_size length error, expected train_batch_size and eval_batch_size."
                )
            train_batch_size, eval_batch_size = batch_size
        elif isinstance(batch_size, int) and not isinstance(batch_size, bool) and batch_size > 0:
            train_batch_size = eval_batch_size = batch_size
        else:
            raise InvalidArgumentError(
                f"Model.fit: batch_size must be a positive int or [train, eval], got {batch_size!r}"
            )
        for name, value in (
            ("epochs", epochs),
            ("eval_freq", eval_freq),
            ("accumulate_grad_batches", accumulate_grad_batches),
        ):
            if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
                raise InvalidArgumentError(
                    f"Model.fit: {name} must be a positive int, got {value!r}"
                )
        train_loader = self._loader(train_data, train_batch_size, shuffle, drop_last, num_workers)
        eval_loader = (
            self._loader(eval_data, eval_batch_size, False, False, num_workers)
            if eval_data is not None
            else None
        )
        do_eval = eval_loader is not None
        self._test_dataloader = eval_loader
        self._accumulate = accumulate_grad_batches
        steps = self._len_data_loader(train_loader)
        self.num_iters = num_iters
        if num_iters is not None and isinstance(steps, int):
            if not isinstance(num_iters, int) or num_iters <= 0:
                raise InvalidArgumentError(
                    f"Model.fit: num_iters must be greater than 0, got {num_iters!r}"
                )
            epochs = num_iters // steps + 1
            steps = min(num_iters, steps)
        self.stop_training = False
        cbks = config_callbacks(
            callbacks,
            model=self,
            epochs=epochs,
            steps=steps,
            log_freq=log_freq,
            save_freq=save_freq,
            save_dir=save_dir,
            verbose=verbose,
            metrics=self._metrics_name(),
        )
        if any(isinstance(k, EarlyStopping) for k in cbks) and not do_eval:
            warnings.warn("EarlyStopping needs validation data.")
        cbks.on_begin("train")
        logs: dict[str, Any] = {}
        for epoch in range(epochs):
            cbks.on_epoch_begin(epoch)
            logs = self._run_one_epoch(train_loader, cbks, "train")
            cbks.on_epoch_end(epoch, logs)
            if do_eval and epoch % eval_freq == 0:
                eval_steps = self._len_data_loader(eval_loader)
                cbks.on_begin("eval", {"steps": eval_steps, "metrics": self._metrics_name()})
                eval_logs = self._run_one_epoch(eval_loader, cbks, "eval")
                cbks.on_end("eval", eval_logs)
            if self.stop_training:
                break
        cbks.on_end("train", logs)
        self._test_dataloader = None

    def evaluate(
        self,
        eval_data: Any,
        batch_size: int = 1,
        log_freq: int = 10,
        verbose: int = 2,
        num_workers: int = 0,
        callbacks: Any = None,
        num_iters: int | None = None,
    ) -> dict[str, Any]:
        """Evaluate on ``eval_data`` (a Dataset or a DataLoader); returns ``{'loss': [...],
        <metric name>: value, ...}``."""
        self._check_prepared("evaluate")
        loader = self._loader(eval_data, batch_size, False, False, num_workers)
        self._test_dataloader = loader
        cbks = config_callbacks(
            callbacks, model=self, log_freq=log_freq, verbose=verbose, metrics=self._metrics_name()
        )
        eval_steps = self._len_data_loader(loader)
        self.num_iters = num_iters
        if num_iters is not None and isinstance(eval_steps, int):
            if not isinstance(num_iters, int) or num_iters <= 0:
                raise InvalidArgumentError(
                    f"Model.evaluate: num_iters must be greater than 0, got {num_iters!r}"
                )
            eval_steps = min(num_iters, eval_steps)
            self.num_iters = eval_steps
        cbks.on_begin("eval", {"steps": eval_steps, "metrics": self._metrics_name()})
        logs = self._run_one_epoch(loader, cbks, "eval")
        cbks.on_end("eval", logs)
        self._test_dataloader = None
        return {k: logs[k] for k in self._metrics_name() if k in logs}

    def predict(
        self,
        test_data: Any,
        batch_size: int = 1,
        num_workers: int = 0,
        stack_outputs: bool = False,
        verbose: int = 1,
        callbacks: Any = None,
    ) -> list[Any]:
        """The network's outputs over ``test_data``: one list per output, of per-batch numpy
        arrays, or (``stack_outputs``) of one array stacked over the batches."""
        loader = self._loader(test_data, batch_size, False, False, num_workers)
        self._test_dataloader = loader
        cbks = config_callbacks(callbacks, model=self, verbose=verbose)
        self.num_iters = None
        cbks.on_begin("predict", {"steps": self._len_data_loader(loader)})
        logs, outputs = self._run_one_epoch(loader, cbks, "predict")
        outputs = list(zip(*outputs))
        if stack_outputs:
            outputs = [np.vstack(outs) for outs in outputs]
        self._test_dataloader = None
        cbks.on_end("predict", logs)
        return outputs

    def summary(self, input_size: Any = None, dtype: Any = None) -> dict[str, int]:
        """Print the network's layer table (``paddle.summary``) for ``input_size`` (or the
        Model's ``inputs``); returns ``{'total_params': ..., 'trainable_params': ...}``."""
        from phiops.runtime.hapi.summary import summary

        if input_size is None:
            if not self._explicit_inputs:
                raise InvalidArgumentError(
                    "Model.summary: 'input_size' or 'self._input' must be set"
                )
            input_size = self._inputs
        return summary(self.network, input_size, dtypes=dtype)
