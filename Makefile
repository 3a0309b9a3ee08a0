# The two commands a newcomer needs: `make demo` and `make test`. Both create .venv on first use,
# from requirements.lock (exact versions with hashes), and install phiops into it without build
# isolation, so that the build backend and the generator's own packages come from the lock too.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
LOCK := requirements.lock
# test-latest: a venv of the newest versions that pyproject.toml's ranges allow
LATEST := .venv-latest
# lock: the tool that writes requirements.lock, pinned, in a venv of its own
UV_VERSION := 0.13.9
LOCK_TOOLS := .venv-lock

.PHONY: demo test test-latest lock wheel generate check bench zoo clean

# the custom device package that tests/extending/ trains on (docs/extending.md)
JAX_DEVICE := examples/jax_device

$(STAMP): $(LOCK) pyproject.toml setup.py $(JAX_DEVICE)/pyproject.toml $(wildcard $(JAX_DEVICE)/*/*.py)
	rm -rf $(VENV)
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check --require-hashes --no-deps -r $(LOCK)
	$(PY) -m pip install --quiet --no-deps --no-build-isolation -e .
	$(PY) -m pip install --quiet --no-deps --no-build-isolation ./$(JAX_DEVICE)
	$(PY) -m pip check
	touch $(STAMP)

demo: $(STAMP)
	$(PY) -m phiops codegen
	$(PY) examples/quickstart.py
	$(PY) examples/train_mlp.py
	$(PY) examples/train_cnn.py

# The example op package (examples/custom_op, docs/extending.md) is built and installed into
# the venv (its build runs `phiops codegen --package`), so that pytest runs its tests too.
EXAMPLE_OP_PACKAGE := examples/custom_op
# The suite runs in one worker process per core (pytest-xdist), at most four: on a 2-core machine
# that halves its time. worksteal: a worker that runs out of tests takes pending ones from the
# other, so a few long tests near the end do not leave one core idle. `make test PYTEST_PARALLEL=`
# runs it in one process.
PYTEST_PARALLEL ?= -n auto --maxprocesses 4 --dist worksteal
# compileall: the bytecode of phiops's modules is written once before the suite, so that the many
# tests that start a Python process (the CLI, the launcher, a fresh import) load it instead of
# compiling generated/'s large modules each time (1.3 s of each start), also where
# PYTHONDONTWRITEBYTECODE is set (the development machine sets it).

test: $(STAMP)
	$(PY) -m phiops codegen --check
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation ./$(EXAMPLE_OP_PACKAGE)
	$(PY) -m phiops codegen --package $(EXAMPLE_OP_PACKAGE)/phiops_custom_op_example --check
	$(PY) -m compileall -q -j 0 phiops runtime generated codegen
	$(PY) -m pytest -q $(PYTEST_PARALLEL)

# Not part of CI: the suite on the newest releases that pyproject.toml allows, to meet the next
# upstream change before users do. The venv is made anew each time.
test-latest:
	rm -rf $(LATEST)
	$(PYTHON) -m venv $(LATEST)
	$(LATEST)/bin/python -m pip install --quiet --upgrade pip "setuptools>=77"
	$(LATEST)/bin/python -m pip install --quiet --upgrade --upgrade-strategy eager -e '.[dev,examples]'
	$(LATEST)/bin/python -m pip list --format=freeze
	$(LATEST)/bin/python -m phiops codegen --check
	$(LATEST)/bin/python -m pytest -q $(PYTEST_PARALLEL)

# Rewrite requirements.lock from pyproject.toml's ranges (extras dev, examples and distributed,
# group build), for every platform and every Python that requires-python allows.
lock:
	test -x $(LOCK_TOOLS)/bin/uv || ($(PYTHON) -m venv $(LOCK_TOOLS) && \
		$(LOCK_TOOLS)/bin/python -m pip install --quiet uv==$(UV_VERSION))
	$(LOCK_TOOLS)/bin/uv pip compile pyproject.toml --extra dev --extra examples \
		--extra distributed --group build \
		--universal --python-version 3.10 --generate-hashes --quiet \
		--custom-compile-command "make lock" --output-file $(LOCK)

# The wheel, built from the locked venv (no build isolation: the build's packages are the lock's).
wheel: $(STAMP)
	$(PY) -m pip wheel --no-deps --no-build-isolation --quiet --wheel-dir dist .

# generated/ from the specs, then docs/coming_from_paddle.md from the code (both are checked by
# the tests)
generate: $(STAMP)
	$(PY) -m phiops codegen
	$(PY) -m tests.tools.coming_from_paddle

bench: $(STAMP)
	$(PY) bench/dispatch.py
	$(PY) bench/train_step.py
	$(PY) bench/ops.py
	$(PY) bench/static.py

# The model zoo's big models (tests/tools/make_zoo.py, docs/zoo.md): exported by PaddlePaddle
# 3.3.1 from a side venv (PADDLE_VENV) into the cache that tests/models/test_zoo.py reads
# (PHIOPS_ZOO_DIR, else ~/.cache/phiops/zoo); never committed. The small ones are in tests/data/zoo/.
PADDLE_VENV ?= /work/paddle-venv
PHIOPS_ZOO_DIR ?= $(HOME)/.cache/phiops/zoo

zoo:
	@test -x $(PADDLE_VENV)/bin/python && $(PADDLE_VENV)/bin/python -c "import paddle" 2>/dev/null || { \
		echo "make zoo needs PaddlePaddle 3.3.1 in the side venv PADDLE_VENV=$(PADDLE_VENV); make it with:"; \
		echo "  python3 -m venv $(PADDLE_VENV) && $(PADDLE_VENV)/bin/pip install paddlepaddle==3.3.1"; \
		echo "(or: make zoo PADDLE_VENV=/path/to/a/venv/with/paddlepaddle)"; exit 1; }
	PHIOPS_ZOO_DIR=$(PHIOPS_ZOO_DIR) $(PADDLE_VENV)/bin/python tests/tools/make_zoo.py --big

clean:
	rm -rf $(VENV) $(LATEST) $(LOCK_TOOLS) build dist *.egg-info
