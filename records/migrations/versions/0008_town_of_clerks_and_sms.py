"""the town of each clerk account and of each inbound SMS (towns may share a database)

Existing rows get the database's one town when its records name exactly one, or, in a database with no
records yet, the town of the process that runs the migration (TOWN); where several towns' records share the
database they stay "" (an account signs in nowhere until `python -m records set-clerk-town` gives it its
town; such a message shows on no clerk page).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02 13:00:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None

TOWN_TABLES = ("burn_notifications", "conversations", "no_burning_orders", "unanswered_questions",
               "transcript_messages", "sms_alerts")


def _the_town(conn) -> str:
    towns = set()
    for name in TOWN_TABLES:
        t = sa.table(name, sa.column("town", sa.String))
        towns |= {r[0] for r in conn.execute(sa.select(t.c.town).distinct()) if r[0]}
    if len(towns) == 1:
        return towns.pop()
    if not towns:
        from records.settings import town
        return town()
    return ""


def upgrade() -> None:
    with op.batch_alter_table('inbound_sms', schema=None) as batch_op:
        batch_op.add_column(sa.Column('town', sa.String(length=40), server_default='', nullable=False))
        batch_op.create_index('ix_inbound_sms_town', ['town', 'id'], unique=False)
    with op.batch_alter_table('clerk_accounts', schema=None) as batch_op:
        batch_op.add_column(sa.Column('town', sa.String(length=40), server_default='', nullable=False))
    conn = op.get_bind()
    town = _the_town(conn)
    if town:
        for name in ("inbound_sms", "clerk_accounts"):
            t = sa.table(name, sa.column("town", sa.String))
            conn.execute(sa.update(t).values(town=town))


def downgrade() -> None:
    with op.batch_alter_table('clerk_accounts', schema=None) as batch_op:
        batch_op.drop_column('town')
    with op.batch_alter_table('inbound_sms', schema=None) as batch_op:
        batch_op.drop_index('ix_inbound_sms_town')
        batch_op.drop_column('town')
