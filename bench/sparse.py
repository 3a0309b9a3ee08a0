"""A training step of an embedding with a SelectedRows gradient (``Embedding(sparse=True)``)
next to the same step with a dense gradient: time and peak memory, at two vocabulary sizes.

The table is VOCAB x 64 float32; a batch of 1,000 distinct ids (each looked up twice) touches
1,000 rows. A step is the lookup, ``sum`` of the rows times a fixed weight, backward, the
optimizer step and ``clear_grad``. The dense gradient is a VOCAB x 64 array each step and SGD
updates every row; the SelectedRows gradient holds the 2,000 looked-up rows, and SGD (as lazy
Adam) updates only the touched ones, so the sparse step's time and memory do not grow with the
vocabulary. Peak memory is the largest amount tracemalloc saw allocated during one step
(numpy reports its array allocations to it), beyond what was allocated before the step.

Each time is the median of REPEATS steps after a warm-up step.

Second part (issue 28 part 2): ``phiops.sparse.matmul`` of an N x N sparse matrix at 1% density
(COO and CSR) with a dense N x 64 one, next to scipy.sparse's CSR product and numpy's dense
product; skipped without scipy. Not a test:

    PYTHONPATH=$PWD python bench/sparse.py [--vocab 100000 1000000] [--matmul-size 4000]
"""

from __future__ import annotations

import argparse
import statistics
import time
import tracemalloc
from typing import Any

import numpy as np

import phiops as phi

WIDTH, TOUCHED, REPEATS = 64, 1_000, 5


def make_step(vocab: int, sparse: bool, optimizer: str) -> Any:
    embedding = phi.nn.Embedding(vocab, WIDTH, sparse=sparse)
    rng = np.random.default_rng(0)
    ids = rng.choice(vocab, TOUCHED, replace=False).astype(np.int64)
    batch = phi.to_tensor(np.concatenate([ids, ids[::-1]]).reshape(-1, 2))
    weight = phi.to_tensor(rng.normal(size=(1, 1, WIDTH)).astype(np.float32))
    if optimizer == "sgd":
        opt = phi.optimizer.SGD(0.1, parameters=embedding.parameters())
    else:
        opt = phi.optimizer.Adam(0.01, parameters=embedding.parameters(), lazy_mode=True)

    def step() -> None:
        (embedding(batch) * weight).sum().backward()
        opt.step()
        opt.clear_grad()

    return step


def measure(vocab: int, sparse: bool, optimizer: str) -> tuple[float, float]:
    """(median seconds per step, peak MiB allocated during one step)."""
    step = make_step(vocab, sparse, optimizer)
    step()  # warm-up: plans, optimizer state
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        step()
        times.append(time.perf_counter() - start)
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    step()
    peak = tracemalloc.get_traced_memory()[1] - base
    tracemalloc.stop()
    return statistics.median(times), peak / 2**20


def _median_seconds(run: Any) -> float:
    run()
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def matmul_table(size: int, density: float = 0.01) -> None:
    """phiops.sparse.matmul (COO, CSR) @ dense against scipy.sparse and numpy, forward only."""
    try:
        import scipy.sparse as scipy_sparse
    except ImportError:
        print("sparse matmul: skipped (scipy is not installed)")
        return
    rng = np.random.default_rng(0)
    matrix = scipy_sparse.random(
        size, size, density=density, format="csr", random_state=0, dtype=np.float32
    )
    other = rng.normal(size=(size, WIDTH)).astype(np.float32)
    dense_matrix = matrix.toarray()
    coo = phi.to_tensor(dense_matrix).to_sparse_coo(2)
    csr = coo.to_sparse_csr()
    operand = phi.to_tensor(other)
    expected = matrix @ other
    for tensor in (coo, csr):
        np.testing.assert_allclose(
            phi.sparse.matmul(tensor, operand).numpy(), expected, rtol=1e-4, atol=1e-4
        )
    rows = [
        ("phiops COO", lambda: phi.sparse.matmul(coo, operand)),
        ("phiops CSR", lambda: phi.sparse.matmul(csr, operand)),
        ("scipy CSR", lambda: matrix @ other),
        ("numpy dense", lambda: dense_matrix @ other),
    ]
    print(
        f"\nsparse matmul: {size} x {size} at {density:.0%} ({matrix.nnz} entries) @ {size} x {WIDTH} float32; median of {REPEATS}"
    )
    print(f"{'':<12} {'ms':>9}")
    for label, run in rows:
        print(f"{label:<12} {_median_seconds(run) * 1e3:>9.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vocab", type=int, nargs="+", default=[100_000, 1_000_000])
    parser.add_argument("--matmul-size", type=int, default=4000)
    options = parser.parse_args()
    print(
        f"embedding VOCAB x {WIDTH} float32, a batch touching {TOUCHED} rows; median of {REPEATS}"
    )
    print(f"{'vocab':>9}  {'gradient':<13} {'optimizer':<10} {'ms/step':>9} {'peak MiB':>9}")
    for vocab in options.vocab:
        for sparse, optimizer in ((False, "sgd"), (True, "sgd"), (True, "adam lazy")):
            seconds, peak = measure(vocab, sparse, optimizer)
            kind = "SelectedRows" if sparse else "dense"
            print(f"{vocab:>9}  {kind:<13} {optimizer:<10} {seconds * 1e3:>9.2f} {peak:>9.2f}")
    matmul_table(options.matmul_size)


if __name__ == "__main__":
    main()
