"""Several Rasa instances behind one web front: RASA_URL parsing, routing each conversation to one instance
(rendezvous hashing by sender id), failing over only when an instance refuses the connection, and the
configurable chat rate limit. Fake Rasa servers on loopback; no trained model needed."""

from __future__ import annotations

from collections import Counter

import pytest
from fake_rasa import FakeRasa

from web import create_app, security
from web.rasa import RasaUnavailable, parse_urls, route, send

from conftest import dead_port


@pytest.fixture
def three():
    with FakeRasa() as a, FakeRasa() as b, FakeRasa() as c:
        yield [a, b, c]


def test_parse_urls_accepts_a_comma_separated_list_or_a_sequence():
    assert parse_urls("http://127.0.0.1:5005") == ("http://127.0.0.1:5005",)
    assert parse_urls(" http://a:1/ , http://b:2,,http://a:1 ") == ("http://a:1", "http://b:2")
    assert parse_urls(["http://a:1", "http://b:2/"]) == ("http://a:1", "http://b:2")
    assert parse_urls("") == ()


def test_route_is_a_stable_permutation():
    urls = ["http://a:1", "http://b:2", "http://c:3"]
    for sender in ("web-1", "sms:abc", ""):
        order = route(sender, urls)
        assert sorted(order) == sorted(urls)
        assert route(sender, list(reversed(urls))) == order  # independent of the configured order


def test_route_spreads_conversations_over_instances():
    urls = ["http://a:1", "http://b:2", "http://c:3"]
    first = Counter(route(f"conversation-{i}", urls)[0] for i in range(3000))
    assert set(first) == set(urls)
    assert all(700 < n < 1300 for n in first.values()), first


def test_removing_an_instance_moves_only_its_conversations():
    urls = ["http://a:1", "http://b:2", "http://c:3"]
    survivors = urls[:2]
    for i in range(500):
        sender = f"c{i}"
        before = route(sender, urls)
        after = route(sender, survivors)
        if before[0] != urls[2]:
            assert after[0] == before[0]  # unaffected conversations stay where they were
        else:
            assert after[0] == before[1]  # the lost instance's conversations go to their second choice


def test_a_conversation_always_goes_to_its_own_instance(three):
    urls = ",".join(f.url for f in three)
    for i in range(30):
        sender = f"conv-{i}"
        expected = route(sender, [f.url for f in three])[0]
        for _ in range(2):
            send(urls, sender, f"hello {i}", {}, 2.0)
        got = [f.url for f in three for r in f.received if r["sender"] == sender]
        assert got == [expected, expected]
    assert all(f.received for f in three)  # 30 conversations reached every instance


def test_refused_connection_fails_over_to_the_next_instance(three):
    live = [f.url for f in three[:2]]
    dead = f"http://127.0.0.1:{dead_port()}"
    urls = [dead, *live]
    # a sender whose first choice is the dead instance
    sender = next(s for s in (f"s{i}" for i in range(1000)) if route(s, urls)[0] == dead)
    replies = send(",".join(urls), sender, "hello", {}, 2.0)
    assert replies[0].text == "You said: hello"
    second = route(sender, urls)[1]
    assert [f.url for f in three[:2] if any(r["sender"] == sender for r in f.received)] == [second]


def test_all_instances_refusing_raises_unavailable():
    urls = ",".join(f"http://127.0.0.1:{dead_port()}" for _ in range(3))
    with pytest.raises(RasaUnavailable):
        send(urls, "anyone", "hello", {}, 1.0)


def test_a_timeout_is_not_retried_on_another_instance(three):
    """The slow instance may still process the turn: sending it elsewhere too could process it twice."""
    urls = [f.url for f in three]
    sender = "slow-sender"
    first = route(sender, urls)[0]
    with pytest.raises(RasaUnavailable):
        send(",".join(urls), sender, "slow", {}, 0.5)
    reached = [f.url for f in three if any(r["sender"] == sender for r in f.received)]
    assert reached == [first]


def test_single_url_behaves_as_before(fake_rasa):
    assert send(fake_rasa.url, "one", "hi", {}, 2.0)[0].text == "You said: hi"
    assert send(fake_rasa.url + "/", "one", "hi", {}, 2.0)[0].text == "You said: hi"


def test_rasa_url_env_is_parsed_into_instances(monkeypatch, store):
    monkeypatch.setenv("RASA_URL", "http://127.0.0.1:5005, http://127.0.0.1:5006")
    app = create_app({"TESTING": True, "SECRET_KEY": "k", "STORE": store})
    assert app.config["RASA_URL"] == ("http://127.0.0.1:5005", "http://127.0.0.1:5006")
    monkeypatch.delenv("RASA_URL")
    monkeypatch.setenv("RASA_PORT", "5123")
    app = create_app({"TESTING": True, "SECRET_KEY": "k", "STORE": store})
    assert app.config["RASA_URL"] == ("http://127.0.0.1:5123",)


def test_chat_through_several_instances(make_app, three):
    client = make_app(RASA_URL=",".join(f.url for f in three)).test_client()
    cid = client.post("/chat/api/start").get_json()["conversation_id"]
    for text in ("first", "second"):
        r = client.post("/chat/api/message", json={"conversation_id": cid, "text": text})
        assert r.status_code == 200 and r.get_json()["messages"][0]["text"] == f"You said: {text}"
    reached = [f for f in three if any(r["sender"] == cid for r in f.received)]
    assert len(reached) == 1 and [r["message"] for r in reached[0].received if r["sender"] == cid] == \
        ["first", "second"]


def test_chat_rate_limit_default_and_override(make_app, monkeypatch):
    assert security.chat_limit("") == security.CHAT_LIMIT == "60 per minute"
    assert security.chat_limit("  ") == "60 per minute"
    assert security.chat_limit("100000 per minute") == "100000 per minute"
    with pytest.raises(ValueError, match="CHAT_RATE_LIMIT"):
        security.chat_limit("lots")
    client = make_app(CHAT_RATE_LIMIT="2 per minute").test_client()
    codes = [client.post("/chat/api/start").status_code for _ in range(3)]
    assert codes == [200, 200, 429]
    monkeypatch.setenv("CHAT_RATE_LIMIT", "3 per minute")
    client = make_app().test_client()
    codes = [client.post("/chat/api/start").status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]
