# Load and scale-out benchmarks of the whole stack (bench/load.py) and the scaled configuration (Procfile.scale).
# Included by the top Makefile (BIN, `install`); mk/bot.mk defines BOT_MODEL, `train`, BOT_TOKEN_FILE; mk/web.mk
# defines WEB_TOKEN_FILE. Not part of `make test`: benchmarks print figures, they assert nothing.
.PHONY: bench-load run-scaled

LOAD_DURATION ?= 30
LOAD_RESULTS := results/load
RASA_INSTANCES ?= 2
LOCK_STORE_HOST ?= 127.0.0.1
LOCK_STORE_PORT ?= 6379
LOCK_STORE_DB ?= 1
RATELIMIT_STORAGE_URI ?= redis://$(LOCK_STORE_HOST):$(LOCK_STORE_PORT)/0

# 1, 10, 20, 50 concurrent conversations on the default stack (SQLite, RASA_INSTANCES Rasa instances as `make run`), then 20 concurrent against 1, 2, 3 Rasa
# instances on PostgreSQL + Redis (started by the benchmark itself; needs Debian's postgresql and redis-server),
# then one compact table of both. LOAD_DURATION seconds per level.
bench-load: $(BOT_MODEL) | install
	@mkdir -p $(LOAD_RESULTS)
	PYTHONPATH=$(CURDIR) $(BIN)/python -m bench.load --duration $(LOAD_DURATION) --rasa-instances $(RASA_INSTANCES) \
	  --json $(LOAD_RESULTS)/levels.json
	PYTHONPATH=$(CURDIR) $(BIN)/python -m bench.load --scale --duration $(LOAD_DURATION) --json $(LOAD_RESULTS)/scale.json
	@PYTHONPATH=$(CURDIR) $(BIN)/python -m bench.load --summary $(LOAD_RESULTS)/levels.json $(LOAD_RESULTS)/scale.json

# The scaled configuration for real: RASA_INSTANCES Rasa instances (default 2, at most 4) sharing the PostgreSQL
# tracker store (DATABASE_URL, required) with Rasa's Redis lock store, the web front's rate limits in Redis.
# Redis must be running at LOCK_STORE_HOST:LOCK_STORE_PORT. Also starts the one alert sender. Ctrl-C stops everything.
run-scaled: install train $(WEB_TOKEN_FILE)
	@case "$$DATABASE_URL" in postgres*) ;; *) echo "run-scaled: set DATABASE_URL=postgresql://... (several Rasa" \
	  "instances share the tracker store; SQLite is for one)"; exit 2;; esac
	@case "$(RASA_INSTANCES)" in 1|2|3|4) ;; *) echo "run-scaled: RASA_INSTANCES must be 1 to 4"; exit 2;; esac
	@mkdir -p instance
	urls=""; names=""; for i in $$(seq 0 $$(( $(RASA_INSTANCES) - 1 ))); do \
	  urls="$$urls$${urls:+,}http://127.0.0.1:$$(( $(RASA_PORT) + i ))"; \
	  if [ $$i = 0 ]; then names="rasa"; else names="$$names rasa$$i"; fi; done; \
	RASA_URL="$$urls" RASA_PORT=$(RASA_PORT) ACTION_PORT=$(ACTION_PORT) WEB_PORT=$(WEB_PORT) WEB_HOST=$(WEB_HOST) \
	  LOCK_STORE_HOST=$(LOCK_STORE_HOST) LOCK_STORE_PORT=$(LOCK_STORE_PORT) LOCK_STORE_DB=$(LOCK_STORE_DB) \
	  RATELIMIT_STORAGE_URI=$(RATELIMIT_STORAGE_URI) \
	  RASA_TOKEN="$${RASA_TOKEN:-$$(cat $(WEB_TOKEN_FILE))}" RASA_TELEMETRY_ENABLED=false \
	  SQLALCHEMY_SILENCE_UBER_WARNING=1 SANIC_HOST=127.0.0.1 PYTHONPATH=$(CURDIR) \
	  $(BIN)/honcho start -f Procfile.scale actions web sender $$names
