"""Static training programs of the optimizers of issues 24 and 25 that
tests/tools/make_optimizer2_static_fixtures.py builds with PaddlePaddle 3.3.1 and
tests/optimizer/test_optimizers2_static.py with phiops: tests/static/static_training_cases.py's
MLP minimized by each optimizer (``lib`` as there, plus ``optimizer``: the optimizer module)."""

from __future__ import annotations

from typing import Any, Callable

from tests.static.static_training_cases import mlp

STEPS = 3


def _minimize(make: Callable[[Any], Any]) -> Callable[[Any], list[Any]]:
    def build(lib: Any) -> list[Any]:
        _, loss, _ = mlp(lib)
        make(lib.optimizer).minimize(loss)
        return [loss]

    return build


CASES: dict[str, Callable[[Any], list[Any]]] = {
    "adagrad_minimize": _minimize(lambda o: o.Adagrad(0.1, weight_decay=0.01)),
    "rmsprop_minimize": _minimize(lambda o: o.RMSProp(0.01, momentum=0.5, centered=True)),
    "adamax_minimize": _minimize(lambda o: o.Adamax(0.01, beta1=0.8)),
    "adadelta_minimize": _minimize(lambda o: o.Adadelta(1.0, rho=0.9)),
    "lamb_minimize": _minimize(lambda o: o.Lamb(0.01, lamb_weight_decay=0.02)),
    "nadam_minimize": _minimize(lambda o: o.NAdam(0.01)),
    "radam_minimize": _minimize(lambda o: o.RAdam(0.01, weight_decay=0.01)),
    "adam_amsgrad_minimize": _minimize(lambda o: o.Adam(0.01, amsgrad=True)),
    "adamw_amsgrad_minimize": _minimize(lambda o: o.AdamW(0.01, amsgrad=True)),
}
