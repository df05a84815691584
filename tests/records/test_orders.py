"""Dated no-burning orders in the store (Dunkirk 7.09(4)): recorded as the Board issued them, never overlapping
silently (a new order supersedes, an extension extends, lifting is its own entry), the history of each, the
burn notifications a change affects, and migration 0004 from the old on/off rows. SQLite and PostgreSQL."""

from datetime import date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest
from alembic import command
from sqlalchemy import create_engine, text

from records import Store
from records.migrate import config
from tests.records.test_store import pg_url, store  # noqa: F401 - the fixtures: every test on both databases

CHI = ZoneInfo("America/Chicago")
MON = datetime(2026, 11, 30, 9, 0, tzinfo=CHI)


def at(days: float, hour: int = 9) -> datetime:
    return (MON + timedelta(days=days)).replace(hour=hour)


def record(store, start, end, reason="dry", action="Board meeting 11/30", by="ann"):
    return store.record_order("dunkirk", start, end, reason=reason, board_action=action, recorded_by=by, now=MON)


def test_an_order_is_in_force_from_its_start_until_its_end_only(store):
    record(store, at(1, 8), at(3, 18))
    assert store.burning_order("dunkirk", at=at(0)) is None
    assert store.burning_order("dunkirk", at=at(1, 8)).board_action == "Board meeting 11/30"
    assert store.burning_order("dunkirk", at=at(3, 17)) is not None
    assert store.burning_order("dunkirk", at=at(3, 18)) is None
    assert store.burning_order("dunkirk", at=at(8)) is None  # next Tuesday
    assert store.burning_order("mequon", at=at(2)) is None


def test_an_order_needs_who_recorded_it_and_an_end_after_its_start(store):
    with pytest.raises(ValueError):
        record(store, at(1), at(3), by=" ")
    with pytest.raises(ValueError):
        record(store, at(3), at(1))
    with pytest.raises(ValueError):
        store.record_order("dunkirk", datetime(2026, 12, 1), None, reason="", board_action="", recorded_by="a")
    assert store.orders("dunkirk") == []


def test_a_new_order_supersedes_the_one_in_force_from_its_start_and_the_history_says_so(store):
    first = record(store, at(1), None, reason="dry").order
    second = record(store, at(4), at(6), reason="windy", action="Board meeting 12/3").order
    orders = store.orders("dunkirk")
    assert [(o.id, o.start_at, o.end_at) for o in orders] == [(first.id, at(1), at(4)), (second.id, at(4), at(6))]
    assert orders[0].ended_by == f"superseded by order {second.id}"
    assert store.burning_order("dunkirk", at=at(5)).reason == "windy"
    assert store.burning_order("dunkirk", at=at(7)) is None  # the newer Board action governs from its start
    kinds = [(e.kind, e.order_id) for e in store.order_history("dunkirk")]
    assert kinds == [("superseded", first.id), ("recorded", second.id), ("recorded", first.id)]
    # no two orders overlap
    spans = [(o.start_at, o.end_at) for o in store.orders("dunkirk") if o.end_at is None or o.end_at > o.start_at]
    assert all(a[1] is not None and a[1] <= b[0] for a, b in zip(spans, spans[1:]))


def test_an_order_recorded_before_a_later_one_begins_supersedes_it_whole(store):
    later = record(store, at(5), at(7)).order
    record(store, at(2), None, reason="drought")
    assert [o.ended_by for o in store.orders("dunkirk")] == ["", f"superseded by order {later.id + 1}"]
    assert store.burning_order("dunkirk", at=at(6)).reason == "drought"
    assert [o.order_id for o in store.no_burning_orders("dunkirk")] == [later.id + 1]


def test_extending_an_order_moves_its_end_and_is_its_own_entry(store):
    o = record(store, at(1), at(3)).order
    result = store.extend_order(o.id, at(5), board_action="Board meeting 12/2", recorded_by="bo", now=at(2))
    assert (result.changed_from, result.changed_until) == (at(3), at(5))
    assert store.burning_order("dunkirk", at=at(4)).order_id == o.id
    assert store.order_history("dunkirk")[0].kind == "extended"
    assert store.order_history("dunkirk")[0].board_action == "Board meeting 12/2"
    with pytest.raises(ValueError):
        store.extend_order(o.id, at(4), board_action="", recorded_by="bo")  # earlier: that is lifting
    store.extend_order(o.id, None, board_action="", recorded_by="bo")
    assert store.burning_order("dunkirk", at=at(60)) is not None


def test_lifting_early_ends_the_order_at_that_moment_and_is_audited(store):
    o = record(store, at(1), None).order
    assert store.lift_order("dunkirk", at(0), board_action="x", recorded_by="bo") is None  # not in force yet
    result = store.lift_order("dunkirk", at(2, 14), board_action="Board meeting 12/2", recorded_by="bo",
                              reason="rain", now=at(2, 14))
    assert result.order.end_at == at(2, 14) and result.order.ended_by == "lifted"
    assert store.burning_order("dunkirk", at=at(2, 13)).order_id == o.id
    assert store.burning_order("dunkirk", at=at(2, 15)) is None
    last = store.order_history("dunkirk")[0]
    assert (last.kind, last.recorded_by, last.reason, last.board_action) == ("lifted", "bo", "rain",
                                                                              "Board meeting 12/2")


def test_the_seam_for_telling_residents_lists_the_notifications_a_change_affects(store):
    def burn(day):
        return store.add_burn_notification(town="dunkirk", name="Pat", address="N1 Road K", phone="+16085550100",
                                           burn_date=day, location="field", approx_time="10 a.m.", channel="web")
    before, during, after = burn(date(2026, 11, 30)), burn(date(2026, 12, 2)), burn(date(2026, 12, 9))
    result = record(store, at(1, 8), at(3, 18))
    affected = store.notifications_affected("dunkirk", result.changed_from, result.changed_until, CHI,
                                            today=date(2026, 11, 30))
    assert [n.reference for n in affected] == [during.reference]
    lifted = store.lift_order("dunkirk", at(2, 6), board_action="", recorded_by="bo")
    freed = store.notifications_affected("dunkirk", lifted.changed_from, lifted.changed_until, CHI)
    assert [n.reference for n in freed] == [during.reference]
    open_ended = store.notifications_affected("dunkirk", at(8), None, CHI)
    assert [n.reference for n in open_ended] == [after.reference] and before.reference not in {
        n.reference for n in open_ended}


def _old_rows(conn):
    t0 = datetime(2026, 6, 1, 15, 0)
    rows = [(1, "dunkirk", True, "Dry", "ann", t0), (2, "dunkirk", False, "Rain", "bo", t0 + timedelta(days=3)),
            (3, "dunkirk", True, "Drought", "ann", t0 + timedelta(days=30)),
            (4, "dunkirk", True, "Drought, windy", "bo", t0 + timedelta(days=32))]
    for r in rows:
        conn.execute(text("INSERT INTO burning_order_history (id, town, active, reason, set_by, created_at, "
                          "legal_hold) VALUES (:i, :t, :a, :r, :s, :c, :h)"),
                     dict(i=r[0], t=r[1], a=r[2], r=r[3], s=r[4], c=r[5], h=False))
    return t0


def test_migration_0004_makes_dated_orders_of_the_old_on_off_rows(store):
    url = str(store.engine.url.render_as_string(hide_password=False))
    store.close()
    engine = create_engine(url)
    cfg = config(url)
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0002")
    with engine.begin() as conn:
        conn.execute(text("DELETE FROM burning_order_history"))
        t0 = _old_rows(conn)
    engine.dispose()
    migrated = Store(url)  # opening the store upgrades to the head
    try:
        utc = timezone.utc
        orders = migrated.orders("dunkirk")
        assert [(o.start_at, o.end_at, o.reason, o.ended_by) for o in orders] == [
            (t0.replace(tzinfo=utc), (t0 + timedelta(days=3)).replace(tzinfo=utc), "Dry", "lifted"),
            ((t0 + timedelta(days=30)).replace(tzinfo=utc), (t0 + timedelta(days=32)).replace(tzinfo=utc),
             "Drought", "superseded by the next order"),
            ((t0 + timedelta(days=32)).replace(tzinfo=utc), None, "Drought, windy", "")]
        assert migrated.burning_order("dunkirk", at=(t0 + timedelta(days=1)).replace(tzinfo=utc)).reason == "Dry"
        assert migrated.burning_order("dunkirk", at=(t0 + timedelta(days=10)).replace(tzinfo=utc)) is None
        assert migrated.burning_order("dunkirk", at=datetime(2027, 1, 1, tzinfo=utc)).set_by == "bo"
        kinds = [e.kind for e in reversed(migrated.order_history("dunkirk"))]
        assert kinds == ["migrated", "lifted", "migrated", "superseded", "migrated"]
        assert len(migrated.legacy_order_history("dunkirk")) == 4  # the old rows are kept as they were
    finally:
        migrated.close()
