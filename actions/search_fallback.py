"""Search instead of shrugging: when the classifier is unsure, rank the town's topics against the question.

Below the fallback threshold (action_clarify), the question is matched with BM25 (bm25s) against each topic
of the town's code: its title, summary, rule texts, quoted words and the titles of the sections it cites.
Each topic's document also holds its intent's training examples (data/*.yml), the words residents use.
The best two or three become buttons that say what they answer ("Food, water and shelter for animals
(7.02-14)"). Misspelled words are first mapped onto the index's own vocabulary (symspellpy), so "quarentine"
finds quarantine. A question plainly outside the ordinances (the classifier's best guess is out_of_scope
and no topic matches strongly) gets the out-of-scope answer instead; the question is recorded either way.
"""
from __future__ import annotations

import re
from pathlib import Path
from dataclasses import dataclass, field

import bm25s
import numpy as np
import yaml
from symspellpy import SymSpell, Verbosity

from knowledge.model import Town

DATA = Path(__file__).resolve().parents[1] / "data"
ANNOTATION = re.compile(r"\[([^\]]*)\](?:\([^)]*\)|\{[^}]*\})")
MIN_SCORE = 1.5  # a topic below this BM25 score is not offered (one common word such as "dog" scores less)
RELATIVE = 0.4  # nor one scoring under this share of the best match
STRONG = 3.0  # a match this good is offered even when the classifier's best guess is out_of_scope
LIMIT = 3
STOPWORDS = set("""a an and are as at be by can could do does did for from have has had how i if in is it its may
me my of on or our shall so that the their there this to what when where which who will with would you your
about any code say says section sec town city rule rules tell please hi hello im i'm just get got need know
want like thing things someone somebody anyone ok okay yes no not we us they them he she his her him""".split())


@dataclass(frozen=True)
class Suggestion:
    intent: str  # the intent whose answer this is: ask_<topic>
    label: str  # what the button says: the topic title and its first section
    score: float


@dataclass
class Outcome:
    out_of_scope: bool = False
    suggestions: list[Suggestion] = field(default_factory=list)


def words(text: str) -> list[str]:
    """Lowercased content words with a light plural/-ing/-ed stem ("dogs" -> "dog", "burning" -> "burn")."""
    out = []
    for w in re.findall(r"[a-z]+", (text or "").lower()):
        if w in STOPWORDS or len(w) < 3:
            continue
        out.append(re.sub(r"(ies|es|s|ing|ed)$", "", w) if len(w) > 4 else w)
    return out


def residents_words(data: Path = DATA) -> dict[str, str]:
    """intent -> the text of its training examples (data/*.yml): the words residents use for a topic
    ("poop", "barrel", "taxes" appear nowhere in the code's text)."""
    out: dict[str, list[str]] = {}
    for path in sorted(data.glob("*.yml")):
        for block in (yaml.safe_load(path.read_text()) or {}).get("nlu") or []:
            if "intent" in block and isinstance(block.get("examples"), str):
                lines = [ANNOTATION.sub(r"\1", l.strip()[2:]) for l in block["examples"].splitlines()
                         if l.strip().startswith("- ")]
                out.setdefault(block["intent"], []).extend(lines)
    return {k: " ".join(v) for k, v in out.items()}


def topic_text(topic, examples: str = "") -> str:
    """Everything a topic answers with: title, summary, note, rule texts, quotes, cited section titles,
    and the residents' questions it answers (its intent's training examples)."""
    parts = [topic.title] * 3 + [topic.summary, topic.note, examples]
    for c in topic.citations:
        parts += [c.quote, c.section.title]
    for rule in (topic.rules or {}).values():
        parts += [rule.text, rule.citation.quote, rule.citation.section.title]
    return " ".join(p for p in parts if p)


def label(topic) -> str:
    """The button text: "Food, water and shelter for animals (7.02-14)"; the title alone without a citation."""
    if topic.citations:
        return f"{topic.title} ({topic.citations[0].section.number})"
    return topic.title


class TopicIndex:
    """BM25 over one town's topics, with a speller over the index's own vocabulary."""

    def __init__(self, town: Town):
        self.keys = list(town.topics)
        self.labels = [label(town.topics[k]) for k in self.keys]
        examples = residents_words()
        corpus = [words(topic_text(town.topics[k], examples.get(f"ask_{k}", ""))) for k in self.keys]
        self.vocabulary = {w for doc in corpus for w in doc}
        self.retriever = bm25s.BM25()
        self.retriever.index(corpus, show_progress=False)
        self.speller = SymSpell(max_dictionary_edit_distance=2, prefix_length=7)
        for w in self.vocabulary:
            self.speller.create_dictionary_entry(w, 1)

    def spell(self, word: str) -> str | None:
        """The index word meant by ``word`` (exact, or within 1 edit for 6+ letters, 2 for 8+)."""
        if word in self.vocabulary:
            return word
        if len(word) < 6:  # short words are too often another real word ("lawn" is not "law")
            return None
        found = self.speller.lookup(word, Verbosity.TOP, max_edit_distance=2 if len(word) >= 8 else 1)
        return found[0].term if found else None

    def scores(self, question: str) -> np.ndarray:
        terms = [t for t in (self.spell(w) for w in words(question)) if t is not None]
        if not terms:
            return np.zeros(len(self.keys))
        return self.retriever.get_scores(terms)

    def rank(self, question: str, limit: int = LIMIT) -> list[Suggestion]:
        """The best matching topics, best first: at most ``limit``, each above MIN_SCORE and RELATIVE x best."""
        scores = self.scores(question)
        order = np.argsort(-scores, kind="stable")
        best = float(scores[order[0]]) if len(order) else 0.0
        out = []
        for i in order[:limit]:
            s = float(scores[i])
            if s < MIN_SCORE or s < RELATIVE * best:
                break
            out.append(Suggestion(intent=f"ask_{self.keys[i]}", label=self.labels[i], score=s))
        return out


def index_for(town: Town) -> TopicIndex:
    """The town's index, built once per loaded Town and kept on it (as knowledge.rules keeps its ranker), so a
    discarded Town's index can never serve another."""
    index = getattr(town, "_topic_index", None)
    if index is None:
        index = TopicIndex(town)
        town._topic_index = index
    return index


def suggest(town: Town, question: str, ranking: list[dict] | None = None) -> Outcome:
    """What action_clarify offers for an unsure question: out of scope when the classifier's best guess is
    out_of_scope and no topic matches strongly; else the search results; else the classifier's own likeliest
    topics (its ranking without nlu_fallback)."""
    found = index_for(town).rank(question)
    guesses = [r for r in ranking or [] if r.get("name") != "nlu_fallback"]
    weak = not found or found[0].score < STRONG
    if weak and guesses and guesses[0].get("name") == "out_of_scope":
        return Outcome(out_of_scope=True)
    if found:
        return Outcome(suggestions=found)
    topics = town.topics
    out = []
    for r in guesses:
        name = r.get("name", "")
        key = name[4:]
        if name.startswith("ask_") and key in topics and r.get("confidence", 0) >= 0.02:
            out.append(Suggestion(intent=name, label=label(topics[key]), score=0.0))
    return Outcome(suggestions=out[:LIMIT])
