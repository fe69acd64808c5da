# The two commands of the quick start: `make demo` and `make test`.
# Both create the virtual environment at .venv in this checkout on first use.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test lint bench clean

# Installed editable: code changed in the checkout runs without installing again. The build's
# notice about folders named like the packages (they are the packages) is left out.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	PYTHONWARNINGS=ignore::UserWarning $(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(PY) -m companion demo --autoplay

test: $(STAMP)
	$(PY) -m pytest

lint: $(STAMP)
	$(PY) -m ruff check .

bench: $(STAMP)
	$(PY) benchmarks/engine_bench.py

clean:
	rm -rf $(VENV)
