# The Rasa layer (bot/, data/, actions/). Every rasa command gets the bot/ paths.
# Included by the top Makefile (which defines BIN, VENV, STAMP and `install`).
.PHONY: train shell validate test-bot evaluate evaluate-dev bench bot-run actions-run spacy-model

RASA_PORT ?= 5005
ACTION_PORT ?= 5055
export ACTION_PORT
BOT_ARGS := --domain bot/domain --config bot/config.yml
RASA := PYTHONPATH=$(CURDIR) RASA_TELEMETRY_ENABLED=false SQLALCHEMY_SILENCE_UBER_WARNING=1 $(BIN)/rasa
BOT_MODEL := models/ordinance.tar.gz
SPACY_MODEL := bot/spacy_pipeline/config.cfg
BOT_TOKEN_FILE := instance/rasa_auth_token
BOT_INPUTS := bot/config.yml $(wildcard bot/domain/*.yml) $(wildcard data/*.yml) bot/components.py $(SPACY_MODEL)

# The rule-based spaCy pipeline (blank English + entity_ruler from the knowledge base), loaded by path.
$(SPACY_MODEL): bot/spacy_build.py bot/vocab.py $(wildcard knowledge/towns/*/sections.yml) | install
	PYTHONPATH=$(CURDIR) $(BIN)/python -m bot.spacy_build --out bot/spacy_pipeline
spacy-model: $(SPACY_MODEL)

# Retrains only when an input changed (make) and only the changed parts (rasa's fingerprint cache in .rasa/).
$(BOT_MODEL): $(BOT_INPUTS) | install
	$(RASA) train $(BOT_ARGS) --data data --out models --fixed-model-name ordinance
	@touch $(BOT_MODEL)
train: $(BOT_MODEL)

validate: $(SPACY_MODEL) | install
	$(RASA) data validate $(BOT_ARGS) --data data

$(BOT_TOKEN_FILE):
	@mkdir -p $(dir $@)
	@umask 077 && $(BIN)/python -c "import secrets; print(secrets.token_urlsafe(32))" > $@

# Action server bound to loopback (rasa-sdk reads SANIC_HOST).
actions-run: | install
	SANIC_HOST=127.0.0.1 PYTHONPATH=$(CURDIR) $(BIN)/rasa run actions --actions actions --port $(ACTION_PORT)

# REST channel + HTTP API (token-protected; the token read from its file by tools/rasa_run.py, never on the
# command line) on 127.0.0.1; start `make actions-run` beside it.
bot-run: $(BOT_MODEL) $(BOT_TOKEN_FILE)
	PYTHONPATH=$(CURDIR) RASA_TELEMETRY_ENABLED=false SQLALCHEMY_SILENCE_UBER_WARNING=1 RASA_TOKEN_FILE=$(BOT_TOKEN_FILE) \
	  $(BIN)/python -m tools.rasa_run --model $(BOT_MODEL) --endpoints bot/endpoints.yml \
	  --credentials bot/credentials.yml --interface 127.0.0.1 --port $(RASA_PORT) --enable-api

shell: $(BOT_MODEL)
	@SANIC_HOST=127.0.0.1 PYTHONPATH=$(CURDIR) $(BIN)/rasa run actions --actions actions --port $(ACTION_PORT) \
	  > /tmp/ordinance-actions.log 2>&1 & pid=$$!; trap "kill $$pid" EXIT; \
	$(RASA) shell --model $(BOT_MODEL) --endpoints bot/endpoints.yml

# CI: action unit tests, then test stories (dialogue + NLU of their user lines) against the trained model.
test-bot: $(BOT_MODEL)
	PYTHONPATH=$(CURDIR) $(BIN)/python -m pytest tests/actions tests/bot
	$(RASA) test core --model $(BOT_MODEL) --stories tests/bot/test_stories.yml --out results/bot-stories \
	  --fail-on-prediction-errors
TEST_TARGETS += test-bot

# Held-out NLU test file (written apart from the training data): intent accuracy and entity F1.
evaluate: $(BOT_MODEL)
	$(RASA) test nlu --model $(BOT_MODEL) --nlu tests/bot/nlu_heldout.yml --out results/heldout
	PYTHONPATH=$(CURDIR) $(BIN)/python -m bot.evaluate results/heldout

# The development sets (tests/bot/nlu_dev*.yml: written apart from the training data, used to choose changes;
# the held-out file is not). Intent accuracy of each, as in `make evaluate` (rasa test nlu scores the top intent:
# it undoes the FallbackClassifier's nlu_fallback before comparing).
DEV_SETS := $(wildcard tests/bot/nlu_dev*.yml)
evaluate-dev: $(BOT_MODEL)
	@mkdir -p results; for f in $(DEV_SETS); do n=$$(basename $$f .yml); \
	  $(RASA) test nlu --model $(BOT_MODEL) --nlu $$f --out results/$$n > results/$$n.log 2>&1 || exit 1; \
	  printf '%s (%s examples): ' $$n $$(grep -c '^    - ' $$f); \
	  PYTHONPATH=$(CURDIR) $(BIN)/python -m bot.evaluate --intent-only results/$$n; done

# Not a timed test: training time, REST latency, throughput, memory; the same for a plain `rasa init` bot.
bench: | install
	PYTHONPATH=$(CURDIR) $(BIN)/python bench/bot_bench.py
