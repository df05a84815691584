"""clerk session generation (logout and a password change end every session)

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01 03:15:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('clerk_accounts', schema=None) as batch_op:
        batch_op.add_column(sa.Column('session_generation', sa.Integer(), server_default='0', nullable=False))


def downgrade() -> None:
    with op.batch_alter_table('clerk_accounts', schema=None) as batch_op:
        batch_op.drop_column('session_generation')
