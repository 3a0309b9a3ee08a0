"""Optimizers with PaddlePaddle 3.3.1's interface: SGD, Momentum, Adam and AdamW.

``step()`` updates every parameter that has a gradient, in place and without recording
gradients; ``clear_grad()`` resets the gradients (to zeros in place, or to None with
``set_to_zero=False``; either way the next backward writes the gradient instead of adding it to
zeros). The updates are the in-place ops of the generated API, found through the OpDef registry
(runtime/dispatch/op_def.py, once ``generated`` is imported):

- per parameter: ``sgd_``, ``momentum_``, ``adam_``, ``adamw_``;
- multi-tensor (``use_multi_tensor=True``, the default of Momentum, Adam and AdamW here; off in
  PaddlePaddle): one ``merged_momentum_`` or ``merged_adam_`` call for all the parameters of one
  dtype and place. AdamW's decoupled decay, which no merged op takes, runs first, in place,
  through the functor of ``adamw_``'s kernel. Both paths give the same bits.

``weight_decay`` as a float is PaddlePaddle's ``L2Decay``: SGD and Adam add ``coeff * param`` to
the gradient, Momentum passes it to its op as ``l2_decay``; AdamW's is the decoupled
coefficient. ``grad_clip`` (runtime/nn/clip.py: ClipGradByValue, ClipGradByNorm,
ClipGradByGlobalNorm) clips the gradients first, eagerly; parameter groups (dicts), regularizer
objects, ``amsgrad``, half-precision master weights and ``grad_clip`` in a static program raise
``UnimplementedError``.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

import numpy as np

from phiops.runtime.autograd.engine import clear_grad
from phiops.runtime.autograd.grad_mode import no_grad
from phiops.runtime.common import DataType
from phiops.runtime.eager.tensor import Tensor, to_tensor
from phiops.runtime.tensor.version import bump_version
from phiops.runtime.nn.clip import ClipGradBase
from phiops.runtime.device import module_of
from phiops.runtime.dispatch.op_def import op_api
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.ir.core import Value
from phiops.runtime.kernels.impl.optimizer_functors import decay_factor, decay_step_

__all__ = ["Optimizer", "SGD", "Momentum", "Adam", "AdamW"]

_HALF = (DataType.FLOAT16, DataType.BFLOAT16)
# The merged ops' master_param: an empty list, which they read as none, rather than None, for
# which the generated API leaves its cached fast path (it reads an optional Tensor[] as a list).
_NO_MASTER_COPIES: list[Tensor] = []


class Optimizer:
    """Holds the parameters, the learning rate and the L2 weight decay; subclasses implement
    ``_update`` (one parameter) and may override ``_apply`` (all parameters with a gradient)."""

    def __init__(
        self,
        learning_rate: float,
        parameters: Iterable[Tensor] | None,
        weight_decay: float | None = None,
        grad_clip: Any = None,
        name: str | None = None,
    ) -> None:
        kind = type(self).__name__
        from phiops.runtime.static.mode import in_static_mode

        self._parameters = [] if parameters is None else list(parameters)
        # in a static program, minimize() updates the program's parameters: none need be given
        if not self._parameters and not in_static_mode():
            if parameters is None:
                raise InvalidArgumentError(
                    f"{kind}: 'parameters' is None; pass the tensors to optimize (eager mode has "
                    "no default program to take them from)"
                )
            raise InvalidArgumentError(f"{kind}: 'parameters' is empty")
        for position, parameter in enumerate(self._parameters):
            if isinstance(parameter, dict):
                raise UnimplementedError(
                    f"{kind}: parameter groups (parameters[{position}] is a dict) are not "
                    "implemented; pass a list of tensors"
                )
            if not isinstance(parameter, Tensor) and not (
                in_static_mode() and isinstance(parameter, Value)
            ):
                raise InvalidArgumentError(
                    f"{kind}: parameters[{position}] is a {type(parameter).__name__}, not a Tensor"
                    f"{' or a Value' if in_static_mode() else ''}"
                )
        if grad_clip is not None and not isinstance(grad_clip, ClipGradBase):
            raise InvalidArgumentError(
                f"{kind}: grad_clip must be a ClipGradByValue, ClipGradByNorm or "
                f"ClipGradByGlobalNorm, got {type(grad_clip).__name__}"
            )
        self._grad_clip = grad_clip
        self._weight_decay = _float_or_none(weight_decay, kind)
        self._name = name
        self._learning_rates: dict[object, Tensor] = {}
        self.set_lr(learning_rate)

    def get_lr(self) -> float:
        return self._learning_rate

    def set_lr(self, value: float) -> None:
        """Change the learning rate used by the next ``step()``."""
        if not isinstance(value, (int, float)) or isinstance(value, bool) or value < 0:
            raise InvalidArgumentError(
                f"learning_rate must be a non-negative number, got {value!r}"
            )
        self._learning_rate = float(value)
        self._learning_rates.clear()

    def _lr_tensor(self, like: Tensor) -> Tensor:
        """The learning rate as a 1-element tensor of ``like``'s dtype and place (cached)."""
        key = (like.dtype, like.place)
        tensor = self._learning_rates.get(key)
        if tensor is None:
            tensor = self._learning_rates[key] = to_tensor(
                np.array([self._learning_rate], like.dtype.numpy_dtype), place=like.place
            )
        return tensor

    @no_grad()
    def step(self) -> None:
        """Update every parameter that has a gradient: its gradient clipped by ``grad_clip``,
        then decayed, as PaddlePaddle's dygraph step does."""
        params = [p for p in self._parameters if p._grad is not None]
        if not params:
            return
        grads = [p._grad for p in params]
        if self._grad_clip is not None:
            with no_grad():
                grads = self._grad_clip.clip(params, grads)
        self._apply(params, [self._decayed_grad(p, g) for p, g in zip(params, grads)])

    def minimize(
        self,
        loss: Any,
        startup_program: Any = None,
        parameters: list[Any] | None = None,
        no_grad_set: set[Any] | None = None,
    ) -> tuple[list[Any], list[tuple[Any, Any]]]:
        """In a static program (``loss`` a Value): append the backward program and the update
        ops, and return (the update ops, the (parameter, gradient) pairs); see
        runtime/static/optimize.py. Eagerly, as PaddlePaddle: ``step()`` with the gradients the
        last ``loss.backward()`` left (it runs no backward itself)."""
        if isinstance(loss, Value):
            from phiops.runtime.static.optimize import minimize
            from phiops.runtime.static.program import default_main_program, program_guard

            main = default_main_program()
            with program_guard(main, startup_program):
                return minimize(self, loss, parameters or self._parameters or None, no_grad_set)
        if not isinstance(loss, Tensor):
            raise InvalidArgumentError(
                f"{type(self).__name__}.minimize(): loss must be a Tensor or a static Value, got "
                f"{type(loss).__name__}"
            )
        self.step()
        return [], [(p, p._grad) for p in self._parameters if p._grad is not None]

    def _static_state(self, params: list[Any]) -> None:
        """Create the persistable state the update ops of ``params`` read (none for SGD)."""

    def _static_update(self, parameter: Any, grad: Any, rate: Any) -> None:
        raise UnimplementedError(
            f"{type(self).__name__}.minimize() in a static program is not implemented"
        )

    def _static_regularized(self, parameter: Any, grad: Any) -> Any:
        """``grad`` with L2 weight decay added, as PaddlePaddle's static ``minimize`` builds it:
        ``add_n([grad, scale(param, weight_decay)])``; ``grad`` itself without decay."""
        if self._weight_decay is None:
            return grad
        scaled = op_api("scale")(parameter, self._weight_decay, 0.0, True)
        return op_api("add_n")([grad, scaled])

    def clear_grad(self, set_to_zero: bool = True) -> None:
        """Reset every gradient, as ``Tensor.clear_grad``: to zeros in place (PaddlePaddle's
        default), or to None; either way the next backward writes the gradient instead of
        adding it to zeros."""
        for parameter in self._parameters:
            clear_grad(parameter, set_to_zero)

    def _decayed_grad(self, parameter: Tensor, grad: Tensor) -> Tensor:
        """``grad + weight_decay * param`` (PaddlePaddle's L2Decay), or the gradient."""
        if self._weight_decay is None:
            return grad
        return op_api("add")(grad, op_api("scale")(parameter, self._weight_decay, 0.0, True))

    def _apply(self, params: list[Tensor], grads: list[Tensor]) -> None:
        for parameter, grad in zip(params, grads):
            self._update(parameter, grad)

    def _update(self, parameter: Tensor, grad: Tensor) -> None:
        raise NotImplementedError


def _float_or_none(weight_decay: Any, kind: str) -> float | None:
    if weight_decay is None:
        return None
    if isinstance(weight_decay, bool) or not isinstance(weight_decay, (int, float)):
        raise UnimplementedError(
            f"{kind}: weight_decay must be a float (PaddlePaddle's L2Decay coefficient); "
            f"regularizer objects such as {type(weight_decay).__name__} are not implemented"
        )
    return float(weight_decay)


def _check_multi_precision(kind: str, multi_precision: bool, params: list[Tensor]) -> None:
    if multi_precision and any(p.dtype in _HALF for p in params):
        raise UnimplementedError(
            f"{kind}: multi_precision master weights for float16/bfloat16 parameters are not "
            "implemented (the optimizer kernels are registered for float32 and float64)"
        )


def _groups(params: list[Tensor]) -> list[tuple[list[int], list[Tensor]]]:
    """The positions of ``params`` split by dtype and place (one merged call each), with the
    parameters; one group in the usual case."""
    groups: dict[object, tuple[list[int], list[Tensor]]] = {}
    for index, parameter in enumerate(params):
        group = groups.setdefault((parameter.dtype, parameter.place), ([], []))
        group[0].append(index)
        group[1].append(parameter)
    return list(groups.values())


class SGD(Optimizer):
    """param -= learning_rate * grad (PaddlePaddle's ``sgd_``)."""

    def __init__(
        self,
        learning_rate: float = 0.001,
        parameters: Iterable[Tensor] | None = (),
        weight_decay: float | None = None,
        grad_clip: Any = None,
        multi_precision: bool = False,
        name: str | None = None,
    ) -> None:
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        _check_multi_precision("SGD", multi_precision, self._parameters)
        self._multi_precision = multi_precision

    def _update(self, parameter: Tensor, grad: Tensor) -> None:
        op_api("sgd_")(parameter, self._lr_tensor(parameter), grad, None, False)

    def _static_update(self, parameter: Any, grad: Any, rate: Any) -> None:
        op_api("sgd_")(parameter, rate, grad, None, False)


class Momentum(Optimizer):
    """Momentum SGD (PaddlePaddle's ``momentum_`` / ``merged_momentum_``), with Nesterov's
    variant; ``weight_decay`` is applied inside the op as ``l2_decay``."""

    def __init__(
        self,
        learning_rate: float = 0.001,
        momentum: float = 0.9,
        parameters: Iterable[Tensor] | None = (),
        use_nesterov: bool = False,
        weight_decay: float | None = None,
        grad_clip: Any = None,
        multi_precision: bool = False,
        rescale_grad: float = 1.0,
        use_multi_tensor: bool = True,
        name: str | None = None,
    ) -> None:
        if momentum is None or isinstance(momentum, bool) or not isinstance(momentum, (int, float)):
            raise InvalidArgumentError(f"Momentum: momentum must be a number, got {momentum!r}")
        super().__init__(learning_rate, parameters, None, grad_clip, name)
        _check_multi_precision("Momentum", multi_precision, self._parameters)
        self._momentum = float(momentum)
        self._use_nesterov = bool(use_nesterov)
        self._coeff = _float_or_none(weight_decay, "Momentum")
        self._rescale_grad = float(rescale_grad)
        self._use_multi_tensor = bool(use_multi_tensor)
        self._velocities: dict[int, Tensor] = {}

    def _velocity(self, parameter: Tensor) -> Tensor:
        velocity = self._velocities.get(id(parameter))
        if velocity is None:
            velocity = self._velocities[id(parameter)] = to_tensor(
                np.zeros(parameter.shape, parameter.dtype.numpy_dtype), place=parameter.place
            )
        return velocity

    def _static_state(self, params: list[Any]) -> None:
        from phiops.runtime.static.optimize import accumulator

        self._static_velocities = {id(p): accumulator(p, "velocity", 0.0) for p in params}

    def _static_update(self, parameter: Any, grad: Any, rate: Any) -> None:
        method, coeff = self._regularization()
        op_api("momentum_")(
            parameter,
            grad,
            self._static_velocities[id(parameter)],
            rate,
            None,
            self._momentum,
            self._use_nesterov,
            method,
            coeff,
            False,
            self._rescale_grad,
        )

    def _regularization(self) -> tuple[str, float]:
        return ("", 0.0) if self._coeff is None else ("l2_decay", self._coeff)

    def _update(self, parameter: Tensor, grad: Tensor) -> None:
        method, coeff = self._regularization()
        op_api("momentum_")(
            parameter,
            grad,
            self._velocity(parameter),
            self._lr_tensor(parameter),
            None,
            self._momentum,
            self._use_nesterov,
            method,
            coeff,
            False,
            self._rescale_grad,
        )

    def _apply(self, params: list[Tensor], grads: list[Tensor]) -> None:
        if not self._use_multi_tensor:
            return super()._apply(params, grads)
        method, coeff = self._regularization()
        for positions, group in _groups(params):
            count = len(group)
            op_api("merged_momentum_")(
                group,
                [grads[i] for i in positions],
                [self._velocity(p) for p in group],
                [self._lr_tensor(group[0])],
                _NO_MASTER_COPIES,
                self._momentum,
                self._use_nesterov,
                [method] * count if method else [],
                [coeff] * count if method else [],
                False,
                self._rescale_grad,
            )


class Adam(Optimizer):
    """Adam (PaddlePaddle's ``adam_`` / ``merged_adam_``): moments and beta powers are kept per
    parameter."""

    _kind = "Adam"

    def __init__(
        self,
        learning_rate: float = 0.001,
        beta1: float = 0.9,
        beta2: float = 0.999,
        epsilon: float = 1e-8,
        parameters: Iterable[Tensor] | None = (),
        weight_decay: float | None = None,
        grad_clip: Any = None,
        lazy_mode: bool = False,
        multi_precision: bool = False,
        use_multi_tensor: bool = True,
        amsgrad: bool = False,
        name: str | None = None,
    ) -> None:
        kind = self._kind
        for label, value in (("beta1", beta1), ("beta2", beta2)):
            if not 0 <= value < 1:
                raise InvalidArgumentError(f"{kind}: {label} must be in [0, 1), got {value!r}")
        if epsilon <= 0:
            raise InvalidArgumentError(f"{kind}: epsilon must be positive, got {epsilon!r}")
        if amsgrad:
            raise UnimplementedError(f"{kind}: amsgrad is not implemented; pass False")
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        _check_multi_precision(kind, multi_precision, self._parameters)
        self.beta1, self.beta2, self.epsilon = beta1, beta2, epsilon
        # lazy_mode only changes the update of sparse (SelectedRows) gradients, which eager
        # dense tensors never have.
        self._lazy_mode = bool(lazy_mode)
        self._use_multi_tensor = bool(use_multi_tensor)
        self._state: dict[int, tuple[Tensor, Tensor, Tensor, Tensor]] = {}
        # (ids of the parameters of the last step, their _merged_groups)
        self._merged_plan: tuple[tuple[int, ...], list[tuple[list[Any], ...]]] | None = None

    def _moments(self, parameter: Tensor) -> tuple[Tensor, Tensor, Tensor, Tensor]:
        state = self._state.get(id(parameter))
        if state is None:
            dtype = parameter.dtype.numpy_dtype
            zeros = np.zeros(parameter.shape, dtype)
            state = self._state[id(parameter)] = (
                to_tensor(zeros, place=parameter.place),
                to_tensor(zeros.copy(), place=parameter.place),
                to_tensor(np.array([self.beta1], dtype), place=parameter.place),
                to_tensor(np.array([self.beta2], dtype), place=parameter.place),
            )
        return state

    def _update(self, parameter: Tensor, grad: Tensor) -> None:
        moment1, moment2, beta1_pow, beta2_pow = self._moments(parameter)
        op_api("adam_")(
            parameter,
            grad,
            self._lr_tensor(parameter),
            moment1,
            moment2,
            beta1_pow,
            beta2_pow,
            None,
            None,
            self.beta1,
            self.beta2,
            self.epsilon,
            self._lazy_mode,
        )

    def _apply(self, params: list[Tensor], grads: list[Tensor]) -> None:
        if not self._use_multi_tensor:
            return super()._apply(params, grads)
        key = tuple(map(id, params))
        plan = self._merged_plan
        if plan is None or plan[0] != key:
            plan = self._merged_plan = (key, self._merged_groups(params))
        for positions, group, moment1, moment2, beta1_pow, beta2_pow in plan[1]:
            self._before_merged_step(group)
            op_api("merged_adam_")(
                group,
                [grads[i] for i in positions],
                [self._lr_tensor(group[0])],
                moment1,
                moment2,
                beta1_pow,
                beta2_pow,
                _NO_MASTER_COPIES,
                self.beta1,
                self.beta2,
                self.epsilon,
            )

    def _merged_groups(self, params: list[Tensor]) -> list[tuple[list[Any], ...]]:
        """Per merged call: the positions of its parameters in ``params``, the parameters and
        their moments and beta powers as the op takes them. Kept for the next step with the same
        parameters (the usual case: every parameter has a gradient): the state tensors are
        updated in place, never replaced."""
        groups = []
        for positions, group in _groups(params):
            states = [self._moments(p) for p in group]
            groups.append((positions, group, *([s[i] for s in states] for i in range(4))))
        return groups

    def _before_merged_step(self, group: list[Tensor]) -> None:
        """What AdamW does to the parameters before the merged Adam step: nothing for Adam."""

    def _static_state(self, params: list[Any]) -> None:
        from phiops.runtime.static.optimize import accumulator

        self._static_moments = {
            id(p): (
                accumulator(p, "moment1", 0.0),
                accumulator(p, "moment2", 0.0),
                accumulator(p, "beta1_pow_acc", self.beta1, [1]),
                accumulator(p, "beta2_pow_acc", self.beta2, [1]),
            )
            for p in params
        }

    def _static_update(self, parameter: Any, grad: Any, rate: Any) -> None:
        from phiops.runtime.static.optimize import adam_op

        adam_op(
            parameter,
            grad,
            rate,
            self._static_moments[id(parameter)],
            self.beta1,
            self.beta2,
            self.epsilon,
            self._lazy_mode,
            decay=self._static_decay(parameter),
        )

    def _static_decay(self, parameter: Any) -> tuple[float, bool] | None:
        """(coeff, with_decay) for an ``adamw_``; None: Adam builds ``adam_``."""
        return None


class AdamW(Adam):
    """AdamW (PaddlePaddle's ``adamw_``): Adam with decoupled weight decay,
    ``param -= learning_rate * lr_ratio(param) * weight_decay * param`` before the Adam step,
    for the parameters whose name ``apply_decay_param_fun`` accepts (all when it is None).
    ``use_multi_tensor`` (keyword only; PaddlePaddle's AdamW has none) decays the parameters in
    place and then takes one ``merged_adam_`` step."""

    _kind = "AdamW"

    def __init__(
        self,
        learning_rate: float = 0.001,
        beta1: float = 0.9,
        beta2: float = 0.999,
        epsilon: float = 1e-8,
        parameters: Iterable[Tensor] | None = (),
        weight_decay: float = 0.01,
        use_lowprecision_moment: bool = False,
        lr_ratio: Callable[[Tensor], float] | None = None,
        apply_decay_param_fun: Callable[[str], bool] | None = None,
        grad_clip: Any = None,
        lazy_mode: bool = False,
        multi_precision: bool = False,
        amsgrad: bool = False,
        name: str | None = None,
        *,
        use_multi_tensor: bool = True,
    ) -> None:
        coeff = _float_or_none(weight_decay, "AdamW")
        if coeff is None:
            raise InvalidArgumentError("AdamW: weight_decay must be a float, got None")
        if use_lowprecision_moment:
            raise UnimplementedError(
                "AdamW: use_lowprecision_moment is not implemented (it only concerns float16 "
                "moments); pass False"
            )
        for label, function in (
            ("lr_ratio", lr_ratio),
            ("apply_decay_param_fun", apply_decay_param_fun),
        ):
            if function is not None and not callable(function):
                raise InvalidArgumentError(
                    f"AdamW: {label} must be callable or None, got {type(function).__name__}"
                )
        super().__init__(
            learning_rate,
            beta1,
            beta2,
            epsilon,
            parameters,
            None,
            grad_clip,
            lazy_mode,
            multi_precision,
            use_multi_tensor,
            amsgrad,
            name,
        )
        self._coeff = coeff
        self._lr_ratio = lr_ratio
        self._apply_decay_param_fun = apply_decay_param_fun

    def _static_decay(self, parameter: Any) -> tuple[float, bool] | None:
        if self._lr_ratio is not None:
            raise UnimplementedError(
                "AdamW.minimize() in a static program with lr_ratio is not implemented (nor is "
                "it in PaddlePaddle 3.3.1 on CPU); pass lr_ratio=None"
            )
        return self._coeff, self._decay_of(parameter)[0]

    def _decay_of(self, parameter: Tensor) -> tuple[bool, float]:
        """(with_decay, lr_ratio) of ``parameter``."""
        if isinstance(parameter, Value):  # a static program's parameter
            name = parameter.define_op.attributes["parameter_name"].value
        else:
            name = parameter.name
        with_decay = self._apply_decay_param_fun is None or bool(self._apply_decay_param_fun(name))
        ratio = 1.0 if self._lr_ratio is None else float(self._lr_ratio(parameter))
        return with_decay, ratio

    def _update(self, parameter: Tensor, grad: Tensor) -> None:
        moment1, moment2, beta1_pow, beta2_pow = self._moments(parameter)
        with_decay, ratio = self._decay_of(parameter)
        op_api("adamw_")(
            parameter,
            grad,
            self._lr_tensor(parameter),
            moment1,
            moment2,
            beta1_pow,
            beta2_pow,
            None,
            None,
            self.beta1,
            self.beta2,
            self.epsilon,
            ratio,
            self._coeff,
            with_decay,
            self._lazy_mode,
        )

    def _before_merged_step(self, group: list[Tensor]) -> None:
        """The decoupled decay of each parameter, in place (``adamw_``'s first step, through
        the same functor, so both paths give the same bits)."""
        rate = self._lr_tensor(group[0]).array
        scratch = None
        for parameter in group:
            with_decay, ratio = self._decay_of(parameter)
            if not with_decay:
                continue
            array = parameter.array
            xp = module_of(array)
            if scratch is None or scratch.size < array.size:
                scratch = xp.empty(max(p.array.size for p in group), dtype=array.dtype)
            decay_step_(
                xp,
                array,
                decay_factor(xp, rate, ratio, self._coeff, array.dtype),
                scratch[: array.size].reshape(array.shape),
            )
            bump_version(parameter)
