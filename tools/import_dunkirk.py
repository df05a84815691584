#!/usr/bin/env python3
"""Build knowledge/towns/dunkirk/sections.yml from the Dunkirk Chapter 7 text we received.

Run by hand only (never at run time):

    .venv/bin/python tools/import_dunkirk.py /work/shared/ordinances/dunkirk-chapter-7.txt

What it does, so the result can be reproduced and audited:
  * drops web-page debris ("Click Here to download ..." lines);
  * splits the text into sections at the printed headings (7.01, 7.02 with its table of contents,
    7.02-1 ... 7.02-19, 7.09 ... 7.13);
  * applies the OCR/typo corrections in CORRECTIONS (each is also written to document.ocr_corrections;
    each `now` occurs exactly once in its section, so a check can undo it unambiguously);
  * gives every paragraph the full path of its markers ((a), (a)(1), (d)(3)a, (e)(2)(b)1 ...);
    PATH_OVERRIDES fixes the few places where the printed markers alone do not say the level;
  * keeps the words as printed otherwise. tools/check_dunkirk.py verifies the result against the source.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "knowledge" / "towns" / "dunkirk" / "sections.yml"
DEFAULT_SOURCE = Path("/work/shared/ordinances/dunkirk-chapter-7.txt")

DEBRIS = re.compile(r"^Click Here to download\b")
GAP_NOTE = "(Missing part of the PDF, not listed in its entirety)"

# (section, was, now). `was` is the text as printed; `now` must be unique within its section.
CORRECTIONS = [
    ("7.02-1", "to OW11, harbor", "to own, harbor"),
    ("7.02-1", "either by lease or otherwise", "either by leash or otherwise"),
    ("7.02-1", "a period often (10) days", "a period of ten (10) days"),
    ("7.02-2", "thirty (30) days' after", "thirty (30) days after"),
    ("7.02-2", "unsprayed", "unspayed"),
    ("7.02-5", "substitute tab", "substitute tag"),
    ("7.02-6", "(I) Habitually", "(1) Habitually"),
    ("7.02-6", "Liability for Damaged Caused", "Liability for Damage Caused"),
    ("7.02-7", "proper and human manner", "proper and humane manner"),
    ("7.02-11", "within anyone (1) month", "within any one (1) month"),
    ("7.02-12", "(b)( I) No person", "(b)(1) No person"),
    ("7.02-12", "Sec. lOO.30(2)(e)", "Sec. 100.30(2)(e)"),
    ("7.02-14", "used to confined farm animals", "used to confine farm animals"),
    ("7.02-16", "may be charge with", "may be charged with"),
    ("7.02-18", "Twenty-Jive", "Twenty-Five"),
    ("7.02-19", "0 fat least", "of at least"),
    ("7.09", "It the Board", "If the Board"),
    ("7.10", "state statue", "state statute"),
    ("7.12", "right-or-way", "right-of-way"),
    ("7.12", "burning my not", "burning may not"),
    ("7.13", "burning hall be", "burning shall be"),
]

# Section titles as printed in each section's own heading (capitalisation normalised for the
# all-capitals headings of 7.01, 7.02 and 7.09-7.13; trailing periods dropped).
TITLES = {
    "7.01": "Repeal of Prior Ordinance",
    "7.02": "Licensing of Dogs and Regulations of Animals",
    "7.09": "Regulations of Open Burning - Definitions",
    "7.10": "Prohibited Open Burning",
    "7.11": "Other Open Burning",
    "7.12": "Open Burning Rules",
    "7.13": "Penalty for Violation(s)",
}

GAP_7_02_3 = (
    "Our copy is missing the start of this section (\"Missing part of the PDF, not listed in its "
    "entirety\"): the subsection (a) heading and paragraphs (a)(1)-(3), which hold the per-dog license "
    "tax amounts and the issuance details. Only the last words of (a)(3), \"... by state law.\", and the "
    "rest of that paragraph (the tag delivered with the license) survive; the \"...\" marks the lost "
    "words, which we do not supply."
)

# Paragraphs whose level the printed marker does not show: (section, start of text) -> path.
PATH_OVERRIDES = {
    ("7.02-3", "... by state law."): "(a)(3)",
    ("7.02-16", "(a) A captive wild bird"): "(e)(3)(a)",
    ("7.02-16", "(b) Farm-raised deer"): "(e)(3)(b)",
    ("7.02-16", "(c) Animals that are treated"): "(e)(3)(c)",
}

# One printed line holding two paragraphs: split before this text.
SPLITS = {("7.02-13", "(c) If potable water")}

HEAD_0701 = re.compile(r"^7\.01 REPEAL OF PRIOR ORDINANCE$")
HEAD_0702 = re.compile(r"^7\.02 LICENSING OF DOGS AND REGULATIONS OF ANIMALS$")
TOC_LINE = re.compile(r"^7\.02 ?- ?\d+ \S")
HEAD_SUB = re.compile(r"^Sec\.? 7\.02 ?- ?(\d+) (.*)$")
HEAD_BURN = re.compile(r"^Sec\.? (7\.(?:09|10|11|12|13)) - (.*)$")

# Titles of 7.02-x sections (from their own headings); used to split a heading from text on the same line.
TITLES_0702 = {
    1: "Dog License Required; Definitions",
    2: "Rabies Vaccination Required for License",
    3: "Dog License Tax and Multiple Dog Licenses",
    4: "Late Fees",
    5: "Rabies Quarantine",
    6: "Restrictions on Keeping of Dogs, Cats, Fowl and Other Animals",
    7: "Impoundment of Animals",
    8: "Dogs and Cats Restricted on Cemeteries",
    9: "Duty of Owner in Case of Dog or Cat Bite",
    10: "Injury to Property by Animals",
    11: "Barking Dogs and Crying Cats",
    12: "Sale of Rabbits, Chicks or Artificially Colored Animals",
    13: "Providing Proper Food and Drink to Confined Animals",
    14: "Providing Proper Shelter",
    15: "Neglected or Abandoned Animals",
    16: "Cruelty to Animals and Birds Prohibited",
    17: "Limitation on Number of Dogs and Cats",
    18: "Penalties",
    19: "Enforcement",
}

MARKERS = [  # (regex at the start of a paragraph, kind)
    (re.compile(r"^\(([a-z])\)"), "letter"),
    (re.compile(r"^\((\d+)\)"), "number"),
    (re.compile(r"^([a-z])\. "), "dotletter"),
    (re.compile(r"^(\d+)\. "), "dotnumber"),
]


def read_markers(text: str) -> list[tuple[str, str]]:
    """The chain of markers opening a paragraph: "(2)(b) A person" -> [("number","(2)"),("letter","(b)")]."""
    found, rest = [], text
    while True:
        for rx, kind in MARKERS:
            m = rx.match(rest)
            if m:
                token = f"({m.group(1)})" if kind in ("letter", "number") else m.group(1)
                found.append((kind, token))
                rest = rest[m.end():]
                break
        else:
            return found
        if kind.startswith("dot"):
            return found


def split_sections(lines: list[str]) -> tuple[str, list[dict]]:
    """Cut the source into [{number, title, lines}] in order; returns (document title, sections)."""
    title = lines[0].strip()
    sections: list[dict] = []
    current = None
    in_toc = False
    for raw in lines[1:]:
        line = raw.strip()
        if not line or DEBRIS.match(line):
            continue
        if HEAD_0701.match(line):
            current = {"number": "7.01", "title": TITLES["7.01"], "lines": []}
            sections.append(current)
            continue
        if HEAD_0702.match(line):
            current = {"number": "7.02", "title": TITLES["7.02"], "lines": []}
            sections.append(current)
            in_toc = True
            continue
        if in_toc and TOC_LINE.match(line):
            current["lines"].append(line)
            continue
        in_toc = False
        m = HEAD_SUB.match(line)
        if m:
            n = int(m.group(1))
            number = f"7.02-{n}"
            heading_title = TITLES_0702[n]
            rest = m.group(2)
            if not rest.startswith(heading_title):
                raise SystemExit(f"{number}: heading {rest!r} does not start with {heading_title!r}")
            rest = rest[len(heading_title):]
            current = {"number": number, "title": heading_title, "lines": []}
            sections.append(current)
            rest = rest[1:] if rest.startswith(".") else rest
            if rest.strip():  # heading and text on one line (7.02-8, 7.02-9, 7.02-10)
                current["lines"].append(rest.strip())
            continue
        m = HEAD_BURN.match(line)
        if m:
            number = m.group(1)
            if m.group(2).strip().lower() != TITLES[number].lower():
                raise SystemExit(f"{number}: heading {m.group(2)!r} != {TITLES[number]!r}")
            current = {"number": number, "title": TITLES[number], "lines": []}
            sections.append(current)
            continue
        if current is None:
            raise SystemExit(f"text before the first section: {line!r}")
        current["lines"].append(line)
    return title, sections


def correct(number: str, lines: list[str]) -> list[str]:
    text = "\n".join(lines)
    for section, was, now in CORRECTIONS:
        if section != number:
            continue
        if text.count(was) != 1:
            raise SystemExit(f"{section}: correction {was!r} found {text.count(was)} times, expected 1")
        text = text.replace(was, now)
        if text.count(now) != 1:
            raise SystemExit(f"{section}: corrected text {now!r} is not unique in the section")
    return text.split("\n")


def paragraphs_of(section: dict) -> list[dict]:
    number = section["number"]
    lines = correct(number, section["lines"])
    if number == "7.02":  # the table of contents: one paragraph, one entry a line
        return [{"path": "", "text": "\n".join(lines)}]
    if number == "7.02-3":
        if not lines[0].startswith(GAP_NOTE):
            raise SystemExit("7.02-3 no longer opens with the gap note; review the import")
        lines[0] = "..." + lines[0][len(GAP_NOTE):]
    pieces = []
    for line in lines:
        for sec, marker in SPLITS:
            if sec == number and f" {marker}" in line:
                head, tail = line.split(f" {marker}", 1)
                pieces.extend([head, marker + tail])
                break
        else:
            pieces.append(line)
    top = "number" if number in ("7.09", "7.10", "7.11", "7.12", "7.13") else "letter"
    order = {"letter": 0, "number": 1} if top == "letter" else {"number": 0, "letter": 1}
    stack: list[str] = []  # marker tokens by level
    result = []
    for text in pieces:
        override = next((p for (sec, start), p in PATH_OVERRIDES.items()
                         if sec == number and text.startswith(start)), None)
        if override is not None:
            path = override
            stack = re.findall(r"\([a-z0-9]+\)|[a-z0-9]+$", override)
        else:
            markers = read_markers(text)
            if not markers:
                if result:
                    raise SystemExit(f"{number}: unmarked paragraph after marked ones: {text[:60]!r}")
                path = ""
            else:
                kind, token = markers[0]
                if kind.startswith("dot"):  # "a." / "1.": a child of the deepest bracketed marker
                    stack = [t for t in stack if t.startswith("(")] + [token]
                else:
                    level = order[kind]
                    stack = stack[:level]
                    if len(stack) < level:
                        raise SystemExit(f"{number}: marker {token} skips a level: {text[:60]!r}")
                    stack.extend(tok for _, tok in markers)
                path = "".join(stack)
        if any(p["path"] == path for p in result):
            raise SystemExit(f"{number}: path {path!r} twice")
        result.append({"path": path, "text": text})
    return result


class Literal(str):
    pass


class Quoted(str):
    pass


def _literal(dumper, value):
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="|")


def _quoted(dumper, value):
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style='"')


class Dumper(yaml.SafeDumper):
    pass


Dumper.add_representer(Literal, _literal)
Dumper.add_representer(Quoted, _quoted)


def build(source: Path) -> dict:
    lines = source.read_text(encoding="utf-8").splitlines()
    title, sections = split_sections(lines)
    out_sections = []
    for s in sections:
        entry = {"number": Quoted(s["number"]), "title": s["title"],
                 "paragraphs": [{"path": Quoted(p["path"]), "text": Literal(p["text"])}
                                for p in paragraphs_of(s)]}
        if s["number"] == "7.02-3":
            entry["gap"] = GAP_7_02_3
        out_sections.append(entry)
    return {
        "document": {
            "title": f"Town of Dunkirk Code of Ordinances, {title}",
            "source": source.name,
            "numbering": "official",
            "numbering_note": Quoted(""),
            "ocr_corrections": [{"section": Quoted(s), "was": Quoted(w), "now": Quoted(n)}
                                for s, w, n in CORRECTIONS],
        },
        "sections": out_sections,
    }


HEADER = """\
# Town of Dunkirk (Dane County, WI), Code Chapter 7, transcribed verbatim from
# /work/shared/ordinances/dunkirk-chapter-7.txt by tools/import_dunkirk.py (run by hand; never at run time).
# OCR/typo flaws are corrected and every correction is listed under document.ocr_corrections.
# Web-page debris ("Click Here to download ...") is dropped. 7.02-3 is incomplete in our copy: see its `gap`.
# Check against the source with: .venv/bin/python tools/check_dunkirk.py
"""


def main(argv: list[str]) -> None:
    source = Path(argv[1]) if len(argv) > 1 else DEFAULT_SOURCE
    data = build(source)
    text = yaml.dump(data, Dumper=Dumper, sort_keys=False, allow_unicode=True, width=float("inf"))
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(HEADER + text, encoding="utf-8")
    n_par = sum(len(s["paragraphs"]) for s in data["sections"])
    print(f"wrote {OUT.relative_to(ROOT)}: {len(data['sections'])} sections, {n_par} paragraphs, "
          f"{len(CORRECTIONS)} corrections")


if __name__ == "__main__":
    main(sys.argv)
