# The web front (web/), the records store (records/) and `make run`.
# Included by the top Makefile (which defines BIN, VENV, STAMP and `install`; mk/config.mk the ports and
# WEB_HOST); mk/bot.mk defines `train`.
.PHONY: run test-web test-web-fast system-deps clerk-account purge-records

CHROMIUM := /usr/bin/chromium
# The Rasa HTTP API token file: made by mk/bot.mk's $(BOT_TOKEN_FILE) rule (RASA_TOKEN overrides it).
WEB_TOKEN_FILE := $(or $(BOT_TOKEN_FILE),instance/rasa_auth_token)

# Headless Chromium for the browser test (Debian's package; Playwright is pointed at it, no browser download),
# and PostgreSQL and Redis for the fault, durability and scale tests (tests/support/services.py starts throw-away
# servers from these binaries). Installs only what is missing, and only as root; otherwise says what to run.
SYSTEM_PACKAGES := chromium:$(CHROMIUM) postgresql:/usr/lib/postgresql/*/bin/initdb redis-server:/usr/bin/redis-server
system-deps:
	@missing=""; for pair in $(SYSTEM_PACKAGES); do \
	  pkg=$${pair%%:*}; path=$${pair#*:}; \
	  if ! ls $$path >/dev/null 2>&1; then missing="$$missing $$pkg"; fi; \
	done; \
	if [ -z "$$missing" ]; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $$missing; \
	else echo "system-deps: missing$$missing; run 'sudo apt-get install$$missing' (the tests that need them skip)"; fi

# Everything, with honcho and the Procfile (Rasa, actions, web, the alert sender). Ctrl-C stops them all.
# RASA_INSTANCES (1 or 2, default 2): Rasa is the CPU-bound part (about 40 ms a message on one core), so on a
# 2-core machine a second instance nearly doubles throughput (docs/performance.md). With SQLite and no
# shared lock store each conversation stays on one instance (web/rasa.py routes by conversation id).
RUN_RASA_INSTANCES ?= $(or $(RASA_INSTANCES),2)
run: install train $(WEB_TOKEN_FILE)
	@case "$(RUN_RASA_INSTANCES)" in 1|2) ;; *) echo "run: RASA_INSTANCES must be 1 or 2 (more: make run-scaled)"; exit 2;; esac
	@mkdir -p instance
	@PYTHONPATH=$(CURDIR) $(BIN)/python -m knowledge.contacts --warn || true
	urls="http://127.0.0.1:$(RASA_PORT)"; names="rasa"; \
	if [ "$(RUN_RASA_INSTANCES)" = 2 ]; then urls="$$urls,http://127.0.0.1:$$(( $(RASA_PORT) + 1 ))"; names="rasa rasa1"; fi; \
	RASA_URL="$${RASA_URL:-$$urls}" RASA_PORT=$(RASA_PORT) ACTION_PORT=$(ACTION_PORT) WEB_PORT=$(WEB_PORT) WEB_HOST=$(WEB_HOST) \
	  RASA_TOKEN="$${RASA_TOKEN:-$$(cat $(WEB_TOKEN_FILE))}" RASA_TELEMETRY_ENABLED=false \
	  SQLALCHEMY_SILENCE_UBER_WARNING=1 SANIC_HOST=127.0.0.1 PYTHONPATH=$(CURDIR) \
	  $(BIN)/honcho start -f Procfile $$names actions web sender

# Create a clerk account (asks for the password twice; there is no default account).
clerk-account: install
	@read -p "Clerk username: " u && $(BIN)/flask --app web create-clerk "$$u"

# Delete records past the retention period (RECORDS_RETENTION_DAYS, default 7 years), keeping legal holds.
purge-records: install
	$(BIN)/flask --app web purge

# The browser test (headless Chromium + axe-core) and the end-to-end test against the real stack (needs the
# trained model, hence `train`); the test-client tests run in `make check`.
test-web: install system-deps train
	PYTHONPATH=$(CURDIR) $(BIN)/python -m pytest -m stack tests/web

# This area's part of `make check`: no browser, no real stack.
test-web-fast: install
	PYTHONPATH=$(CURDIR) $(BIN)/python -m pytest -m "not stack and not faults" tests/records tests/web

STACK_TESTS += test-web
