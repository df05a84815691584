# The settings make hands to the processes it starts, each with its one default (README "Configuration"; the
# Python side's defaults are in records/settings.py and knowledge/settings.py). Included first by the top
# Makefile, so every mk/*.mk sees them; override any of them on the command line or in the environment.
export TOWN ?= dunkirk
WEB_PORT ?= 8000
# loopback: the reverse proxy (TLS) in front reaches it there; WEB_HOST=0.0.0.0 only without one (README)
WEB_HOST ?= 127.0.0.1
RASA_PORT ?= 5005
ACTION_PORT ?= 5055
export ACTION_PORT
