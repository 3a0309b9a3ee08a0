"""xp-generic kernels: one implementation registered for CPU (numpy) and GPU (CuPy)."""
