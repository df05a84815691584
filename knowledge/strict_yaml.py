"""YAML read as the knowledge files are read: safe, and a key said twice in one mapping refused."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

_LIBYAML = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml: ten times faster, the same data


class DuplicateKey(yaml.YAMLError):
    """A mapping names the same key twice: YAML keeps the last silently, so a pasted fee could hide another."""

    def __init__(self, key: Any, line: int):
        self.key, self.line = key, line
        super().__init__(f"duplicate key {key!r} (line {line})")


class StrictLoader(_LIBYAML):
    """yaml's safe loader that refuses a key said twice in one mapping."""

    def construct_mapping(self, node, deep=False):
        if isinstance(node, yaml.MappingNode):
            seen = set()
            for key_node, _ in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    continue
                key = self.construct_object(key_node, deep=True)
                try:
                    if key in seen:
                        raise DuplicateKey(key, key_node.start_mark.line + 1)
                    seen.add(key)
                except TypeError:  # an unhashable key: the base class names that error itself
                    pass
        return super().construct_mapping(node, deep=deep)


SAFE_LOADER = StrictLoader


def read_yaml(path: Path) -> Any:
    """The data in one YAML file, read as the loader reads the knowledge files (duplicate keys refused)."""
    with path.open(encoding="utf-8") as fh:
        return yaml.load(fh, Loader=SAFE_LOADER)
