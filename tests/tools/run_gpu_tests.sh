#!/usr/bin/env bash
# The GPU tests (tests/gpu, marked `gpu`) on a machine with an NVIDIA GPU and CuPy, from a bare
# checkout (no install needed: phiops/__init__.py finds runtime/ and generated/ beside itself).
# They are tests/gpu/test_gpu_kernels.py and tests/gpu/test_every_op_gpu.py (every registered op,
# forward and backward, on the GPU against the CPU: one test per op, failures name op and dtype).
#   bash tests/tools/run_gpu_tests.sh            # PYTHON=... to choose the interpreter
#   bash tests/tools/run_gpu_tests.sh -k "test_every_op_gpu and matmul"   # one op
set -u
cd "$(dirname "$0")/../.."
PY=${PYTHON:-python3}
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || echo "no nvidia-smi"
"$PY" -c "import sys; print('python', sys.version.split()[0])"
missing=""
for module in numpy cupy ml_dtypes threadpoolctl google.protobuf pytest; do
    "$PY" -c "import $module" 2>/dev/null || missing="$missing $module"
done
"$PY" -c "import numpy, cupy; print('numpy', numpy.__version__, 'cupy', cupy.__version__)" 2>/dev/null
if [ -n "$missing" ]; then
    echo "missing:$missing"
    exit 3
fi
PYTHONPATH=$PWD exec "$PY" -m pytest -q -p no:cacheprovider -rs tests/gpu "$@"
