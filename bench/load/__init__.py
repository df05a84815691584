"""Load benchmark of the whole assistant: residents chatting on the web page and texting the SMS number, at
1, 10, 20 and 50 concurrent conversations (make bench-load). Not a timed test: it prints figures.

See bench/load/README.md; run as ``python -m bench.load``."""
