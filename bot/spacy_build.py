"""Build the rule-based spaCy pipeline that config.yml loads with SpacyNLP by path.

    python -m bot.spacy_build [--out bot/spacy_pipeline]

A blank English pipeline plus an ``entity_ruler``; its patterns come from the knowledge base (every section
number of every town, the materials and animals the code names) and from the word lists in bot/vocab.py.
No pretrained model is needed. The output directory is rebuilt only when its inputs change (make does that).
"""
from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

import spacy
import yaml

from bot import vocab

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "bot" / "spacy_pipeline"

DAYS = {
    "monday": ["monday", "mon", "mondays", "mondy"],
    "tuesday": ["tuesday", "tues", "tue", "tuesdy", "tusday", "tuesdays"],
    "wednesday": ["wednesday", "wed", "weds", "wensday", "wednsday", "wendsday", "wednesdays"],
    "thursday": ["thursday", "thurs", "thur", "thu", "thursdy", "thrusday", "thursdays"],
    "friday": ["friday", "fri", "fridy", "firday", "fridays"],
    "saturday": ["saturday", "sat", "saturady", "saterday", "satuday", "saturdays", "saturdy"],
    "sunday": ["sunday", "sundy", "sundays", "sundya"],
}
MONTHS = ["january", "jan", "february", "feb", "march", "mar", "april", "apr", "june", "jun", "july", "jul",
          "august", "aug", "september", "sept", "sep", "october", "oct", "november", "nov", "december", "dec",
          "febuary", "januray", "agust", "setember", "octobor", "decmber"]
RELATIVE = ["today", "tonight", "tonite", "2nite", "tomorrow", "tomorow", "tommorow", "tommorrow", "tmrw",
            "tmr", "tmrow", "2morrow", "2morow", "yesterday", "yesterdy", "now", "noon", "midnight", "tonihgt",
            "todya", "todays"]
PARTS = ["morning", "afternoon", "evening", "night", "nite", "am", "pm", "eve"]
LEADS = ["on", "this", "next", "last", "coming", "at", "around", "about", "by", "before", "after", "until",
         "till", "til", "in", "during", "early", "late", "mid", "since", "from", "past", "this coming"]


def phrase(text: str) -> list[dict]:
    """A LOWER token pattern for a phrase, tokenised the way the pipeline tokenises."""
    nlp = _tokenizer()
    return [{"LOWER": t.lower_} for t in nlp.make_doc(text)]


_NLP = None


def _tokenizer():
    global _NLP
    if _NLP is None:
        _NLP = spacy.blank("en")
    return _NLP


def kb_sections() -> list[str]:
    numbers = []
    for f in sorted((ROOT / "knowledge" / "towns").glob("*/sections.yml")):
        data = yaml.safe_load(f.read_text()) or {}
        for s in data.get("sections", []):
            numbers.append(str(s["number"]))
            for p in s.get("paragraphs", []):
                if p.get("path"):
                    numbers.append(f"{s['number']}{p['path']}")
    for f in sorted((ROOT / "knowledge" / "state").glob("sections.yml")):
        data = yaml.safe_load(f.read_text()) or {}
        for s in data.get("sections", []):
            numbers.append(str(s["number"]))
    return sorted(set(numbers), key=len, reverse=True)


def when_patterns() -> list[dict]:
    day_words = [w for ws in DAYS.values() for w in ws]
    pats: list[list[dict]] = []
    lead = {"LOWER": {"IN": LEADS}, "OP": "?"}
    part = {"LOWER": {"IN": PARTS}, "OP": "?"}
    pats.append([lead, {"LOWER": {"IN": RELATIVE}}, part])
    pats.append([{"LOWER": {"IN": ["right", "rite"]}}, {"LOWER": "now"}])
    pats.append([{"LOWER": {"IN": ["later", "earlier"]}}, {"LOWER": {"IN": ["today", "tonight"]}}])
    pats.append([{"LOWER": {"IN": ["this", "tomorrow", "tomorow", "tmrw", "yesterday", "last", "next"]}},
                 {"LOWER": {"IN": ["morning", "afternoon", "evening", "night", "nite", "weekend", "week", "month",
                                   "year", "spring", "fall", "summer", "winter", "eve"]}}])
    pats.append([{"LOWER": {"IN": ["the"]}}, {"LOWER": "day"}, {"LOWER": {"IN": ["after", "before"]}},
                 {"LOWER": {"IN": ["tomorrow", "yesterday"]}}])
    pats.append([lead, {"LOWER": {"IN": ["this", "next", "last", "coming"]}, "OP": "?"},
                 {"LOWER": {"IN": day_words}}, part])
    num = {"TEXT": {"REGEX": r"^(\d{1,2})(st|nd|rd|th)?$"}}
    pats.append([lead, {"LOWER": {"IN": MONTHS + ["may"]}}, {"LOWER": "the", "OP": "?"}, num,
                 {"ORTH": ",", "OP": "?"}, {"TEXT": {"REGEX": r"^20\d\d$"}, "OP": "?"}])
    pats.append([lead, {"LOWER": "the", "OP": "?"}, {"TEXT": {"REGEX": r"^\d{1,2}(st|nd|rd|th)$"}},
                 {"LOWER": "of"}, {"LOWER": {"IN": MONTHS + ["may"]}}])
    pats.append([{"LOWER": {"IN": ["in", "during", "early", "late", "mid", "by", "until", "before", "after",
                                   "since", "this", "next", "last"]}}, {"LOWER": {"IN": MONTHS + ["may"]}}])
    pats.append([{"LOWER": {"IN": ["this", "next", "last", "in"]}, "OP": "?"},
                 {"LOWER": {"IN": [m for m in MONTHS if m not in ("mar", "jun", "jul", "sep", "dec", "jan")]}}])
    pats.append([lead, {"TEXT": {"REGEX": r"^\d{1,2}/\d{1,2}(/\d{2,4})?$"}}])
    pats.append([lead, {"TEXT": {"REGEX": r"^20\d\d-\d\d-\d\d$"}}])
    # times: "at 10pm", "10:30 pm", "3 o'clock", "at 3", "around noon"
    pats.append([{"LOWER": {"IN": ["at", "around", "about", "by", "after", "before", "until", "till", "from",
                                   "@", "arond", "abt"]}, "OP": "?"},
                 {"TEXT": {"REGEX": r"^\d{1,2}(:\d\d)?$"}},
                 {"LOWER": {"IN": ["am", "pm", "a.m.", "p.m.", "a.m", "p.m", "o'clock", "oclock", "ish"]}}])
    pats.append([{"TEXT": {"REGEX": r"^\d{1,2}(:\d\d)?(am|pm|ish)$"}}])
    pats.append([{"LOWER": {"IN": ["at", "around", "about", "by", "@", "arond", "abt"]}},
                 {"TEXT": {"REGEX": r"^\d{1,2}(:\d\d)?(am|pm)?$"}}])
    pats.append([{"LOWER": {"IN": ["at", "around", "about", "by"]}, "OP": "?"},
                 {"TEXT": {"REGEX": r"^\d{1,2}:\d\d$"}}])
    pats.append([{"LOWER": {"IN": ["at", "around", "about", "by"]}, "OP": "?"},
                 {"LOWER": {"IN": ["noon", "midnight", "dawn", "sunrise", "sunset", "dusk", "lunchtime"]}}])
    pats.append([{"LOWER": {"IN": ["a", "one", "two", "three", "few", "couple", "\\d+"]}},
                 {"LOWER": {"IN": ["days", "day", "weeks", "week"]}}, {"LOWER": "ago"}])
    pats.append([{"TEXT": {"REGEX": r"^\d{1,2}$"}}, {"LOWER": {"IN": ["days", "weeks"]}}, {"LOWER": "ago"}])
    pats.append([{"LOWER": {"IN": ["a", "few"]}}, {"LOWER": {"IN": ["couple", "few"]}, "OP": "?"},
                 {"LOWER": "of", "OP": "?"}, {"LOWER": {"IN": ["days", "weeks"]}}, {"LOWER": "ago"}])
    pats.append([{"LOWER": "in"}, {"TEXT": {"REGEX": r"^\d{1,2}$"}}, {"LOWER": {"IN": ["hours", "hour", "days"]}}])
    return [{"label": "when", "pattern": p} for p in pats]


def build_patterns() -> list[dict]:
    pats: list[dict] = []

    def add(label: str, words) -> None:
        for w in words:
            pats.append({"label": label, "pattern": phrase(w)})

    for forms in vocab.ANIMALS.values():
        add("animal", forms)
    add("animal", vocab.OTHER_ANIMALS)
    for forms in vocab.NEUTERED.values():
        add("neutered", forms)
    for forms in vocab.SERVICE_DOG.values():
        add("service_dog", forms)
    for forms in vocab.VACCINATED.values():
        add("vaccinated", forms)
    for forms in vocab.INCIDENT.values():
        add("incident", forms)
    add("material", vocab.MATERIALS)
    for n in vocab.NUMBER_WORDS:
        add("count", [n])
    pats.append({"label": "count", "pattern": [{"TEXT": {"REGEX": r"^\d{1,3}$"}}]})
    # section numbers: every number in the knowledge base, then the general shapes
    for number in kb_sections():
        pats.append({"label": "section", "pattern": [{"ORTH": t.text} for t in _tokenizer().make_doc(number)]})
    pats.append({"label": "section", "pattern": [{"TEXT": {"REGEX": r"^\d{1,2}\.\d{2}$"}}, {"ORTH": "-"},
                                                 {"TEXT": {"REGEX": r"^\d{1,2}(\(\w+\))*\)?$"}}]})
    pats.append({"label": "section", "pattern": [{"TEXT": {"REGEX": r"^\d{1,2}\.\d{2}(\(\w+)?$"}},
                                                 {"ORTH": ")", "OP": "?"}]})
    pats.append({"label": "section", "pattern": [{"TEXT": {"REGEX": r"^5\d$"}}, {"ORTH": "-"},
                                                 {"TEXT": {"REGEX": r"^5\d\d(\(\w+)?$"}}, {"ORTH": ")", "OP": "?"}]})
    pats.append({"label": "section", "pattern": [{"TEXT": {"REGEX": r"^\d{1,2}\.\d{2}-\d{1,2}$"}}]})
    pats.append({"label": "section", "pattern": [{"TEXT": {"REGEX": r"^17[45]\.\d{2,3}$"}}]})
    pats.append({"label": "section", "pattern": [{"TEXT": {"REGEX": r"^95\.21$"}}]})
    pats.extend(when_patterns())
    return pats


def build(out: Path = DEFAULT_OUT) -> Path:
    nlp = spacy.blank("en")
    ruler = nlp.add_pipe("entity_ruler", config={"phrase_matcher_attr": "LOWER", "validate": True})
    ruler.add_patterns(build_patterns())
    if out.exists():
        shutil.rmtree(out)
    nlp.to_disk(out)
    (out / ".gitignore").write_text("*\n")
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = ap.parse_args(argv)
    out = build(args.out)
    print(f"spaCy rule pipeline with {len(build_patterns())} patterns written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
