#!/usr/bin/env python3
"""Check knowledge/towns/dunkirk against the source text we received (run by hand; not at run time).

    .venv/bin/python tools/check_dunkirk.py [/work/shared/ordinances/dunkirk-chapter-7.txt]

1. sections.yml against the source, both ways, after undoing document.ocr_corrections:
   - every non-debris line of the source is in the concatenated paragraph texts (headings are checked
     against section numbers and titles; the "(Missing part of the PDF ...)" note is checked as "...");
   - every paragraph text is in the source, and the paragraphs come in the source's order.
2. topics.yml and parameters/topics.yml: every quote is in the cited section/paragraph (or a paragraph
   under it), every cited section and path exists, every {placeholder} names a parameter defined in
   parameters/*.yml or knowledge/state/parameters.yml, and summaries, caveats and notes hold no digits
   except in section references (7.02-6(e), 7.12(5), Chapter 17).
3. gaps.yml: ids unique, sections resolvable, topics known.
Exit status 1 on any failure.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
TOWN = Path(os.environ.get("DUNKIRK_DIR") or ROOT / "knowledge" / "towns" / "dunkirk")
DEFAULT_SOURCE = Path("/work/shared/ordinances/dunkirk-chapter-7.txt")
DEBRIS = re.compile(r"^Click Here to download\b")
GAP_NOTE = "(Missing part of the PDF, not listed in its entirety)"
HEADING = re.compile(r"^(?:Sec\.? )?(7\.\d\d)(?: ?- ?(\d+))?(?: -)? (.*)$")
PLACEHOLDER = re.compile(r"\{([a-z0-9_.]+)\}")
# Section references allowed to carry digits in resident-facing prose.
SECTION_REF = re.compile(r"\b7\.\d\d(?:-\d+)?(?:\([a-z0-9]+\)|[a-z]\b)*|\bChapter 1?7\b")

failures: list[str] = []


def fail(msg: str) -> None:
    failures.append(msg)


def norm(text: str) -> str:
    return " ".join(text.split())


def load(path: Path):
    with path.open(encoding="utf-8") as fh:
        return yaml.safe_load(fh)


def undo(sections: list[dict], corrections: list[dict]) -> dict[str, list[tuple[str, str]]]:
    """{section number: [(path, text as printed)]}: the corrections reversed."""
    texts = {s["number"]: [[p["path"], p["text"]] for p in s["paragraphs"]] for s in sections}
    for c in corrections:
        paras = texts.get(c["section"])
        if paras is None:
            fail(f"correction names unknown section {c['section']}")
            continue
        hits = [p for p in paras if c["now"] in p[1]]
        total = sum(p[1].count(c["now"]) for p in paras)
        if total != 1:
            fail(f"{c['section']}: corrected text {c['now']!r} occurs {total} times (must be 1 to undo)")
            continue
        hits[0][1] = hits[0][1].replace(c["now"], c["was"])
    return {k: [tuple(p) for p in v] for k, v in texts.items()}


def check_sections(source: Path) -> dict[str, dict]:
    data = load(TOWN / "sections.yml")
    sections = data["sections"]
    by_number = {s["number"]: s for s in sections}
    printed = undo(sections, data["document"].get("ocr_corrections") or [])
    src_text = source.read_text(encoding="utf-8")
    src_lines = [l.strip() for l in src_text.splitlines()]
    concat = " ".join(t for paras in printed.values() for _, t in paras)
    gap_substitutions = 0

    # source -> yaml
    checked = 0
    for n, line in enumerate(src_lines, 1):
        if not line or DEBRIS.match(line):
            continue
        checked += 1
        if n == 1:
            if not data["document"]["title"].endswith(line):
                fail(f"source line 1 (document title) {line!r} is not the document title")
            continue
        if line in concat:
            continue
        if GAP_NOTE in line and line.replace(GAP_NOTE, "...") in concat:
            gap_substitutions += 1
            continue
        m = HEADING.match(line)
        if m:
            number = m.group(1) + (f"-{m.group(2)}" if m.group(2) else "")
            s = by_number.get(number)
            if s is None:
                fail(f"source line {n}: heading for {number}, which is not in sections.yml")
                continue
            rest = m.group(3)
            title = s["title"]
            if rest.lower().rstrip(".") == title.lower():
                continue
            if rest.lower().startswith(title.lower()):  # heading and text on one line
                body = rest[len(title):].lstrip(".").strip()
                if body and body in concat:
                    continue
            fail(f"source line {n}: heading {line!r} does not match {number} {title!r}")
            continue
        fail(f"source line {n} is not in sections.yml: {line[:90]!r}")

    # yaml -> source, in order
    pos = 0
    n_par = 0
    for s in sections:
        for path, text in printed[s["number"]]:
            n_par += 1
            probe = text
            if s["number"] == "7.02-3" and path == "(a)(3)":
                if not probe.startswith("... "):
                    fail("7.02-3(a)(3) should start with '...' where our copy lost the words")
                probe = GAP_NOTE + probe[3:]
            at = src_text.find(probe, pos)
            if at < 0:
                where = "anywhere in" if probe not in src_text else "in order in"
                fail(f"{s['number']}{path}: paragraph text not found {where} the source: {probe[:80]!r}")
            else:
                pos = at + len(probe)
    print(f"sections.yml: {len(sections)} sections, {n_par} paragraphs, "
          f"{len(data['document'].get('ocr_corrections') or [])} corrections; "
          f"{checked} non-debris source lines checked; gap-note substitutions: {gap_substitutions}")
    return by_number


def text_at(section: dict, path: str) -> str | None:
    paras = [p for p in section["paragraphs"] if p["path"].startswith(path)]
    if not paras:
        return None
    return "\n\n".join(p["text"] for p in paras)


def resolve(sections: dict[str, dict], ref: str):
    ref = ref.strip()
    for number in sorted(sections, key=len, reverse=True):
        if ref.startswith(number):
            rest = ref[len(number):].strip()
            if rest and rest[0] not in "([":
                continue
            if text_at(sections[number], rest) is not None:
                return sections[number], rest
    return None


def check_quote(sections, where: str, c: dict) -> None:
    found = resolve(sections, str(c.get("section", "")))
    if found is None:
        fail(f"{where}: cites {c.get('section')!r}, not a section/paragraph")
        return
    section, path = found
    quote = c.get("quote") or ""
    paras = [p["text"] for p in section["paragraphs"] if p["path"].startswith(path)]
    if not any(norm(quote) in norm(t) for t in paras):
        fail(f"{where}: quote not in a single paragraph of {c['section']}: {quote!r}")


def check_prose(where: str, text: str, params: set[str]) -> None:
    for m in PLACEHOLDER.finditer(text):
        if m.group(1) not in params:
            fail(f"{where}: placeholder {{{m.group(1)}}} names no parameter")
    stripped = SECTION_REF.sub("", PLACEHOLDER.sub("", text))
    digits = re.findall(r"\S*\d\S*", stripped)
    if digits:
        fail(f"{where}: digits outside placeholders/section references: {digits}")


def check_topics(sections: dict[str, dict]) -> None:
    state = ROOT / "knowledge" / "state"
    all_sections = dict(sections)
    for s in (load(state / "sections.yml") or {}).get("sections", []):
        all_sections[s["number"]] = s
    params: dict[str, dict] = {}
    mine = load(TOWN / "parameters" / "topics.yml") or {}
    for f in sorted((TOWN / "parameters").glob("*.yml")) + [state / "parameters.yml"]:
        for k, v in (load(f) or {}).items():
            if k in params:
                fail(f"parameter {k} defined twice ({f.name})")
            params[k] = v
    names = set(params) | set(LEAD_PARAMS)
    n_quotes = 0
    for k, p in mine.items():
        check_quote(all_sections, f"parameters/topics.yml {k}.reference", p["reference"])
        n_quotes += 1
        for v in p.get("values") or []:
            if str(v.get("since")) != "2026-01-01":
                fail(f"{k}: since must be 2026-01-01")
    catalogue = load(ROOT / "knowledge" / "topics.yml")
    topics = load(TOWN / "topics.yml")
    missing = set(catalogue) - set(topics)
    extra = set(topics) - set(catalogue)
    if missing or extra:
        fail(f"topics.yml: missing {sorted(missing)}, unknown {sorted(extra)}")
    for key, t in topics.items():
        for i, c in enumerate(t.get("citations") or []):
            check_quote(all_sections, f"topics.yml {key}.citations[{i}]", c)
            n_quotes += 1
        if t.get("covered") and not t.get("citations"):
            fail(f"topics.yml {key}: covered without citations")
        if not t.get("covered") and not t.get("note"):
            fail(f"topics.yml {key}: not covered and no note")
        for field in ("summary", "note"):
            if t.get(field):
                check_prose(f"topics.yml {key}.{field}", t[field], names)
        for i, c in enumerate(t.get("caveats") or []):
            check_prose(f"topics.yml {key}.caveats[{i}]", c, names)
    undefined_lead = sorted(set(LEAD_PARAMS) - set(params))
    print(f"topics.yml: {len(topics)} topics ({sum(1 for t in topics.values() if t.get('covered'))} covered); "
          f"parameters/topics.yml: {len(mine)} parameters; {n_quotes} quotes checked")
    if undefined_lead:
        print(f"  note: lead-owned parameters used but not yet defined in parameters/: {undefined_lead}")
    gaps = load(TOWN / "gaps.yml") or []
    ids = [g["id"] for g in gaps]
    if len(ids) != len(set(ids)):
        fail("gaps.yml: duplicate ids")
    for g in gaps:
        if resolve(all_sections, str(g["section"])) is None:
            fail(f"gaps.yml {g['id']}: section {g['section']!r} not resolvable")
        for a in g["affects"]:
            if a not in catalogue:
                fail(f"gaps.yml {g['id']}: unknown topic {a}")
    print(f"gaps.yml: {len(gaps)} gaps")


# Parameters the lead defines (brief); placeholders may name them before their file exists.
LEAD_PARAMS = [
    "dog_license.licensable_age_months", "dog_license.late_fee", "dog_license.late_fee.deadline",
    "dog_license.late_fee.days_after_acquiring", "dog_license.multiple.fee",
    "dog_license.multiple.included_dogs", "dog_license.multiple.fee_per_extra_dog",
    "rabies_vaccination.age_months", "rabies_vaccination.revaccinate_within_years",
    "rabies_vaccination.days_after_obtaining", "rabies_vaccination.default_validity_years",
    "quarantine.delivery_hours", "quarantine.bite_observation_days", "quarantine.bite_confinement_days",
    "quarantine.exposure.unvaccinated_days", "quarantine.exposure.vaccinate_from_day",
    "quarantine.exposure.vaccinate_to_day", "quarantine.exposure.vaccinated_days", "animal_limits.dogs",
    "animal_limits.cats", "animal_limits.litter_weeks", "open_burning.setback_feet",
]


def main(argv: list[str]) -> int:
    source = Path(argv[1]) if len(argv) > 1 else DEFAULT_SOURCE
    sections = check_sections(source)
    if (TOWN / "topics.yml").exists():
        check_topics(sections)
    for f in failures:
        print("FAIL:", f)
    print("OK" if not failures else f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
