"""Optimizers on the in-place ops ``sgd_`` and ``adam_``, with PaddlePaddle's interface.

``step()`` updates every parameter that has a gradient, in place and without recording
gradients; ``clear_grad()`` resets the gradients. The ops themselves come from the generated API
(found through the OpDef registry, runtime/dispatch/op_def.py, once ``generated`` is imported).
"""

from __future__ import annotations

from typing import Iterable

import numpy as np

from runtime.autograd.grad_mode import no_grad
from runtime.core.tensor import Tensor, to_tensor
from runtime.dispatch.op_def import op_api
from runtime.errors import InvalidArgumentError

__all__ = ["Optimizer", "SGD", "Adam"]


class Optimizer:
    """Holds the parameters and the learning rate; subclasses implement ``_update``."""

    def __init__(self, learning_rate: float, parameters: Iterable[Tensor]) -> None:
        self._parameters = list(parameters)
        if not self._parameters:
            raise InvalidArgumentError(f"{type(self).__name__}: 'parameters' is empty")
        for position, parameter in enumerate(self._parameters):
            if not isinstance(parameter, Tensor):
                raise InvalidArgumentError(
                    f"{type(self).__name__}: parameters[{position}] is a {type(parameter).__name__}, not a Tensor"
                )
            if parameter.stop_gradient:
                raise InvalidArgumentError(
                    f"{type(self).__name__}: parameters[{position}] has stop_gradient=True, so it never gets a gradient"
                )
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
        """Update every parameter that has a gradient."""
        for parameter in self._parameters:
            if parameter.grad is not None:
                self._update(parameter, parameter.grad)

    def clear_grad(self, set_to_zero: bool = True) -> None:
        for parameter in self._parameters:
            parameter.clear_grad(set_to_zero)

    def _update(self, parameter: Tensor, grad: Tensor) -> None:
        raise NotImplementedError


class SGD(Optimizer):
    """param -= learning_rate * grad (PaddlePaddle's ``sgd_``)."""

    def __init__(self, learning_rate: float = 0.001, parameters: Iterable[Tensor] = ()) -> None:
        super().__init__(learning_rate, parameters)

    def _update(self, parameter: Tensor, grad: Tensor) -> None:
        op_api("sgd_")(parameter, self._lr_tensor(parameter), grad, None, False)


class Adam(Optimizer):
    """Adam (PaddlePaddle's ``adam_``): moments and beta powers are kept per parameter."""

    def __init__(
        self,
        learning_rate: float = 0.001,
        beta1: float = 0.9,
        beta2: float = 0.999,
        epsilon: float = 1e-8,
        parameters: Iterable[Tensor] = (),
    ) -> None:
        for name, value in (("beta1", beta1), ("beta2", beta2)):
            if not 0 <= value < 1:
                raise InvalidArgumentError(f"Adam: {name} must be in [0, 1), got {value!r}")
        if epsilon <= 0:
            raise InvalidArgumentError(f"Adam: epsilon must be positive, got {epsilon!r}")
        super().__init__(learning_rate, parameters)
        self.beta1, self.beta2, self.epsilon = beta1, beta2, epsilon
        self._state: dict[int, tuple[Tensor, Tensor, Tensor, Tensor]] = {}

    def _moments(self, parameter: Tensor) -> tuple[Tensor, Tensor, Tensor, Tensor]:
        state = self._state.get(id(parameter))
        if state is None:
            dtype = parameter.dtype.numpy_dtype
            zeros = np.zeros(parameter.shape, dtype)
            state = self._state[id(parameter)] = (
                to_tensor(zeros, place=parameter.place),
                to_tensor(zeros, place=parameter.place),
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
        )
