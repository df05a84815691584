"""fee entries: the amounts the clerk sets on the Fee schedule page, with who, when, why and undo

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-03 19:00:00
"""
from alembic import op
import sqlalchemy as sa
import records.schema


revision = '0010'
down_revision = '0009'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('fee_entries',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('town', sa.String(length=40), nullable=False),
    sa.Column('parameter', sa.String(length=120), nullable=False),
    sa.Column('amount_cents', sa.Integer(), nullable=False),
    sa.Column('since', sa.Date(), nullable=False),
    sa.Column('source', sa.Text(), nullable=False),
    sa.Column('reason', sa.Text(), nullable=False),
    sa.Column('entered_by', sa.String(length=120), nullable=False),
    sa.Column('created_at', records.schema.UTCDateTime(), nullable=False),
    sa.Column('withdrawn_at', records.schema.UTCDateTime(), nullable=True),
    sa.Column('withdrawn_by', sa.String(length=120), nullable=False),
    sa.Column('withdrawn_reason', sa.Text(), nullable=False),
    sa.Column('legal_hold', sa.Boolean(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index('ix_fee_entries_town', 'fee_entries', ['town', 'id'], unique=False)


def downgrade() -> None:
    op.drop_index('ix_fee_entries_town', table_name='fee_entries')
    op.drop_table('fee_entries')
