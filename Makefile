# The two commands a newcomer needs: `make run` and `make test` (see README).
SHELL := /bin/bash
PYTHON ?= $(shell command -v python3.10 || command -v python)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

export TOWN ?= dunkirk

.PHONY: help install test test-knowledge run clean

help:
	@echo "make run    - set up, train if needed, start the assistant (see README)"
	@echo "make test   - set up and run every test"

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip wheel "setuptools<70"

# Reinstall whenever the declared or locked dependencies change.
$(STAMP): $(BIN)/python pyproject.toml requirements.lock
	$(BIN)/pip install -q -c requirements.lock -e ".[test]"
	touch $(STAMP)

install: $(STAMP)

test-knowledge: install
	$(BIN)/python -m pytest tests/knowledge

# Each area adds its own test target to TEST_TARGETS in mk/<area>.mk; `make test` runs them all.
TEST_TARGETS := test-knowledge
# bot.mk (model, Rasa token file) and web.mk (ports, WEB_TOKEN_FILE) first: the others name their variables in
# prerequisites, which make expands when it reads the rule (load.mk's run-scaled needs $(WEB_TOKEN_FILE)).
MK_FIRST := mk/bot.mk mk/web.mk
include $(MK_FIRST) $(filter-out $(MK_FIRST),$(sort $(wildcard mk/*.mk)))

test: $(TEST_TARGETS)

clean:
	rm -rf $(VENV) models .rasa .pytest_cache .hypothesis
