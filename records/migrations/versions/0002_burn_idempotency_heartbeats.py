"""burn notification idempotency key; heartbeats table

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02 10:00:00
"""
from alembic import op
import sqlalchemy as sa
import records.schema


revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('burn_notifications', schema=None) as batch_op:
        batch_op.add_column(sa.Column('idempotency_key', sa.String(length=64), nullable=True))
        batch_op.create_index('uq_burn_idempotency', ['idempotency_key'], unique=True)

    op.create_table('heartbeats',
    sa.Column('name', sa.String(length=80), nullable=False),
    sa.Column('at', records.schema.UTCDateTime(), nullable=False),
    sa.PrimaryKeyConstraint('name')
    )


def downgrade() -> None:
    op.drop_table('heartbeats')
    with op.batch_alter_table('burn_notifications', schema=None) as batch_op:
        batch_op.drop_index('uq_burn_idempotency')
        batch_op.drop_column('idempotency_key')
