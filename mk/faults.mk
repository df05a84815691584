# Durability and fault tests (tests/faults/) and the abuse tests (tests/abuse/) against the real stack.
# Included by the top Makefile (which defines BIN, VENV, STAMP and `install`); mk/bot.mk defines `train` and
# mk/web.mk `system-deps` (PostgreSQL and Redis for the PostgreSQL variants, which run whenever it is installed).
.PHONY: test-faults

FAULT_TEST_DIRS = $(wildcard tests/faults tests/abuse)

# The last tier of `make test` (about 20 minutes): the tests marked `faults` (the real stack under faults, SIGKILLs
# and hostile messages) and the in-process fuzzers at full count (`fuzz`; `make check` runs them at
# CHECK_ABUSE_EXAMPLES). tests/faults/test_no_loss.py: 1,000 SMS burn notifications while web, actions and Rasa
# are SIGKILLed and restarted, on SQLite and PostgreSQL (FAULTS_NOTIFICATIONS / FAULTS_RESIDENTS / FAULTS_SEED
# change the run). Their other tests run in `make check`.
test-faults: install system-deps train
	PYTHONPATH=$(CURDIR) $(BIN)/python -m pytest -m "faults or fuzz" $(FAULT_TEST_DIRS)

LAST_TESTS += test-faults
