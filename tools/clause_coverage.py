"""Which clauses of a town's own code no named rule answers (#21): run by hand, never at run time.

    python tools/clause_coverage.py [town ...]

For each town (all of knowledge/towns/ by default) it lists every paragraph of every section of the town's
own code (the Wisconsin statutes and administrative code the towns adopt are left out) and marks it covered
when a rule of the town's topics.yml cites that paragraph, a paragraph under it or one it is under (a rule
citing "7.02-14(c)(2)" covers "(c)(2)", "(c)(2)a", "(c)(2)b" and the heading "(c)"). Paragraphs that are only
a heading ("(b) Multiple Dog Licenses.", "(a)(1) Criteria.", a table caption, a list of section titles) are
skipped. It prints the uncovered paragraphs (marked "def" where definitions.yml quotes them: a definition
answers them, though no rule does) and each town's coverage as a percentage, by rules alone and by rules or
definitions.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import knowledge  # noqa: E402
from knowledge.model import Section, Town, _under  # noqa: E402

#: a paragraph's own marker(s) at the start of its text: "(b)", "(2)(a)", "a.", "(iv)", "1."
MARKER = re.compile(r"^\s*(?:(?:\([0-9a-z]+\))+|[0-9a-z]{1,4}\.)\s*", re.I)
#: a heading's words: a short phrase with no verb of the law in it
LAW_WORDS = re.compile(r"\b(shall|may|must|means?|includes?|is|are|no|not)\b", re.I)
#: a line of a table of contents: "7.02 - 1 Dog licenses Required"
TOC_LINE = re.compile(r"^\s*\d+\.\d+\s*-\s*\d+\s+\S")


@dataclass(frozen=True)
class Clause:
    section: str
    path: str
    text: str
    covered_by: tuple[str, ...]  # "topic.rules.name" of each rule that covers it
    defined: bool  # definitions.yml quotes it

    @property
    def ref(self) -> str:
        return f"{self.section}{self.path}"


def heading_only(section: Section, index: int) -> bool:
    """Is paragraph ``index`` of ``section`` only a heading, a caption or a table of contents?"""
    p = section.paragraphs[index]
    if p.path.endswith("[table]"):
        return True
    lines = [line for line in p.text.splitlines() if line.strip()]
    if lines and all(TOC_LINE.match(line) for line in lines):
        return True
    rest = MARKER.sub("", p.text).strip()
    if p.path and MARKER.match(rest):  # "(2)(a) ..." written with both markers
        rest = MARKER.sub("", rest).strip()
    has_children = any(q.path != p.path and _under(q.path, p.path) for q in section.paragraphs)
    if not has_children:
        return False
    # "Multiple Dog Licenses." / "Criteria." / "Dogs." / "Shelter from Inclement Weather."
    return len(rest) <= 100 and rest.count(".") <= 1 and ":" not in rest[:-1] and not LAW_WORDS.search(rest)


def own_sections(town: Town) -> list[Section]:
    return [s for s in town.sections.values() if not s.code.startswith("Wisconsin")]


def clauses(town: Town) -> list[Clause]:
    """Every substantive paragraph of the town's own code, with the rules that cover it."""
    cited: dict[str, list[tuple[str, str]]] = {}  # section number -> [(path, "topic.rules.name")]
    for key, topic in town.topics.items():
        for name, rule in topic.rules.items():
            c = rule.citation
            cited.setdefault(c.section.number, []).append((c.path, f"{key}.rules.{name}"))
    defined: dict[str, list[str]] = {}
    for d in town.definitions.values():
        for c in (d.citation, d.see):
            if c is not None:
                defined.setdefault(c.section.number, []).append(c.path)
    out = []
    for section in own_sections(town):
        for i, p in enumerate(section.paragraphs):
            if heading_only(section, i):
                continue
            by = tuple(dict.fromkeys(
                name for path, name in cited.get(section.number, ())
                if _under(p.path, path) or _under(path, p.path)))
            d = any(_under(p.path, path) or _under(path, p.path) for path in defined.get(section.number, ()))
            out.append(Clause(section.number, p.path, p.text, by, d))
    return out


def coverage(town: Town) -> dict:
    """{"town", "total", "covered", "percent", "uncovered": [Clause, ...]} for one town."""
    found = clauses(town)
    uncovered = [c for c in found if not c.covered_by]
    covered = len(found) - len(uncovered)
    with_definitions = len(found) - sum(1 for c in uncovered if not c.defined)
    return {"town": town.key, "total": len(found), "covered": covered,
            "percent": round(100.0 * covered / len(found), 1) if found else 100.0, "uncovered": uncovered,
            "covered_or_defined": with_definitions,
            "percent_or_defined": round(100.0 * with_definitions / len(found), 1) if found else 100.0}


def report(keys: list[str] | None = None) -> list[dict]:
    return [coverage(knowledge.load_town(key)) for key in (keys or knowledge.town_keys())]


def main(argv: list[str]) -> int:
    results = report(argv or None)
    for r in results:
        print(f"== {r['town']}: {r['covered']}/{r['total']} clauses covered by a rule ({r['percent']}%)")
        for c in r["uncovered"]:
            text = " ".join(c.text.split())
            print(f"  {'def ' if c.defined else '    '}{c.ref}: {text[:110]}{'...' if len(text) > 110 else ''}")
    for r in results:
        print(f"{r['town']}: {r['covered']}/{r['total']} ({r['percent']}%) covered by a rule; "
              f"{r['covered_or_defined']}/{r['total']} ({r['percent_or_defined']}%) by a rule or a definition")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
