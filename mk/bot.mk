# The Rasa layer (bot/, data/, actions/). Every rasa command gets the bot/ paths.
# Included by the top Makefile (which defines BIN, VENV, STAMP and `install`; mk/config.mk the ports).
.PHONY: train shell validate test-bot evaluate evaluate-dev bench bot-run actions-run spacy-model encoder

BOT_ARGS := --domain bot/domain --config bot/config.yml
RASA := PYTHONPATH=$(CURDIR) RASA_TELEMETRY_ENABLED=false SQLALCHEMY_SILENCE_UBER_WARNING=1 $(BIN)/rasa
BOT_MODEL := models/ordinance.tar.gz
SPACY_MODEL := bot/spacy_pipeline/config.cfg
BOT_TOKEN_FILE := instance/rasa_auth_token
ENCODER := build/encoder/all-MiniLM-L6-v2.int8.onnx
BOT_INPUTS := bot/config.yml $(wildcard bot/domain/*.yml) $(wildcard data/*.yml) bot/components.py bot/components_diet.py bot/normaliser.py \
  bot/components_intent.py $(SPACY_MODEL) $(ENCODER)

# The rule-based spaCy pipeline (blank English + entity_ruler from the knowledge base), loaded by path.
$(SPACY_MODEL): bot/spacy_build.py bot/vocab.py $(wildcard knowledge/towns/*/sections.yml) | install
	PYTHONPATH=$(CURDIR) $(BIN)/python -m bot.spacy_build --out bot/spacy_pipeline
spacy-model: $(SPACY_MODEL)

# The sentence encoder (bot/encoder.py, docs/encoder.md): the pinned weights (requirements-model.txt, their sha256
# checked) converted to ONNX, float32 and int8, in build/ (git-ignored). Never downloaded at run time.
$(ENCODER): bot/encoder.py requirements-model.txt | install
	PYTHONPATH=$(CURDIR) TF_CPP_MIN_LOG_LEVEL=3 $(BIN)/python -m bot.encoder build
encoder: $(ENCODER)
# the fast tier tests the encoder (tests/bot/test_encoder.py)
check check-engine: $(ENCODER)

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

# Test stories (dialogue + NLU of their user lines) against the trained model; the action unit tests and the
# rest of tests/bot run in `make check`.
test-bot: $(BOT_MODEL)
	PYTHONPATH=$(CURDIR) $(BIN)/python -m pytest -m stack tests/bot
	$(RASA) test core --model $(BOT_MODEL) --stories tests/bot/test_stories.yml --out results/bot-stories \
	  --fail-on-prediction-errors
STACK_TESTS += test-bot

# Held-out NLU test files (written apart from the training data; never opened when choosing a change), each
# also misspelled by the seeded typo generator tests/bot/typos.py. The first is scored by rasa test nlu (intent
# accuracy and entity F1); every tests/bot/nlu_heldout*.yml (nlu_heldout2.yml when present) and every misspelled
# version by bot.evaluate in one model load. Bars: 95 % clean, 90 % misspelled, entity F1 90 %.
TYPOS := results/typos
HELDOUT_SETS := $(wildcard tests/bot/nlu_heldout*.yml)
HELDOUT_TYPOS := $(HELDOUT_SETS:tests/bot/%.yml=$(TYPOS)/%_typos.yml)
DEV_SETS := $(wildcard tests/bot/nlu_dev*.yml)
DEV_TYPOS := $(DEV_SETS:tests/bot/%.yml=$(TYPOS)/%_typos.yml)
$(TYPOS)/%_typos.yml: tests/bot/%.yml tests/bot/typos.py | install
	$(BIN)/python tests/bot/typos.py $< $@

evaluate: $(BOT_MODEL) $(HELDOUT_TYPOS)
	@fail=0; $(RASA) test nlu --model $(BOT_MODEL) --nlu tests/bot/nlu_heldout.yml --out results/heldout \
	  > results/heldout.log 2>&1 || fail=1; \
	PYTHONPATH=$(CURDIR) $(BIN)/python -m bot.evaluate results/heldout || fail=1; \
	PYTHONPATH=$(CURDIR) $(BIN)/python -m bot.evaluate --model $(BOT_MODEL) --bars $(HELDOUT_SETS) $(HELDOUT_TYPOS) \
	  2> results/heldout-sets.log || fail=1; exit $$fail

# The development sets (tests/bot/nlu_dev*.yml: written apart from the training data, used to choose changes),
# their misspelled versions and data/COVERAGE.md's questions: intent accuracy of each and its weakest intents,
# scored as rasa test nlu scores them (the top intent other than nlu_fallback), one model load.
evaluate-dev: $(BOT_MODEL) $(DEV_TYPOS)
	PYTHONPATH=$(CURDIR) $(BIN)/python -m bot.evaluate --model $(BOT_MODEL) $(DEV_SETS) $(DEV_TYPOS) \
	  data/COVERAGE.md 2> results/dev-sets.log

# Not a timed test: training time, REST latency, throughput, memory; the same for a plain `rasa init` bot.
bench: | install
	PYTHONPATH=$(CURDIR) $(BIN)/python bench/bot_bench.py
