"""The calls whose result dtype depends on the default dtype, shared by the fixture script
(run against PaddlePaddle) and tests/api/test_default_dtype.py (run against phiops)."""

from __future__ import annotations

from typing import Any, Callable

DEFAULTS = ("float32", "float64", "float16")


def dtype_name(value: Any) -> str:
    """``paddle.float64`` / ``DataType.FLOAT64`` -> "float64"."""
    return str(value.dtype).split(".")[-1].lower()


CASES: dict[str, Callable[[Any], Any]] = {
    "to_tensor_float": lambda p: p.to_tensor(1.5),
    "to_tensor_list": lambda p: p.to_tensor([1.0, 2.0]),
    "to_tensor_int_list": lambda p: p.to_tensor([1, 2]),
    "to_tensor_mixed_list": lambda p: p.to_tensor([1, 2.5]),
    "to_tensor_complex": lambda p: p.to_tensor(1 + 2j),
    "to_tensor_complex_list": lambda p: p.to_tensor([1 + 2j, 3.0]),
    "to_tensor_bool": lambda p: p.to_tensor(True),
    "zeros": lambda p: p.zeros([2]),
    "ones": lambda p: p.ones([2]),
    "empty": lambda p: p.empty([2]),
    "full_float": lambda p: p.full([2], 1.5),
    "full_int": lambda p: p.full([2], 1),
    "full_bool": lambda p: p.full([2], True),
    "eye": lambda p: p.eye(2),
    "linspace": lambda p: p.linspace(0, 1, 3),
    "logspace": lambda p: p.logspace(0, 1, 3),
    "arange_int": lambda p: p.arange(3),
    "arange_float": lambda p: p.arange(0.0, 1.0, 0.5),
    "rand": lambda p: p.rand([2]),
    "randn": lambda p: p.randn([2]),
    "uniform": lambda p: p.uniform([2]),
    "normal": lambda p: p.normal(shape=[2]),
    "standard_normal": lambda p: p.standard_normal([2]),
    "zeros_like_int": lambda p: p.zeros_like(p.to_tensor([1, 2])),
    "linear_weight": lambda p: p.nn.Linear(2, 3).weight,
    "linear_bias": lambda p: p.nn.Linear(2, 3).bias,
    "conv2d_weight": lambda p: p.nn.Conv2D(1, 2, 3).weight,
    "embedding_weight": lambda p: p.nn.Embedding(4, 3).weight,
    "layernorm_weight": lambda p: p.nn.LayerNorm(3).weight,
    "batchnorm_mean": lambda p: p.nn.BatchNorm2D(3)._mean,
    "layer_create_parameter": lambda p: p.nn.Layer().create_parameter([2, 3]),
    "prelu_weight": lambda p: p.nn.PReLU().parameters()[0],
    "fft_of_int": lambda p: p.fft.fft(p.to_tensor([1, 2, 3, 4])),
    "rfft_of_int": lambda p: p.fft.rfft(p.to_tensor([1, 2, 3, 4])),
    "ifft_of_int": lambda p: p.fft.ifft(p.to_tensor([1, 2, 3, 4])),
    "fftfreq": lambda p: p.fft.fftfreq(4),
    "rfftfreq": lambda p: p.fft.rfftfreq(4),
}
