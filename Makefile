# The two commands of the quickstart: `make run` and `make test`.
# Both create .venv on first use: `make run` installs the package alone (what playing, score
# sheets and tournaments need, the bots' kernels included), `make test` adds the dev and research
# extras.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
BASE_STAMP := $(VENV)/.installed-base
STAMP  := $(VENV)/.installed
NODE_STAMP := node_modules/.installed

.PHONY: run test lint typecheck jscheck unit bench clean services pyodide pyodide-base native \
	kernels code-checks prepare

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,research]'
	touch $(STAMP) $(BASE_STAMP)

# --no-compile: Python compiles what it imports on first use, not pip every module of every
# package (numba's and numpy's own tests: 70 MB of .pyc files, and install time).
$(BASE_STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --no-compile -e .
	touch $(BASE_STAMP)

# The web app on http://127.0.0.1:8000 with its SQLite file under var/ (terminal play: stichwerk play);
# `make run LISTEN=0.0.0.0` for phones in the network (it prints the address they use),
# `make run PORT=8080` on another port. It
# answers at once: the Python engine serves (the mypyc build is `make native`), and the bots'
# numba kernels compile in the background while the bots search in Python.
run: $(BASE_STAMP) pyodide-base
	$(BIN)/python -m stichwerk.server $(if $(LISTEN),--host $(LISTEN)) $(if $(PORT),--port $(PORT))

# Pyodide for the score sheet's offline scoring, and Preact + htm for the table page: fetched
# once from the npm registry (pinned, integrity checked) into the gitignored static/vendor/
# folder; nothing to do when they are there.
pyodide: $(STAMP)
	$(BIN)/python -m stichwerk.web.pyodide
	$(BIN)/python -m stichwerk.web.preact

pyodide-base: $(BASE_STAMP)
	$(BIN)/python -m stichwerk.web.pyodide
	$(BIN)/python -m stichwerk.web.preact

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
# two); until then a search bot built without compiled=... searches in Python (the web server
# starts this in the background itself), so no decision waits on the compiler.
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
