"""The README a newcomer reads in five minutes (at most 150 lines), and links in it and in docs/ that lead
somewhere: each relative link names a file of the repository."""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINK = re.compile(r"(?<!\\)\[[^\]]*\]\((?!https?:|mailto:|#)([^)#\s]+)(?:#[^)]*)?\)")  # not "\[Kennel](e)"


def test_the_readme_is_at_most_150_lines():
    assert len((ROOT / "README.md").read_text().splitlines()) <= 150


@pytest.mark.parametrize("doc", [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")),
                                 ROOT / "knowledge" / "DATA.md", ROOT / "bot" / "README.md"],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_of_a_doc_names_a_file_that_exists(doc):
    missing = [target for target in LINK.findall(doc.read_text()) if not (doc.parent / target).exists()]
    assert not missing, f"{doc.relative_to(ROOT)} links to missing files: {missing}"
