"""The two errors the knowledge package raises.

- ``KnowledgeError``: the knowledge base itself is malformed. Raised at load, naming file, key and problem.
- ``NeedsClarification``: a resident's question cannot be answered as asked (a negative number of dogs,
  a bite date in the future, an unknown town, a time without a time zone). Callers turn it into a polite
  clarifying question; ``field`` names the input to ask about again.
"""

from __future__ import annotations


class KnowledgeError(Exception):
    """A knowledge file is malformed: ``file``, ``key`` and ``problem`` say where and what."""

    def __init__(self, file: str, key: str, problem: str):
        self.file, self.key, self.problem = str(file), key, problem
        super().__init__(f"{file}: {key}: {problem}")


class NeedsClarification(ValueError):
    """The question cannot be answered as asked; ``message`` is safe to show the resident."""

    def __init__(self, message: str, field: str | None = None):
        self.message, self.field = message, field
        super().__init__(message)
