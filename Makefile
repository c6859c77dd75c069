# The two commands of the quickstart: `make run` and `make test`.
# Both create .venv on first use and install the package and its dependencies into it.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test lint typecheck unit bench clean services

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The web app on http://127.0.0.1:8000 with its SQLite file under var/ (terminal play: stichwerk play).
run: $(STAMP)
	$(BIN)/python -m stichwerk.server

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest

# Debian's chromium (for Playwright) and a running PostgreSQL, for the web app's tests.
services:
	bash tools/test-services.sh

test: lint typecheck services unit

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis
