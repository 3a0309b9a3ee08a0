"""Static graphs: saved inference models (io.py)."""

from runtime.static.io import load_inference_model, normalize_program, save_inference_model

__all__ = ["save_inference_model", "load_inference_model", "normalize_program"]
