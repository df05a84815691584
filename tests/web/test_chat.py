"""The residents' chat page, widget, API and public section pages."""

from conftest import dead_port


def start(client):
    r = client.post("/chat/api/start")
    assert r.status_code == 200
    return r.get_json()


def say(client, cid, **body):
    return client.post("/chat/api/message", json={"conversation_id": cid, **body})


def test_chat_page_has_log_region_and_labelled_input(client):
    r = client.get("/chat")
    html = r.get_data(as_text=True)
    assert r.status_code == 200
    assert 'role="log"' in html and 'aria-live="polite"' in html
    assert '<label for="chat-input">' in html
    assert client.get("/").status_code == 200


def test_widget_script_is_one_tag_and_embed_page_is_frameable(client):
    r = client.get("/widget.js")
    assert r.status_code == 200 and b"iframe" in r.data
    normal = client.get("/chat")
    assert normal.headers["X-Frame-Options"] == "DENY"
    embed = client.get("/chat?embed=1")
    assert "X-Frame-Options" not in embed.headers
    assert "frame-ancestors *" in embed.headers["Content-Security-Policy"]


def test_server_issues_conversation_ids(client, store):
    data = start(client)
    cid = data["conversation_id"]
    assert store.conversation_exists(cid) and len(cid) >= 20
    assert data["messages"][0]["buttons"]  # suggested topics are offered
    r = say(client, "made-up-id", text="hello")
    assert r.status_code == 400


def test_message_round_trip_and_transcript(client, store, fake_rasa):
    cid = start(client)["conversation_id"]
    r = say(client, cid, text="hello there")
    assert r.status_code == 200
    assert r.get_json()["messages"][0]["text"] == "You said: hello there"
    assert fake_rasa.received[-1]["sender"] == cid
    assert fake_rasa.received[-1]["metadata"]["channel"] == "web"
    assert [m.speaker for m in store.transcript(cid)][-2:] == ["user", "bot"]


def test_citations_become_links_to_section_pages(client):
    cid = start(client)["conversation_id"]
    parts = say(client, cid, text="barking").get_json()["messages"][0]["parts"]
    links = [p for p in parts if "href" in p]
    assert links == [{"text": "7.02-6", "href": "/code/7.02-6"}]
    assert "".join(p["text"] for p in parts).startswith("Dunkirk Code 7.02-6 covers barking")
    page = client.get("/code/7.02-6")
    assert page.status_code == 200 and b"7.02-6" in page.data
    assert client.get("/code/99.99").status_code == 404
    assert client.get("/code/").status_code == 200


def test_slash_text_never_reaches_rasa_as_an_intent(client, fake_rasa):
    cid = start(client)["conversation_id"]
    for text in ['/restart', '  //greet{"town": "mequon"}', "/ask_barking"]:
        before = len(fake_rasa.received)
        r = say(client, cid, text=text)
        assert r.status_code == 200
        sent = fake_rasa.messages[before:]
        assert all(not m.startswith("/") for m in sent), sent
    r = say(client, cid, text="///")
    assert r.status_code == 200 and "in words" in r.get_json()["messages"][0]["text"]


def test_buttons_send_only_offered_payloads(client, fake_rasa):
    cid = start(client)["conversation_id"]
    msgs = say(client, cid, text="show me topics").get_json()["messages"]
    assert [b["payload"] for b in msgs[0]["buttons"]] == ["/ask_barking", "/ask_license_cost"]
    r = say(client, cid, payload="/ask_barking")
    assert r.status_code == 200 and fake_rasa.messages[-1] == "/ask_barking"
    # the offer is used up: a replay, or a payload the bot never offered, is refused
    assert say(client, cid, payload="/ask_barking").status_code == 400
    assert say(client, cid, payload="/restart").status_code == 400


def test_starter_buttons_are_sent_as_words(client, fake_rasa):
    data = start(client)
    b = data["messages"][0]["buttons"][0]
    r = say(client, data["conversation_id"], payload=b["payload"])
    assert r.status_code == 200 and not fake_rasa.messages[-1].startswith("/")


def test_xss_payload_is_returned_as_text_only(client):
    cid = start(client)["conversation_id"]
    msg = say(client, cid, text="xss please").get_json()["messages"][0]
    assert all(set(p) <= {"text", "href"} for p in msg["parts"])
    assert not any("href" in p for p in msg["parts"])
    assert msg["parts"][0]["text"].startswith("<img src=x")  # shown literally by the client (textContent)


def test_rasa_down_gives_friendly_reply_with_clerk_contact(make_app):
    c = make_app(RASA_URL=f"http://127.0.0.1:{dead_port()}").test_client()
    cid = c.post("/chat/api/start").get_json()["conversation_id"]
    r = c.post("/chat/api/message", json={"conversation_id": cid, "text": "hello"})
    assert r.status_code == 200
    text = r.get_json()["messages"][0]["text"]
    assert "not answering right now" in text and "Clerk" in text


def test_rasa_slow_does_not_hang(make_app):
    import time
    c = make_app(RASA_TIMEOUT=0.5).test_client()
    cid = c.post("/chat/api/start").get_json()["conversation_id"]
    t0 = time.monotonic()
    r = c.post("/chat/api/message", json={"conversation_id": cid, "text": "slow please"})
    assert time.monotonic() - t0 < 3
    assert "not answering" in r.get_json()["messages"][0]["text"]


def test_rasa_empty_answer_counts_as_down(client):
    cid = start(client)["conversation_id"]
    r = say(client, cid, text="nothing")
    assert "not answering" in r.get_json()["messages"][0]["text"]


def test_malformed_chat_requests_get_4xx_json(client):
    assert client.post("/chat/api/message", data="not json", content_type="application/json").status_code == 400
    assert client.post("/chat/api/message", json=[1, 2]).status_code == 400
    cid = start(client)["conversation_id"]
    assert say(client, cid, text=123).status_code == 400
    assert say(client, cid, text="x" * 501).status_code == 400
    r = client.get("/chat/api/message")
    assert r.status_code == 405 and r.is_json


def test_chat_api_is_rate_limited_per_address(make_app):
    c = make_app().test_client()
    codes = [c.post("/chat/api/start").status_code for _ in range(62)]
    assert codes[:60] == [200] * 60 and codes[60] == 429
    assert c.post("/chat/api/start").is_json


def test_an_answer_comes_as_one_message_the_lead_first_with_its_parts(client, store):
    from fake_rasa import answer_reply
    from knowledge.render import internal_text
    sent = answer_reply(False)[1]["custom"]  # loaded before the message (the fake must answer fast)
    cid = start(client)["conversation_id"]
    messages = say(client, cid, text="license cost for two dogs").get_json()["messages"]
    assert len(messages) == 1, "the plain-text copy Rasa sends before the parts is not shown twice"
    m = messages[0]
    assert "".join(p["text"] for p in m["parts"]) == sent["answer"]["lead"]
    ans = m["answer"]
    assert len(ans["steps"]) == len(sent["answer"]["steps"]) and ans["gaps"] == sent["answer"]["gaps"]
    assert {"label": "Dunkirk Code 7.02-4", "href": "/code/7.02-4"}.items() <= \
        next(s for s in ans["sources"] if s["ref"] == "7.02-4").items()
    shown = " ".join([sent["answer"]["lead"]] + ans["gaps"] + [p["text"] for c in ans["caveats"] for p in c])
    assert internal_text(shown) == []


def test_the_greeting_starters_and_page_offer_each_town_only_what_its_code_covers(make_app, client):
    """Mequon's code has no burning rules (issue #23): its greeting, starter buttons and chat page offer none;
    Dunkirk's still offer burning and burn notifications."""
    msg = start(client)["messages"][0]
    assert "animal and open-burning ordinances, and I take burn notifications" in msg["text"]
    assert [b["title"] for b in msg["buttons"]] == ["Dog license cost", "Can I burn today?", "A dog bit someone",
                                                   "Notify a burn"]
    c = make_app(TOWN="mequon").test_client()
    msg = c.post("/chat/api/start").get_json()["messages"][0]
    assert msg["text"].startswith("Hello! I answer questions about the City of Mequon's animal ordinances.")
    offered = [msg["text"]] + [b["title"] + " " + b["payload"] for b in msg["buttons"]]
    assert len(msg["buttons"]) == 4 and not any("burn" in x.lower() for x in offered), offered
    page = c.get("/chat").get_data(as_text=True)
    assert "Ask about Mequon's animal ordinances" in page and "burn" not in page.lower()
    assert "city code</a>" in page and "town code" not in page
    down = make_app(TOWN="mequon", RASA_URL=f"http://127.0.0.1:{dead_port()}").test_client()
    cid = down.post("/chat/api/start").get_json()["conversation_id"]
    text = down.post("/chat/api/message", json={"conversation_id": cid, "text": "hi"}).get_json()["messages"][0]["text"]
    assert "not answering right now" in text and "burn" not in text
