"""A tour of the generated API: a dozen ops on small tensors, and what they return.

Run with `make demo` (which regenerates generated/ first) or `.venv/bin/python examples/quickstart.py`.
"""

from __future__ import annotations

import numpy as np

import phiops as phi


def show(title: str, value: object) -> None:
    print(f"--- {title}")
    print(value)


def main() -> None:
    x = phi.to_tensor([[1.0, -2.0, 3.0], [-4.0, 5.0, -6.0]])
    y = phi.to_tensor([10.0, 20.0, 30.0])

    show("x", x)
    show("add(x, y): y broadcasts over the rows", phi.add(x, y))
    show("x * 2 - 1: Python operators call the generated ops", x * 2 - 1)
    show("matmul(x, x, transpose_y=True)", phi.matmul(x, x, transpose_y=True))
    show("relu(x)", phi.relu(x))
    show("softmax(x, axis=-1)", phi.softmax(x, -1))
    show("sum(x): every axis, a 0-D tensor", phi.sum(x))
    show("mean(x, axis=[1], keepdim=True)", phi.mean(x, [1], True))
    show(
        "sum of int32 gives int64, as in PaddlePaddle",
        phi.sum(phi.to_tensor(np.arange(4, dtype=np.int32))).dtype,
    )
    show("argmax(x, axis=1)", phi.argmax(x, 1))
    show("greater_than(x, 0): comparisons give bool", phi.greater_than(x, phi.zeros([], "float32")))
    show("reshape(x, [3, -1])", phi.reshape(x, [3, -1]))
    show("concat([x, x], axis=0).shape", phi.concat([x, x], 0).shape)
    show("split(x, [1, 2], axis=1)", [part.shape for part in phi.split(x, [1, 2], 1)])
    show("ones([2, 2], 'int64')", phi.ones([2, 2], "int64"))
    show("cast(x, 'int32')", phi.cast(x, "int32"))
    show("clip(x, -1.0, 1.0)", phi.clip(x, -1.0, 1.0))
    show("where(x > 0, x, zeros_like(x))", phi.where(x > 0, x, phi.zeros_like(x)))
    try:
        phi.add(x, phi.ones([4, 3]))
    except phi.InvalidArgumentError as error:
        show("add with incompatible shapes raises InvalidArgumentError", error)


if __name__ == "__main__":
    main()
