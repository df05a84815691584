"""The SMS webhook: Twilio signature, idempotency on MessageSid, keywords, GSM-7 paging, Rasa down."""

import re
import time
import xml.etree.ElementTree as ET

from conftest import PUBLIC, TOKEN, dead_port, sign

from knowledge.render import internal_text
from web.text import MORE_FIRST, MORE_NOTE, gsm7_length, is_gsm7, to_gsm7


def reply(resp) -> str | None:
    assert resp.status_code == 200, resp.data
    assert resp.mimetype == "application/xml"
    root = ET.fromstring(resp.data)
    assert root.tag == "Response"
    msg = root.find("Message")
    return None if msg is None else msg.text


def test_valid_signature_gets_twiml_reply(sms, store, fake_rasa):
    text = reply(sms("hello"))
    assert text == "You said: hello"
    sent = fake_rasa.received[-1]
    assert sent["metadata"] == {"channel": "sms"}
    assert re.fullmatch(r"sms:[0-9a-f]{24}", sent["sender"]) and "608" not in sent["sender"]
    assert len(store.list_inbound_sms()) == 1


def test_invalid_signature_is_refused_and_nothing_stored(client, store):
    params = {"From": "+16085550100", "To": "+1", "Body": "hi", "MessageSid": "SMbad"}
    r = client.post("/sms", data=params, headers={"X-Twilio-Signature": sign("/sms", params, "wrong-token")})
    assert r.status_code == 403
    assert store.list_inbound_sms() == []


def test_missing_signature_is_refused(sms, store):
    assert sms("hi", signature=False).status_code == 403
    assert store.list_inbound_sms() == []


def test_tampered_body_fails_signature(client):
    params = {"From": "+16085550100", "To": "+1", "Body": "hi", "MessageSid": "SMt"}
    sig = sign("/sms", params)
    params["Body"] = "changed"
    assert client.post("/sms", data=params, headers={"X-Twilio-Signature": sig}).status_code == 403


def test_no_token_configured_refuses_everything(make_app):
    c = make_app(TWILIO_AUTH_TOKEN="").test_client()
    params = {"From": "+1", "To": "+2", "Body": "hi", "MessageSid": "SM1"}
    assert c.post("/sms", data=params, headers={"X-Twilio-Signature": sign("/sms", params)}).status_code == 403


def test_duplicate_message_sid_gets_same_reply_without_second_record(sms, store, fake_rasa):
    first = reply(sms("hello once", sid="SMdup"))
    n = len(fake_rasa.received)
    second = reply(sms("hello once", sid="SMdup"))
    assert first == second
    assert len(fake_rasa.received) == n  # not sent to Rasa again
    assert len(store.list_inbound_sms()) == 1


def test_stop_start_help(sms, store, fake_rasa):
    stop = reply(sms("STOP"))
    assert "unsubscribed" in stop and "START" in stop
    n = len(fake_rasa.received)
    assert reply(sms("can I burn today")) is None  # opted out: no reply...
    assert len(fake_rasa.received) == n
    assert store.list_inbound_sms()[0].body == "can I burn today"  # ...but stored for the clerk
    help_ = reply(sms("help"))
    assert "STOP" in help_ and "Clerk" in help_ and len(help_) <= 320
    start = reply(sms("Start"))
    assert "subscribed again" in start
    assert reply(sms("hello")) == "You said: hello"


def test_a_stop_behind_a_byte_order_mark_or_a_zero_width_space_is_a_stop(sms, store, fake_rasa):
    for i, body in enumerate(("\ufeffSTOP", "STOP\u200b", "\u200bstop.", "\u2060Stop\ufeff", "\uff33\uff34\uff2f\uff30")):
        number = f"+1608555{i:04d}"
        assert "unsubscribed" in reply(sms(body, from_=number)), repr(body)
        assert store.sms_opted_out(number), repr(body)
        n = len(fake_rasa.received)
        assert reply(sms("can I burn today", from_=number)) is None  # opted out: no reply, Rasa not asked
        assert len(fake_rasa.received) == n
    assert "subscribed again" in reply(sms("\ufeffSTART", from_="+16085550000"))
    assert not store.sms_opted_out("+16085550000")


def test_a_legal_hold_on_an_sms_conversation_keeps_its_raw_texts_and_what_is_said_after_it(sms, store, app):
    """The hold covered the transcript as it was: messages logged after it, and the raw inbound SMS, were still
    purged."""
    from datetime import datetime, timezone
    from web.sms import sender_id
    held_number, other = "+16085550177", "+16085550188"
    sms("my neighbour burns tires", from_=held_number)
    with app.app_context():
        cid = sender_id(held_number)
    assert store.set_legal_hold("conversations", cid)
    sms("he did it again today", from_=held_number)
    sms("can I burn leaves", from_=other)
    store.purge(0, now=datetime(2034, 1, 1, tzinfo=timezone.utc))
    assert sorted(m.body for m in store.list_inbound_sms()) == ["he did it again today", "my neighbour burns tires"]
    said = [m.text for m in store.transcript(cid)]
    assert "my neighbour burns tires" in said and "he did it again today" in said and len(said) == 4
    with app.app_context():
        assert store.transcript(sender_id(other)) == []


def test_yes_only_opts_in_when_opted_out(sms):
    assert reply(sms("yes")) == "You said: yes"


def _all_pages(sms, first):
    pages = [first]
    for _ in range(12):
        if not pages[-1].endswith((MORE_FIRST, MORE_NOTE)):
            break
        pages.append(reply(sms("more")))
    return pages


def test_long_replies_are_paged_on_sentences_and_more_gives_the_rest(sms, fake_rasa):
    first = reply(sms("something long"))
    assert first.endswith(MORE_NOTE)
    pages = _all_pages(sms, first)
    assert all(gsm7_length(p) <= 306 and is_gsm7(p) for p in pages)
    bodies = [p.removesuffix(MORE_NOTE) for p in pages]
    assert all(b.endswith("December 31.") for b in bodies), "pages break between sentences"
    assert " ".join(bodies).count("Dog licenses run from January 1 to December 31.") == 12
    assert "more" not in [m.lower() for m in fake_rasa.messages], "the web front answers MORE from its pages"


def test_an_answer_by_sms_leads_with_its_lead_and_more_gives_the_details(sms, fake_rasa):
    answer = fake_rasa_answer()
    first = reply(sms("license cost for my 2 dogs"))
    assert first == to_gsm7(answer["lead"]) + MORE_FIRST and len(answer["lead"]) <= 160
    pages = _all_pages(sms, first)
    assert len(pages) > 2 and all(gsm7_length(p) <= 306 and is_gsm7(p) for p in pages)
    details = " ".join(p.removesuffix(MORE_NOTE) for p in pages[1:])
    assert "How:" in details and "Sources:" in details and "Dunkirk Code 7.02-4" in details
    assert "Part of this fee is set by the Town and isn't in our copy of the code" in details
    assert details.count("Part of this fee is set by the Town") == 1, "a gap is said once"
    for p in pages:
        body = p.removesuffix(MORE_NOTE).removesuffix(MORE_FIRST)
        assert body.endswith((".", ")", ";", ":")), f"a page ends on a sentence or clause: {body[-40:]!r}"
        assert internal_text(p) == []
    assert "more" not in [m.lower() for m in fake_rasa.messages]
    reply(sms("more"))  # nothing of ours left: Rasa's "more" answers
    assert fake_rasa.messages[-1] == "more"


def fake_rasa_answer() -> dict:
    from fake_rasa import answer_reply
    return answer_reply(True)[1]["custom"]["answer"]


def test_more_without_pages_of_ours_goes_to_rasa(sms, fake_rasa):
    reply(sms("hello"))
    reply(sms("MORE"))
    assert fake_rasa.messages[-1] == "MORE"  # "that's all" comes from Rasa's action_more


def test_replies_are_gsm7(sms):
    text = reply(sms("unicode"))
    assert is_gsm7(text)
    assert text.startswith("It's \"fine\" - caf")


def test_buttons_become_numbered_choices(sms, fake_rasa):
    text = reply(sms("show me topics"))
    assert "Reply 1 for Barking dogs, 2 for Dog licenses." in text
    reply(sms("1"))
    assert fake_rasa.messages[-1] == "/ask_barking"
    reply(sms("/ask_license_cost"))
    assert fake_rasa.messages[-1] == "ask_license_cost"


def test_rasa_down_replies_fast_with_fire_department_and_keeps_message(make_app, store):
    app = make_app(RASA_URL=f"http://127.0.0.1:{dead_port()}")
    c = app.test_client()
    params = {"From": "+16085550100", "To": "+1", "Body": "I want to burn brush tomorrow", "MessageSid": "SMdown"}
    t0 = time.monotonic()
    r = c.post("/sms", data=params, headers={"X-Twilio-Signature": sign("/sms", params)})
    assert time.monotonic() - t0 < 15
    text = reply(r)
    assert "fire department" in text and len(text) <= 320
    assert store.get_inbound_sms("SMdown").body == "I want to burn brush tomorrow"


def test_rasa_slow_replies_within_budget(make_app):
    c = make_app(RASA_TIMEOUT=1.0).test_client()
    params = {"From": "+1608", "To": "+1", "Body": "slow", "MessageSid": "SMslow"}
    t0 = time.monotonic()
    text = reply(c.post("/sms", data=params, headers={"X-Twilio-Signature": sign("/sms", params)}))
    assert time.monotonic() - t0 < 5 and "fire department" in text


def test_missing_fields_get_400_and_oversized_body_413(client):
    params = {"Body": "hi"}
    assert client.post("/sms", data=params, headers={"X-Twilio-Signature": sign("/sms", params)}).status_code == 400
    big = {"From": "+1", "To": "+2", "Body": "x" * 40000, "MessageSid": "SMbig"}
    r = client.post("/sms", data=big, headers={"X-Twilio-Signature": sign("/sms", big)})
    assert r.status_code == 413


def test_sms_never_answers_429(sms):
    codes = {sms(f"hello {i}").status_code for i in range(40)}
    assert codes == {200}


def test_signature_uses_query_string(client):
    params = {"From": "+1", "To": "+2", "Body": "hi", "MessageSid": "SMq"}
    r = client.post("/sms?town=x", data=params,
                    headers={"X-Twilio-Signature": RequestValidatorSig(PUBLIC + "/sms?town=x", params)})
    assert r.status_code == 200


def RequestValidatorSig(url, params):  # noqa: N802
    from twilio.request_validator import RequestValidator
    return RequestValidator(TOKEN).compute_signature(url, params)


def test_retry_while_first_attempt_is_in_flight_gets_the_same_reply(make_app, fake_rasa, store, monkeypatch):
    """Twilio retries while Rasa is still working on the first attempt: the retry waits for that reply."""
    import threading
    app = make_app(RASA_TIMEOUT=8.0, SMS_DUPLICATE_WAIT=10.0)
    params = {"From": "+16085550100", "To": "+1", "Body": "slow", "MessageSid": "SMinflight"}
    headers = {"X-Twilio-Signature": sign("/sms", params)}
    out = {}
    retry_waiting = threading.Event()  # the retry found the stored message and polls for its reply
    lookup = store.get_inbound_sms

    def get_inbound_sms(sid):
        rec = lookup(sid)
        if rec is not None and rec.reply is None:
            retry_waiting.set()
        return rec
    monkeypatch.setattr(store, "get_inbound_sms", get_inbound_sms)

    def post(key):
        out[key] = reply(app.test_client().post("/sms", data=params, headers=headers))

    n = len(fake_rasa.received)
    fake_rasa.slow_arrived.clear()
    fake_rasa.release.clear()
    first = threading.Thread(target=post, args=("first",))
    first.start()
    arrived = fake_rasa.slow_arrived.wait(5)  # the first attempt is at Rasa
    retry = threading.Thread(target=post, args=("retry",))
    retry.start()
    waiting = retry_waiting.wait(5)  # the retry found the message stored without a reply yet
    fake_rasa.release.set()
    try:
        first.join()
        retry.join()
    finally:
        fake_rasa.release.clear()  # the other tests' "slow" messages wait again
    assert arrived and waiting
    assert out["retry"] == out["first"] == "too late"
    assert len(fake_rasa.received) == n + 1
    assert len(store.list_inbound_sms()) == 1


def test_sms_help_offers_each_town_only_what_its_code_covers(make_app, sms):
    """Mequon's code has no burning rules (issue #23): HELP names dogs and animals and no burn notifications;
    Dunkirk's still offers burning."""
    text = reply(sms("HELP"))
    assert text.startswith("Dunkirk ordinance assistant: ask about dogs, animals or open burning. Clerk: ")
    assert "Burn notifications: " in text
    c = make_app(TOWN="mequon").test_client()
    params = {"From": "+16085550100", "To": "+1", "Body": "HELP", "MessageSid": "SMhelpmequon"}
    text = reply(c.post("/sms", data=params, headers={"X-Twilio-Signature": sign("/sms", params)}))
    assert text.startswith("Mequon ordinance assistant: ask about dogs or animals. Clerk: City Clerk")
    assert "burn" not in text.lower() and "STOP" in text
    down = make_app(TOWN="mequon", RASA_URL=f"http://127.0.0.1:{dead_port()}").test_client()
    params = {"From": "+16085550100", "To": "+1", "Body": "how much is a dog license", "MessageSid": "SMdownmequon"}
    text = reply(down.post("/sms", data=params, headers={"X-Twilio-Signature": sign("/sms", params)}))
    assert "can't answer right now" in text and "burn" not in text.lower()
