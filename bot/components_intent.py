"""EncoderIntentRanker: intent by meaning, ensembled with DIET's ranking.

Placed after the DIET classifier and before the FallbackClassifier (bot/config.yml). At training time it
encodes every intent example with the sentence encoder (bot/encoder.py: all-MiniLM-L6-v2, int8 ONNX Runtime)
and fits a multinomial logistic regression on the vectors; the regression's weights (51 x 384) are stored in
the model. For each message it encodes the text *as the classifier sees it* (the spelling normaliser's
corrected tokens put back into message.text: "can i burnin leafs 2nite" -> "can i burning leafs tonight"),
and replaces the intent ranking by the normalised weighted geometric mean of the two rankings:

    p(intent) ~ p_encoder(intent) ** weight * (p_diet(intent) + diet_floor) ** (1 - weight)

(an intent outside DIET's ranking of ten counts with diet_floor only). Chosen on the development sets only
(docs/encoder.md): logistic regression alone beat DIET on the long messages (dev3b) but lost on misspellings;
the geometric mean beat both on every set and the arithmetic mean; C and weight were flat around the values
kept. The FallbackClassifier after it reads the combined confidence, with the same threshold.
"""
from __future__ import annotations

import json
import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Dict, List, Optional, Text

import numpy as np
from rasa.engine.graph import ExecutionContext, GraphComponent
from rasa.engine.recipes.default_recipe import DefaultV1Recipe
from rasa.engine.storage.resource import Resource
from rasa.engine.storage.storage import ModelStorage
from rasa.nlu.constants import TOKENS_NAMES
from rasa.shared.nlu.constants import INTENT, INTENT_NAME_KEY, INTENT_RANKING_KEY, PREDICTED_CONFIDENCE_KEY, TEXT
from rasa.shared.nlu.training_data.message import Message
from rasa.shared.nlu.training_data.training_data import TrainingData

logger = logging.getLogger(__name__)
PREFETCH_KEY = "encoder_prefetch"  # (text, Future of its vector), set by EncoderPrefetch, taken by the ranker
_POOL: Optional[ThreadPoolExecutor] = None
_POOL_LOCK = threading.Lock()


def _pool() -> ThreadPoolExecutor:
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            _POOL = ThreadPoolExecutor(max_workers=1, thread_name_prefix="encoder")
        return _POOL
WEIGHTS_FILE = "ranker.npz"
LABELS_FILE = "labels.json"


def normalised_text(message: Message) -> str:
    """message.text with each token the spelling normaliser rewrote replaced by its word(s), spacing kept.
    The normaliser changes Token.text only (message.text keeps the resident's words for entities and slots);
    a shorthand standing for several words is several tokens on one span ("idk" -> "i do not know")."""
    text = message.get(TEXT) or ""
    tokens = message.get(TOKENS_NAMES[TEXT]) or []
    spans: Dict[tuple, List[str]] = {}
    for token in tokens:
        spans.setdefault((token.start, token.end), []).append(token.text)
    out, pos = [], 0
    for (start, end), words in spans.items():
        if start < pos or end > len(text):
            continue
        replacement = " ".join(words)
        if replacement.lower() != text[start:end].lower():
            out += [text[pos:start], replacement]
            pos = end
    out.append(text[pos:])
    return "".join(out)


def softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


@DefaultV1Recipe.register(DefaultV1Recipe.ComponentType.MESSAGE_FEATURIZER, is_trainable=False)
class EncoderPrefetch(GraphComponent):
    """Starts encoding a message's normalised text on a background thread as soon as the normaliser is done, so
    that the encoder (ONNX Runtime, which releases the GIL) runs on the second core while the featurisers and
    DIET run on the first; EncoderIntentRanker takes the vector after DIET. Only when a message is processed
    (never on training data). Without it, the ranker encodes the text itself: same vector, later."""

    def __init__(self, config: Dict[Text, Any]) -> None:
        self._config = config

    @staticmethod
    def get_default_config() -> Dict[Text, Any]:
        return {}

    @classmethod
    def create(cls, config: Dict[Text, Any], model_storage: ModelStorage, resource: Resource,
               execution_context: ExecutionContext) -> "EncoderPrefetch":
        return cls(config)

    def process_training_data(self, training_data: TrainingData) -> TrainingData:
        return training_data

    def process(self, messages: List[Message]) -> List[Message]:
        from bot.encoder import get_encoder

        for message in messages:
            text = normalised_text(message)
            if text.strip():
                message.set(PREFETCH_KEY, (text, _pool().submit(get_encoder().encode, text)))
        return messages


@DefaultV1Recipe.register(DefaultV1Recipe.ComponentType.INTENT_CLASSIFIER, is_trainable=True)
class EncoderIntentRanker(GraphComponent):
    """Logistic regression on sentence-encoder vectors, its ranking combined with the classifier's before it."""

    def __init__(self, config: Dict[Text, Any], model_storage: ModelStorage, resource: Resource,
                 labels: Optional[List[str]] = None, coef: Optional[np.ndarray] = None,
                 intercept: Optional[np.ndarray] = None) -> None:
        self._config = {**self.get_default_config(), **config}
        self._model_storage = model_storage
        self._resource = resource
        self.labels = labels or []
        self.coef = coef
        self.intercept = intercept

    @staticmethod
    def get_default_config() -> Dict[Text, Any]:
        return {
            "C": 100.0,  # inverse L2 strength of the regression (flat between 30 and 300 on the dev sets)
            "weight": 0.5,  # the encoder's exponent in the geometric mean; DIET's is 1 - weight
            "diet_floor": 0.001,  # added to DIET's confidences: an intent outside its top ten is not vetoed
            "encoder_floor": 1e-6,
            "ranking_length": 10,
            "use_normalised_text": True,  # encode what the classifier sees (corrected spelling), not the raw text
        }

    @staticmethod
    def required_packages() -> List[Text]:
        return ["onnxruntime", "tokenizers", "sklearn"]

    @classmethod
    def create(cls, config: Dict[Text, Any], model_storage: ModelStorage, resource: Resource,
               execution_context: ExecutionContext) -> "EncoderIntentRanker":
        return cls(config, model_storage, resource)

    @classmethod
    def load(cls, config: Dict[Text, Any], model_storage: ModelStorage, resource: Resource,
             execution_context: ExecutionContext, **kwargs: Any) -> "EncoderIntentRanker":
        try:
            with model_storage.read_from(resource) as path:
                labels = json.loads((Path(path) / LABELS_FILE).read_text())
                with np.load(Path(path) / WEIGHTS_FILE) as stored:
                    coef, intercept = stored["coef"], stored["intercept"]
        except (ValueError, FileNotFoundError):
            logger.warning("EncoderIntentRanker: no trained weights in the model; DIET's ranking is kept")
            return cls(config, model_storage, resource)
        from bot.encoder import get_encoder

        get_encoder()  # load the encoder (and check its files) with the model, not on the first message
        return cls(config, model_storage, resource, labels, coef, intercept)

    def _text(self, message: Message) -> str:
        return normalised_text(message) if self._config["use_normalised_text"] else (message.get(TEXT) or "")

    def train(self, training_data: TrainingData) -> Resource:
        from sklearn.linear_model import LogisticRegression

        from bot.encoder import get_encoder

        examples = [m for m in training_data.intent_examples if m.get(TEXT) and m.get(INTENT)]
        labels = sorted({m.get(INTENT) for m in examples})
        if len(labels) < 2:
            logger.warning("EncoderIntentRanker: fewer than two intents; nothing trained")
            return self._resource
        vectors = get_encoder().encode_batch([self._text(m) for m in examples])
        y = np.array([labels.index(m.get(INTENT)) for m in examples])
        regression = LogisticRegression(C=self._config["C"], max_iter=5000)
        regression.fit(vectors, y)
        self.labels = labels
        self.coef = regression.coef_.astype(np.float32)
        self.intercept = regression.intercept_.astype(np.float32)
        with self._model_storage.write_to(self._resource) as path:
            (Path(path) / LABELS_FILE).write_text(json.dumps(labels))
            np.savez(Path(path) / WEIGHTS_FILE, coef=self.coef, intercept=self.intercept)
        return self._resource

    def encoder_probabilities(self, text: str, message: Optional[Message] = None) -> np.ndarray:
        from bot.encoder import get_encoder

        prefetched = message.data.pop(PREFETCH_KEY, None) if message is not None else None
        if prefetched is not None and prefetched[0] == text:
            vector = prefetched[1].result()
        else:
            vector = get_encoder().encode(text)
        return softmax(vector @ self.coef.T + self.intercept)

    def combine(self, encoder: np.ndarray, diet_ranking: List[Dict[str, Any]]) -> np.ndarray:
        """The normalised weighted geometric mean of the encoder's and DIET's probabilities over self.labels."""
        w = self._config["weight"]
        diet = np.zeros(len(self.labels))
        index = {label: i for i, label in enumerate(self.labels)}
        for entry in diet_ranking:
            if entry.get(INTENT_NAME_KEY) in index:
                diet[index[entry[INTENT_NAME_KEY]]] = entry.get(PREDICTED_CONFIDENCE_KEY) or 0.0
        scores = w * np.log(encoder + self._config["encoder_floor"]) + \
            (1 - w) * np.log(diet + self._config["diet_floor"])
        return softmax(scores)

    def process(self, messages: List[Message]) -> List[Message]:
        if self.coef is None:
            return messages
        for message in messages:
            text = self._text(message)
            if not text.strip() or not message.get(INTENT):
                message.data.pop(PREFETCH_KEY, None)
                continue
            combined = self.combine(self.encoder_probabilities(text, message),
                                    message.get(INTENT_RANKING_KEY) or [])
            order = np.argsort(-combined, kind="stable")[: self._config["ranking_length"]]
            ranking = [{INTENT_NAME_KEY: self.labels[i], PREDICTED_CONFIDENCE_KEY: float(combined[i])}
                       for i in order]
            message.set(INTENT, ranking[0], add_to_output=True)
            message.set(INTENT_RANKING_KEY, ranking, add_to_output=True)
        return messages
