"""The SMS outbox of no-burning orders (#14): alerts queued in the order's own transaction, once per order,
notification and kind; and the sender through the fake Twilio REST API: sent once, retried with backoff,
a lost answer looked up in the message log instead of sent again, a refusal kept for the clerk. SQLite and
PostgreSQL."""

from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from records.alert_sender import Sender, TwilioSettings, status_callback_url
from records.outbox import AlertPlan, e164
from tests.fakes.twilio_api import FakeTwilio
from tests.records.test_store import pg_url, store  # noqa: F401 - the fixtures: every test on both databases

CHI = ZoneInfo("America/Chicago")
MON = datetime(2026, 11, 30, 9, 0, tzinfo=CHI)
FIRE = "+16085550199"


def compose(kind, order, note, at):
    return f"{kind} order {order.id} until {order.end_at} ref {note.reference if note else '-'} at {at}"


PLAN = AlertPlan(tz=CHI, today=MON.date(), compose=compose, fire_number=FIRE)


def day(n: int, hour: int = 0) -> datetime:
    return datetime.combine(MON.date() + timedelta(days=n), datetime.min.time(), tzinfo=CHI).replace(hour=hour)


def burns(store, days, phone="608-555-{:04d}"):
    return [store.add_burn_notification(town="dunkirk", name=f"R{i}", address="N1 Road K", phone=phone.format(i),
                                        burn_date=MON.date() + timedelta(days=d), channel="web")
            for i, d in enumerate(days)]


def record(store, start, end, plan=PLAN):
    return store.record_order("dunkirk", start, end, reason="dry", board_action="Board 11/30", recorded_by="ann",
                              now=MON, alerts=plan)


def told(store, kind="order"):
    return {a.notification_id for a in store.alerts(kind=kind)}


def test_an_order_queues_one_text_to_each_notifier_whose_day_it_covers_and_one_to_the_fire_department(store):
    notes = burns(store, [0, 1, 2, 3, 4, 5])
    result = record(store, day(2, 8), day(4, 12))  # Wed 8 a.m. to Fri noon: Wed, Thu and Fri are touched
    assert told(store) == {n.id for n in notes[2:5]}
    mine = store.alerts(order_id=result.order.id)
    assert {a.to_number for a in mine if a.kind == "order"} == {e164(n.phone) for n in notes[2:5]}
    assert all(a.state == "queued" and a.body.startswith("order order") for a in mine if a.kind == "order")
    fire = store.alerts(kind="fire")
    assert len(fire) == 1 and fire[0].to_number == FIRE and fire[0].notification_id is None


def test_the_fire_department_is_texted_every_change_of_an_order_and_never_a_stale_one(store, sender, twilio):
    """It was texted when an order was recorded but not when it was extended or lifted, and a queued text with
    the old dates still went out after a change: it could tell a resident "no order" while one was in force."""
    first = record(store, day(1), day(3))
    twilio.fail_next(1, status=429)  # the department's first text waits for a retry ...
    drain(sender, rounds=1)
    store.extend_order(first.order.id, day(6), board_action="Board 12/1", recorded_by="ann", now=MON, alerts=PLAN)
    drain(sender)  # ... and the extension lands before it goes: only the text with the new dates is sent
    told = [m["body"] for m in twilio.sent_to(FIRE)]
    assert told == [f"fire-extended order {first.order.id} until {day(6).astimezone(timezone.utc)} ref - at None"]
    assert [a.state for a in store.alerts(kind="fire")] == ["superseded", "sent"]
    store.lift_order("dunkirk", day(2, 12), board_action="Board 12/2", recorded_by="ann", now=MON, alerts=PLAN)
    drain(sender)
    assert twilio.sent_to(FIRE)[-1]["body"].startswith(f"fire-lifted order {first.order.id} until ")
    second = record(store, day(4), None)
    drain(sender)
    third = record(store, day(5), day(7))  # takes over from the second order's day 5
    drain(sender)
    bodies = [m["body"] for m in twilio.sent_to(FIRE)][-3:]
    assert bodies[0].startswith(f"fire order {second.order.id} until None")
    assert bodies[1].startswith(f"fire order {third.order.id} ")
    assert bodies[2].startswith(f"fire-superseded order {second.order.id} until {day(5).astimezone(timezone.utc)}")
    assert len(twilio.sent_to(FIRE)) == 5 and {a.state for a in store.alerts(kind="fire")} == {"sent", "superseded"}


def test_a_fire_department_text_is_not_sent_after_a_later_one_about_its_order(store):
    record(store, day(1), day(3))
    first_fire = store.alerts(kind="fire")[0]
    store.claim_alert(first_fire, 30)  # in flight when the order is extended
    store.extend_order(first_fire.order_id, day(6), board_action="Board 12/1", recorded_by="ann", now=MON,
                       alerts=PLAN)
    assert [a.state for a in store.alerts(kind="fire")] == ["sending", "queued"]
    assert not store.alert_still_true(store.alerts(kind="fire")[0], CHI)  # re-claimed later: superseded
    assert store.alert_still_true(store.alerts(kind="fire")[1], CHI)


def test_opted_out_numbers_get_nothing_and_a_number_that_is_not_one_is_kept_for_the_clerk(store):
    ok, out, bad = burns(store, [1, 1, 1], phone="608-555-{:04d}")
    store.set_sms_opt_out("+16085550001", True)  # as Twilio's From gives it
    store.add_burn_notification(town="dunkirk", name="No Phone", address="x", phone="call me", burn_date=bad.burn_date)
    record(store, day(1), day(2))
    states = {a.notification_id: a.state for a in store.alerts(kind="order")}
    assert states[ok.id] == "queued" and states[out.id] == "opted_out"
    assert "no_number" in states.values()
    assert {a.state for a, _ in store.unreachable_alerts("dunkirk")} == {"opted_out", "no_number"}


def test_the_alerts_are_written_in_the_orders_transaction_so_neither_is_kept_without_the_other(store):
    burns(store, [1])

    def broken(kind, order, note, at):
        raise RuntimeError("the text could not be made")
    with pytest.raises(RuntimeError):
        record(store, day(1), day(2), plan=AlertPlan(CHI, MON.date(), broken, FIRE))
    assert store.orders("dunkirk") == [] and store.alerts() == []


def test_an_extension_texts_only_the_notifiers_on_the_days_it_adds(store):
    notes = burns(store, [1, 2, 3, 4])
    result = record(store, day(1), day(2, 12))  # Tue, and Wed until noon
    assert told(store) == {notes[0].id, notes[1].id}
    store.extend_order(result.order.id, day(4), board_action="Board 12/1", recorded_by="ann", now=MON, alerts=PLAN)
    assert told(store) == {n.id for n in notes[:3]}
    assert len(store.alerts(kind="order")) == 3  # Wednesday's notifier is not told twice


def sent(store, kind="order"):
    """The sender's work, in short: every queued alert of ``kind`` recorded as sent."""
    for a in store.alerts(kind=kind):
        if a.state == "queued":
            store.alert_sent(a.id, f"SM{a.id:032d}")


def test_lifting_early_sends_the_all_clear_to_those_told_whose_day_is_wholly_free(store):
    notes = burns(store, [1, 2, 3])
    record(store, day(1), day(4))
    sent(store)
    store.set_sms_opt_out("+16085550002", True)
    store.lift_order("dunkirk", day(2, 15), board_action="Board 12/2", recorded_by="ann", now=MON, alerts=PLAN)
    # Wednesday is still under the order until 3 p.m.: no "you may go ahead" for it; Thursday's notifier opted out
    clear = store.alerts(kind="lifted")
    assert [a.notification_id for a in clear] == [notes[2].id] and clear[0].state == "opted_out"


def test_an_order_lifted_before_its_texts_went_out_sends_no_all_clear(store, sender, twilio):
    """The all-clear went to people never told of the order (their "may not go ahead" was still queued, then
    superseded): a "you may go ahead" about an order they never heard of. They now get nothing; those whose text
    may have reached Twilio (sent, or an unclear attempt) get the all-clear."""
    waiting, unclear, told = burns(store, [2, 2, 2])
    order = record(store, day(1), day(4), plan=AlertPlan(CHI, MON.date(), compose, "")).order
    twilio.fail_next(1, status=429)  # the first waits for a retry: nothing reached Twilio
    twilio.fail_next(1, status=503)  # the second's answer was unclear: it may have reached Twilio
    drain(sender, rounds=1)  # the third is sent
    store.lift_order("dunkirk", day(1, 12), board_action="Board 12/1", recorded_by="ann", now=MON, alerts=PLAN)
    assert {a.notification_id for a in store.alerts(kind="lifted")} == {told.id, unclear.id}
    drain(sender)
    assert twilio.sent_to(e164(waiting.phone)) == []
    assert {a.notification_id: a.state for a in store.alerts(order.id, "order")}[waiting.id] == "superseded"
    assert [m["body"].split()[0] for m in twilio.sent_to(e164(told.phone))] == ["order", "lifted"]


def test_a_shorter_order_that_supersedes_one_frees_the_days_after_it(store):
    notes = burns(store, [1, 2, 3, 4])
    record(store, day(1), day(5))
    sent(store)
    record(store, day(2), day(3))  # takes over from Wednesday, ends Thursday 0:00: Thu and Fri are free
    assert {a.notification_id for a in store.alerts(kind="lifted")} == {notes[2].id, notes[3].id}


def test_a_notice_stores_its_phone_in_e164(store):
    ok, premium = (store.add_burn_notification(town="dunkirk", name="Ann Lee", address="N1 Road K", phone=p,
                                               burn_date=MON.date()) for p in ("(608) 555-0142", "+1 900 555 0142"))
    assert (ok.phone, ok.phone_e164) == ("(608) 555-0142", "+16085550142")
    assert premium.phone_e164 is None
    (stored,) = [n for n in store.list_burn_notifications("dunkirk") if n.id == ok.id]
    assert stored.phone_e164 == "+16085550142"


def test_an_order_never_texts_a_premium_or_non_us_number(store):
    (ok,) = burns(store, [1], phone="+1608555{:04d}")
    premium, jamaica = (store.add_burn_notification(town="dunkirk", name=f"R{i}", address="N1 Road K", phone=p,
                                                    burn_date=MON.date() + timedelta(days=1))
                        for i, p in enumerate(("+1 900 555 0142", "(876) 555-0142")))
    record(store, day(1), day(2))
    state = {a.notification_id: (a.state, a.to_number) for a in store.alerts(kind="order")}
    assert state[ok.id] == ("queued", "+16085550000")
    assert state[premium.id][0] == state[jamaica.id][0] == "no_number"
    assert {a.notification_id for a, _ in store.unreachable_alerts("dunkirk")} == {premium.id, jamaica.id}


def test_one_number_gets_at_most_the_daily_cap_of_alerts_and_the_clerk_sees_the_rest(store, monkeypatch):
    """Notices for many days with someone else's number, then an order over them all: every notice used to mean
    a text to that number."""
    monkeypatch.delenv("SMS_ALERTS_PER_NUMBER_PER_DAY", raising=False)
    victim = burns(store, [1, 2, 3, 4, 5, 6, 7], phone="(608) 555-0199")
    other = burns(store, [1], phone="(608) 555-0100")
    record(store, day(1), day(8))
    states = {a.notification_id: a.state for a in store.alerts(kind="order")}
    assert [states[n.id] for n in victim] == ["queued"] * 5 + ["capped"] * 2
    assert states[other[0].id] == "queued"
    capped = [a for a, _ in store.unreachable_alerts("dunkirk") if a.state == "capped"]
    assert [a.notification_id for a in capped] == [n.id for n in victim[5:]]
    monkeypatch.setenv("SMS_ALERTS_PER_NUMBER_PER_DAY", "1")
    store.extend_order(store.orders("dunkirk")[0].id, day(9), board_action="Board", recorded_by="ann", now=MON,
                       alerts=PLAN)
    assert all(a.state != "queued" for a in store.alerts(kind="order") if a.to_number == "+16085550199"
               and a.id > max(x.id for x in capped))


# ---- the sender ----------------------------------------------------------------------------------------


@pytest.fixture
def twilio():
    with FakeTwilio() as tw:
        yield tw


@pytest.fixture
def sender(store, twilio, monkeypatch):
    monkeypatch.setenv("ALERT_BACKOFF_SECONDS", "0")
    monkeypatch.setenv("ALERT_UNCERTAIN_WAIT", "0")
    cfg = TwilioSettings(twilio.account_sid, twilio.auth_token, "+16085550000", twilio.url,
                         "https://assistant.example.gov", http_timeout=1.0)
    s = Sender(store, cfg, lease=0.5)
    yield s
    s.close()  # the sender lock: on PostgreSQL a session's advisory lock outlives the test otherwise


def drain(sender, rounds=10):
    for _ in range(rounds):
        sender.run_once()


def test_the_sender_sends_each_alert_once_with_its_status_callback(store, sender, twilio):
    burns(store, [1, 2])
    record(store, day(1), day(3))
    drain(sender)
    assert len(twilio.messages) == 3 and {m["body"] for m in twilio.messages} == {a.body for a in store.alerts()}
    assert all(a.state == "sent" and a.message_sid for a in store.alerts())
    first = store.alerts()[0]
    assert twilio.messages[0]["status_callback"] == status_callback_url("https://assistant.example.gov", first.id)


def test_a_lost_or_late_answer_is_looked_up_in_twilios_log_not_sent_again(store, sender, twilio):
    burns(store, [1, 2])
    record(store, day(1), day(3), plan=AlertPlan(CHI, MON.date(), compose, ""))
    twilio.lose_next(1)
    twilio.stall_next(1, seconds=2.0)  # longer than the client's 1 s timeout
    drain(sender)
    assert len(twilio.messages) == 2
    alerts = store.alerts()
    assert all(a.state == "sent" and a.uncertain for a in alerts)
    assert {a.message_sid for a in alerts} == {m["sid"] for m in twilio.messages}


def test_a_server_error_is_retried_and_a_refusal_is_kept_for_the_clerk(store, sender, twilio):
    ok, bad = burns(store, [1, 1])
    twilio.invalid.add(e164(bad.phone))
    record(store, day(1), day(2), plan=AlertPlan(CHI, MON.date(), compose, ""))
    twilio.fail_next(2, status=503)
    twilio.fail_next(1, status=429)
    drain(sender)
    state = {a.notification_id: a for a in store.alerts()}
    assert state[ok.id].state == "sent" and len(twilio.sent_to(e164(ok.phone))) == 1
    assert state[bad.id].state == "failed" and "21211" in state[bad.id].error
    assert [a.notification_id for a, _ in store.unreachable_alerts("dunkirk")] == [bad.id]


def test_a_number_that_opts_out_after_the_order_is_not_sent_to(store, sender, twilio):
    (note,) = burns(store, [1])
    record(store, day(1), day(2), plan=AlertPlan(CHI, MON.date(), compose, ""))
    store.set_sms_opt_out(e164(note.phone), True)
    drain(sender)
    assert twilio.messages == [] and store.alerts()[0].state == "opted_out"


def test_without_twilio_settings_alerts_stay_queued(store, twilio):
    burns(store, [1])
    record(store, day(1), day(2))
    idle = Sender(store, TwilioSettings("", "", "", twilio.url))
    assert idle.gateway is None and idle.cfg.missing() == ["TWILIO_ACCOUNT_SID", "TWILIO_AUTH_TOKEN", "TWILIO_FROM"]
    idle.run_once()
    assert twilio.requests == 0 and {a.state for a in store.alerts()} == {"queued"}


def test_a_status_callback_records_the_delivery_even_before_the_sender_records_the_sid(store):
    burns(store, [1])
    record(store, day(1), day(2), plan=AlertPlan(CHI, MON.date(), compose, ""))
    a = store.alerts()[0]
    assert store.alert_delivery(a.id, "SMabc", "undelivered", "Twilio error 30003")
    assert not store.alert_delivery(a.id, "SMabc", "sending")
    got = store.alerts()[0]
    assert got.delivery == "undelivered" and got.message_sid == "SMabc"


def test_a_delivered_text_is_never_marked_undelivered_by_a_replayed_callback(store):
    burns(store, [1])
    record(store, day(1), day(2), plan=AlertPlan(CHI, MON.date(), compose, ""))
    a = store.alerts()[0]
    assert store.alert_delivery(a.id, "SMabc", "undelivered", "Twilio error 30003")
    assert store.alert_delivery(a.id, "SMabc", "delivered")  # a failure may still be followed by delivery
    for late in ("undelivered", "failed"):  # ... but a delivery is final
        assert not store.alert_delivery(a.id, "SMabc", late, "Twilio error 30005")
    got = store.alerts()[0]
    assert got.delivery == "delivered" and got.error == ""
    assert store.unreachable_alerts("dunkirk") == []


def test_a_lifted_order_cannot_be_extended_so_no_day_is_re_covered_without_a_new_text(store):
    burns(store, [2])
    first = record(store, day(1), day(3))
    store.lift_order("dunkirk", day(1, 12), board_action="Board 12/1", recorded_by="ann", now=MON, alerts=PLAN)
    with pytest.raises(ValueError, match="lifted or superseded"):
        store.extend_order(first.order.id, day(5), board_action="Board 12/2", recorded_by="ann", now=MON,
                           alerts=PLAN)


def test_an_all_clear_overtaken_by_a_new_order_is_never_sent(store, sender, twilio):
    (note,) = burns(store, [2])
    record(store, day(1), day(3), plan=AlertPlan(CHI, MON.date(), compose, ""))
    drain(sender)  # "may not go ahead" sent
    store.lift_order("dunkirk", day(1, 12), board_action="Board 12/1", recorded_by="ann", now=MON, alerts=PLAN)
    twilio.fail_next(1, status=429)  # the all-clear waits for a retry ...
    drain(sender, rounds=1)
    record(store, day(2), day(3), plan=AlertPlan(CHI, MON.date(), compose, ""))  # ... and a new order lands
    drain(sender)
    lifted = store.alerts(kind="lifted")
    assert [a.state for a in lifted] == ["superseded"]
    assert all("lifted" not in m["body"] for m in twilio.sent_to(e164(note.phone)))
    assert len(twilio.sent_to(e164(note.phone))) == 2  # both "may not go ahead" texts, no all-clear between


def test_a_may_not_text_overtaken_by_the_lift_is_not_sent_after_the_all_clear(store, sender, twilio):
    (note,) = burns(store, [2])
    record(store, day(1), day(3), plan=AlertPlan(CHI, MON.date(), compose, ""))
    twilio.fail_next(1, status=429)
    drain(sender, rounds=1)  # the "may not go ahead" waits for a retry
    store.lift_order("dunkirk", day(1, 12), board_action="Board 12/1", recorded_by="ann", now=MON, alerts=PLAN)
    drain(sender)
    assert [a.state for a in store.alerts(kind="order")] == ["superseded"]
