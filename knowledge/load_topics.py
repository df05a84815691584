"""Loading a town's topics.yml, gaps.yml, materials.yml and definitions.yml (format: knowledge/DATA.md);
every error names the file and the key."""

from __future__ import annotations

from pathlib import Path

from .load_law import ROOT, File, cite, resolve
from .model import (MATERIAL_KINDS, PLACEHOLDER, Definition, Gap, MaterialGroup, Parameter, Topic, material_words,
                    term_key)
from .rules import Rule
from .rules import words as _words


def _check_placeholders(f: File, text: str, key: str, params: dict[str, Parameter]) -> None:
    for m in PLACEHOLDER.finditer(text):
        if m.group(1) not in params:
            raise f.fail(key, f"placeholder {{{m.group(1)}}} names no parameter")


# -- topics, gaps, profile ------------------------------------------------------------------------

def _load_catalogue() -> dict[str, dict]:
    f = File(ROOT / "topics.yml")
    for key, raw in f.data.items():
        f.mapping(raw, key, {"title", "handler"})
    return f.data


def load_topics(path: Path, sections, params) -> dict[str, Topic]:
    f = File(path)
    catalogue = _load_catalogue()
    data = f.mapping(f.data, "(top)", set(catalogue))
    topics = {}
    for key, raw in data.items():
        t = f.mapping(raw, key, {"covered"}, {"summary", "citations", "caveats", "note", "rules"})
        if not isinstance(t["covered"], bool):
            raise f.fail(f"{key}.covered", "must be true or false")
        citations = tuple(cite(f, sections, c, f"{key}.citations[{i}]")
                          for i, c in enumerate(f.listing(t.get("citations"), f"{key}.citations")))
        summary = f.text(t.get("summary"), f"{key}.summary", allow_empty=not t["covered"])
        note = f.text(t.get("note"), f"{key}.note", allow_empty=t["covered"])
        if t["covered"] and not citations:
            raise f.fail(f"{key}.citations", "a covered topic needs at least one citation")
        caveats = tuple(f.text(c, f"{key}.caveats[{i}]") for i, c in enumerate(f.listing(t.get("caveats"), key)))
        for i, text in enumerate((summary, note, *caveats)):
            _check_placeholders(f, text, key, params)
        rules = {}
        raw_rules = t.get("rules") or {}
        if not isinstance(raw_rules, dict):
            raise f.fail(f"{key}.rules", "must be a mapping of rule names")
        for name, rule in raw_rules.items():
            r = f.mapping(rule, f"{key}.rules.{name}", {"text", "section", "quote"},
                          {"lead", "asks", "alone", "examples", "when_said", "note"})
            text = f.text(r["text"], f"{key}.rules.{name}.text")
            lead = f.text(r.get("lead"), f"{key}.rules.{name}.lead", allow_empty=True)
            asks = f.text(r.get("asks"), f"{key}.rules.{name}.asks", allow_empty=True)
            examples = f.examples(r.get("examples"), f"{key}.rules.{name}.examples")
            when_said = f.text(r["when_said"], f"{key}.rules.{name}.when_said") if "when_said" in r else ""
            if when_said and not all(_words(g) for g in when_said.split(";")):
                raise f.fail(f"{key}.rules.{name}.when_said",
                             "each group (between ';') must name a word of three letters or more that is not a stop "
                             "word (knowledge/rules.py STOPWORDS)")
            alone = r.get("alone", False)
            if not isinstance(alone, bool):
                raise f.fail(f"{key}.rules.{name}.alone", "must be true or false")
            for part in (text, lead):
                _check_placeholders(f, part, f"{key}.rules.{name}", params)
            rules[name] = Rule(text, cite(f, sections, {"section": r["section"], "quote": r["quote"]},
                                          f"{key}.rules.{name}"), lead=" ".join(lead.split()), asks=asks, alone=alone,
                                          examples=examples, when_said=" ".join(when_said.split()),
                                          note=f.note(r, f"{key}.rules.{name}.note"))
        topics[key] = Topic(key=key, title=catalogue[key]["title"], covered=t["covered"], summary=summary,
                            citations=citations, caveats=caveats, note=note,
                            handler=catalogue[key]["handler"], rules=rules)
    return topics


def load_gaps(path: Path, sections, params: dict | None = None) -> tuple[Gap, ...]:
    f = File(path)
    catalogue = _load_catalogue()
    gaps = []
    for i, raw in enumerate(f.listing(f.data, "(top)")):
        g = f.mapping(raw, f"[{i}]", {"id", "section", "what", "affects"}, {"filled_by", "filled"})
        ref = f.text(str(g["section"]), f"[{i}].section")
        if resolve(sections, ref) is None:
            raise f.fail(f"{g['id']}.section", f"{ref!r} is not a section of the code")
        affects = tuple(f.listing(g["affects"], f"{g['id']}.affects"))
        for a in affects:
            if a not in catalogue:
                raise f.fail(f"{g['id']}.affects", f"unknown topic {a!r}")
        filled_by = tuple(str(n) for n in f.listing(g["filled_by"], f"{g['id']}.filled_by")) if "filled_by" in g \
            else ()
        for n in filled_by:
            if params is not None and (n not in params or not params[n].delegated_to):
                raise f.fail(f"{g['id']}.filled_by", f"{n!r} is not an amount the code delegates (parameters/*.yml "
                                                     "`delegated:`)")
        if "filled" in g and not filled_by:
            raise f.fail(f"{g['id']}.filled", "says what answers say once `filled_by` amounts are set: name them")
        filled = f.text(g["filled"], f"{g['id']}.filled", True).strip() if "filled" in g else ""
        gaps.append(Gap(f.text(g["id"], f"[{i}].id"), ref, f.text(g["what"], f"{g['id']}.what"), affects,
                        filled_by, " ".join(filled.split())))
    return tuple(gaps)


def load_materials(path: Path, sections) -> dict | None:
    """Optional materials.yml: names residents use for materials, grouped by the rule that governs them
    (format: knowledge/DATA.md). A name may appear in one group only."""
    if not path.exists():
        return None
    f = File(path)
    top = f.mapping(f.data, "(top)", {"prohibited"}, set(MATERIAL_KINDS))
    groups: dict[str, list[MaterialGroup]] = {}
    seen: dict[tuple[str, ...], str] = {}
    for kind in MATERIAL_KINDS:
        groups[kind] = []
        for i, raw in enumerate(f.listing(top.get(kind), kind)):
            key = f"{kind}[{i}]"
            g = f.mapping(raw, key, {"what", "names", "rule", "citations"})
            names = []
            for n in f.listing(g["names"], f"{key}.names"):
                words = material_words(f.text(str(n), f"{key}.names"))
                if not words:
                    raise f.fail(f"{key}.names", f"{n!r} has no words")
                if words in seen:
                    raise f.fail(f"{key}.names", f"{n!r} is also a name in {seen[words]}")
                seen[words] = key
                names.append(words)
            if not names:
                raise f.fail(f"{key}.names", "a group needs at least one name")
            citations = tuple(cite(f, sections, c, f"{key}.citations[{j}]")
                              for j, c in enumerate(f.listing(g["citations"], f"{key}.citations")))
            if not citations:
                raise f.fail(f"{key}.citations", "a group needs at least one citation")
            groups[kind].append(MaterialGroup(kind, f.text(g["what"], f"{key}.what"), tuple(names),
                                              " ".join(f.text(g["rule"], f"{key}.rule").split()), citations))
    return groups


def load_definitions(path: Path, sections) -> dict[str, Definition]:
    """Optional definitions.yml: every term the code defines, the words residents use for it, the defining
    paragraph quoted (checked like every citation) and, where the definition points elsewhere, ``see``."""
    if not path.exists():
        return {}
    f = File(path)
    found: dict[str, Definition] = {}
    for i, raw in enumerate(f.listing(f.data, "(top)")):
        d = f.mapping(raw, f"[{i}]", {"term", "words", "section", "quote"}, {"see", "lead", "examples", "note"})
        term = f.text(d["term"], f"[{i}].term")
        words = tuple(f.text(w, f"{term}.words") for w in f.listing(d["words"], f"{term}.words"))
        see = cite(f, sections, d["see"], f"{term}.see") if d.get("see") is not None else None
        lead = " ".join(f.text(d.get("lead"), f"{term}.lead", True).split())
        examples = f.examples(d.get("examples"), f"{term}.examples")
        entry = Definition(term, words, cite(f, sections, {"section": d["section"], "quote": d["quote"]}, term), see,
                           lead, examples, note=f.note(d, f"{term}.note"))
        for word in (term, *words):
            key = term_key(word)
            if key in found and found[key].term != term:
                raise f.fail(f"{term}.words", f"{word!r} already stands for {found[key].term!r}")
            found[key] = entry
    return found

