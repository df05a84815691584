# The answer report (issue #11): lead and answer lengths per channel, placeholder/internal text, over the dev
# questions through the real action server and the knowledge cases. A benchmark: prints figures, asserts nothing.
.PHONY: answer-report

answer-report: | install
	PYTHONPATH=$(CURDIR) $(BIN)/python -m bench.answer_report
