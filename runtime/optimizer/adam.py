"""Adam (PaddlePaddle's ``adam_``) and AdamW (``adamw_``, Adam with decoupled weight decay), with
``merged_adam_`` for the multi-tensor step: per parameter, the state ``moment1``, ``moment2``,
(with ``amsgrad``) ``moment2_max``, ``beta1_pow_acc`` and ``beta2_pow_acc``. ``amsgrad`` steps
each parameter with ``adam_`` / ``adamw_`` (``merged_adam_`` has no AMSGrad here)."""

from __future__ import annotations

from typing import Any, Callable, Iterable

from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.dispatch.op_def import op_api
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.ir.core import Value
from phiops.runtime.optimizer.lr import LRScheduler
from phiops.runtime.optimizer.momentum import NO_MASTER_COPIES
from phiops.runtime.optimizer.optimizer import Optimizer, keep_masters, float_or_none
from phiops.runtime.optimizer.rule import Accumulator, OpCall
from phiops.runtime.regularizer import WeightDecayRegularizer

__all__ = ["Adam", "AdamW"]


class Adam(Optimizer):
    """Adam (PaddlePaddle's ``adam_`` / ``merged_adam_``): moments and beta powers are kept per
    parameter."""

    _supports_masters = True

    _kind = "Adam"

    def __init__(
        self,
        learning_rate: float | LRScheduler = 0.001,
        beta1: float = 0.9,
        beta2: float = 0.999,
        epsilon: float = 1e-8,
        parameters: Iterable[Tensor] | None = (),
        weight_decay: float | WeightDecayRegularizer | None = None,
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
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        keep_masters(self, kind, multi_precision)
        self.beta1, self.beta2, self.epsilon = beta1, beta2, epsilon
        # lazy_mode only changes the update of sparse (SelectedRows) gradients, which eager
        # dense tensors never have.
        self._lazy_mode = bool(lazy_mode)
        self._amsgrad = bool(amsgrad)
        self._use_multi_tensor = bool(use_multi_tensor) and not self._amsgrad
        self._state_spec = (
            Accumulator("moment1"),
            Accumulator("moment2"),
            *((Accumulator("moment2_max"),) if self._amsgrad else ()),
            Accumulator("beta1_pow_acc", beta1, (1,)),
            Accumulator("beta2_pow_acc", beta2, (1,)),
        )

    def _accumulators(self) -> tuple[Accumulator, ...]:
        return self._state_spec

    def _moments(self, state: tuple[Any, ...]) -> tuple[Any, ...]:
        """(moment1, moment2, moment2_max or None, beta1_pow, beta2_pow) of ``state``."""
        if self._amsgrad:
            return state
        moment1, moment2, beta1_pow, beta2_pow = state
        return moment1, moment2, None, beta1_pow, beta2_pow

    def _update_call(self, parameter: Any, grad: Any, rate: Any, state: tuple[Any, ...]) -> OpCall:
        moment1, moment2, moment2_max, beta1_pow, beta2_pow = self._moments(state)
        return OpCall(
            "adam_",
            (
                parameter,
                grad,
                rate,
                moment1,
                moment2,
                moment2_max,
                beta1_pow,
                beta2_pow,
                None,
                None,
                self.beta1,
                self.beta2,
                self.epsilon,
                self._lazy_mode,
                1000,
                False,
                False,
                self._amsgrad,
            ),
        )

    def _merged_calls(
        self, params: list[Tensor], grads: list[Tensor], rate: Tensor, state: list[list[Tensor]]
    ) -> list[OpCall]:
        moment1, moment2, beta1_pow, beta2_pow = state
        return [
            OpCall(
                "merged_adam_",
                (
                    params,
                    grads,
                    [rate],
                    moment1,
                    moment2,
                    beta1_pow,
                    beta2_pow,
                    NO_MASTER_COPIES,
                    self.beta1,
                    self.beta2,
                    self.epsilon,
                ),
            )
        ]


class AdamW(Adam):
    """AdamW (PaddlePaddle's ``adamw_``): Adam with decoupled weight decay,
    ``param -= learning_rate * lr_ratio(param) * weight_decay * param`` before the Adam step,
    for the parameters whose name ``apply_decay_param_fun`` accepts (all when it is None).
    ``use_multi_tensor`` (keyword only; PaddlePaddle's AdamW has none) decays each parameter in
    place with ``sgd_`` (its gradient the parameter, its rate the decay) and then takes one
    ``merged_adam_`` step: the same bits as ``adamw_``."""

    _kind = "AdamW"

    def __init__(
        self,
        learning_rate: float | LRScheduler = 0.001,
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
        coeff = float_or_none(weight_decay, "AdamW")
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
        if self._param_groups:
            raise UnimplementedError(
                "AdamW: parameter groups are not implemented (a group's weight_decay is AdamW's "
                "decoupled coefficient); pass a list of parameters"
            )
        self._coeff = coeff
        self._lr_ratio = lr_ratio
        self._apply_decay_param_fun = apply_decay_param_fun
        # (dtype, place, lr_ratio) -> (the rate tensor, learning_rate * lr_ratio * coeff)
        self._decay_rates: dict[object, tuple[Tensor, Tensor]] = {}

    def _check_static(self) -> None:
        super()._check_static()
        if self._lr_ratio is not None:
            raise UnimplementedError(
                "AdamW.minimize() in a static program with lr_ratio is not implemented (nor is "
                "it in PaddlePaddle 3.3.1 on CPU); pass lr_ratio=None"
            )

    def _decay_of(self, parameter: Any) -> tuple[bool, float]:
        """(with_decay, lr_ratio) of ``parameter``."""
        if isinstance(parameter, Value):  # a static program's parameter
            name = parameter.define_op.attributes["parameter_name"].value
        else:
            name = parameter.name
        with_decay = self._apply_decay_param_fun is None or bool(self._apply_decay_param_fun(name))
        ratio = 1.0 if self._lr_ratio is None else float(self._lr_ratio(parameter))
        return with_decay, ratio

    def _update_call(self, parameter: Any, grad: Any, rate: Any, state: tuple[Any, ...]) -> OpCall:
        moment1, moment2, moment2_max, beta1_pow, beta2_pow = self._moments(state)
        with_decay, ratio = self._decay_of(parameter)
        return OpCall(
            "adamw_",
            (
                parameter,
                grad,
                rate,
                moment1,
                moment2,
                moment2_max,
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
                1000,
                False,
                False,
                self._amsgrad,
            ),
        )

    def _merged_calls(
        self, params: list[Tensor], grads: list[Tensor], rate: Tensor, state: list[list[Tensor]]
    ) -> list[OpCall]:
        """``adamw_``'s decoupled decay first, ``param - (learning_rate * lr_ratio * coeff) *
        param`` in the parameter's dtype, as ``sgd_`` computes it; then Adam's merged step."""
        decays = []
        for parameter in params:
            with_decay, ratio = self._decay_of(parameter)
            if with_decay:
                decay = self._decay_rate(rate, ratio)
                decays.append(OpCall("sgd_", (parameter, decay, parameter, None, False)))
        return decays + super()._merged_calls(params, grads, rate, state)

    def _decay_rate(self, rate: Tensor, ratio: float) -> Tensor:
        """``learning_rate * lr_ratio * coeff`` as a 1-element tensor of ``rate``'s dtype."""
        key = (rate.dtype, rate.place, ratio)
        cached = self._decay_rates.get(key)
        if cached is not None and cached[0] is rate:
            return cached[1]
        full, multiply = op_api("full"), op_api("multiply")
        factor = multiply(
            multiply(rate, full([1], ratio, rate.dtype, rate.place)),
            full([1], self._coeff, rate.dtype, rate.place),
        )
        self._decay_rates[key] = (rate, factor)
        return factor
