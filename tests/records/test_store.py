"""The records store: durability settings, one record per transaction, idempotent SMS, order history,
clerk passwords and the retention purge that respects legal holds."""

import os
import re
import threading
from datetime import date, datetime, timedelta, timezone

import pytest

from knowledge.model import BurningOrder
from records import Store, schema
from tests.support.services import have_postgres, postgres

NOW = datetime(2026, 11, 30, 15, 0, tzinfo=timezone.utc)


PG_URL = os.environ.get("TEST_POSTGRES_URL", "")  # e.g. postgresql://postgres@127.0.0.1:5432/records_test


@pytest.fixture(scope="session")
def pg_url(tmp_path_factory):
    """TEST_POSTGRES_URL, else a throw-away server from Debian's postgresql binaries, else skip."""
    if PG_URL:
        yield PG_URL
    elif not have_postgres():
        pytest.skip("neither TEST_POSTGRES_URL nor Debian's postgresql binaries (PostgreSQL tests)")
    else:
        with postgres(tmp_path_factory.mktemp("pg")) as url:
            yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request, tmp_path):
    """Every test runs on SQLite, and on PostgreSQL too (see ``pg_url``)."""
    if request.param == "postgresql":
        st = Store(request.getfixturevalue("pg_url"))
        from records import schema
        with st.engine.begin() as conn:
            for table in reversed(schema.metadata.sorted_tables):
                conn.execute(table.delete())
    else:
        st = Store(f"sqlite:///{tmp_path / 'records.db'}")
    st.kind = request.param
    yield st
    st.close()


def sqlite_only(store):
    if store.kind != "sqlite":
        pytest.skip("SQLite-specific")


def add(store, **kw):
    fields = dict(town="dunkirk", name="Ann Lee", address="N1234 County Road K", phone="+16085550100",
                  burn_date=date(2026, 12, 1), location="back field", approx_time="9 a.m.", channel="web",
                  conversation_id="c1")
    fields.update(kw)
    return store.add_burn_notification(**fields)


def test_sqlite_runs_in_wal_mode_with_full_sync_and_foreign_keys(store):
    sqlite_only(store)
    assert store.pragma("journal_mode").lower() == "wal"
    assert store.pragma("synchronous") == 2  # FULL
    assert store.pragma("foreign_keys") == 1


def test_from_env_defaults_to_instance_db_under_repo(monkeypatch):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    st = Store.from_env()
    try:
        assert st.url.endswith("/instance/assistant.db")
        assert os.path.isabs(st.url[len("sqlite:///"):])
    finally:
        st.close()


def test_from_env_uses_database_url(monkeypatch, tmp_path):
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'x.db'}")
    st = Store.from_env()
    assert st.url == f"sqlite:///{tmp_path / 'x.db'}"
    st.close()


def test_burn_notification_gets_a_readable_reference_and_is_listed(store):
    n = add(store)
    assert re.fullmatch(r"DK-[2-9A-HJ-NP-Z]{5}", n.reference)
    assert store.list_burn_notifications("dunkirk") == [n]
    assert store.get_burn_notification(n.reference.lower()) == n
    assert store.list_burn_notifications("mequon") == []
    assert add(store, town="mequon").reference.startswith("MQ-")


def test_burn_notification_is_committed_before_it_returns(store, tmp_path):
    n = add(store)
    # another connection (as another process would) sees it at once
    other = Store(store.url)
    assert other.get_burn_notification(n.reference) == n
    other.close()


def test_burn_notifications_filter_by_date(store):
    a = add(store, burn_date=date(2026, 12, 1))
    b = add(store, burn_date=date(2026, 12, 5))
    c = add(store, burn_date=date(2026, 12, 9))
    assert store.list_burn_notifications("dunkirk", from_date=date(2026, 12, 2)) == [b, c]
    assert store.list_burn_notifications("dunkirk", to_date=date(2026, 12, 5)) == [a, b]
    assert store.list_burn_notifications("dunkirk", date(2026, 12, 5), date(2026, 12, 5)) == [b]


def test_burn_notification_requires_name_address_phone(store):
    with pytest.raises(ValueError):
        add(store, name=" ")


def test_unanswered_questions_keep_suggestions(store):
    q = store.record_unanswered(town="dunkirk", text="can I keep a llama", channel="sms",
                                conversation_id="sms:ab", suggestions=["livestock", "animal_limits"])
    assert store.list_unanswered("dunkirk") == [q]
    assert q.suggestions == ("livestock", "animal_limits")


def test_the_old_on_off_switch_records_and_lifts_dated_orders(store):
    assert store.burning_order("dunkirk", at=NOW) is None
    store.set_burning_order("dunkirk", True, "Dry conditions", "clerk1", now=NOW)
    order = store.burning_order("dunkirk", at=NOW + timedelta(hours=1))
    assert isinstance(order, BurningOrder)
    assert (order.active, order.reason, order.start, order.end, order.set_by) == (True, "Dry conditions", NOW,
                                                                                  None, "clerk1")
    store.set_burning_order("dunkirk", False, "Rain", "clerk2", now=NOW + timedelta(days=2))
    assert store.burning_order("dunkirk", at=NOW + timedelta(days=3)) is None
    assert store.burning_order("dunkirk", at=NOW + timedelta(days=1)).reason == "Dry conditions"  # history holds
    hist = store.order_history("dunkirk")
    assert [(h.kind, h.recorded_by) for h in hist] == [("lifted", "clerk2"), ("recorded", "clerk1")]
    assert store.burning_order("mequon", at=NOW) is None
    with pytest.raises(ValueError):
        store.set_burning_order("dunkirk", True, "x", "")


def test_inbound_sms_is_idempotent_on_message_sid(store):
    rec, created = store.save_inbound_sms("SM1", "+16085550100", "+16085550199", "hello")
    assert created and rec.reply is None
    store.set_sms_reply("SM1", "Hi there")
    again, created2 = store.save_inbound_sms("SM1", "+16085550100", "+16085550199", "hello")
    assert not created2 and again.reply == "Hi there" and again.id == rec.id
    assert len(store.list_inbound_sms()) == 1


def test_inbound_sms_concurrent_retries_store_one_record(store):
    results = []

    def go():
        results.append(store.save_inbound_sms("SMX", "+1", "+2", "body")[1])

    threads = [threading.Thread(target=go) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results.count(True) == 1
    assert len(store.list_inbound_sms()) == 1


def test_opt_out(store):
    assert not store.sms_opted_out("+1")
    store.set_sms_opt_out("+1", True)
    assert store.sms_opted_out("+1")
    store.set_sms_opt_out("+1", False)
    assert not store.sms_opted_out("+1")


def test_conversation_ids_and_transcripts(store):
    cid = store.new_conversation("dunkirk", "web")
    assert store.conversation_exists(cid) and not store.conversation_exists("made-up")
    store.log_message(cid, "dunkirk", "web", "user", "<b>hi</b>")
    store.log_message(cid, "dunkirk", "web", "bot", "Hello")
    assert [(m.speaker, m.text) for m in store.transcript(cid)] == [("user", "<b>hi</b>"), ("bot", "Hello")]


def test_clerk_passwords_are_argon2_hashed(store, tmp_path):
    store.create_clerk("clerk", "correct horse battery")
    with store.engine.connect() as conn:
        h = conn.exec_driver_sql("select password_hash from clerk_accounts").scalar()
    assert h.startswith("$argon2id$") and "correct" not in h
    assert store.verify_clerk("clerk", "correct horse battery").username == "clerk"
    assert store.verify_clerk("clerk", "wrong password!!") is None
    assert store.verify_clerk("nobody", "correct horse battery") is None
    with pytest.raises(ValueError):
        store.create_clerk("clerk", "another long password")
    with pytest.raises(ValueError):
        store.create_clerk("short", "short")


def test_purge_deletes_old_records_but_keeps_legal_holds_and_current_order(store):
    old = NOW - timedelta(days=3000)
    kept = add(store, now=old)
    gone = add(store, now=old)
    recent = add(store, now=NOW)
    store.set_legal_hold("burn_notifications", kept.reference)
    store.set_burning_order("dunkirk", True, "dry", "c", now=old)
    store.set_burning_order("dunkirk", False, "rain", "c", now=old + timedelta(days=1))
    store.save_inbound_sms("SMold", "+1", "+2", "x", now=old)
    cid = store.new_conversation("dunkirk", now=old)
    store.log_message(cid, "dunkirk", "web", "user", "held words", now=old)
    store.set_legal_hold("conversations", cid)
    store.log_message("other", "dunkirk", "web", "user", "old words", now=old)

    result = store.purge(2557, now=NOW)

    refs = {n.reference for n in store.list_burn_notifications("dunkirk")}
    assert refs == {kept.reference, recent.reference} and gone.reference not in refs
    assert result.deleted["burn_notifications"] == 1 and result.held["burn_notifications"] == 1
    # dated orders are Board actions: never purged
    assert len(store.order_history("dunkirk")) == 2
    assert store.get_inbound_sms("SMold") is None
    assert [m.text for m in store.transcript(cid)] == ["held words"]
    assert store.transcript("other") == []


def test_naive_datetimes_are_refused(store):
    with pytest.raises(Exception):
        add(store, now=datetime(2026, 1, 1))


def test_offered_buttons_and_pending_pages(store):
    store.ensure_conversation("sms:abc", "dunkirk", "sms")
    store.ensure_conversation("sms:abc", "dunkirk", "sms")
    assert store.offered("sms:abc") == []
    store.set_offered("sms:abc", [{"title": "Barking", "payload": "/ask_barking"}])
    assert store.offered("sms:abc")[0]["payload"] == "/ask_barking"
    store.set_pending_pages("sms:abc", ["p2", "p3"])
    assert store.pop_pending_page("sms:abc") == "p2"
    assert store.pop_pending_page("sms:abc") == "p3"
    assert store.pop_pending_page("sms:abc") is None


def test_purge_removes_old_rasa_events_except_conversations_on_hold(store):
    """Rasa's tracker store shares the database by default: its old events are purged with the transcripts."""
    from sqlalchemy import Column, Float, Integer, MetaData, String, Table, select
    meta = MetaData()
    events = Table("events", meta, Column("id", Integer, primary_key=True), Column("sender_id", String(255)),
                   Column("type_name", String(255)), Column("timestamp", Float))
    meta.create_all(store.engine)
    old, recent = NOW - timedelta(days=3000), NOW - timedelta(days=1)
    held = store.new_conversation("dunkirk", now=old)
    store.set_legal_hold("conversations", held)
    with store.engine.begin() as conn:
        for sender, when in (("old-free", old), (held, old), ("recent", recent)):
            conn.execute(events.insert().values(sender_id=sender, type_name="user", timestamp=when.timestamp()))

    result = store.purge(2557, now=NOW)

    with store.engine.connect() as conn:
        left = sorted(r[0] for r in conn.execute(select(events.c.sender_id)))
    assert left == sorted([held, "recent"])
    assert result.deleted["rasa_events"] == 1 and result.held["rasa_events"] == 1


def test_a_new_database_is_made_by_the_migrations(tmp_path):
    from sqlalchemy import inspect
    store = Store(f"sqlite:///{tmp_path / 'new.db'}")
    tables = set(inspect(store.engine).get_table_names())
    assert "alembic_version" in tables and set(schema.metadata.tables) <= tables
    with store.engine.connect() as conn:
        head = conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalar()
    from alembic.script import ScriptDirectory
    from records.migrate import config
    assert head == ScriptDirectory.from_config(config()).get_current_head()


def test_an_unmigrated_database_that_matches_is_stamped_and_one_that_does_not_is_refused(tmp_path):
    from records.migrate import SchemaOutOfDate
    from records.store import make_engine
    from sqlalchemy import inspect
    matching = make_engine(f"sqlite:///{tmp_path / 'old-ok.db'}")
    schema.metadata.create_all(matching)  # what releases before the migrations did
    Store(f"sqlite:///{tmp_path / 'old-ok.db'}")
    assert "alembic_version" in inspect(matching).get_table_names()

    stale = make_engine(f"sqlite:///{tmp_path / 'old-stale.db'}")
    with stale.begin() as conn:
        conn.exec_driver_sql("CREATE TABLE conversations (id VARCHAR(80) PRIMARY KEY, town VARCHAR(40))")
    with pytest.raises(SchemaOutOfDate, match="conversations lacks column channel"):
        Store(f"sqlite:///{tmp_path / 'old-stale.db'}")


def test_the_migrations_build_exactly_the_declared_schema(tmp_path):
    """A change to records/schema.py without a migration fails here (alembic compares the two)."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext
    store = Store(f"sqlite:///{tmp_path / 'cmp.db'}")
    with store.engine.connect() as conn:
        ctx = MigrationContext.configure(conn, opts={"compare_type": True,
                                                     "include_object": lambda o, n, t, r, c: t != "table"
                                                     or n in schema.metadata.tables})
        assert compare_metadata(ctx, schema.metadata) == []


def _open_store(url):
    Store(url).close()
    return "ok"


def test_processes_starting_together_on_a_new_database_all_open_it(tmp_path):
    """web and the action server may start at the same moment on a database that does not exist yet."""
    import multiprocessing
    url = f"sqlite:///{tmp_path / 'race.db'}"
    with multiprocessing.get_context("spawn").Pool(4) as pool:
        assert pool.map(_open_store, [url] * 8) == ["ok"] * 8


def test_the_same_notification_submitted_twice_is_stored_once(store):
    from records import burn_idempotency_key
    facts = dict(town="dunkirk", name="Pat Olson", address="N1234 County Road K", phone="(608) 555-0142",
                 burn_date=date(2026, 12, 2), location="back field", approx_time="10:00 a.m.")
    key = burn_idempotency_key("sms:abc", **facts)
    first = store.add_burn_notification(**facts, channel="sms", conversation_id="sms:abc", idempotency_key=key)
    again = store.add_burn_notification(**facts, channel="sms", conversation_id="sms:abc", idempotency_key=key)
    assert again.reference == first.reference and again.id == first.id
    assert len(store.list_burn_notifications("dunkirk")) == 1
    other = burn_idempotency_key("sms:abc", **{**facts, "location": "front yard"})
    assert store.add_burn_notification(**{**facts, "location": "front yard"}, conversation_id="sms:abc",
                                       idempotency_key=other).reference != first.reference
    store.heartbeat("test")


@pytest.mark.parametrize("towns,expected", [(["mequon"], "mequon"), ([], "dunkirk"), (["mequon", "dunkirk"], "")])
def test_the_town_migration_gives_old_accounts_and_texts_the_databases_one_town(tmp_path, monkeypatch, towns,
                                                                                  expected):
    """Accounts and texts stored before towns were recorded: the database's one town; with no records yet the
    migrating process's TOWN; where several towns share the database, none (set-clerk-town assigns it)."""
    from alembic import command
    from records.migrate import config
    from records.store import make_engine
    monkeypatch.setenv("TOWN", "dunkirk")
    url = f"sqlite:///{tmp_path / 'old.db'}"
    with make_engine(url).begin() as conn:
        cfg = config(url)
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0007")
        conn.exec_driver_sql("INSERT INTO clerk_accounts (username, password_hash, created_at, role, "
                             "session_generation) VALUES ('ann', 'x', '2026-11-01 00:00:00.000000', 'clerk', 0)")
        conn.exec_driver_sql("INSERT INTO inbound_sms (message_sid, from_number, to_number, body, created_at, "
                             "legal_hold) VALUES ('SM1', '+16085550100', '+1', 'hi', '2026-11-01 00:00:00.000000', 0)")
        for i, town in enumerate(towns):
            conn.exec_driver_sql(f"INSERT INTO conversations (id, town, channel, created_at, legal_hold, offered, "
                                 f"pending_pages) VALUES ('c{i}', '{town}', 'web', '2026-11-01 00:00:00', 0, '[]', '[]')")
    st = Store(url)
    with st.engine.connect() as conn:
        assert conn.exec_driver_sql("SELECT town FROM clerk_accounts").scalar() == expected
        assert conn.exec_driver_sql("SELECT town FROM inbound_sms").scalar() == expected
    assert st.set_clerk_town("ann", "mequon") and st.get_clerk(1).town == "mequon"
    st.close()


def test_the_retention_purge_never_deletes_an_opt_out(store):
    """An opt-out holds until the number texts START: the purge, however old the row, leaves the list alone."""
    store.set_sms_opt_out("+16085550100", True, now=NOW - timedelta(days=20 * 365))
    store.purge(0, now=NOW + timedelta(days=1))
    assert store.sms_opted_out("+16085550100")
    assert "sms_opt_outs" not in schema.RETAINED
