"""Rules ranked by meaning (#21): the sentence encoder (bot/encoder.py) compares a resident's question with each
rule's lead, text and example questions (the town's topics.yml), and knowledge/rules.py adds that to its word
ranking (rules.use_meaning). knowledge/ itself never loads the encoder; the action server does, once.

A rule's similarity to a question is the best cosine between the question's vector and those of its texts. The
texts' vectors are computed once per town and kept on disk (build/encoder/rules/, by the texts' sha256), so a
restart does not encode them again.
"""
from __future__ import annotations

import hashlib
import logging
import re
import threading
from datetime import date
from pathlib import Path

import numpy as np

log = logging.getLogger(__name__)
CACHE = Path(__file__).resolve().parents[1] / "build" / "encoder" / "rules"
_LOCK = threading.Lock()
_TOWNS: dict[str, tuple[tuple, np.ndarray, np.ndarray]] = {}
_TERMS: dict[str, tuple[list[str], np.ndarray, np.ndarray]] = {}


def _encoder():
    from bot.encoder import get_encoder
    return get_encoder()


def rule_texts(town, rule) -> list[str]:
    """The texts a rule is known by: its lead and text as a resident reads them (parameters filled in) and its
    example questions."""
    out = []
    for text in (getattr(rule, "lead", ""), getattr(rule, "text", ""), *getattr(rule, "examples", ())):
        if not text:
            continue
        try:
            text = town.render(text, date.today())
        except Exception:  # a placeholder this day has no value for: its words without it
            text = re.sub(r"\{[^}]*\}", "", text)
        out.append(" ".join(text.split()))
    return out


def _vectors(town, entries: list) -> tuple[np.ndarray, np.ndarray]:
    """(matrix of every text's vector, the entry each row belongs to) for the town's ranked rules."""
    key = tuple((k, n) for k, n, _ in entries)
    with _LOCK:
        cached = _TOWNS.get(town.key)
        if cached is not None and cached[0] == key:
            return cached[1], cached[2]
        texts, owner = [], []
        for i, (_, _, rule) in enumerate(entries):
            for text in rule_texts(town, rule):
                texts.append(text)
                owner.append(i)
        matrix = _matrix(f"{town.key}-rules", texts)
        owners = np.asarray(owner, dtype=np.int64)
        _TOWNS[town.key] = (key, matrix, owners)
        return matrix, owners


def _matrix(name: str, texts: list[str]) -> np.ndarray:
    """The vectors of ``texts``, from the disk cache when the same texts were encoded before."""
    digest = hashlib.sha256("\x1f".join(texts).encode()).hexdigest()[:20]
    path = CACHE / f"{name}-{digest}.npy"
    try:
        matrix = np.load(path) if path.exists() else None
    except (OSError, ValueError):
        matrix = None
    if matrix is not None and matrix.shape[0] == len(texts):
        return matrix
    matrix = np.asarray(_encoder().encode_batch(texts), dtype=np.float32)
    try:
        CACHE.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp.npy")
        np.save(tmp, matrix)
        tmp.replace(path)
    except OSError:
        log.warning("could not keep the vectors in %s", CACHE)
    return matrix


def similarities(town, entries: list, question: str) -> list[float]:
    """For each (topic, name, rule) entry, the best cosine between ``question`` and the rule's texts."""
    matrix, owners = _vectors(town, entries)
    sims = matrix @ _encoder().encode(question)
    best = np.full(len(entries), -1.0, dtype=np.float32)
    np.maximum.at(best, owners, sims)
    return [float(x) for x in best]


def terms(town) -> tuple[list[str], np.ndarray, np.ndarray]:
    """(the town's defined terms, the vectors of their words, definitions and examples, the term of each row)."""
    with _LOCK:
        cached = _TERMS.get(town.key)
        if cached is not None:
            return cached
        keys, texts, owner = list(town.definitions), [], []
        for i, key in enumerate(keys):
            d = town.definitions[key]
            for text in (d.term, d.lead, d.citation.quote, *d.examples):
                if text:
                    texts.append(" ".join(str(text).split()))
                    owner.append(i)
        found = (keys, _matrix(f"{town.key}-terms", texts), np.asarray(owner, dtype=np.int64))
        _TERMS[town.key] = found
        return found


def best_term(town, question: str) -> tuple[str | None, float]:
    """The defined term whose words, definition or example questions are closest in meaning to ``question``,
    and that similarity; (None, -1) when the town defines nothing."""
    keys, matrix, owners = terms(town)
    if not keys:
        return None, -1.0
    sims = matrix @ _encoder().encode(question)
    best = np.full(len(keys), -1.0, dtype=np.float32)
    np.maximum.at(best, owners, sims)
    i = int(best.argmax())
    return town.definitions[keys[i]].term, float(best[i])


def installed() -> bool:
    from knowledge import rules
    return rules.by_meaning()


def install() -> None:
    """Rank rules by meaning in this process (the action server): knowledge.rules.use_meaning."""
    from knowledge import rules
    rules.use_meaning(similarities)
