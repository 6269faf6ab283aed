# hookwise: `make run` shows the host runtime on the bundled example; `make test` runs
# the whole suite (lint, types, tests). Both create .venv on first use.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
EXAMPLE := examples/gemini-project

.PHONY: all install run test lint typecheck unit bench conformance-record clean

all: test

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	@GEMINI_CLI_TRUST_WORKSPACE=true HOOKWISE_EXAMPLE_BIN=$(BIN) sh $(EXAMPLE)/demo.sh

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest -n auto -q

test: lint typecheck unit

bench: $(STAMP)
	$(BIN)/python bench/host_dispatch.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
