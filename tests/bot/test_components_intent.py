"""bot/components_intent.py: intent by meaning, trained and stored with the model, combined with DIET's ranking."""
from __future__ import annotations

import numpy as np
import pytest
from rasa.engine.graph import ExecutionContext, GraphSchema
from rasa.engine.storage.local_model_storage import LocalModelStorage
from rasa.engine.storage.resource import Resource
from rasa.nlu.tokenizers.whitespace_tokenizer import WhitespaceTokenizer
from rasa.shared.nlu.constants import INTENT, INTENT_RANKING_KEY, TEXT
from rasa.shared.nlu.training_data.message import Message
from rasa.shared.nlu.training_data.training_data import TrainingData

from bot.components_intent import PREFETCH_KEY, EncoderIntentRanker, EncoderPrefetch, normalised_text
from bot.normaliser import Speller, build_lexicon, normalise_tokens

EXAMPLES = {
    "ask_can_burn": ["can I burn brush today", "is it ok to have a fire in my yard tonight",
                     "am I allowed to burn leaves this weekend"],
    "ask_license_fee": ["how much is a dog license", "what does it cost to license my dog",
                        "what is the fee to register a dog"],
    "ask_barking": ["my neighbor's dog barks all night", "the dog next door won't stop howling",
                    "what can I do about a barking dog"],
}


@pytest.fixture(scope="module")
def tokenizer():
    return WhitespaceTokenizer(WhitespaceTokenizer.get_default_config())


@pytest.fixture(scope="module")
def speller():
    return Speller(build_lexicon([t for texts in EXAMPLES.values() for t in texts]))


def message(tokenizer, text, speller=None, **data):
    m = Message(data={TEXT: text, **data})
    tokenizer.process([m])
    if speller is not None:
        normalise_tokens(m, speller)
    return m


def test_the_encoder_sees_the_corrected_words_in_the_residents_sentence(tokenizer, speller):
    m = message(tokenizer, "can i burnin brush 2nite, pls?", speller)
    assert normalised_text(m) == "can i burning brush tonight, please?"
    assert m.get(TEXT) == "can i burnin brush 2nite, pls?"
    assert normalised_text(message(tokenizer, "idk if u need one", speller)) == "i do not know if you need one"
    assert normalised_text(message(tokenizer, "How much is a Dog license?", speller)) == \
        "How much is a Dog license?"


@pytest.fixture(scope="module")
def storage(tmp_path_factory):
    return LocalModelStorage(tmp_path_factory.mktemp("model"))


@pytest.fixture(scope="module")
def trained(tokenizer, storage):
    context = ExecutionContext(GraphSchema({}), "test")
    ranker = EncoderIntentRanker.create(EncoderIntentRanker.get_default_config(), storage, Resource("ranker"),
                                        context)
    data = TrainingData([message(tokenizer, t, intent=i) for i, texts in EXAMPLES.items() for t in texts])
    resource = ranker.train(data)
    return EncoderIntentRanker.load(EncoderIntentRanker.get_default_config(), storage, resource, context)


def diet(ranking):
    return {INTENT: {"name": ranking[0][0], "confidence": ranking[0][1]},
            INTENT_RANKING_KEY: [{"name": n, "confidence": c} for n, c in ranking]}


def test_the_weights_are_stored_with_the_model_and_loaded_from_it(trained):
    assert trained.labels == sorted(EXAMPLES)
    assert trained.coef.shape == (3, 384) and trained.intercept.shape == (3,)


def test_a_paraphrase_nobody_trained_on_is_ranked_by_meaning(trained, tokenizer):
    m = message(tokenizer, "is a bonfire allowed this evening",
                **diet([("ask_barking", 0.4), ("ask_can_burn", 0.35), ("ask_license_fee", 0.25)]))
    trained.process([m])
    assert m.get(INTENT)["name"] == "ask_can_burn"
    ranking = m.get(INTENT_RANKING_KEY)
    assert [r["name"] for r in ranking][0] == "ask_can_burn"
    assert abs(sum(r["confidence"] for r in ranking) - 1.0) < 1e-6
    assert ranking == sorted(ranking, key=lambda r: -r["confidence"])


def test_the_combination_is_the_weighted_geometric_mean(trained):
    encoder = np.array([0.1, 0.6, 0.3])
    combined = trained.combine(encoder, [{"name": "ask_barking", "confidence": 0.9},
                                         {"name": "ask_can_burn", "confidence": 0.1}])
    diet_p = np.array([0.9, 0.1, 0.0])  # labels: ask_barking, ask_can_burn, ask_license_fee
    expected = np.sqrt((encoder + 1e-6) * (diet_p + 0.001))
    assert np.allclose(combined, expected / expected.sum())
    # an intent DIET left out of its ranking is not vetoed outright, but needs the encoder's certainty
    assert combined[2] > 0 and combined.argmax() == 0


def test_messages_without_text_or_intent_are_left_alone(trained, tokenizer):
    empty = Message(data={TEXT: ""})
    no_intent = message(tokenizer, "can I burn brush")
    trained.process([empty, no_intent])
    assert empty.get(INTENT) is None and no_intent.get(INTENT) is None


def test_a_model_without_trained_weights_keeps_diets_ranking(tokenizer, tmp_path):
    storage = LocalModelStorage(tmp_path)
    context = ExecutionContext(GraphSchema({}), "test")
    ranker = EncoderIntentRanker.load({}, storage, Resource("nothing"), context)
    m = message(tokenizer, "can I burn brush", **diet([("ask_barking", 0.7), ("ask_can_burn", 0.3)]))
    ranker.process([m])
    assert m.get(INTENT)["name"] == "ask_barking"


def test_the_prefetched_vector_gives_the_same_ranking_and_is_taken_off_the_message(trained, tokenizer, speller):
    ranking = [("ask_barking", 0.5), ("ask_can_burn", 0.3), ("ask_license_fee", 0.2)]
    plain = message(tokenizer, "how much to licence my pup", speller, **diet(ranking))
    fetched = message(tokenizer, "how much to licence my pup", speller, **diet(ranking))
    EncoderPrefetch({}).process([fetched])
    assert fetched.get(PREFETCH_KEY)[0] == "how much to license my pup"
    trained.process([plain])
    trained.process([fetched])
    assert fetched.get(INTENT_RANKING_KEY) == plain.get(INTENT_RANKING_KEY)
    assert fetched.get(INTENT)["name"] == "ask_license_fee"
    assert PREFETCH_KEY not in fetched.data
