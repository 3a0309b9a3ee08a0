# The two commands a newcomer needs: `make demo` and `make test`. Both create .venv on first use.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test generate check bench clean

$(STAMP): pyproject.toml setup.py
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip "setuptools>=77"
	$(PY) -m pip install --quiet -e '.[dev,examples]'
	touch $(STAMP)

demo: $(STAMP)
	$(PY) -m codegen
	$(PY) examples/quickstart.py
	$(PY) examples/train_mlp.py
	$(PY) examples/train_cnn.py

test: $(STAMP)
	$(PY) -m codegen --check
	$(PY) -m pytest -q

generate: $(STAMP)
	$(PY) -m codegen

bench: $(STAMP)
	$(PY) bench/dispatch.py
	$(PY) bench/train_step.py
	$(PY) bench/ops.py
	$(PY) bench/static.py

clean:
	rm -rf $(VENV) build *.egg-info
