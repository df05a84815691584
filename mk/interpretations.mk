# docs/interpretations.md is generated from the notes beside the law (knowledge/DATA.md "Notes"):
# tests/knowledge/test_interpretations.py fails until this is run after a note changes.
.PHONY: interpretations

interpretations: | install
	PYTHONPATH=$(CURDIR) $(BIN)/python -m tools.interpretations
