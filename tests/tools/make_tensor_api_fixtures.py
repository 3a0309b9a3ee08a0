"""Write tests/data/paddle_api/tensor_api.npz: PaddlePaddle 3.3.1's results for the cases of
tests/api/tensor_api_cases.py (its composed ``paddle.*`` tensor functions: ``std``, ``var``,
``chunk``, ``hstack``, ``moveaxis``, ...), for tests/api/test_tensor_api.py (no paddle).

Keys per case id: ``<id>/n`` (the number of outputs; -1 when 3.3.1 raises), ``<id>/<i>`` (each
output as an array, a bool or a list of ints), ``<id>/grad`` (d(sum of outputs)/d(first tensor)
when the case asks), ``<id>/method`` (the Tensor method's first output, when asked).

Run from the repository root:
``PYTHONPATH=$PWD /work/paddle-venv/bin/python tests/tools/make_tensor_api_fixtures.py``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import paddle

from tests.api.tensor_api_cases import SEED, cases, convert, outputs

OUT = Path(__file__).resolve().parents[1] / "data" / "paddle_api" / "tensor_api.npz"


def main() -> None:
    out: dict[str, np.ndarray] = {}
    for case_id, name, args, kwargs, options in cases():
        paddle.seed(SEED)
        tensors: list = []
        call_args = [convert(paddle, a, tensors) for a in args]
        call_kwargs = {k: convert(paddle, v, tensors) for k, v in kwargs.items()}
        try:
            result = getattr(paddle, name)(*call_args, **call_kwargs)
        except Exception as error:  # noqa: BLE001  (recorded: phiops must raise too)
            assert options.get("error"), (case_id, error)
            out[f"{case_id}/n"] = np.array(-1)
            continue
        assert not options.get("error"), case_id
        if options.get("attrs"):
            for attr in options["attrs"]:
                value = getattr(result, attr)
                out[f"{case_id}/{attr}"] = np.array(str(value) if attr == "dtype" else value)
            out[f"{case_id}/n"] = np.array(0)
            continue
        results = outputs(result)
        out[f"{case_id}/n"] = np.array(len(results))
        for i, value in enumerate(results):
            out[f"{case_id}/{i}"] = (
                value.numpy() if isinstance(value, paddle.Tensor) else np.array(value)
            )
        if options.get("grad"):
            total = paddle.add_n([paddle.sum(v) for v in results])
            (grad,) = paddle.grad(total, tensors[0])
            out[f"{case_id}/grad"] = grad.numpy()
        if options.get("method") and not hasattr(call_args[0], name):
            print(f"{case_id}: PaddlePaddle's Tensor has no method {name}")
        elif options.get("method"):
            first = getattr(call_args[0], name)(*call_args[1:], **call_kwargs)
            out[f"{case_id}/method"] = outputs(first)[0].numpy()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    np.savez(OUT, **out)
    print(f"wrote {OUT} ({len(out)} arrays)")


if __name__ == "__main__":
    main()
