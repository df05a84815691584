# The independent scenarios (tests/scenarios/independent.yml) through the whole dialogue: the trained model and
# the action server in one process (tests/scenarios/run_chat.py). The engine half, tests/scenarios/test_engine.py,
# needs no model and runs with the fast tests.
.PHONY: test-scenarios
test-scenarios: $(BOT_MODEL)
	PYTHONPATH=$(CURDIR) $(BIN)/python -m pytest -m stack tests/scenarios
STACK_TESTS += test-scenarios
