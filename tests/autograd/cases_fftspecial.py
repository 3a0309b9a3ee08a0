"""Gradient-check cases of the fftspecial ops, for CASES in test_gradcheck_ops.py, in float64.

The checks run on real inputs: a complex input is built from (real, imaginary) pairs with
``as_complex`` and a complex output compared as its pairs with ``as_real``, so that the finite
differences see every real degree of freedom (PaddlePaddle's complex gradient is d/d(real) +
i d/d(imag), which the pairs' gradients are).
"""

from __future__ import annotations

import numpy as np

import phiops.generated as phi
from tests.autograd.test_gradcheck_ops import Case, case, uniform

NORMS = ("backward", "ortho", "forward")


def fftspecial_cases() -> list[Case]:
    cases = []
    for seed, norm in enumerate(NORMS, start=1300):
        for forward in (True, False):
            label = f"{norm}-{'forward' if forward else 'inverse'}"
            cases += [
                case(
                    "fft_c2c",
                    f"[3,4]-axes[0,1]-{label}",
                    lambda pairs, norm=norm, forward=forward: phi.as_real(
                        phi.fft_c2c(phi.as_complex(pairs), [0, 1], norm, forward)
                    ),
                    uniform((3, 4, 2), seed),
                ),
                case(
                    "fft_r2c",
                    f"[3,5]-onesided-{label}",
                    lambda x, norm=norm, forward=forward: phi.as_real(
                        phi.fft_r2c(x, [1], norm, forward, True)
                    ),
                    uniform((3, 5), seed + 10),
                ),
                case(
                    "fft_r2c",
                    f"[4,3]-axes[0,1]-twosided-{label}",
                    lambda x, norm=norm, forward=forward: phi.as_real(
                        phi.fft_r2c(x, [0, 1], norm, forward, False)
                    ),
                    uniform((4, 3), seed + 20),
                ),
                case(
                    "fft_c2r",
                    f"[2,4]-even-{label}",
                    lambda pairs, norm=norm, forward=forward: phi.fft_c2r(
                        phi.as_complex(pairs), [1], norm, forward, 0
                    ),
                    uniform((2, 4, 2), seed + 30),
                ),
                case(
                    "fft_c2r",
                    f"[3,4]-axes[0,1]-odd7-{label}",
                    lambda pairs, norm=norm, forward=forward: phi.fft_c2r(
                        phi.as_complex(pairs), [0, 1], norm, forward, 7
                    ),
                    uniform((3, 4, 2), seed + 40),
                ),
            ]
    cases += [
        case("frame", "[2,9]-4-2", lambda x: phi.frame(x, 4, 2, -1), uniform((2, 9), 1400)),
        case("frame", "[10,2]-3-4-axis0", lambda x: phi.frame(x, 3, 4, 0), uniform((10, 2), 1401)),
        case(
            "overlap_add",
            "[2,4,3]-2",
            lambda x: phi.overlap_add(x, 2, -1),
            uniform((2, 4, 3), 1402),
        ),
        case(
            "overlap_add",
            "[5,3,2]-1-axis0",
            lambda x: phi.overlap_add(x, 1, 0),
            uniform((5, 3, 2), 1403),
        ),
    ]
    for normalized in (False, True):
        for onesided in (True, False):
            cases.append(
                case(
                    "stft",
                    f"[2,12]-8-3-{'ortho' if normalized else 'backward'}-"
                    f"{'onesided' if onesided else 'twosided'}",
                    lambda x, normalized=normalized, onesided=onesided: phi.as_real(
                        phi.stft(x, phi.to_tensor(WINDOW), 8, 3, normalized, onesided)
                    ),
                    uniform((2, 12), 1410 + 2 * normalized + onesided),
                )
            )
    for seed, shape in enumerate([(2, 3), ()], start=1420):
        label = str(list(shape)).replace(" ", "")
        positive = uniform(shape, seed, 0.3, 6.0)
        negative = uniform(shape, seed, -2.9, -2.1)  # between the poles -3 and -2
        any_x = uniform(shape, seed, -4.0, 4.0)
        cases += [
            case("lgamma", label, phi.lgamma, positive),
            case("lgamma", f"{label}-negative", phi.lgamma, negative),
            case("gammaln", label, phi.gammaln, positive),
            case("digamma", label, phi.digamma, positive),
            case("digamma", f"{label}-negative", phi.digamma, negative),
            case("polygamma", f"{label}-n1", lambda x: phi.polygamma(x, 1), positive),
            case("polygamma", f"{label}-n3", lambda x: phi.polygamma(x, 3), positive),
            case("i0", label, phi.i0, any_x),
            case("i0e", label, phi.i0e, any_x),
            case("i1", label, phi.i1, any_x),
            case("i1e", label, phi.i1e, any_x),
            case(
                "gammaincc",
                f"{label}-y",
                lambda y, shape=shape, seed=seed: phi.gammaincc(
                    phi.to_tensor(uniform(shape, seed + 50, 0.5, 6.0)), y
                ),
                uniform(shape, seed, 0.2, 8.0),
            ),
        ]
    cases += [
        case("stanh", "[2,3]", phi.stanh, uniform((2, 3), 1430)),
        case("stanh", "[]-scales", lambda x: phi.stanh(x, 0.5, 2.0), uniform((), 1431)),
        case(
            "stanh",
            "complex-[2,3]",
            lambda pairs: phi.as_real(phi.stanh(phi.as_complex(pairs))),
            uniform((2, 3, 2), 1432, -1.0, 1.0),
        ),
        # distinct values: no ties for the maximum
        case("maxout", "[1,6,2,2]-3", lambda x: phi.maxout(x, 3, 1), distinct_values((1, 6, 2, 2))),
        case(
            "maxout",
            "[1,2,2,4]-2-nhwc",
            lambda x: phi.maxout(x, 2, -1),
            distinct_values((1, 2, 2, 4)),
        ),
    ]
    return cases


def distinct_values(shape: tuple[int, ...]) -> np.ndarray:
    size = int(np.prod(shape))
    return (np.random.default_rng(size).permutation(size) * 0.1 - size * 0.05).reshape(shape)


WINDOW = np.hanning(10)[1:9]

FFTSPECIAL_CASES = fftspecial_cases()
