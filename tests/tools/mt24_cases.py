"""The random-number cases of tests/ops/test_mt24_random.py, run with either module as ``paddle``:
PaddlePaddle 3.3.1 (tests/tools/make_mt24_fixtures.py records them) or phiops. Each seed starts
a sequence of calls drawing from the CPU engine one after another (so the engine state carries
over), plus ops with their own ``seed`` attribute and the parameters layers are initialised with.
"""

from __future__ import annotations

from typing import Any

import numpy as np

SEEDS = (1, 7, 2024)


def cases(paddle: Any) -> dict[str, np.ndarray]:
    F = paddle.nn.functional
    out: dict[str, np.ndarray] = {}
    for seed in SEEDS:
        paddle.seed(seed)
        out[f"{seed}/rand"] = paddle.rand([5]).numpy()
        out[f"{seed}/uniform_f64"] = paddle.uniform([4], "float64", min=-2.5, max=3.1).numpy()
        out[f"{seed}/randn"] = paddle.randn([7]).numpy()  # odd: the saved normal is dropped
        out[f"{seed}/normal"] = paddle.normal(1.5, 2.0, [5]).numpy()
        out[f"{seed}/randn_f64"] = paddle.randn([5], dtype="float64").numpy()
        out[f"{seed}/standard_normal"] = paddle.standard_normal([2, 3]).numpy()
        out[f"{seed}/randint"] = paddle.randint(-5, 17, [9]).numpy()
        out[f"{seed}/randint_i64"] = paddle.randint(-(2**31), 2**31 - 1, [6], "int64").numpy()
        probabilities = paddle.to_tensor(np.linspace(0, 1, 7).astype("float32"))
        out[f"{seed}/bernoulli"] = paddle.bernoulli(probabilities).numpy()
        out[f"{seed}/dropout"] = F.dropout(paddle.ones([9]), 0.3).numpy()
        out[f"{seed}/dropout_f64"] = F.dropout(paddle.ones([9], dtype="float64"), 0.5).numpy()
        linear = paddle.nn.Linear(4, 3)
        out[f"{seed}/linear_weight"] = linear.weight.numpy()
        conv = paddle.nn.Conv2D(2, 3, 3)
        out[f"{seed}/conv_weight"] = conv.weight.numpy()
        out[f"{seed}/conv_bias"] = conv.bias.numpy()
        normal = paddle.nn.initializer.Normal(0.5, 2.0)
        attr = paddle.ParamAttr(initializer=normal)
        out[f"{seed}/normal_init"] = paddle.nn.Linear(3, 2, weight_attr=attr).weight.numpy()
        out[f"{seed}/seed_attribute"] = paddle.uniform([3], min=0, max=1, seed=seed * 3).numpy()
        out[f"{seed}/after"] = paddle.rand([3]).numpy()
    return out
