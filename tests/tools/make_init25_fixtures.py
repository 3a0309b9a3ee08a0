"""Write tests/data/init25/initializers.npz: PaddlePaddle 3.3.1's parameters from the
initializers TruncatedNormal, Orthogonal, Dirac, Bilinear and Assign, ``calculate_gain``, and
``set_global_initializer``, for tests/nn/test_init25_initializers.py (no paddle).

Each eager case seeds with ``paddle.seed(SEED)`` and makes one layer; its key holds the weight
(tests/nn/init25_cases.py). ``static_tn`` / ``static_orth``: the weights a static program's
startup makes after ``paddle.seed(SEED)``. ``gain_<name>``: ``calculate_gain(name)``;
``gain_leaky_relu_0.2``: with param 0.2. ``global_w`` / ``global_b``: a Linear(2, 3) under
``set_global_initializer(Constant(0.5), Constant(0.25))``; ``global_attr_w``: one whose
weight_attr is Constant(2.0) under the same.

Run from the repository root: ``PYTHONPATH=$PWD /work/paddle-venv/bin/python tests/tools/make_init25_fixtures.py``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import paddle

from tests.nn.init25_cases import SEED, cases

OUT = Path(__file__).resolve().parents[1] / "data" / "init25" / "initializers.npz"
I = paddle.nn.initializer
nn = paddle.nn

GAINS = (
    "sigmoid linear conv1d conv2d conv3d conv1d_transpose conv_transpose1d conv2d_transpose "
    "conv_transpose2d conv3d_transpose conv_transpose3d tanh relu leaky_relu selu"
).split()


def main() -> None:
    out: dict[str, np.ndarray] = {}
    for key, make in cases(paddle).items():
        paddle.seed(SEED)
        out[key] = make().weight.numpy()
    for name in GAINS:
        out[f"gain_{name}"] = np.array(I.calculate_gain(name))
    out["gain_leaky_relu_0.2"] = np.array(I.calculate_gain("leaky_relu", 0.2))
    I.set_global_initializer(I.Constant(0.5), I.Constant(0.25))
    layer = nn.Linear(2, 3)
    out["global_w"], out["global_b"] = layer.weight.numpy(), layer.bias.numpy()
    out["global_attr_w"] = nn.Linear(2, 3, weight_attr=I.Constant(2.0)).weight.numpy()
    I.set_global_initializer(None)
    paddle.enable_static()
    for key, init in (("static_tn", I.TruncatedNormal(std=0.3)), ("static_orth", I.Orthogonal())):
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            weight = paddle.static.create_parameter([4, 5], "float32", default_initializer=init)
        paddle.seed(SEED)
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        (out[key],) = exe.run(main, fetch_list=[weight])
    OUT.parent.mkdir(parents=True, exist_ok=True)
    np.savez(OUT, **out)
    print(f"wrote {OUT} ({len(out)} arrays)")


if __name__ == "__main__":
    main()
