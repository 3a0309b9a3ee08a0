"""Training cases of an embedding model with ``sparse=True``, written once against a
``paddle``-like module: tests/tools/make_kinds_selected_rows.py runs them with PaddlePaddle
3.3.1 (side venv) and records the parameters in tests/data/kinds_selected_rows.json;
tests/kinds/test_selected_rows_training.py runs them with phiops and compares.

The model: ``Embedding(VOCAB, WIDTH, sparse=True)``, the mean of the looked-up rows, a
``Linear(WIDTH, 1)``, a squared error. Ids come from the first ``TOUCHED`` rows only, so the
others never get a gradient (lazy and non-lazy updates differ on rows touched earlier but not
in this step, and no update may move a row never touched, except AdamW's decay).
"""

from __future__ import annotations

from typing import Any

import numpy as np

VOCAB, WIDTH, BATCH, LENGTH, TOUCHED, STEPS = 40, 4, 4, 3, 16, 20

# name -> (optimizer class, keyword arguments, grad clip or None, backward passes per step)
CASES: dict[str, tuple[str, dict[str, Any], tuple[str, float] | None, int]] = {
    "sgd": ("SGD", {"learning_rate": 0.1}, None, 1),
    "sgd_accumulate": ("SGD", {"learning_rate": 0.1}, None, 2),
    "momentum": ("Momentum", {"learning_rate": 0.05, "momentum": 0.9}, None, 1),
    "momentum_nesterov": (
        "Momentum",
        {"learning_rate": 0.05, "momentum": 0.9, "use_nesterov": True},
        None,
        1,
    ),
    "adam": ("Adam", {"learning_rate": 0.05}, None, 1),
    "adam_lazy": ("Adam", {"learning_rate": 0.05, "lazy_mode": True}, None, 1),
    "adam_lazy_accumulate": ("Adam", {"learning_rate": 0.05, "lazy_mode": True}, None, 2),
    "adamw": ("AdamW", {"learning_rate": 0.05, "weight_decay": 0.1}, None, 1),
    "adamw_lazy": ("AdamW", {"learning_rate": 0.05, "weight_decay": 0.1, "lazy_mode": True}, None, 1),
    "adagrad": ("Adagrad", {"learning_rate": 0.1}, None, 1),
    "sgd_clip_global_norm": ("SGD", {"learning_rate": 0.5}, ("ClipGradByGlobalNorm", 0.05), 1),
    "sgd_clip_norm": ("SGD", {"learning_rate": 0.5}, ("ClipGradByNorm", 0.02), 1),
    "adam_lazy_clip_global_norm": (
        "Adam",
        {"learning_rate": 0.05, "lazy_mode": True},
        ("ClipGradByGlobalNorm", 0.05),
        1,
    ),
}


def inputs() -> dict[str, np.ndarray]:
    """The initial parameters and the batches (a fixed numpy seed)."""
    rng = np.random.default_rng(28)
    return {
        "embedding": rng.normal(0, 0.5, (VOCAB, WIDTH)).astype(np.float32),
        "weight": rng.normal(0, 0.5, (WIDTH, 1)).astype(np.float32),
        "bias": np.zeros((1,), np.float32),
        "ids": rng.integers(0, TOUCHED, (STEPS, 2, BATCH, LENGTH)).astype(np.int64),
        "targets": rng.normal(0, 1, (STEPS, 2, BATCH, 1)).astype(np.float32),
    }


def train(paddle: Any, name: str, data: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Train case ``name`` for STEPS steps; the final parameters."""
    optimizer_name, options, clip, passes = CASES[name]
    embedding = paddle.nn.Embedding(VOCAB, WIDTH, sparse=SPARSE)
    linear = paddle.nn.Linear(WIDTH, 1)
    embedding.weight.set_value(data["embedding"])
    linear.weight.set_value(data["weight"])
    linear.bias.set_value(data["bias"])
    params = list(embedding.parameters()) + list(linear.parameters())
    grad_clip = None if clip is None else getattr(paddle.nn, clip[0])(clip[1])
    optimizer = getattr(paddle.optimizer, optimizer_name)(
        parameters=params, grad_clip=grad_clip, **options
    )
    for step in range(STEPS):
        for part in range(passes):
            ids = paddle.to_tensor(data["ids"][step, part])
            target = paddle.to_tensor(data["targets"][step, part])
            hidden = embedding(ids).mean(axis=1)
            loss = ((linear(hidden) - target) ** 2).mean()
            loss.backward()
        optimizer.step()
        optimizer.clear_grad()
    return {
        "embedding": np.asarray(embedding.weight.numpy()),
        "weight": np.asarray(linear.weight.numpy()),
        "bias": np.asarray(linear.bias.numpy()),
    }


def sparse_gradients(paddle: Any) -> dict[str, Any]:
    """The SelectedRows gradient of one lookup (repeated ids, a padding_idx among them) and
    after a second backward pass, as ``rows()`` and ``numpy()`` show them."""
    embedding = paddle.nn.Embedding(10, 3, sparse=True, padding_idx=4)
    embedding.weight.set_value(np.arange(30, dtype=np.float32).reshape(10, 3) / 10)
    ids = paddle.to_tensor(np.array([[1, 3, 3], [4, 7, 1]], np.int64))
    scale = paddle.to_tensor(np.arange(18, dtype=np.float32).reshape(2, 3, 3))
    (embedding(ids) * scale).sum().backward()
    grad = embedding.weight.grad
    first = {
        "is_selected_rows": bool(grad.is_selected_rows()),
        "rows": [int(r) for r in grad.rows()],
        "shape": [int(d) for d in grad.shape],
        "value": np.asarray(grad.numpy()).tolist(),
    }
    (embedding(ids[:1]) * scale[:1]).sum().backward()
    grad = embedding.weight.grad
    second = {
        "is_selected_rows": bool(grad.is_selected_rows()),
        "rows": [int(r) for r in grad.rows()],
        "shape": [int(d) for d in grad.shape],
        "value": np.asarray(grad.numpy()).tolist(),
    }
    embedding.weight.clear_grad()
    return {"first": first, "second": second, "after_clear_grad_is_none": embedding.weight.grad is None}


# The cases a static program trains (tests/kinds/test_selected_rows_static.py): one backward
# pass per step, no gradient clipping; AdamW is absent, as PaddlePaddle 3.3.1's PIR dialect has
# no SelectedRows form of adamw_.
STATIC_CASES = ("sgd", "momentum", "momentum_nesterov", "adam", "adam_lazy", "adagrad")


def train_static(paddle: Any, name: str, data: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Case ``name`` trained for STEPS steps in a static program (``minimize``, then an
    Executor run per step on the first batch of each step); the final parameters, read from
    a scope of its own (set there after the startup program ran). The caller has called ``paddle.enable_static()``."""
    optimizer_name, options, clip, passes = CASES[name]
    assert clip is None and passes == 1, name
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        ids = paddle.static.data("ids", [BATCH, LENGTH], "int64")
        target = paddle.static.data("target", [BATCH, 1], "float32")
        embedding = paddle.nn.Embedding(VOCAB, WIDTH, sparse=SPARSE)
        linear = paddle.nn.Linear(WIDTH, 1)
        hidden = embedding(ids).mean(axis=1)
        loss = ((linear(hidden) - target) ** 2).mean()
        getattr(paddle.optimizer, optimizer_name)(**options).minimize(loss)
    executor = paddle.static.Executor(paddle.CPUPlace())
    scope = paddle.static.Scope()
    names = {
        "embedding": embedding.weight.name,
        "weight": linear.weight.name,
        "bias": linear.bias.name,
    }
    with paddle.static.scope_guard(scope):
        executor.run(startup)
        for key, var in names.items():
            scope.find_var(var).get_tensor().set(data[key], paddle.CPUPlace())
        for step in range(STEPS):
            feed = {"ids": data["ids"][step, 0], "target": data["targets"][step, 0]}
            executor.run(main, feed=feed, fetch_list=[loss])
        return {
            key: np.array(scope.find_var(var).get_tensor()) for key, var in names.items()
        }
SPARSE = True
