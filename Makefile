# The two commands of the quickstart: `make demo` and `make test`.
# Both create .venv when it is missing and need only Python >= 3.11 and make.

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin

.PHONY: demo test lint typecheck unit bench clean

# Tests start hundreds of mindgames processes: each pays for compiling the sources it imports
# unless Python may write its bytecode cache, so a PYTHONDONTWRITEBYTECODE from outside is dropped.
unexport PYTHONDONTWRITEBYTECODE

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[plot]'
	touch $@

# the dev install adds the OpenSpiel bridge (examples/openspiel-plugin), whose tests run too
$(VENV)/.installed-dev: pyproject.toml examples/openspiel-plugin/pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev,dask]' -e examples/openspiel-plugin
	touch $@ $(VENV)/.installed

demo: $(VENV)/.installed
	$(BIN)/python examples/demo/demo.py $(BIN)

test: $(VENV)/.installed-dev lint typecheck unit

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check .

# mypy checks the four folders as the one package they install as. The editable install's import
# hook is invisible to type checkers, so mypy reads a tree of links made fresh each run
# (build/typecheck/mindgames -> core/*, plus games, evaluators and plugins), which also sees
# modules added since the install. The OpenSpiel bridge (examples/openspiel-plugin) is checked too.
typecheck: $(VENV)/.installed-dev
	rm -rf build/typecheck && mkdir -p build/typecheck/mindgames
	ln -s $(CURDIR)/core/* build/typecheck/mindgames/
	ln -s $(CURDIR)/games $(CURDIR)/evaluators $(CURDIR)/plugins build/typecheck/mindgames/
	MYPYPATH=build/typecheck:examples/openspiel-plugin $(BIN)/mypy -p mindgames -p mindgames_openspiel

# two worker processes, a test file on one worker (a file's tests share its fixtures and order)
unit: $(VENV)/.installed-dev
	MINDGAMES_STRICT_PLUGINS=1 $(BIN)/python -m pytest -n 2 --dist loadfile

bench: $(VENV)/.installed-dev
	for b in benchmarks/bench_*.py; do $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) runs build *.egg-info
