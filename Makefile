# The two commands of the quickstart: `make run` and `make test`.
# Both create .venv on first use and install the package and its dependencies into it.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
NODE_STAMP := node_modules/.installed

.PHONY: run test lint typecheck jscheck unit bench clean services pyodide native kernels \
	code-checks prepare

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,research]'
	touch $(STAMP)

# The web app on http://127.0.0.1:8000 with its SQLite file under var/ (terminal play: stichwerk play).
run: $(STAMP) pyodide
	$(BIN)/python -m stichwerk.native build --optional
	$(BIN)/python -m stichwerk.bots.warm
	$(BIN)/python -m stichwerk.server

# Pyodide for the score sheet's offline scoring: fetched once from the npm registry (pinned,
# sha512 checked) into the gitignored static/vendor/ folder; nothing to do when it is there.
pyodide: $(STAMP)
	$(BIN)/python -m stichwerk.web.pyodide

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks conftest.py
	$(BIN)/ruff format --check src tests benchmarks conftest.py

typecheck: $(STAMP)
	$(BIN)/mypy

# The browser code's JSDoc types, checked by TypeScript's tsc (strict; see tsconfig.json).
$(NODE_STAMP): package.json package-lock.json
	command -v npm >/dev/null || bash tools/test-services.sh
	npm ci --silent --no-audit --no-fund
	touch $(NODE_STAMP)

jscheck: $(NODE_STAMP)
	node_modules/.bin/tsc -p tsconfig.json

# The Cego engine compiled with mypyc into src/stichwerk/native/build/ (gitignored), rebuilt
# when its sources change (about half a minute); the tests run on it (see stichwerk.native).
native: $(STAMP)
	$(BIN)/python -m stichwerk.native build

# The bots' numba kernels compiled into their __pycache__ (about a minute once, then a second or
# two), so no first search decision, at a table or in a test, waits on the compiler.
kernels: $(STAMP)
	$(BIN)/python -m stichwerk.bots.warm

# The tests on every core (pytest-xdist): one worker per core, each with its own browser, server
# and PostgreSQL schema.
PYTEST := $(BIN)/pytest -n auto
unit: $(STAMP) pyodide native kernels
	$(PYTEST)

# Debian's chromium (for Playwright) and a running PostgreSQL, for the web app's tests.
services:
	bash tools/test-services.sh

# On two cores, in three steps: the Python packages beside the Debian ones; then two lines side
# by side (ruff, mypy and the mypyc build; tsc, the numba kernels and Pyodide); then the tests.
test:
	$(MAKE) -j2 --output-sync=target $(STAMP) services
	$(MAKE) -j2 --output-sync=recurse code-checks prepare
	$(PYTEST)

code-checks:
	$(MAKE) -j1 lint typecheck native

prepare:
	$(MAKE) -j1 jscheck kernels pyodide

clean:
	rm -rf $(VENV) node_modules src/stichwerk/native/build .mypy_cache .pytest_cache .ruff_cache .hypothesis
