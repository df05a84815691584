# Durability and fault tests (tests/faults/) and the abuse tests (tests/abuse/) against the real stack.
# Included by the top Makefile (which defines BIN, VENV, STAMP and `install`); mk/bot.mk defines `train` and
# mk/web.mk `system-deps` (PostgreSQL and Redis for the PostgreSQL variants, which run whenever it is installed).
.PHONY: test-faults

FAULT_TEST_DIRS = $(wildcard tests/faults tests/abuse)

# tests/faults/test_no_loss.py: 1,000 SMS burn notifications while web, actions and Rasa are SIGKILLed and
# restarted, on SQLite and PostgreSQL (FAULTS_NOTIFICATIONS / FAULTS_RESIDENTS / FAULTS_SEED change the run).
test-faults: install system-deps train
	PYTHONPATH=$(CURDIR) $(BIN)/python -m pytest $(FAULT_TEST_DIRS)

TEST_TARGETS += test-faults
