# hookwise: `make run` serves the Hook Output Processing API and its console on the embedded
# default (SQLite in the per-user data dir, loopback, token generated on first start); `make demo`
# shows the host runtime on the bundled example; `make test` runs the whole suite (lint,
# types, tests). All create .venv on first use.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# Each target installs only what it needs: `make run` the service (the `serve` extra),
# `make demo` the plain package, the tests everything (test, serve, otel and the framework
# bridges' extras, at the versions of tests/integrations/constraints.txt).
STAMP := $(VENV)/.installed-stamp
RUN_STAMP := $(VENV)/.serve-stamp
BASE_STAMP := $(VENV)/.base-stamp
VENV_STAMP := $(VENV)/.venv-stamp
EXAMPLE := examples/gemini-project

.PHONY: all install run demo test lint typecheck unit bench conformance-record clean

all: test

$(VENV_STAMP):
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	touch $(VENV_STAMP)

$(STAMP): pyproject.toml tests/integrations/constraints.txt $(VENV_STAMP)
	$(BIN)/pip install --quiet -e '.[test,serve,otel,integrations]' --constraint tests/integrations/constraints.txt
	touch $(STAMP)

$(RUN_STAMP): pyproject.toml $(VENV_STAMP)
	$(BIN)/pip install --quiet -e '.[serve]'
	touch $(RUN_STAMP)

$(BASE_STAMP): pyproject.toml $(VENV_STAMP)
	$(BIN)/pip install --quiet -e .
	touch $(BASE_STAMP)

install: $(STAMP)

# Not HOST/PORT: shells and platforms export those for other purposes, and the service must
# stay on loopback unless told otherwise.
HOOKWISE_HOST ?= 127.0.0.1
HOOKWISE_PORT ?= 8765
# Ctrl-C stops the service (exit 130): the way to end it, not an error.
run: $(RUN_STAMP)
	@trap : INT; $(BIN)/hookwise serve --bind $(HOOKWISE_HOST) --port $(HOOKWISE_PORT) || [ $$? -eq 130 ]

demo: $(BASE_STAMP)
	@GEMINI_CLI_TRUST_WORKSPACE=true HOOKWISE_EXAMPLE_BIN=$(BIN) sh $(EXAMPLE)/demo.sh

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

typecheck: $(STAMP)
	$(BIN)/mypy

# The tests get the throwaway PostgreSQL (make pg) through HOOKWISE_TEST_DATABASE_URL, read from
# $(HOOKWISE_PG_DIR)/url unless already set; without it the PostgreSQL tests skip (fail under CI).
unit: $(STAMP)
	HOOKWISE_TEST_DATABASE_URL="$${HOOKWISE_TEST_DATABASE_URL:-$$(cat '$(HOOKWISE_PG_DIR)/url' 2>/dev/null || true)}" \
	$(BIN)/pytest -n auto -q

# tests/e2e runs the real Claude Code, Codex and Gemini CLI, pinned by tests/e2e/package-lock.json
# and installed once outside the work tree (npm ci --ignore-scripts); without npm those tests skip.
E2E_CLIS ?= $(or $(HOOKWISE_E2E_CLIS),$(or $(XDG_CACHE_HOME),$(HOME)/.cache)/hookwise/e2e-clis)
E2E_STAMP := $(E2E_CLIS)/node_modules/.hookwise-installed
# GitHub Copilot CLI and Qwen Code: their own pins (tests/e2e/hosts/) in their own directory.
# `npm install` with the lock, not `npm ci`: the lock lacks optional per-platform packages of a
# Qwen dependency (@teddyzhu/clipboard-*) that the registry does not have, which `npm ci`
# rejects as out of sync; the lock still fixes every version installed, and tests/e2e/clis.py
# refuses any other version.
E2E_HOSTS_STAMP := $(E2E_CLIS)/hosts/node_modules/.hookwise-installed
export HOOKWISE_E2E_CLIS := $(E2E_CLIS)
# Factory Droid and Cline (tests/e2e/more_hosts.py): their linux-x64 binary packages, own dir
E2E_MORE_CLIS ?= $(or $(HOOKWISE_E2E_MORE_CLIS),$(or $(XDG_CACHE_HOME),$(HOME)/.cache)/hookwise/e2e-more-hosts)
E2E_MORE_STAMP := $(E2E_MORE_CLIS)/node_modules/.hookwise-installed
export HOOKWISE_E2E_MORE_CLIS := $(E2E_MORE_CLIS)
# OpenCode and Kilo (the plugin hosts, tests/e2e/plugin_hosts.py): their own pins and directory
E2E_PLUGIN_CLIS ?= $(or $(HOOKWISE_E2E_PLUGIN_CLIS),$(or $(XDG_CACHE_HOME),$(HOME)/.cache)/hookwise/e2e-plugin-hosts)
E2E_PLUGIN_STAMP := $(E2E_PLUGIN_CLIS)/node_modules/.hookwise-installed
export HOOKWISE_E2E_PLUGIN_CLIS := $(E2E_PLUGIN_CLIS)
# Real MCP servers behind `hookwise mcp wrap` (tests/mcp_proxy): their own pins and directory
E2E_MCP_SERVERS ?= $(or $(HOOKWISE_E2E_MCP_SERVERS),$(or $(XDG_CACHE_HOME),$(HOME)/.cache)/hookwise/e2e-mcp-servers)
E2E_MCP_STAMP := $(E2E_MCP_SERVERS)/node_modules/.hookwise-installed
export HOOKWISE_E2E_MCP_SERVERS := $(E2E_MCP_SERVERS)
.PHONY: e2e-install

e2e-install: $(if $(shell command -v npm 2>/dev/null),$(E2E_STAMP) $(E2E_HOSTS_STAMP) $(E2E_MORE_STAMP) $(E2E_PLUGIN_STAMP) $(E2E_MCP_STAMP))
	@command -v npm >/dev/null 2>&1 || echo "e2e-install: npm not found; the real-CLI tests will skip"

$(E2E_STAMP): tests/e2e/package.json tests/e2e/package-lock.json
	@mkdir -p $(E2E_CLIS) && cp tests/e2e/package.json tests/e2e/package-lock.json $(E2E_CLIS)/
	@cd $(E2E_CLIS) && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null
	@touch $@

$(E2E_MCP_STAMP): tests/e2e/mcp-servers/package.json tests/e2e/mcp-servers/package-lock.json
	@mkdir -p $(E2E_MCP_SERVERS) && cp tests/e2e/mcp-servers/package.json tests/e2e/mcp-servers/package-lock.json $(E2E_MCP_SERVERS)/
	@cd $(E2E_MCP_SERVERS) && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null
	@touch $@

$(E2E_PLUGIN_STAMP): tests/e2e/plugin-hosts/package.json tests/e2e/plugin-hosts/package-lock.json
	@mkdir -p $(E2E_PLUGIN_CLIS) && cp tests/e2e/plugin-hosts/package.json tests/e2e/plugin-hosts/package-lock.json $(E2E_PLUGIN_CLIS)/
	@# `npm install` with the copied lock, not `npm ci`: opencode-ai lists a binary package per
	@# platform and the registry here lacks the other platforms' ones, so they are not in the
	@# lock and `npm ci` refuses it; the locked versions are kept (tests/e2e/plugin_hosts.py
	@# checks them)
	@cd $(E2E_PLUGIN_CLIS) && npm install --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null
	@touch $@

$(E2E_HOSTS_STAMP): tests/e2e/hosts/package.json tests/e2e/hosts/package-lock.json
	@mkdir -p $(E2E_CLIS)/hosts && cp tests/e2e/hosts/package.json tests/e2e/hosts/package-lock.json $(E2E_CLIS)/hosts/
	@cd $(E2E_CLIS)/hosts && npm install --ignore-scripts --no-audit --no-fund --no-save --loglevel=error >/dev/null
	@touch $@

$(E2E_MORE_STAMP): tests/e2e/more-hosts/package.json tests/e2e/more-hosts/package-lock.json
	@mkdir -p $(E2E_MORE_CLIS) && cp tests/e2e/more-hosts/package.json tests/e2e/more-hosts/package-lock.json $(E2E_MORE_CLIS)/
	@# both are optional linux-x64 packages holding their binary (no install script): npm
	@# skips them elsewhere and the tests say so
	@cd $(E2E_MORE_CLIS) && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null
	@touch $@

# A throwaway PostgreSQL server for the tests: no root or systemd needed to run it (as root it
# runs as the postgres user, or nobody); Debian's postgresql is apt-installed when missing and we
# are root. Idempotent: a running server is left alone, a stale one restarted. scripts/pg-test-server.sh
HOOKWISE_PG_PORT ?= 55432
ifndef HOOKWISE_PG_DIR
HOOKWISE_PG_DIR := $(if $(filter 0,$(shell id -u)),/tmp/hookwise-pg,$(or $(XDG_CACHE_HOME),$(HOME)/.cache)/hookwise/pg)
endif
# Debian's Chromium for the web-console tests (Playwright with executable_path; never a download).
HOOKWISE_CHROMIUM ?= /usr/bin/chromium
export HOOKWISE_PG_PORT HOOKWISE_PG_DIR HOOKWISE_CHROMIUM
.PHONY: pg pg-stop pg-status chromium

pg:
	@sh scripts/pg-test-server.sh start

pg-stop:
	@sh scripts/pg-test-server.sh stop

pg-status:
	@sh scripts/pg-test-server.sh status || true

# Missing and not installable (not root, no apt-get, no network): a message and the browser tests
# skip; under CI=true it fails here instead.
chromium:
	@set -eu; chrome='$(HOOKWISE_CHROMIUM)'; \
	if [ -x "$$chrome" ]; then exit 0; fi; \
	if [ "$$chrome" != /usr/bin/chromium ]; then why="HOOKWISE_CHROMIUM=$$chrome is not an executable"; \
	elif [ "$$(id -u)" != 0 ]; then why="no /usr/bin/chromium and not root, so apt-get cannot install it"; \
	elif ! command -v apt-get >/dev/null 2>&1; then why="no /usr/bin/chromium and no apt-get"; \
	else \
	  echo "chromium: installing Debian's chromium with apt-get"; \
	  log=$$(mktemp); export DEBIAN_FRONTEND=noninteractive; \
	  inst() { apt-get -y -q --no-install-recommends --no-upgrade -o DPkg::Lock::Timeout=300 install chromium </dev/null >>"$$log" 2>&1; }; \
	  ls /var/lib/apt/lists/*_Packages* >/dev/null 2>&1 || apt-get -q update >>"$$log" 2>&1 || true; \
	  if { inst || { apt-get -q update >>"$$log" 2>&1 && inst; }; } && [ -x /usr/bin/chromium ]; then \
	    rm -f "$$log"; echo "chromium: $$(/usr/bin/chromium --version 2>/dev/null || echo installed)"; exit 0; \
	  fi; \
	  tail -n 15 "$$log"; rm -f "$$log"; why="apt-get install chromium failed (no network or no mirror?)"; \
	fi; \
	echo "chromium: $$why"; \
	case "$${CI:-}" in ''|0|false|FALSE|no) echo "chromium: the browser tests will be skipped"; exit 0;; esac; \
	echo "chromium: CI=$$CI: the browser tests cannot run, failing now"; exit 1

# Programs the command corpora run in real bash before asking the hook (tests/policy/
# test_unverifiable.py TOOLS: a command whose program is missing skips), tmux for the
# confinement's socket tests (tests/run) and Go for the MCP red team's server that reads
# arguments as encoding/json does (tests/mcp_proxy/test_redteam_s25.py), ripgrep for the red
# team rows that plant its config (tests/policy/test_redteam_s32_table.py): Debian's,
# apt-installed when missing and we are root; otherwise a message and those tests skip
# (CI=true: fail).
CORPUS_TOOLS ?= php:php-cli cpio:cpio 7z:p7zip-full tmux:tmux go:golang-go rg:ripgrep
.PHONY: corpus-tools
corpus-tools:
	@set -eu; missing=; for pair in $(CORPUS_TOOLS); do \
	  command -v "$${pair%%:*}" >/dev/null 2>&1 || missing="$$missing $${pair#*:}"; done; \
	[ -z "$$missing" ] && exit 0; \
	if [ "$$(id -u)" != 0 ]; then why="not root, so apt-get cannot install$$missing"; \
	elif ! command -v apt-get >/dev/null 2>&1; then why="no apt-get for$$missing"; \
	else \
	  echo "corpus-tools: installing$$missing with apt-get"; \
	  log=$$(mktemp); export DEBIAN_FRONTEND=noninteractive; \
	  inst() { apt-get -y -q --no-install-recommends --no-upgrade -o DPkg::Lock::Timeout=300 install $$missing </dev/null >>"$$log" 2>&1; }; \
	  ls /var/lib/apt/lists/*_Packages* >/dev/null 2>&1 || apt-get -q update >>"$$log" 2>&1 || true; \
	  if inst || { apt-get -q update >>"$$log" 2>&1 && inst; }; then rm -f "$$log"; exit 0; fi; \
	  tail -n 15 "$$log"; rm -f "$$log"; why="apt-get install$$missing failed (no network or no mirror?)"; \
	fi; \
	echo "corpus-tools: $$why"; \
	case "$${CI:-}" in ''|0|false|FALSE|no) echo "corpus-tools: their corpus entries will be skipped"; exit 0;; esac; \
	echo "corpus-tools: CI=$$CI: those corpus entries cannot run, failing now"; exit 1

# Setup first (e2e CLIs, PostgreSQL, Chromium, the corpora's programs), so that a setup failure
# is the first thing shown.
test: e2e-install pg chromium corpus-tools lint typecheck unit

bench: $(STAMP) pg
	$(BIN)/python bench/host_dispatch.py
	$(BIN)/python bench/hook_cold.py
	$(BIN)/python bench/run_start.py
	@command -v wrk >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends wrk >/dev/null; } || true
	HOOKWISE_TEST_DATABASE_URL="$$(cat '$(HOOKWISE_PG_DIR)/url' 2>/dev/null || true)" $(BIN)/python bench/api_load.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
