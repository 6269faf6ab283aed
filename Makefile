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

# tests/e2e runs the real Claude Code, Codex and Gemini CLI, pinned by tests/e2e/package-lock.json
# and installed once outside the work tree (npm ci --ignore-scripts); without npm those tests skip.
E2E_CLIS ?= $(or $(HOOKWISE_E2E_CLIS),$(or $(XDG_CACHE_HOME),$(HOME)/.cache)/hookwise/e2e-clis)
E2E_STAMP := $(E2E_CLIS)/node_modules/.hookwise-installed
export HOOKWISE_E2E_CLIS := $(E2E_CLIS)
.PHONY: e2e-install

e2e-install: $(if $(shell command -v npm 2>/dev/null),$(E2E_STAMP))
	@command -v npm >/dev/null 2>&1 || echo "e2e-install: npm not found; the real-CLI tests will skip"

$(E2E_STAMP): tests/e2e/package.json tests/e2e/package-lock.json
	@mkdir -p $(E2E_CLIS) && cp tests/e2e/package.json tests/e2e/package-lock.json $(E2E_CLIS)/
	@cd $(E2E_CLIS) && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null
	@touch $@

test: e2e-install lint typecheck unit

bench: $(STAMP)
	$(BIN)/python bench/host_dispatch.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
