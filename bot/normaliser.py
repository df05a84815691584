"""SpellingNormaliser: what the intent classifier sees of "dogz", "lisence", "2nite", "tmrw", "pls".

A Rasa GraphComponent placed after the tokenizer and the entity extractor and before the featurisers
(bot/config.yml). It rewrites the *tokens* the featurisers read (Token.text and Token.lemma), never
message.text: the entity ruler has already read the resident's exact words, and slots filled from the text
(form answers, a street name in a burn notice) keep them.

Per token, in order:
1. SMS shorthand from a fixed table ("2nite" -> "tonight", "u" -> "you", "bc" -> "because");
2. spelling variants of words the code uses ("licence" -> "license");
3. a token inside an entity span, with a digit, shorter than 4 letters, or a known word is left alone;
4. otherwise SymSpell (symspellpy, with the 30,000 commonest words of its English frequency dictionary) corrects it within edit
   distance 1 (2 for words of 7+ letters), preferring the domain lexicon: every word of the training data and
   of the knowledge base (sections, topics), learnt at training time and stored with the model.
"""
from __future__ import annotations

import json
import re
from collections import Counter
from importlib import resources
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Text

from rasa.engine.graph import ExecutionContext, GraphComponent
from rasa.engine.recipes.default_recipe import DefaultV1Recipe
from rasa.engine.storage.resource import Resource
from rasa.engine.storage.storage import ModelStorage
from rasa.nlu.tokenizers.tokenizer import Token
from rasa.shared.nlu.constants import ENTITIES, TEXT
from rasa.shared.nlu.training_data.message import Message
from rasa.shared.nlu.training_data.training_data import TrainingData
from rasa.nlu.constants import TOKENS_NAMES

KNOWLEDGE = Path(__file__).resolve().parent.parent / "knowledge"
LEXICON_FILE = "lexicon.json"
ENGLISH_WORDS = 30000  # of symspellpy's 82,765: rarer words cost start-up time and make odd corrections
WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")

# SMS shorthand residents type; each maps to the words it stands for. Bare digits ("2", "4") are not here:
# they are counts far more often than "to" / "for".
SHORTHAND = {
    "u": "you", "ur": "your", "yr": "your", "r": "are", "ya": "you", "y": "why", "pls": "please",
    "plz": "please", "thx": "thanks", "ty": "thank you", "bc": "because", "cuz": "because", "coz": "because",
    "b/c": "because", "2nite": "tonight", "tonite": "tonight", "2nyt": "tonight", "2day": "today",
    "tmrw": "tomorrow", "tmr": "tomorrow", "tmw": "tomorrow", "2morrow": "tomorrow", "2moro": "tomorrow",
    "tomoro": "tomorrow", "b4": "before", "w/": "with", "w": "with", "w/o": "without", "abt": "about",
    "ppl": "people", "wknd": "weekend", "nbr": "neighbor", "nbrs": "neighbors", "neighbr": "neighbor",
    "msg": "message", "hrs": "hours", "hr": "hour", "mins": "minutes", "yrs": "years", "wat": "what",
    "wut": "what", "hw": "how", "kno": "know", "knw": "know", "rly": "really", "prolly": "probably",
    "thru": "through", "tho": "though", "nite": "night", "rite": "right", "lic": "license",
    "doin": "doing", "goin": "going", "burnin": "burning", "gonna": "going to", "gotta": "got to",
    "wanna": "want to", "idk": "i do not know", "dont": "don't", "cant": "can't", "im": "i'm",
    "didnt": "didn't", "doesnt": "doesn't", "isnt": "isn't", "whats": "what's", "wont": "won't",
    "n": "and", "&": "and", "da": "the", "teh": "the", "hav": "have", "smth": "something",
    "sth": "something", "sat": "saturday", "rn": "right now", "asap": "as soon as possible",
}
# Spellings of words the code uses that a dictionary accepts but the classifier should see as one word.
VARIANTS = {
    "licence": "license", "licences": "licenses", "licenced": "licensed", "licencing": "licensing",
    "neighbour": "neighbor", "neighbours": "neighbors", "neighbour's": "neighbor's", "colour": "color",
    "harbour": "harbor", "behaviour": "behavior", "kennelled": "kenneled", "offence": "offense",
    "defence": "defense", "metre": "meter", "metres": "meters", "centre": "center",
}


class Speller:
    """Token corrections from SymSpell's English dictionary plus a domain lexicon (word -> count)."""

    def __init__(self, lexicon: Dict[str, int]):
        from symspellpy import SymSpell  # imported here: a few hundred ms, only where a speller is built

        self.lexicon = lexicon
        self.sym = SymSpell(max_dictionary_edit_distance=2, prefix_length=7)
        path = resources.files("symspellpy") / "frequency_dictionary_en_82_765.txt"
        with open(path, encoding="utf-8") as f:  # sorted by frequency: the commonest words only
            english = [line.split() for _, line in zip(range(ENGLISH_WORDS), f)]
        top = int(english[0][1])
        for word, count in english:
            self.sym.create_dictionary_entry(word, int(count))
        for word, count in lexicon.items():  # the domain's words win against English ones
            self.sym.create_dictionary_entry(word, top + count)
        self.known = set(self.sym.words)
        self._cache: Dict[str, str] = {}

    def correct(self, word: str) -> str:
        """The word(s) the classifier should see for one lowercased token."""
        if word in SHORTHAND:
            return SHORTHAND[word]
        if word in VARIANTS:
            return VARIANTS[word]
        if word in self.known or len(word) < 4 or not word.isalpha():
            return word
        if word not in self._cache:
            self._cache[word] = self._lookup(word)
        return self._cache[word]

    def _lookup(self, word: str) -> str:
        from symspellpy import Verbosity

        distance = 2 if len(word) >= 7 else 1
        found = self.sym.lookup(word, Verbosity.CLOSEST, max_edit_distance=distance)
        if not found:
            return word
        best = min(found, key=lambda s: (s.distance, s.term not in self.lexicon, -s.count))
        return VARIANTS.get(best.term, best.term)


_SPELLERS: Dict[str, Speller] = {}


def speller_for(lexicon: Dict[str, int]) -> Speller:
    """One Speller per lexicon and process (training builds it, then loads it again for processing)."""
    key = json.dumps(lexicon, sort_keys=True)
    if key not in _SPELLERS:
        _SPELLERS.clear()
        _SPELLERS[key] = Speller(lexicon)
    return _SPELLERS[key]


def lexicon_words(texts: Iterable[str]) -> Counter:
    """Lowercased words of the texts (entity annotations already stripped by Rasa)."""
    words: Counter = Counter()
    for text in texts:
        words.update(WORD.findall(text.lower()))
    return words


def knowledge_texts(root: Path = KNOWLEDGE) -> List[str]:
    """Every string of the knowledge base's sections and topics (section titles, text, rules, quotes), except
    rules' `examples:`: residents' questions written with typos and SMS spellings on purpose ("lisence"), which
    would become words the speller leaves uncorrected."""
    import yaml

    texts: List[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, str):
            texts.append(node)
        elif isinstance(node, dict):
            for k, v in node.items():
                if k == "examples" and isinstance(v, list):
                    continue
                texts.append(str(k).replace("_", " "))
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    for path in sorted(root.glob("towns/*/sections.yml")) + sorted(root.glob("towns/*/topics.yml")) + \
            [root / "topics.yml"]:
        if path.exists():
            walk(yaml.safe_load(path.read_text()))
    return texts


def build_lexicon(training_texts: Iterable[str]) -> Dict[str, int]:
    """The domain lexicon: words of the training examples and the knowledge base, 3+ letters."""
    counts = lexicon_words(training_texts) + lexicon_words(knowledge_texts())
    return {w: c for w, c in counts.items() if len(w) >= 3 and w.isalpha()}


def normalise_tokens(message: Message, speller: Speller) -> None:
    """Rewrite the TEXT tokens of a message in place; message.text and entities are not touched."""
    tokens: Optional[List[Token]] = message.get(TOKENS_NAMES[TEXT])
    if not tokens:
        return
    spans = [(e["start"], e["end"]) for e in message.get(ENTITIES) or [] if "start" in e and "end" in e]
    out: List[Token] = []
    for token in tokens:
        if any(s < token.end and token.start < e for s, e in spans):
            out.append(token)
            continue
        fixed = speller.correct(token.text.lower())
        if fixed == token.text.lower():
            out.append(token)
            continue
        for word in fixed.split():
            out.append(Token(word, token.start, token.end, data=dict(token.data), lemma=word))
    message.set(TOKENS_NAMES[TEXT], out)


@DefaultV1Recipe.register(DefaultV1Recipe.ComponentType.MESSAGE_FEATURIZER, is_trainable=True)
class SpellingNormaliser(GraphComponent):
    """Corrects the tokens the featurisers see (not message.text): SMS shorthand, variants, misspellings."""

    def __init__(self, config: Dict[Text, Any], model_storage: ModelStorage, resource: Resource,
                 lexicon: Optional[Dict[str, int]] = None) -> None:
        self._config = config
        self._model_storage = model_storage
        self._resource = resource
        self._speller = speller_for(lexicon) if lexicon is not None else None

    @staticmethod
    def get_default_config() -> Dict[Text, Any]:
        return {}

    @classmethod
    def create(cls, config: Dict[Text, Any], model_storage: ModelStorage, resource: Resource,
               execution_context: ExecutionContext) -> "SpellingNormaliser":
        return cls(config, model_storage, resource)

    @classmethod
    def load(cls, config: Dict[Text, Any], model_storage: ModelStorage, resource: Resource,
             execution_context: ExecutionContext, **kwargs: Any) -> "SpellingNormaliser":
        try:
            with model_storage.read_from(resource) as path:
                lexicon = json.loads((Path(path) / LEXICON_FILE).read_text())
        except (ValueError, FileNotFoundError):
            lexicon = build_lexicon([])
        return cls(config, model_storage, resource, lexicon)

    def train(self, training_data: TrainingData) -> Resource:
        lexicon = build_lexicon(m.get(TEXT) for m in training_data.training_examples if m.get(TEXT))
        with self._model_storage.write_to(self._resource) as path:
            (Path(path) / LEXICON_FILE).write_text(json.dumps(lexicon, sort_keys=True))
        return self._resource

    def process_training_data(self, training_data: TrainingData) -> TrainingData:
        self.process(training_data.training_examples)
        return training_data

    def process(self, messages: List[Message]) -> List[Message]:
        if self._speller is None:
            return messages
        for message in messages:
            normalise_tokens(message, self._speller)
        return messages
