import sys
from pathlib import Path

import pytest
from twilio.request_validator import RequestValidator

sys.path.insert(0, str(Path(__file__).parent))

from fake_rasa import FakeRasa  # noqa: E402

from tests.support.quick import fresh_store, migrated_db, quick_password_hashes  # noqa: E402,F401 - fixtures
from tests.support.services import free_port as dead_port  # noqa: E402,F401  (a port nothing listens on)
from web import create_app  # noqa: E402

TOKEN = "test-auth-token-0123456789abcdef"
PUBLIC = "https://assistant.example.gov"


@pytest.fixture(scope="session")
def fake_rasa():
    with FakeRasa() as fr:
        yield fr


@pytest.fixture
def store(tmp_path, migrated_db):
    st = fresh_store(migrated_db, tmp_path / "web.db")
    yield st
    st.close()


@pytest.fixture
def make_app(store, fake_rasa, monkeypatch, tmp_path):
    monkeypatch.setenv("ASSISTANT_NOW", "2026-11-30T15:00:00+00:00")
    monkeypatch.setenv("FAILURE_LOG", str(tmp_path / "failures.jsonl"))  # never the real instance/ files
    monkeypatch.setenv("SPOOL_DIR", str(tmp_path / "spool"))

    def make(**overrides):
        cfg = {"TESTING": True, "SECRET_KEY": "test-secret", "STORE": store, "TOWN": "dunkirk",
               "RASA_URL": fake_rasa.url, "RASA_TIMEOUT": 2.0, "TWILIO_AUTH_TOKEN": TOKEN, "PUBLIC_URL": PUBLIC,
               "SESSION_COOKIE_SECURE": False, "SMS_DUPLICATE_WAIT": 0.5}
        cfg.update(overrides)
        return create_app(cfg)
    return make


@pytest.fixture
def app(make_app):
    return make_app()


@pytest.fixture
def client(app):
    return app.test_client()


def sign(path: str, params: dict, token: str = TOKEN) -> str:
    return RequestValidator(token).compute_signature(PUBLIC + path, params)


@pytest.fixture
def sms(client):
    counter = {"n": 0}

    def send(body, from_="+16085550100", sid=None, signature=True):
        counter["n"] += 1
        params = {"From": from_, "To": "+16085550199", "Body": body,
                  "MessageSid": sid or f"SM{counter['n']:032d}"}
        headers = {"X-Twilio-Signature": sign("/sms", params)} if signature else {}
        return client.post("/sms", data=params, headers=headers)
    return send


CLERK_PW = "a long clerk password"


@pytest.fixture
def clerk_client(make_app, store):
    app = make_app(WTF_CSRF_ENABLED=False)
    store.create_clerk("ann", CLERK_PW)
    c = app.test_client()
    r = c.post("/clerk/login", data={"username": "ann", "password": CLERK_PW})
    assert r.status_code == 302
    return c
