"""one alert sender: claim tokens and queue times of alerts, the sender lock (SQLite)

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02 11:00:00
"""
from alembic import op
import sqlalchemy as sa
import records.schema


revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('sms_alerts', schema=None) as batch_op:
        batch_op.add_column(sa.Column('claim_token', sa.String(length=32), nullable=True))
        batch_op.add_column(sa.Column('queued_at', records.schema.UTCDateTime(), nullable=True))
    op.create_table('sender_locks',
    sa.Column('name', sa.String(length=80), nullable=False),
    sa.Column('holder', sa.String(length=120), nullable=False),
    sa.Column('expires_at', records.schema.UTCDateTime(), nullable=False),
    sa.PrimaryKeyConstraint('name')
    )


def downgrade() -> None:
    op.drop_table('sender_locks')
    with op.batch_alter_table('sms_alerts', schema=None) as batch_op:
        batch_op.drop_column('queued_at')
        batch_op.drop_column('claim_token')
