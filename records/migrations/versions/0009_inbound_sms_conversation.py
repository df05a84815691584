"""inbound SMS record their conversation, so a legal hold on it holds the raw messages

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02 14:00:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('inbound_sms', schema=None) as batch_op:
        batch_op.add_column(sa.Column('conversation_id', sa.String(length=80), server_default='', nullable=False))
        batch_op.create_index('ix_inbound_sms_conv', ['conversation_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('inbound_sms', schema=None) as batch_op:
        batch_op.drop_index('ix_inbound_sms_conv')
        batch_op.drop_column('conversation_id')
