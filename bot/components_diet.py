"""BucketedDIETClassifier: DIETClassifier whose training batches hold messages of similar length.

Rasa pads every batch to its longest message, and DIET's transformer costs per padded token. Our training
data mixes short questions ("dog license cost?", 6 tokens at the median) with residents' long sentences (up to
35 tokens): in a shuffled batch of 64-256 one long message is almost always there, so ~73 % of the tokens DIET
computed were padding (3.7 padded tokens per real one over 30 epochs of data/, bot/README.md "Training time").
This generator keeps Rasa's shuffling and label balancing, then sorts each window of WINDOW batches by length
and shuffles the order of the batches: 1.3 padded tokens per real one.
The model, its loss, the features and prediction are DIET's own; only the order of the training examples in
an epoch changes.
"""
from __future__ import annotations

import contextlib
from typing import Any, Iterator

import numpy as np
from rasa.engine.recipes.default_recipe import DefaultV1Recipe
from rasa.engine.storage.resource import Resource
from rasa.nlu.classifiers.diet_classifier import DIETClassifier
from rasa.shared.nlu.constants import TEXT
from rasa.shared.nlu.training_data.training_data import TrainingData
from rasa.utils import train_utils
from rasa.utils.tensorflow.constants import SEQUENCE_LENGTH
from rasa.utils.tensorflow.data_generator import RasaBatchDataGenerator
from rasa.utils.tensorflow.model_data import Data, RasaModelData

WINDOW = 8  # batches sorted together: wider windows pad less but make batches more alike


def bucketed_order(lengths: np.ndarray, batch_size: int, rng: np.random.Generator,
                   window: int = WINDOW) -> np.ndarray:
    """Indices of the examples: sorted by length within windows of `window` batches, full batches shuffled,
    the last (partial) batch kept last so every batch boundary stays at a multiple of batch_size."""
    n = len(lengths)
    span = max(1, batch_size * window)
    order = np.concatenate([start + np.argsort(lengths[start:start + span], kind="stable")
                            for start in range(0, n, span)]) if n else np.arange(0)
    full = n // batch_size
    batches = [order[i * batch_size:(i + 1) * batch_size] for i in range(full)]
    rng.shuffle(batches)
    return np.concatenate(batches + [order[full * batch_size:]]) if batches else order


class LengthBucketedBatchGenerator(RasaBatchDataGenerator):
    """Rasa's batch generator (shuffle, balance, linearly growing batch size) with length buckets."""

    def __init__(self, *args: Any, seed: int | None = None, **kwargs: Any) -> None:
        self._rng = np.random.default_rng(seed)
        super().__init__(*args, **kwargs)

    def _shuffle_and_balance(self, batch_size: int) -> Data:
        data = super()._shuffle_and_balance(batch_size)
        features = data.get(TEXT, {}).get(SEQUENCE_LENGTH)
        if not features or batch_size <= 1:
            return data
        lengths = np.asarray(features[0]).reshape(-1)
        return RasaModelData._data_for_ids(data, bucketed_order(lengths, batch_size, self._rng))


@contextlib.contextmanager
def _bucketed_generators(seed: int | None) -> Iterator[None]:
    """Within DIET's train(): the training generator is a LengthBucketedBatchGenerator."""
    original = train_utils.create_data_generators

    def create(model_data, batch_sizes, epochs, batch_strategy="sequence", eval_num_examples=0,
               random_seed=None, shuffle=True, drop_small_last_batch=False):
        evaluation = None
        if eval_num_examples > 0:
            model_data, held = model_data.split(eval_num_examples, random_seed)
            evaluation = RasaBatchDataGenerator(held, batch_size=batch_sizes, epochs=epochs,
                                                batch_strategy=batch_strategy, shuffle=shuffle,
                                                drop_small_last_batch=drop_small_last_batch)
        training = LengthBucketedBatchGenerator(model_data, batch_size=batch_sizes, epochs=epochs,
                                                batch_strategy=batch_strategy, shuffle=shuffle,
                                                drop_small_last_batch=drop_small_last_batch, seed=seed)
        return training, evaluation

    train_utils.create_data_generators = create
    try:
        yield
    finally:
        train_utils.create_data_generators = original


@DefaultV1Recipe.register(
    [DefaultV1Recipe.ComponentType.INTENT_CLASSIFIER, DefaultV1Recipe.ComponentType.ENTITY_EXTRACTOR],
    is_trainable=True,
)
class BucketedDIETClassifier(DIETClassifier):
    """DIET trained on length-bucketed batches (same model, ~2.7x fewer padded tokens per epoch)."""

    def train(self, training_data: TrainingData) -> Resource:
        with _bucketed_generators(self.component_config.get("random_seed")):
            return super().train(training_data)
