"""burn notifications keep their phone in E.164 when it is a US number that can receive texts

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02 12:00:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('burn_notifications', schema=None) as batch_op:
        batch_op.add_column(sa.Column('phone_e164', sa.String(length=16), nullable=True))
    from records.phones import textable_e164
    conn = op.get_bind()
    t = sa.table('burn_notifications', sa.column('id', sa.Integer), sa.column('phone', sa.String),
                 sa.column('phone_e164', sa.String))
    for row in conn.execute(sa.select(t.c.id, t.c.phone)).fetchall():
        number = textable_e164(row.phone)
        if number:
            conn.execute(sa.update(t).where(t.c.id == row.id).values(phone_e164=number))


def downgrade() -> None:
    with op.batch_alter_table('burn_notifications', schema=None) as batch_op:
        batch_op.drop_column('phone_e164')
