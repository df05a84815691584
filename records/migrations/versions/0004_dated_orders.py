"""dated no-burning orders and their history; account roles (clerk, fire)

The old on/off rows become dated orders: an "on" row is an order from its time until the next "off" row
(lifted then) or, if none follows, until lifted; an "on" row after another "on" supersedes it from its time.
The old table stays as it was.

Revision ID: 0004
Revises: 0002
Create Date: 2026-12-01 03:10:00
"""
from alembic import op
import sqlalchemy as sa
import records.schema


revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None

MIGRATED = "recorded with the on/off switch, before orders were dated"


def upgrade() -> None:
    op.create_table('no_burning_orders',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('town', sa.String(length=40), nullable=False),
    sa.Column('start_at', records.schema.UTCDateTime(), nullable=False),
    sa.Column('end_at', records.schema.UTCDateTime(), nullable=True),
    sa.Column('reason', sa.Text(), nullable=False),
    sa.Column('board_action', sa.Text(), nullable=False),
    sa.Column('recorded_by', sa.String(length=120), nullable=False),
    sa.Column('created_at', records.schema.UTCDateTime(), nullable=False),
    sa.Column('ended_by', sa.String(length=80), nullable=False),
    sa.Column('legal_hold', sa.Boolean(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index('ix_nbo_town_start', 'no_burning_orders', ['town', 'start_at'], unique=False)
    op.create_table('no_burning_order_events',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('town', sa.String(length=40), nullable=False),
    sa.Column('order_id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=20), nullable=False),
    sa.Column('start_at', records.schema.UTCDateTime(), nullable=False),
    sa.Column('end_at', records.schema.UTCDateTime(), nullable=True),
    sa.Column('board_action', sa.Text(), nullable=False),
    sa.Column('reason', sa.Text(), nullable=False),
    sa.Column('recorded_by', sa.String(length=120), nullable=False),
    sa.Column('created_at', records.schema.UTCDateTime(), nullable=False),
    sa.Column('legal_hold', sa.Boolean(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index('ix_nboe_town', 'no_burning_order_events', ['town', 'id'], unique=False)
    with op.batch_alter_table('clerk_accounts', schema=None) as batch_op:
        batch_op.add_column(sa.Column('role', sa.String(length=20), nullable=False, server_default='clerk'))
    _orders_from_switch_rows(op.get_bind())


def _orders_from_switch_rows(conn) -> None:
    old = sa.table('burning_order_history', sa.column('id', sa.Integer), sa.column('town', sa.String),
                   sa.column('active', sa.Boolean), sa.column('reason', sa.Text), sa.column('set_by', sa.String),
                   sa.column('created_at', records.schema.UTCDateTime()))
    when = records.schema.UTCDateTime
    orders = sa.Table('no_burning_orders', sa.MetaData(), sa.Column('id', sa.Integer, primary_key=True),
                      *(sa.Column(c, sa.Text) for c in ('town', 'reason', 'board_action', 'recorded_by', 'ended_by')),
                      sa.Column('legal_hold', sa.Boolean), sa.Column('start_at', when()), sa.Column('end_at', when()),
                      sa.Column('created_at', when()))
    events = sa.table('no_burning_order_events', *(sa.column(c) for c in (
        'town', 'order_id', 'kind', 'board_action', 'reason', 'recorded_by', 'legal_hold')),
        sa.column('start_at', records.schema.UTCDateTime()), sa.column('end_at', records.schema.UTCDateTime()),
        sa.column('created_at', records.schema.UTCDateTime()))
    open_order: dict[str, tuple[int, object]] = {}  # town -> (order id, start) of the order in force
    for r in conn.execute(sa.select(old).order_by(old.c.id)).fetchall():
        current = open_order.pop(r.town, None)
        if current is not None:  # the next row, on or off, ends the order in force
            oid, start = current
            ended = "lifted" if not r.active else "superseded by the next order"
            conn.execute(orders.update().where(orders.c.id == oid).values(end_at=r.created_at, ended_by=ended))
            conn.execute(events.insert().values(
                town=r.town, order_id=oid, kind="lifted" if not r.active else "superseded", start_at=start,
                end_at=r.created_at, board_action="", reason=(r.reason or "") + f" ({MIGRATED})",
                recorded_by=r.set_by, created_at=r.created_at, legal_hold=False))
        if r.active:
            oid = conn.execute(orders.insert().values(
                town=r.town, start_at=r.created_at, end_at=None, reason=r.reason or "", board_action="",
                recorded_by=r.set_by, created_at=r.created_at, ended_by="", legal_hold=False)).inserted_primary_key[0]
            conn.execute(events.insert().values(
                town=r.town, order_id=oid, kind="migrated", start_at=r.created_at, end_at=None, board_action="",
                reason=f"{r.reason or ''} ({MIGRATED})".strip(), recorded_by=r.set_by, created_at=r.created_at,
                legal_hold=False))
            open_order[r.town] = (oid, r.created_at)


def downgrade() -> None:
    with op.batch_alter_table('clerk_accounts', schema=None) as batch_op:
        batch_op.drop_column('role')
    op.drop_index('ix_nboe_town', table_name='no_burning_order_events')
    op.drop_table('no_burning_order_events')
    op.drop_index('ix_nbo_town_start', table_name='no_burning_orders')
    op.drop_table('no_burning_orders')
