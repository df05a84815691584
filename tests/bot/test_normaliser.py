"""bot/normaliser.py: the classifier sees corrected tokens; message.text and entities keep the resident's words."""
from __future__ import annotations

import pytest

pytest.importorskip("symspellpy")

from rasa.nlu.constants import TOKENS_NAMES  # noqa: E402
from rasa.nlu.tokenizers.whitespace_tokenizer import WhitespaceTokenizer  # noqa: E402
from rasa.shared.nlu.constants import ENTITIES, TEXT  # noqa: E402
from rasa.shared.nlu.training_data.message import Message  # noqa: E402

from bot.normaliser import Speller, build_lexicon, normalise_tokens  # noqa: E402


@pytest.fixture(scope="module")
def speller():
    return Speller(build_lexicon(["is a license required for my dog", "how long is the quarantine"]))


@pytest.fixture(scope="module")
def tokenizer():
    return WhitespaceTokenizer(WhitespaceTokenizer.get_default_config())


def seen(tokenizer, speller, text, entities=()):
    message = Message(data={TEXT: text, ENTITIES: list(entities)})
    tokenizer.process([message])
    normalise_tokens(message, speller)
    return message, [t.text for t in message.get(TOKENS_NAMES[TEXT])]


@pytest.mark.parametrize("typed, meant", [
    ("dogz", "dogs"), ("licence", "license"), ("lisence", "license"), ("quarentine", "quarantine"),
    ("burnin", "burning"), ("2nite", "tonight"), ("tmrw", "tomorrow"), ("u", "you"), ("bc", "because"),
    ("pls", "please"),
])
def test_misspellings_and_sms_shorthand_reach_the_classifier_as_the_word_meant(speller, typed, meant):
    assert speller.correct(typed) in ({meant, "dog"} if meant == "dogs" else {meant})


def test_known_words_numbers_and_short_words_are_left_alone(speller):
    assert speller.correct("brush") == "brush"
    assert speller.correct("3pm") == "3pm"
    assert speller.correct("abc") == "abc"


def test_message_text_and_entity_values_keep_the_residents_exact_words(tokenizer, speller):
    text = "burnin brush tmrw at Quarentine Rd pls"
    street = {"entity": "address", "value": "Quarentine Rd", "start": 22, "end": 35}
    message, tokens = seen(tokenizer, speller, text, [street])
    assert tokens[:3] == ["burning", "brush", "tomorrow"]
    assert "Quarentine" in tokens  # inside an entity span: not corrected even for the classifier
    assert tokens[-1] == "please"
    assert message.get(TEXT) == text
    assert message.get(ENTITIES) == [street]


def test_a_shorthand_for_several_words_becomes_several_tokens_on_the_same_span(tokenizer, speller):
    message, tokens = seen(tokenizer, speller, "idk if u need one")
    assert tokens[:4] == ["i", "do", "not", "know"]
    spans = [(t.start, t.end) for t in message.get(TOKENS_NAMES[TEXT])[:4]]
    assert set(spans) == {(0, 3)}


def test_the_lexicon_leaves_out_rules_examples_and_their_typos(tmp_path):
    """Rules' `examples:` (residents' questions, typos on purpose) are not words the speller knows: the lexicon
    read from the knowledge base is the same with or without them."""
    import shutil

    import yaml

    from bot.normaliser import KNOWLEDGE, knowledge_texts

    root = tmp_path / "knowledge"
    shutil.copytree(KNOWLEDGE, root, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    stripped = 0
    for path in root.glob("towns/*/topics.yml"):
        data = yaml.safe_load(path.read_text())
        for topic in data.values():
            for rule in (topic.get("rules") or {}).values():
                stripped += rule.pop("examples", None) is not None
        path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    assert stripped
    words = knowledge_texts()
    assert sorted(words) == sorted(knowledge_texts(root))
    assert not any("lisence" in w for w in words)
