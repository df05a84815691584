"""contact entries: the offices' phone, email and hours as the clerk sets them on the Contacts page

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-03 19:20:00
"""
from alembic import op
import sqlalchemy as sa
import records.schema


revision = '0011'
down_revision = '0010'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('contact_entries',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('town', sa.String(length=40), nullable=False),
    sa.Column('office', sa.String(length=40), nullable=False),
    sa.Column('phone', sa.String(length=40), nullable=False),
    sa.Column('email', sa.String(length=200), nullable=False),
    sa.Column('hours', sa.String(length=200), nullable=False),
    sa.Column('reason', sa.Text(), nullable=False),
    sa.Column('entered_by', sa.String(length=120), nullable=False),
    sa.Column('created_at', records.schema.UTCDateTime(), nullable=False),
    sa.Column('withdrawn_at', records.schema.UTCDateTime(), nullable=True),
    sa.Column('withdrawn_by', sa.String(length=120), nullable=False),
    sa.Column('withdrawn_reason', sa.Text(), nullable=False),
    sa.Column('legal_hold', sa.Boolean(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index('ix_contact_entries_town', 'contact_entries', ['town', 'id'], unique=False)


def downgrade() -> None:
    op.drop_index('ix_contact_entries_town', table_name='contact_entries')
    op.drop_table('contact_entries')
