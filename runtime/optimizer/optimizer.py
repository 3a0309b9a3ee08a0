"""The optimizers' base class: parameters, learning rate (a float or an ``LRScheduler``), weight
decay (a regularizer), gradient clipping, per-parameter state, and the two ways an update rule
runs.

A subclass is one update rule (runtime/optimizer/rule.py): ``_accumulators()`` describes its
per-parameter state and ``_update_call(parameter, grad, rate, state)`` the op call that updates
one parameter; a rule with a multi-tensor op also gives ``_merged_calls``. Then

- ``step()`` (eager) creates the state as Tensors on the first step of each parameter and calls
  the ops through the generated API;
- ``minimize(loss)`` on a static Value creates the state as persistable values of the startup
  program and builds the same ops into the main program (runtime/optimizer/static_program.py).

``weight_decay`` is an ``L1Decay`` or ``L2Decay`` (runtime/regularizer.py; a float is
``L2Decay``'s coefficient): ``add_n([grad, term])`` before the update, in both modes, where a
parameter's own regularizer (``ParamAttr(regularizer=...)``) replaces the optimizer's. ``state_dict()`` / ``set_state_dict()`` use
PaddlePaddle 3.3.1's keys: the accumulators' names (``linear_0.w_0_moment1_0``),
``master_weights`` and ``LR_Scheduler`` when the learning rate is a scheduler.

``multi_precision`` (every optimizer but LBFGS; ``keep_masters``, or ``amp.decorate(level="O2")``
for those whose constructor does not take it, as PaddlePaddle's): a float16/bfloat16
parameter gets a float32 master weight at its first step (``<name>_fp32_master_0``), its state
is float32 and named after the master, and ``_master_update`` steps it in float32.
"""

from __future__ import annotations

from typing import Any, Iterable

import numpy as np

from phiops.runtime.autograd.engine import clear_grad
from phiops.runtime.autograd.grad_mode import no_grad
from phiops.runtime.common import DataType
from phiops.runtime.eager.inplace import write_inplace
from phiops.runtime.eager.tensor import Tensor, to_tensor
from phiops.runtime.dispatch.op_def import op_api
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.ir.core import Value
from phiops.runtime.nn.clip import ClipGradBase
from phiops.runtime.optimizer.lr import LRScheduler
from phiops.runtime.optimizer.rule import Accumulator, OpCall, run_eager
from phiops.runtime.regularizer import L2Decay, WeightDecayRegularizer, parameter_regularizer
from phiops.runtime.static.mode import in_static_mode
from phiops.runtime.static.program import unique_name
from phiops.runtime.tensor.kinds import TensorKind

_DENSE = TensorKind.DENSE

__all__ = ["Optimizer"]


def _kind_of(grad: Any) -> TensorKind:
    """A gradient's tensor kind (DENSE for a static program's Value)."""
    meta = getattr(grad, "meta", None)
    return _DENSE if meta is None else meta.kind

_HALF = (DataType.FLOAT16, DataType.BFLOAT16)
_SCHEDULER_KEY = "LR_Scheduler"
_MASTER_WEIGHTS_KEY = "master_weights"
# PaddlePaddle names a tensor made without a name generated_tensor_N; its accumulators then
# start with that
_UNNAMED = "generated_tensor"

# (positions in the step's parameters, the group's parameters, its state by accumulator)
_MergedGroup = tuple[list[int], list[Tensor], list[list[Tensor]]]


class Optimizer:
    """Holds the parameters, the learning rate, the weight decay and the per-parameter state;
    subclasses give the update rule."""

    _use_multi_tensor = False
    # whether multi_precision keeps float32 master weights (the rules whose update is one op
    # call taking a master: SGD, Momentum, Adam, AdamW)
    _supports_masters = False
    # the keys a parameter group may set besides params, learning_rate and weight_decay
    # (PaddlePaddle's ``_update_param_group`` of the optimizer), read with ``_option``
    _group_options: frozenset[str] = frozenset()
    # accumulator name -> the option whose value fills it (Adamax's beta1_pow_acc: beta1)
    _fill_options: dict[str, str] = {}

    def __init__(
        self,
        learning_rate: float | LRScheduler,
        parameters: Iterable[Tensor] | None,
        weight_decay: float | WeightDecayRegularizer | None = None,
        grad_clip: Any = None,
        name: str | None = None,
    ) -> None:
        kind = type(self).__name__
        given = [] if parameters is None else list(parameters)
        # in a static program, minimize() updates the program's parameters: none need be given
        if not given and not in_static_mode():
            if parameters is None:
                raise InvalidArgumentError(
                    f"{kind}: 'parameters' is None; pass the tensors to optimize (eager mode has "
                    "no default program to take them from)"
                )
            raise InvalidArgumentError(f"{kind}: 'parameters' is empty")
        self._regularization = regularization_of(weight_decay, kind)
        self._param_groups: list[dict[str, Any]] = []
        if given and isinstance(given[0], dict):
            for position, group in enumerate(given):
                self._param_groups.append(self._parameter_group(position, group))
            self._parameters = [p for group in self._param_groups for p in group["params"]]
        else:
            self._parameters = given
        # id(parameter) -> its group's index (parameter groups only)
        self._group_of = {
            id(p): index for index, group in enumerate(self._param_groups) for p in group["params"]
        }
        for position, parameter in enumerate(self._parameters):
            if isinstance(parameter, dict):
                raise InvalidArgumentError(
                    f"{kind}: parameters[{position}] is a dict but parameters[0] is not: give "
                    "either tensors or parameter groups (dicts), not both"
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
        self._name = name
        self._learning_rates: dict[object, Tensor] = {}
        # the per-parameter state, in _accumulators() order, and the parameters in the order
        # their state was made (state_dict's order within each accumulator)
        self._state: dict[int, tuple[Tensor, ...]] = {}
        self._state_parameters: list[Tensor] = []
        # the multi-tensor plan of each set of parameters stepped together (one per group)
        self._merged_plans: dict[tuple[int, ...], list[_MergedGroup]] = {}
        # after set_state_dict: parameters it gave fresh state (the first key it lacked)
        self._unloaded: dict[int, str] = {}
        # multi_precision: id(float16/bfloat16 parameter) -> its float32 master weight, and the
        # parameters in the order their masters were made (state_dict's order)
        self._multi_precision = False
        self._masters: dict[int, Tensor] = {}
        self._master_parameters: list[Tensor] = []
        self._scheduler: LRScheduler | None = None
        if isinstance(learning_rate, LRScheduler):
            self._set_rate(learning_rate())
            self._scheduler = learning_rate
        else:
            self.set_lr(learning_rate)

    def _parameter_group(self, position: int, group: Any) -> dict[str, Any]:
        """A parameter group as PaddlePaddle's ``_add_param_group`` reads it: ``params`` (a
        list of tensors), ``learning_rate`` (a factor of the optimizer's rate, 1.0 by default)
        and ``weight_decay`` (its regularizer, the optimizer's by default)."""
        kind = type(self).__name__
        label = f"{kind}: parameters[{position}]"
        if not isinstance(group, dict):
            raise InvalidArgumentError(
                f"{label} is a {type(group).__name__} but parameters[0] is a dict: give either "
                "tensors or parameter groups (dicts), not both"
            )
        if "params" not in group:
            raise InvalidArgumentError(f"{label} (a parameter group) has no 'params'")
        other = sorted(
            set(group) - {"params", "learning_rate", "weight_decay"} - self._group_options
        )
        if other:
            accepted = ["params", "learning_rate", "weight_decay", *sorted(self._group_options)]
            raise UnimplementedError(
                f"{label}: the parameter group options {other} are not implemented; a group "
                f"of {kind} takes {accepted}"
            )
        params = group["params"]
        if isinstance(params, set):
            raise InvalidArgumentError(
                f"{label}['params'] is a set; give an ordered collection (a list)"
            )
        params = [params] if isinstance(params, Tensor) else list(params)
        if not params:
            raise InvalidArgumentError(f"{label}['params'] is empty")
        seen = {id(p) for g in self._param_groups for p in g["params"]}
        if any(id(p) in seen for p in params):
            raise InvalidArgumentError(
                f"{label}: some parameters appear in more than one parameter group"
            )
        factor = group.get("learning_rate", 1.0)
        if isinstance(factor, bool) or not isinstance(factor, (int, float)) or factor < 0:
            raise InvalidArgumentError(
                f"{label}['learning_rate'] must be a non-negative number (a factor of the "
                f"optimizer's learning rate), got {factor!r}"
            )
        decay = group.get("weight_decay", self._regularization)
        return {
            "params": params,
            "learning_rate": float(factor),
            "weight_decay": regularization_of(decay, f"{label}['weight_decay']"),
            **{key: group[key] for key in sorted(self._group_options) if key in group},
        }

    def _option(self, parameter: Any, key: str, default: Any) -> Any:
        """Option ``key`` for ``parameter``: its parameter group's when the group sets it (one
        of ``_group_options``), else ``default`` (the optimizer's)."""
        index = self._group_of.get(id(parameter))
        if index is None:
            return default
        return self._param_groups[index].get(key, default)

    def _own_regularizer(self, parameter: Any) -> WeightDecayRegularizer | None:
        """What PaddlePaddle keeps as ``parameter.regularizer``: its group's weight decay
        (``_add_param_group`` sets it on every parameter of a group, replacing a ParamAttr's),
        else its ParamAttr's."""
        index = self._group_of.get(id(parameter))
        if index is not None:
            return self._param_groups[index]["weight_decay"]
        return parameter_regularizer(parameter)

    def _regularizer_of(self, parameter: Any) -> WeightDecayRegularizer | None:
        """The regularizer whose term is added to ``parameter``'s gradient: its own (see
        ``_own_regularizer``), else the optimizer's (PaddlePaddle's
        ``_create_regularization_of_grad``)."""
        own = self._own_regularizer(parameter)
        return own if own is not None else self._regularization

    def _rate_factor(self, parameter: Any) -> float:
        """The factor of the learning rate for ``parameter`` (its group's; 1.0 without)."""
        index = self._group_of.get(id(parameter))
        return 1.0 if index is None else self._param_groups[index]["learning_rate"]

    # -- the update rule (subclasses) ---------------------------------------------------------
    def _accumulators(self) -> tuple[Accumulator, ...]:
        """The per-parameter state the update op reads and writes (none by default)."""
        return ()

    def _update_call(self, parameter: Any, grad: Any, rate: Any, state: tuple[Any, ...]) -> OpCall:
        """The op call that updates one parameter (a Tensor eagerly, a Value in a program)."""
        raise NotImplementedError

    def _finish_calls(self, parameter: Any, state: tuple[Any, ...]) -> tuple[OpCall, ...]:
        """The op calls a static ``minimize`` builds for ``parameter`` after every update op
        (PaddlePaddle's ``_finish_update``); none by default. The eager ``_update`` of a rule
        that has some runs them itself."""
        return ()

    def _update(
        self, parameter: Tensor, grad: Tensor, rate: Tensor, state: tuple[Any, ...]
    ) -> None:
        """Update one parameter eagerly: ``_update_call``'s op through the generated API (a rule
        whose step is more than one op call overrides this). A parameter with a float32 master
        weight (multi_precision) is updated through it (``_master_update``)."""
        call = self._update_call(parameter, grad, rate, state)
        master = self._masters.get(id(parameter))
        if master is None:
            run_eager(call)
        else:
            self._master_update(parameter, master, call)

    # the float16/bfloat16 parameter dtypes whose update op has a CPU kernel that takes the
    # master weight itself (PaddlePaddle 3.3.1's registrations: sgd_ has bfloat16)
    _master_kernel_dtypes: tuple[DataType, ...] = ()
    # the update op's argument that takes the scalar learning rate (given in float32 to a
    # master's update); None for a rule whose op has none (rprop_'s are per-element state)
    _master_rate_argument: str | None = "learning_rate"

    def _master_update(self, parameter: Tensor, master: Tensor, call: OpCall) -> None:
        """Update ``parameter`` through its float32 ``master``: when the op has a kernel for
        the parameter's dtype, the call gets ``master_param=master`` and
        ``multi_precision=True`` (the kernel steps the master in float32 and writes both);
        otherwise (PaddlePaddle has no CPU kernel of that dtype) the op steps the master as its
        parameter, with the gradient and the learning rate in float32, and the parameter takes
        the master's cast, which is what the kernel with a master computes."""
        names = list(call.named())
        args = list(call.args)
        # the learning rate in float32 (PaddlePaddle's), not rounded to the parameter's dtype
        if self._master_rate_argument is not None:
            args[names.index(self._master_rate_argument)] = self._lr_tensor(master, parameter)
        if parameter.dtype in self._master_kernel_dtypes:
            args[names.index("master_param")] = master
            args[names.index("multi_precision")] = True
            run_eager(OpCall(call.op, tuple(args)))
            return
        args[names.index("param")] = master
        grad_at = names.index("grad")
        args[grad_at] = op_api("cast")(args[grad_at], DataType.FLOAT32)
        run_eager(OpCall(call.op, tuple(args)))
        write_inplace(parameter, op_api("cast")(master, parameter.dtype))

    def _make_master(self, parameter: Tensor, loaded: Any = None) -> Tensor:
        """``parameter``'s float32 master weight (PaddlePaddle's ``_create_master_weight``):
        its cast, named ``<parameter name>_fp32_master_N``; or a loaded master's values, under
        its name when it is a Tensor (PaddlePaddle keeps the loaded master itself)."""
        kind = type(self).__name__
        if loaded is None:
            master = op_api("cast")(parameter.detach(), DataType.FLOAT32)
        else:
            key = f"{_MASTER_WEIGHTS_KEY}['{parameter.name}']"
            array = _loaded_array(kind, key, loaded, parameter.shape, np.float32)
            master = to_tensor(array, place=parameter.place)
        name = getattr(loaded, "name", None) if isinstance(loaded, Tensor) else None
        master.name = name or unique_name(f"{parameter.name or _UNNAMED}_fp32_master")
        master.stop_gradient = True
        self._masters[id(parameter)] = master
        self._master_parameters.append(parameter)
        return master

    def _merged_calls(
        self, params: list[Tensor], grads: list[Tensor], rate: Tensor, state: list[list[Tensor]]
    ) -> list[OpCall] | None:
        """The multi-tensor op calls for one group of parameters of one dtype and place
        (``state``: each accumulator's tensors, in the parameters' order); None: the rule has
        no multi-tensor op."""
        return None

    def _check_static(self) -> None:
        """Refuse what a static ``minimize`` cannot build."""
        if self._param_groups:
            raise UnimplementedError(
                f"{type(self).__name__}.minimize() in a static program: parameter groups are "
                "not implemented there (they are eagerly); pass a list of parameters"
            )
        if self._grad_clip is not None:
            raise UnimplementedError(
                f"{type(self).__name__}.minimize() in a static program: grad_clip is not "
                "implemented there (it is eagerly); pass grad_clip=None"
            )

    # -- learning rate --------------------------------------------------------------------
    def get_lr(self) -> float:
        """The learning rate of the next step (the scheduler's current one, if any)."""
        return self._scheduler() if self._scheduler is not None else self._learning_rate

    def set_lr(self, value: float) -> None:
        """Change the learning rate used by the next ``step()``."""
        if self._scheduler is not None:
            raise InvalidArgumentError(
                "set_lr: this optimizer's learning rate comes from an LRScheduler; step the scheduler"
            )
        self._set_rate(value)

    def _set_rate(self, value: float) -> None:
        if not isinstance(value, (int, float)) or isinstance(value, bool) or value < 0:
            raise InvalidArgumentError(
                f"learning_rate must be a non-negative number, got {value!r}"
            )
        self._learning_rate = float(value)
        self._learning_rates.clear()

    def _lr_tensor(self, like: Tensor, parameter: Tensor | None = None) -> Tensor:
        """The learning rate for parameter ``like``: a 1-element tensor of its dtype and place
        (cached), times its group's factor as PaddlePaddle's ``_create_param_lr`` computes it
        (``scale`` of the rate tensor) when that is not 1."""
        factor = self._rate_factor(like if parameter is None else parameter)
        key = (like.dtype, like.place, factor)
        tensor = self._learning_rates.get(key)
        if tensor is None:
            tensor = to_tensor(
                np.array([self._learning_rate], like.dtype.numpy_dtype), place=like.place
            )
            if factor != 1.0:
                tensor = op_api("scale")(tensor, factor, 0.0, True)
            self._learning_rates[key] = tensor
        return tensor

    # -- eager ------------------------------------------------------------------------------
    @no_grad()
    def step(self) -> None:
        """Update every parameter that has a gradient: its gradient clipped by ``grad_clip``,
        then decayed, as PaddlePaddle's dygraph step does; with parameter groups, one group
        after another (each clipped on its own, as in PaddlePaddle)."""
        if self._scheduler is not None:
            rate = self._scheduler()
            if rate != self._learning_rate:
                self._set_rate(rate)
        params = [p for p in self._parameters if p._grad is not None]
        if not params:
            return
        if self._unloaded:
            self._check_loaded(params)
        if not self._param_groups:
            self._step_parameters(params)
            return
        # PaddlePaddle's step with groups: each group clipped, decayed and updated on its own
        with_grad = {id(p) for p in params}
        for group in self._param_groups:
            members = [p for p in group["params"] if id(p) in with_grad]
            if members:
                self._step_parameters(members)

    def _step_parameters(self, params: list[Tensor]) -> None:
        grads = [p._grad for p in params]
        if self._grad_clip is not None:
            grads = self._grad_clip.clip(params, grads)
        grads = [self._regularized(p, g) for p, g in zip(params, grads)]
        # A SelectedRows gradient (Embedding(sparse=True)) takes its op's SelectedRows kernel
        # one parameter at a time: the multi-tensor ops have none, in PHI too.
        sparse = any(_kind_of(g) is not _DENSE for g in grads)
        if self._multi_precision and any(p.dtype in _HALF for p in params):
            # masters step one parameter at a time (the multi-tensor ops are not given them)
            self._state_of_all(params)
        elif self._use_multi_tensor and not sparse and self._merged_step(params, grads):
            return
        for parameter, grad in zip(params, grads):
            self._update(parameter, grad, self._lr_tensor(parameter), self._state_of(parameter))

    def _merged_step(self, params: list[Tensor], grads: list[Tensor]) -> bool:
        """One multi-tensor step per group of parameters of one dtype and place; False when the
        rule has no multi-tensor op. The groups and their state lists are kept for the next step
        with the same parameters (the usual case): the state is updated in place."""
        key = tuple(map(id, params))
        plan = self._merged_plans.get(key)
        if plan is None:
            plan = self._merged_plans[key] = self._merged_groups(params)
        for positions, group, state in plan:
            calls = self._merged_calls(
                group, [grads[i] for i in positions], self._lr_tensor(group[0]), state
            )
            if calls is None:
                return False
            for call in calls:
                run_eager(call)
        return True

    def _merged_groups(self, params: list[Tensor]) -> list[_MergedGroup]:
        groups: dict[object, tuple[list[int], list[Tensor]]] = {}
        for index, parameter in enumerate(params):
            key = (parameter.dtype, parameter.place, self._rate_factor(parameter))
            group = groups.setdefault(key, ([], []))
            group[0].append(index)
            group[1].append(parameter)
        count = len(self._accumulators())
        planned = []
        for positions, group in groups.values():
            states = [self._state_of(p) for p in group]
            planned.append((positions, group, [[s[i] for s in states] for i in range(count)]))
        return planned

    def _regularized(self, parameter: Any, grad: Any) -> Any:
        """``grad`` with the weight decay term added, as PaddlePaddle's
        ``_create_regularization_of_grad`` builds it in both modes: ``add_n([grad, term])``,
        the term from the parameter's own regularizer (its ParamAttr's) if it has one, else
        from the optimizer's ``weight_decay``; ``grad`` itself without either."""
        regularizer = self._regularizer_of(parameter)
        if regularizer is None:
            return grad
        if _kind_of(grad) is not _DENSE:
            raise UnimplementedError(
                f"{type(self).__name__}: weight decay by a regularizer "
                f"({type(regularizer).__name__}) on a {_kind_of(grad).title} gradient (an "
                "Embedding(sparse=True) weight's) is not implemented; use sparse=False for "
                "that parameter, or AdamW's decoupled weight_decay"
            )
        return op_api("add_n")([grad, regularizer(parameter, grad)])

    def _state_of_all(self, params: list[Tensor]) -> None:
        """Make the state (and master weights) of ``params`` that have none yet."""
        for parameter in params:
            self._state_of(parameter)

    def _state_of(self, parameter: Tensor) -> tuple[Tensor, ...]:
        state = self._state.get(id(parameter))
        if state is None:
            state = self._new_state(parameter, {})
        return state

    def _new_state(self, parameter: Tensor, loaded: dict[str, Any]) -> tuple[Tensor, ...]:
        """Make ``parameter``'s accumulators, named as PaddlePaddle names them; with the values
        of ``loaded`` where it has their names (checked against their shapes)."""
        owner = parameter
        if self._multi_precision and parameter.dtype in _HALF:
            # PaddlePaddle's _create_accumulators: the master weight first, then the state of
            # the master (float32, named after it)
            owner = self._masters.get(id(parameter))
            if owner is None:
                master_value = loaded.get(_MASTER_WEIGHTS_KEY, {}).get(parameter.name)
                owner = self._make_master(parameter, master_value)
        tensors = []
        for accumulator in self._accumulators():
            name = unique_name(self._accumulator_key(owner.name, accumulator))
            shape = accumulator.shape_for(parameter.shape)
            dtype = (accumulator.dtype or owner.dtype).numpy_dtype
            value = loaded.get(name)
            if value is None:
                option = self._fill_options.get(accumulator.name)
                fill = (
                    accumulator.fill
                    if option is None
                    else self._option(parameter, option, accumulator.fill)
                )
                array = np.full(shape, fill, dtype)
            else:
                array = _loaded_array(type(self).__name__, name, value, shape, dtype)
            tensor = to_tensor(array, place=parameter.place)
            tensor.name = name
            tensors.append(tensor)
        state = self._state[id(parameter)] = tuple(tensors)
        self._state_parameters.append(parameter)
        return state

    def _accumulator_key(self, parameter_name: str | None, accumulator: Accumulator) -> str:
        """``<parameter name>_<accumulator>`` (with the optimizer's ``name`` before the
        accumulator's, as PaddlePaddle's ``_add_accumulator``): the unique name's key."""
        label = accumulator.name if self._name is None else f"{self._name}_{accumulator.name}"
        return f"{parameter_name or _UNNAMED}_{label}"

    def clear_grad(self, set_to_zero: bool = True) -> None:
        """Reset every gradient, as ``Tensor.clear_grad``: to zeros in place (PaddlePaddle's
        default), or to None; either way the next backward writes the gradient instead of
        adding it to zeros."""
        for parameter in self._parameters:
            clear_grad(parameter, set_to_zero)

    # -- static -----------------------------------------------------------------------------
    def minimize(
        self,
        loss: Any,
        startup_program: Any = None,
        parameters: list[Any] | None = None,
        no_grad_set: set[Any] | None = None,
    ) -> tuple[list[Any], list[tuple[Any, Any]]]:
        """In a static program (``loss`` a Value): append the backward program and the update
        ops, and return (the update ops, the (parameter, gradient) pairs); see
        runtime/optimizer/static_program.py. Eagerly, as PaddlePaddle: ``step()`` with the
        gradients the last ``loss.backward()`` left (it runs no backward itself)."""
        if isinstance(loss, Value):
            from phiops.runtime.optimizer.static_program import minimize
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

    # -- state dict -------------------------------------------------------------------------
    def state_dict(self) -> dict[str, Any]:
        """The state as PaddlePaddle 3.3.1's ``Optimizer.state_dict``: each accumulator's
        tensors by name (all the first accumulator's, then the next's...), and
        ``LR_Scheduler``: the scheduler's state dict when the learning rate is one. Empty
        before the first step. The tensors are the optimizer's own, not copies."""
        state: dict[str, Any] = {}
        for index in range(len(self._accumulators())):
            for parameter in self._state_parameters:
                tensor = self._state[id(parameter)][index]
                state[tensor.name] = tensor
        if self._master_parameters:
            state[_MASTER_WEIGHTS_KEY] = {
                p.name: self._masters[id(p)] for p in self._master_parameters
            }
        if self._scheduler is not None:
            state[_SCHEDULER_KEY] = self._scheduler.state_dict()
        return state

    def set_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Load a ``state_dict()`` (of this optimizer, or as ``phiops.load`` reads a ``.pdopt``
        file): the scheduler's state, and each accumulator's values by its name. The
        accumulators of trainable parameters that have none yet are made now (PaddlePaddle makes
        them at the first step), taking their loaded values. A missing key or a value of
        another shape is an InvalidArgumentError naming the key, and so is a state none of whose
        keys names an accumulator of this optimizer; a parameter none of whose accumulators the
        state has may not take a step (PaddlePaddle's rule): ``step()`` says which key it
        lacks."""
        kind = type(self).__name__
        if not isinstance(state_dict, dict):
            raise InvalidArgumentError(
                f"{kind}.set_state_dict: expected a dict, got {type(state_dict).__name__}"
            )
        loaded = dict(state_dict)
        scheduler_state = loaded.pop(_SCHEDULER_KEY, None)
        if self._scheduler is not None:
            if scheduler_state is None:
                raise InvalidArgumentError(
                    f"{kind}.set_state_dict: the state has no '{_SCHEDULER_KEY}' (this "
                    "optimizer's learning rate is an LRScheduler)"
                )
            self._scheduler.set_state_dict(scheduler_state)
            self._set_rate(self._scheduler())
        masters = loaded.pop(_MASTER_WEIGHTS_KEY, None) or {}
        if not isinstance(masters, dict):
            raise InvalidArgumentError(
                f"{kind}.set_state_dict: '{_MASTER_WEIGHTS_KEY}' must be a dict of master weights "
                f"by parameter name, got {type(masters).__name__}"
            )
        if masters and not self._multi_precision:
            raise InvalidArgumentError(
                f"{kind}.set_state_dict: the state has '{_MASTER_WEIGHTS_KEY}' but this optimizer "
                "keeps none (create it with multi_precision=True)"
            )
        for parameter in self._master_parameters:
            if parameter.name not in masters:
                raise InvalidArgumentError(
                    f"{kind}.set_state_dict: '{_MASTER_WEIGHTS_KEY}' has no master weight of "
                    f"parameter '{parameter.name}'"
                )
            master = self._masters[id(parameter)]
            master.set_value(
                _loaded_array(
                    kind,
                    f"{_MASTER_WEIGHTS_KEY}['{parameter.name}']",
                    masters[parameter.name],
                    master.shape,
                    np.float32,
                )
            )
        accumulators = self._accumulators()
        # parameters given state now -> the first key of theirs that ``loaded`` lacks (None: all)
        made_now: dict[int, str | None] = {}
        for parameter in self._parameters:
            if not isinstance(parameter, Tensor) or parameter.stop_gradient:
                continue
            if id(parameter) in self._state:
                continue
            with_master = self._multi_precision and parameter.dtype in _HALF
            if not accumulators and not (with_master and parameter.name in masters):
                continue
            state = self._new_state(parameter, {**loaded, _MASTER_WEIGHTS_KEY: masters})
            if not accumulators:
                continue
            missing = [t.name for t in state if t.name not in loaded]
            if missing and len(missing) < len(state):
                position = [t.name for t in state].index(missing[0])
                raise InvalidArgumentError(
                    f"{kind}.set_state_dict: the state has no '{missing[0]}' (the "
                    f"{accumulators[position].name} of parameter '{parameter.name}')"
                )
            made_now[id(parameter)] = missing[0] if missing else None
        if loaded and made_now and all(made_now.values()) and len(made_now) == len(self._state):
            expected = next(iter(made_now.values()))
            raise InvalidArgumentError(
                f"{kind}.set_state_dict: none of the state's keys ({', '.join(sorted(loaded)[:3])}"
                f"{', ...' if len(loaded) > 3 else ''}) names an accumulator of this optimizer, "
                f"such as '{expected}' (were its parameters named otherwise when it was saved?)"
            )
        # PaddlePaddle's rule: once a state is loaded, a parameter whose state it lacks may not
        # take a step (its fresh state would not be the saved training's)
        self._unloaded = {key: name for key, name in made_now.items() if name and loaded}
        for parameter in self._state_parameters:
            if id(parameter) in made_now:
                continue
            for accumulator, tensor in zip(accumulators, self._state[id(parameter)]):
                if tensor.name not in loaded:
                    raise InvalidArgumentError(
                        f"{kind}.set_state_dict: the state has no '{tensor.name}' (the "
                        f"{accumulator.name} of parameter '{parameter.name}')"
                    )
                tensor.set_value(
                    _loaded_array(
                        kind,
                        tensor.name,
                        loaded[tensor.name],
                        tensor.shape,
                        tensor.dtype.numpy_dtype,
                    )
                )

    def _check_loaded(self, params: list[Tensor]) -> None:
        for parameter in params:
            missing = self._unloaded.get(id(parameter))
            if missing is not None:
                raise InvalidArgumentError(
                    f"{type(self).__name__}.step: parameter '{parameter.name}' has a gradient, "
                    f"but the state given to set_state_dict has no '{missing}'"
                )


def _loaded_array(kind: str, key: str, value: Any, shape: list[int], dtype: Any) -> np.ndarray:
    """``value`` (a Tensor or an array) as an array of ``dtype``; InvalidArgumentError naming
    ``key`` when it is not one or its shape is not ``shape``."""
    if isinstance(value, Tensor):
        array = value.numpy()
    elif isinstance(value, np.ndarray):
        array = value
    else:
        raise InvalidArgumentError(
            f"{kind}.set_state_dict: '{key}' must be a Tensor or a numpy array, got "
            f"{type(value).__name__}"
        )
    if list(array.shape) != list(shape):
        raise InvalidArgumentError(
            f"{kind}.set_state_dict: '{key}' has shape {list(array.shape)}, the optimizer's "
            f"has shape {list(shape)}"
        )
    return np.array(array, dtype=dtype, copy=True)


def regularization_of(weight_decay: Any, kind: str) -> WeightDecayRegularizer | None:
    """An optimizer's ``weight_decay`` as PaddlePaddle reads it: None, a regularizer (L1Decay,
    L2Decay), or a number, which is L2Decay's coefficient."""
    if weight_decay is None or isinstance(weight_decay, WeightDecayRegularizer):
        return weight_decay
    if isinstance(weight_decay, bool) or not isinstance(weight_decay, (int, float)):
        raise InvalidArgumentError(
            f"{kind}: weight_decay must be a float, an L1Decay, an L2Decay or None, got "
            f"{type(weight_decay).__name__}"
        )
    return L2Decay(float(weight_decay))


def float_or_none(weight_decay: Any, kind: str) -> float | None:
    """A float coefficient (AdamW's decoupled decay) or None."""
    if weight_decay is None:
        return None
    if isinstance(weight_decay, bool) or not isinstance(weight_decay, (int, float)):
        raise UnimplementedError(
            f"{kind}: weight_decay must be a float (its decoupled decay coefficient), got "
            f"{type(weight_decay).__name__}; a Tensor coefficient is not implemented and a "
            "regularizer object is not AdamW's (PaddlePaddle refuses it too)"
        )
    return float(weight_decay)


def keep_masters(optimizer: Optimizer, kind: str, multi_precision: Any) -> None:
    """Set ``optimizer``'s multi_precision (a bool, as PaddlePaddle takes it): with it, each
    float16/bfloat16 parameter gets a float32 master weight at its first step."""
    if not isinstance(multi_precision, bool):
        raise InvalidArgumentError(
            f"{kind}: multi_precision must be a bool, got {type(multi_precision).__name__}"
        )
    if multi_precision and not optimizer._supports_masters:
        raise UnimplementedError(
            f"{kind}: multi_precision master weights are not implemented for this optimizer "
            "(they are for every optimizer but LBFGS)"
        )
    optimizer._multi_precision = multi_precision
