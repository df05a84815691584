"""Alembic environment for the records store: the target is records.schema.metadata.

Run through records.migrate (the store upgrades its database when it opens it) or by hand:
``python -m records migrate``. Rasa's own ``events`` table shares the database and is left alone.
"""

from alembic import context

from records.schema import metadata


def _ours(obj, name, type_, reflected, compare_to):  # noqa: ARG001 - alembic's include_object signature
    return type_ != "table" or name in metadata.tables


def _run(connection) -> None:
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True,
                      include_object=_ours, compare_type=True)
    with context.begin_transaction():
        context.run_migrations()


connection = context.config.attributes.get("connection")
if connection is not None:
    _run(connection)
else:
    from records.store import make_engine
    with make_engine(context.config.get_main_option("sqlalchemy.url")).begin() as conn:
        _run(conn)
