"""Inputs that drive libstdc++'s std::nth_element into its depth-limit fallback."""

from __future__ import annotations

import numpy as np

from phiops.runtime.kernels.impl.nth_element import nth_element


def introselect_adversary(size: int, k: int) -> np.ndarray:
    """Values on which std::nth_element(begin, begin + k - 1, end, greater) runs out of
    partitioning depth and falls back to its heap selection (McIlroy's adversary: a value is
    fixed only when a comparison needs it)."""
    fixed: list[int | None] = [None] * size
    count, candidate = 0, None

    def greater(left: list[int], right: list[int]) -> bool:
        nonlocal count, candidate
        if fixed[left[0]] is None and fixed[right[0]] is None:
            frozen = left if left is candidate else right
            fixed[frozen[0]], count = count, count + 1
        if fixed[left[0]] is None:
            candidate = left
        elif fixed[right[0]] is None:
            candidate = right
        value = [size if fixed[i[0]] is None else fixed[i[0]] for i in (left, right)]
        return value[0] > value[1]

    nth_element([[i] for i in range(size)], k - 1, greater)
    return np.array([size if v is None else v for v in fixed], dtype="float64")
