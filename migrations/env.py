"""Alembic environment: maild passes its engine in `config.attributes["engine"]`."""

from alembic import context
from sqlalchemy import create_engine

from maild.models import Base

config = context.config
target_metadata = Base.metadata

engine = config.attributes.get("engine")
if engine is None:  # plain `alembic` command line, e.g. for `revision --autogenerate`
    engine = create_engine(config.get_main_option("sqlalchemy.url") or "sqlite:///var/maild.db")

with engine.connect() as connection:
    context.configure(connection=connection, target_metadata=target_metadata,
                      render_as_batch=connection.dialect.name == "sqlite")
    with context.begin_transaction():
        context.run_migrations()
    connection.commit()
