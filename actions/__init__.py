"""Custom actions: thin adapters between Rasa and knowledge/ (read slots, call one handler, send one message)."""
