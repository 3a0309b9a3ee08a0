"""adamw_'s ``lr_ratio`` and ``coeff`` are ``float`` attributes in PaddlePaddle 3.3.1's spec:
PHI's kernel holds them as C++ floats, so a float64 step decays by their float32 roundings
(with coeff=0.01 the difference from the double is about 1e-12 relative, which PaddlePaddle's
results show). The reference is numpy, one AdamW step written out."""

from __future__ import annotations

import numpy as np

import phiops._C_ops as C
import phiops.generated as phi


def test_a_float64_adamw_step_decays_by_the_float32_coeff_and_lr_ratio() -> None:
    rng = np.random.default_rng(3)
    param = rng.normal(size=(4, 3))
    grad = rng.normal(size=(4, 3))
    lr, coeff, lr_ratio, b1, b2, eps = 0.1, 0.01, 0.3, 0.9, 0.999, 1e-8
    t = phi.to_tensor
    out = C.adamw_(
        t(param.copy()),
        t(grad),
        t(np.float64([lr])),
        t(np.zeros((4, 3))),
        t(np.zeros((4, 3))),
        None,
        t(np.float64([b1])),
        t(np.float64([b2])),
        None,
        None,
        b1,
        b2,
        eps,
        lr_ratio,
        coeff,
        True,
        False,
        1000,
        False,
        False,
        False,
    )
    decay = np.float64(lr) * np.float64(np.float32(lr_ratio)) * np.float64(np.float32(coeff))
    decayed = param - param * decay
    m1 = (1 - b1) * grad
    m2 = (1 - b2) * grad * grad
    lr_t = lr * np.sqrt(1 - b2) / (1 - b1)
    want = decayed - lr_t * (m1 / (np.sqrt(m2) + eps * np.sqrt(1 - b2)))
    np.testing.assert_allclose(out[0].numpy(), want, rtol=1e-15, atol=0)
    # the double coeff would differ by more than that tolerance
    double = param - param * (lr * lr_ratio * coeff)
    assert np.abs(double - decayed).max() > 1e-15 * np.abs(decayed).max()
