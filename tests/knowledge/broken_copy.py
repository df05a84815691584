"""Breaking a private copy of the knowledge folder (the `kb` fixture of conftest.py) and checking the loader
names what broke."""

from pathlib import Path

import pytest
import yaml

from knowledge import KnowledgeError, load_town


def edit(path: Path, change) -> None:
    """Apply ``change`` to the data of one YAML file of the copy and write it back."""
    data = yaml.safe_load(path.read_text())
    change(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))


def fails(kb, file_part, key_part, problem_part, exact_key=False):
    """Loading Dunkirk from the copy fails naming this file, key (part of it unless ``exact_key``) and problem."""
    with pytest.raises(KnowledgeError) as err:
        load_town("dunkirk", root=kb)
    e = err.value
    assert file_part in e.file and (key_part == e.key if exact_key else key_part in e.key) \
        and problem_part in e.problem, str(e)
