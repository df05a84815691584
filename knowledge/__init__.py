"""The ordinance knowledge base and the answer engine: pure Python over YAML, no Rasa, no Flask."""

from .errors import KnowledgeError, NeedsClarification
from .loader import load_town, town, town_keys

__all__ = ["KnowledgeError", "NeedsClarification", "load_town", "town", "town_keys"]
