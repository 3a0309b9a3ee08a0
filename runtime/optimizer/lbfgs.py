"""L-BFGS (``paddle.optimizer.LBFGS``): a quasi-Newton method over all the parameters as one
flat vector, keeping the last ``history_size`` curvature pairs ``(s, y)`` and taking, each
``step(closure)``, up to ``max_iter`` iterations, each along the two-loop recursion's direction
with a fixed step (``learning_rate``; the first iteration's scaled by ``1 / sum|grad|``) or a
strong-Wolfe line search (``line_search_fn="strong_wolfe"``, cubic interpolation). The closure
re-evaluates the loss (clearing the gradients and calling ``backward``) and returns it.

The iterations are PaddlePaddle 3.3.1's (the algorithm of Nocedal and Wright, Numerical
Optimization, algorithms 7.4 and 3.5/3.6), written with ops on Tensors, so the parameters stay
on their device; the scalars compared with tolerances are read back as Python floats. As in
PaddlePaddle, ``weight_decay`` and ``grad_clip`` are accepted and not applied, and ``minimize``
is not this optimizer's way (``step(closure)`` is)."""

from __future__ import annotations

from typing import Any, Callable, Iterable

from phiops.runtime.autograd.grad_mode import enable_grad, no_grad
from phiops.runtime.dispatch.op_def import op_api
from phiops.runtime.eager.inplace import write_inplace
from phiops.runtime.eager.tensor import Tensor
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.optimizer.adagrad import require_number
from phiops.runtime.optimizer.optimizer import Optimizer
from phiops.runtime.regularizer import WeightDecayRegularizer

__all__ = ["LBFGS"]

_Evaluate = Callable[[list[Tensor], Any, Tensor], tuple[float, Tensor]]


def _dot(x: Tensor, y: Tensor) -> Tensor:
    """``sum(x * y)`` as a 0-D tensor."""
    return op_api("sum")(op_api("multiply")(x, y), [-1], None, False)


def _abs_max(x: Tensor) -> float:
    return float(op_api("max")(op_api("abs")(x), [], False).item())


def _times(x: Tensor, factor: Any) -> Tensor:
    """``x * factor`` for a number or a 0-D tensor."""
    if isinstance(factor, Tensor):
        return op_api("multiply")(x, factor)
    return op_api("scale")(x, float(factor), 0.0, True)


class LBFGS(Optimizer):
    """L-BFGS: ``step(closure)`` runs up to ``max_iter`` quasi-Newton iterations (at most
    ``max_eval`` evaluations of the closure), stopping when the largest gradient element is
    at most ``tolerance_grad`` or the step or the loss changes by less than
    ``tolerance_change``."""

    def __init__(
        self,
        learning_rate: float = 1.0,
        max_iter: int = 20,
        max_eval: int | None = None,
        tolerance_grad: float = 1e-07,
        tolerance_change: float = 1e-09,
        history_size: int = 100,
        line_search_fn: str | None = None,
        parameters: Iterable[Tensor] | None = None,
        weight_decay: float | WeightDecayRegularizer | None = None,
        grad_clip: Any = None,
        name: str | None = None,
    ) -> None:
        require_number("LBFGS", "learning_rate", learning_rate)
        for label, value in (("max_iter", max_iter), ("history_size", history_size)):
            if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
                raise InvalidArgumentError(f"LBFGS: {label} must be a positive int, got {value!r}")
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        require_number("LBFGS", "tolerance_grad", tolerance_grad)
        require_number("LBFGS", "tolerance_change", tolerance_change)
        if line_search_fn not in (None, "strong_wolfe"):
            raise InvalidArgumentError(
                f"LBFGS: line_search_fn must be None or 'strong_wolfe', got {line_search_fn!r}"
            )
        if isinstance(parameters, Tensor):
            raise InvalidArgumentError(
                "LBFGS: parameters must be an iterable of Tensors, got a single Tensor"
            )
        super().__init__(1.0, parameters, weight_decay, grad_clip, name)
        if self._param_groups:
            raise UnimplementedError(
                "LBFGS: parameter groups are not implemented (PaddlePaddle's LBFGS optimizes "
                "only the last group's parameters); pass a list of parameters"
            )
        self.learning_rate = float(learning_rate)
        self.max_iter, self.max_eval = max_iter, max_eval
        self.tolerance_grad, self.tolerance_change = float(tolerance_grad), float(tolerance_change)
        self.history_size, self.line_search_fn = history_size, line_search_fn
        self.state: dict[str, Any] = {}

    # -- the flat vector of all parameters -------------------------------------------------
    def _flat_grad(self) -> Tensor:
        views = []
        for p in self._parameters:
            grad = op_api("zeros_like")(p, None, None) if p._grad is None else p._grad
            views.append(op_api("reshape")(grad, [-1]))
        return op_api("concat")(views, 0)

    def _add_grad(self, alpha: Any, direction: Tensor) -> None:
        """Each parameter ``+= alpha * direction[its slice]``, in place."""
        offset = 0
        for p in self._parameters:
            count = 1
            for extent in p.shape:
                count *= extent
            piece = op_api("reshape")(direction[offset : offset + count], list(p.shape))
            write_inplace(p, op_api("add")(p, _times(piece, alpha)))
            offset += count

    def _evaluate(self, closure: Callable[[], Any]) -> float:
        with enable_grad():
            return float(closure())

    def _directional_evaluate(
        self, closure: Callable[[], Any], start: list[Tensor], alpha: Any, direction: Tensor
    ) -> tuple[float, Tensor]:
        """The loss and the flat gradient at ``start + alpha * direction``; the parameters are
        put back to ``start`` afterwards."""
        self._add_grad(alpha, direction)
        loss = self._evaluate(closure)
        grad = self._flat_grad()
        for p, values in zip(self._parameters, start):
            write_inplace(p, values)
        return loss, grad

    # -- the step --------------------------------------------------------------------------
    @no_grad()
    def step(self, closure: Callable[[], Any]) -> Any:  # type: ignore[override]
        """Run the iterations; ``closure()`` clears the gradients, computes the loss, calls
        ``backward`` and returns the loss. Returns the loss of the first evaluation."""
        if not callable(closure):
            raise InvalidArgumentError(
                f"LBFGS.step: closure must be callable (it re-evaluates the loss), got "
                f"{type(closure).__name__}"
            )
        state = self.state
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)
        with enable_grad():
            original = closure()
        loss = float(original)
        evaluations = 1
        state["func_evals"] += 1
        grad = self._flat_grad()
        if _abs_max(grad) <= self.tolerance_grad:
            return original
        direction, alpha = state.get("d"), state.get("alpha")
        old_yk, old_sk, ro = state.get("old_yk"), state.get("old_sk"), state.get("ro")
        h_diag, prev_grad = state.get("H_diag"), state.get("prev_flat_grad")
        prev_loss = state.get("prev_loss")
        iteration = 0
        while iteration < self.max_iter:
            iteration += 1
            state["n_iter"] += 1
            if state["n_iter"] == 1:
                direction = op_api("scale")(grad, -1.0, 0.0, True)
                old_yk, old_sk, ro = [], [], []
                h_diag = op_api("full")([], 1.0, grad.dtype, grad.place)
            else:
                direction, h_diag = self._direction(
                    grad, prev_grad, direction, alpha, old_yk, old_sk, ro, h_diag
                )
            prev_grad = op_api("assign")(grad)
            prev_loss = loss
            if state["n_iter"] == 1:
                total = float(op_api("sum")(op_api("abs")(grad), [], None, False).item())
                alpha = min(1.0, 1.0 / total) * self.learning_rate
            else:
                alpha = self.learning_rate
            gtd = _dot(grad, direction)
            if float(gtd.item()) > -self.tolerance_change:
                break
            line_evaluations = 0
            if self.line_search_fn is not None:
                start = [op_api("assign")(p) for p in self._parameters]
                evaluate: _Evaluate = lambda x, a, d: self._directional_evaluate(closure, x, a, d)
                loss, grad, alpha, line_evaluations = _strong_wolfe(
                    evaluate, start, alpha, direction, loss, grad, float(gtd.item()),
                    tolerance_change=self.tolerance_change,
                )  # fmt: skip
                self._add_grad(alpha, direction)
                converged = _abs_max(grad) <= self.tolerance_grad
            else:
                self._add_grad(alpha, direction)
                converged = False
                if iteration != self.max_iter:
                    loss = self._evaluate(closure)
                    grad = self._flat_grad()
                    converged = _abs_max(grad) <= self.tolerance_grad
                    line_evaluations = 1
            evaluations += line_evaluations
            state["func_evals"] += line_evaluations
            if converged:
                break
            if _abs_max(_times(direction, alpha)) <= self.tolerance_change:
                break
            if abs(loss - prev_loss) < self.tolerance_change:
                break
            if evaluations >= self.max_eval or iteration == self.max_iter:
                break
        state.update(
            d=direction,
            alpha=alpha,
            old_yk=old_yk,
            old_sk=old_sk,
            ro=ro,
            H_diag=h_diag,
            prev_flat_grad=prev_grad,
            prev_loss=prev_loss,
        )
        return original

    def _direction(
        self,
        grad: Tensor,
        prev_grad: Tensor,
        direction: Tensor,
        alpha: Any,
        old_yk: list[Tensor],
        old_sk: list[Tensor],
        ro: list[Tensor],
        h_diag: Tensor,
    ) -> tuple[Tensor, Tensor]:
        """The two-loop recursion after recording the last curvature pair (when ``y . s`` is
        positive enough); returns (the direction, the new initial Hessian scale)."""
        y = op_api("subtract")(grad, prev_grad)
        s = _times(direction, alpha)
        ys = _dot(y, s)
        if float(ys.item()) > 1e-10:
            if len(old_yk) == self.history_size:
                old_yk.pop(0)
                old_sk.pop(0)
                ro.pop(0)
            old_yk.append(y)
            old_sk.append(s)
            ro.append(op_api("divide")(op_api("full_like")(ys, 1.0, None, None), ys))
            h_diag = op_api("divide")(ys, _dot(y, y))
        count = len(old_yk)
        al: list[Any] = [None] * count
        q = op_api("scale")(grad, -1.0, 0.0, True)
        for i in range(count - 1, -1, -1):
            al[i] = op_api("multiply")(_dot(old_sk[i], q), ro[i])
            q = op_api("add")(q, _times(old_yk[i], op_api("scale")(al[i], -1.0, 0.0, True)))
        r = op_api("multiply")(q, h_diag)
        for i in range(count):
            be_i = op_api("multiply")(_dot(old_yk[i], r), ro[i])
            r = op_api("add")(r, _times(old_sk[i], op_api("subtract")(al[i], be_i)))
        return r, h_diag

    # -- what LBFGS does not do --------------------------------------------------------------
    def minimize(self, loss: Any, startup_program: Any = None, parameters: Any = None, no_grad_set: Any = None) -> Any:  # type: ignore[override]
        """Not LBFGS's way: call ``step(closure)``."""
        raise UnimplementedError(
            "LBFGS.minimize() is not how LBFGS is used: call step(closure), the closure "
            "re-evaluating the loss (as in PaddlePaddle)"
        )

    def state_dict(self) -> dict[str, Any]:
        """``{"state": ...}``: the iteration's state (counts, direction, step, curvature
        pairs, ...), as PaddlePaddle's LBFGS packs it."""
        return {"state": dict(self.state)}

    def set_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Restore a ``state_dict()``."""
        if not isinstance(state_dict, dict) or not isinstance(state_dict.get("state"), dict):
            raise InvalidArgumentError(
                "LBFGS.set_state_dict: expected {'state': {...}} as state_dict() gives, got "
                f"{type(state_dict).__name__}"
            )
        self.state = dict(state_dict["state"])


def _cubic_interpolate(
    x1: float,
    f1: float,
    g1: float,
    x2: float,
    f2: float,
    g2: float,
    bounds: tuple[float, float] | None = None,
) -> float:
    """The minimiser of the cubic through (x1, f1, g1) and (x2, f2, g2), clamped to
    ``bounds`` (default: the interval of x1 and x2); the middle when it has none."""
    low, high = bounds if bounds is not None else (min(x1, x2), max(x1, x2))
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    d2_square = d1**2 - g1 * g2
    if d2_square < 0:
        return (low + high) / 2.0
    d2 = d2_square**0.5
    if x1 <= x2:
        position = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
    else:
        position = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
    return min(max(position, low), high)


def _strong_wolfe(
    evaluate: _Evaluate,
    start: list[Tensor],
    alpha: float,
    direction: Tensor,
    loss: float,
    grad: Tensor,
    gtd: float,
    c1: float = 1e-4,
    c2: float = 0.9,
    tolerance_change: float = 1e-9,
    max_ls: int = 25,
) -> tuple[float, Tensor, float, int]:
    """A step satisfying the strong Wolfe conditions along ``direction`` (bracketing, then
    zooming by cubic interpolation); returns (its loss, its flat gradient, the step, the
    number of evaluations)."""
    d_norm = _abs_max(direction)
    loss_new, grad_new = evaluate(start, alpha, direction)
    evaluations = 1
    gtd_new = float(_dot(grad_new, direction).item())
    t_prev, f_prev, g_prev, gtd_prev = 0.0, loss, grad, gtd
    done = False
    ls_iter = 0
    bracket: list[float] = []
    bracket_f: list[float] = []
    bracket_g: list[Tensor] = []
    bracket_gtd: list[float] = []
    while ls_iter < max_ls:
        if loss_new > loss + c1 * alpha * gtd or (ls_iter > 1 and loss_new >= f_prev):
            bracket, bracket_f = [t_prev, alpha], [f_prev, loss_new]
            bracket_g, bracket_gtd = [g_prev, grad_new], [gtd_prev, gtd_new]
            break
        if abs(gtd_new) <= -c2 * gtd:
            bracket, bracket_f, bracket_g = [alpha], [loss_new], [grad_new]
            done = True
            break
        if gtd_new >= 0:
            bracket, bracket_f = [t_prev, alpha], [f_prev, loss_new]
            bracket_g, bracket_gtd = [g_prev, grad_new], [gtd_prev, gtd_new]
            break
        bounds = (alpha + 0.01 * (alpha - t_prev), alpha * 10)
        previous = alpha
        alpha = _cubic_interpolate(t_prev, f_prev, gtd_prev, alpha, loss_new, gtd_new, bounds)
        t_prev, f_prev, g_prev, gtd_prev = previous, loss_new, grad_new, gtd_new
        loss_new, grad_new = evaluate(start, alpha, direction)
        evaluations += 1
        gtd_new = float(_dot(grad_new, direction).item())
        ls_iter += 1
    if ls_iter == max_ls:
        bracket, bracket_f, bracket_g = [0.0, alpha], [loss, loss_new], [grad, grad_new]
    insufficient_progress = False
    low, high = (0, 1) if bracket_f[0] <= bracket_f[-1] else (1, 0)
    while not done and ls_iter < max_ls:
        if abs(bracket[1] - bracket[0]) * d_norm < tolerance_change:
            break
        alpha = _cubic_interpolate(
            bracket[0], bracket_f[0], bracket_gtd[0], bracket[1], bracket_f[1], bracket_gtd[1]
        )
        eps = 0.1 * (max(bracket) - min(bracket))
        if min(max(bracket) - alpha, alpha - min(bracket)) < eps:
            if insufficient_progress or alpha >= max(bracket) or alpha <= min(bracket):
                if abs(alpha - max(bracket)) < abs(alpha - min(bracket)):
                    alpha = max(bracket) - eps
                else:
                    alpha = min(bracket) + eps
                insufficient_progress = False
            else:
                insufficient_progress = True
        else:
            insufficient_progress = False
        loss_new, grad_new = evaluate(start, alpha, direction)
        evaluations += 1
        gtd_new = float(_dot(grad_new, direction).item())
        ls_iter += 1
        if loss_new > loss + c1 * alpha * gtd or loss_new >= bracket_f[low]:
            bracket[high], bracket_f[high] = alpha, loss_new
            bracket_g[high], bracket_gtd[high] = grad_new, gtd_new
            low, high = (0, 1) if bracket_f[0] <= bracket_f[1] else (1, 0)
        else:
            if abs(gtd_new) <= -c2 * gtd:
                done = True
            elif gtd_new * (bracket[high] - bracket[low]) >= 0:
                bracket[high], bracket_f[high] = bracket[low], bracket_f[low]
                bracket_g[high], bracket_gtd[high] = bracket_g[low], bracket_gtd[low]
            bracket[low], bracket_f[low] = alpha, loss_new
            bracket_g[low], bracket_gtd[low] = grad_new, gtd_new
    return bracket_f[low], bracket_g[low], bracket[low], evaluations
