"""the SMS outbox: alerts about no-burning orders to notifiers and the Fire Department (#14)

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01 05:40:00
"""
from alembic import op
import sqlalchemy as sa
import records.schema


revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('sms_alerts',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('key', sa.String(length=120), nullable=False),
    sa.Column('town', sa.String(length=40), nullable=False),
    sa.Column('order_id', sa.Integer(), nullable=False),
    sa.Column('notification_id', sa.Integer(), nullable=True),
    sa.Column('kind', sa.String(length=20), nullable=False),
    sa.Column('to_number', sa.String(length=40), nullable=False),
    sa.Column('body', sa.Text(), nullable=False),
    sa.Column('state', sa.String(length=20), nullable=False),
    sa.Column('uncertain', sa.Boolean(), nullable=False),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('next_attempt_at', records.schema.UTCDateTime(), nullable=False),
    sa.Column('claimed_until', records.schema.UTCDateTime(), nullable=True),
    sa.Column('message_sid', sa.String(length=64), nullable=True),
    sa.Column('delivery', sa.String(length=20), nullable=False),
    sa.Column('error', sa.String(length=300), nullable=False),
    sa.Column('created_at', records.schema.UTCDateTime(), nullable=False),
    sa.Column('sent_at', records.schema.UTCDateTime(), nullable=True),
    sa.Column('legal_hold', sa.Boolean(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index('uq_sms_alert_key', 'sms_alerts', ['key'], unique=True)
    op.create_index('ix_sms_alert_due', 'sms_alerts', ['state', 'next_attempt_at'], unique=False)
    op.create_index('ix_sms_alert_order', 'sms_alerts', ['order_id'], unique=False)


def downgrade() -> None:
    op.drop_index('ix_sms_alert_order', table_name='sms_alerts')
    op.drop_index('ix_sms_alert_due', table_name='sms_alerts')
    op.drop_index('uq_sms_alert_key', table_name='sms_alerts')
    op.drop_table('sms_alerts')
