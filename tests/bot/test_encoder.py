"""bot/encoder.py: sentence vectors by meaning, from checked files, offline, cached.

Needs `make encoder` (build/encoder/, made by `make check` before the tests). The encoder is loaded once for the
module (the int8 ONNX network that serves; the TensorFlow reference only for the conversion test).
"""
from __future__ import annotations

import shutil
import socket

import numpy as np
import pytest

from bot import encoder as enc

# (question, the same question in other words, a question about something else), from the ordinances' topics
PARAPHRASES = [
    ("can I burn leaves tonight", "is it ok to have a brush fire this evening", "how much is a dog license"),
    ("how much does it cost to register my dog", "what is the fee for a dog license",
     "can I burn trash in a barrel"),
    ("my neighbor's dog barks all night", "the dog next door keeps howling until morning",
     "do I need a permit for an open fire"),
    ("my dog bit a child, how long is the quarantine",
     "how many days must a dog be confined after it bites someone", "how many chickens can I keep"),
    ("do I have to keep my dog on a leash", "does my dog need to be restrained when it is off my property",
     "what time does burning have to stop"),
    ("is a cat allowed to roam loose in the neighborhood", "can my cat run at large",
     "can I burn yard waste on Sunday"),
]
SENTENCES = [a for a, _, _ in PARAPHRASES] + ["hello", "what does 7.02-6 say",
                                               "My neighbour's beagle yaps from 6am every single day, what can I do?"]


@pytest.fixture
def no_network(monkeypatch):
    """Any attempt to open a connection fails the test."""
    def refuse(*args, **kwargs):
        raise AssertionError(f"the encoder tried to reach the network: {args}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


@pytest.fixture(scope="module")
def encoder():
    with pytest.MonkeyPatch.context() as mp:  # loaded with the network refused
        def refuse(*args, **kwargs):
            raise AssertionError(f"the encoder tried to reach the network: {args}")

        mp.setattr(socket.socket, "connect", refuse)
        mp.setattr(socket, "getaddrinfo", refuse)
        mp.setenv("HF_HUB_OFFLINE", "1")
        e = enc.Encoder("int8", cache_size=8)
        e.encode("warm up")
    return e


def test_vectors_are_384_dimensional_unit_vectors(encoder):
    vectors = encoder.encode_batch(SENTENCES)
    assert vectors.shape == (len(SENTENCES), enc.DIM)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)


@pytest.mark.parametrize("question, paraphrase, unrelated", PARAPHRASES)
def test_a_paraphrase_is_closer_than_an_unrelated_question(encoder, question, paraphrase, unrelated):
    q, p, u = (encoder.encode(t) for t in (question, paraphrase, unrelated))
    assert q @ p > q @ u + 0.2
    assert q @ p > p @ u + 0.2


def test_the_cache_returns_the_same_vector_and_forgets_the_oldest(encoder, no_network):
    first = encoder.encode("can I burn leaves tonight")
    again = encoder.encode("can I burn leaves tonight")
    assert again is first and not again.flags.writeable
    assert not np.allclose(encoder.encode("how much is a dog license"), first)
    for i in range(encoder.cache_info()["max"] + 1):
        encoder.encode(f"question number {i}")
    assert encoder.cache_info()["size"] == encoder.cache_info()["max"]
    assert "can I burn leaves tonight" not in encoder._cache
    assert np.allclose(encoder.encode("can I burn leaves tonight"), first)


def test_a_batch_gives_each_text_the_vector_it_gets_alone(encoder, no_network):
    batch = encoder.encode_batch(SENTENCES)
    for row, text in zip(batch, SENTENCES):
        assert np.allclose(row, encoder.encode(text), atol=1e-5)


def test_the_weights_are_the_pinned_ones():
    for name in (enc.WEIGHTS, enc.TOKENIZER):
        assert enc.sha256_of(enc.model_dir() / name) == enc.SHA256[name]


def test_a_tampered_weights_file_is_refused_naming_the_file(tmp_path):
    shutil.copy(enc.model_dir() / enc.TOKENIZER, tmp_path / enc.TOKENIZER)
    with open(enc.model_dir() / enc.WEIGHTS, "rb") as f:
        data = bytearray(f.read(1 << 16))
    data[-1] ^= 1  # one bit changed
    (tmp_path / enc.WEIGHTS).write_bytes(bytes(data))
    for backend in ("int8", "tf"):
        with pytest.raises(enc.EncoderFilesError, match=str(tmp_path / enc.WEIGHTS)):
            enc.Encoder(backend, folder=tmp_path)


def test_a_tampered_tokenizer_is_refused(tmp_path):
    (tmp_path / enc.TOKENIZER).write_text("{}")
    with pytest.raises(enc.EncoderFilesError, match="tokenizer.json"):
        enc.load_tokenizer(tmp_path)


def test_an_onnx_file_built_from_other_weights_is_refused(tmp_path, monkeypatch):
    monkeypatch.setitem(enc.SHA256, enc.WEIGHTS, "0" * 64)
    with pytest.raises(enc.EncoderFilesError, match="built from other weights"):
        enc.OnnxNetwork(enc.INT8_FILE)


def test_the_onnx_conversion_gives_the_tensorflow_vectors_and_int8_stays_close(no_network):
    reference = enc.Encoder("tf", cache_size=0).encode_batch(SENTENCES)
    converted = enc.Encoder("onnx", cache_size=0).encode_batch(SENTENCES)
    served = enc.Encoder("int8", cache_size=0).encode_batch(SENTENCES)
    assert (reference * converted).sum(axis=1).min() >= 0.999
    # int8 matrix products: measured cosine to float32 0.984 minimum, 0.993 mean over 300 dev messages
    assert (reference * served).sum(axis=1).min() >= 0.97
    assert (reference * served).sum(axis=1).mean() >= 0.985
