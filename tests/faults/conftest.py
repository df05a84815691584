import pytest

from tests.support.services import create_database, have_postgres, postgres

NOW = "2026-12-01T15:00:00+00:00"  # 9:00 a.m. CST, a Tuesday: "tomorrow at 10 am" is a legal burn time


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request, tmp_path):
    """A fresh database of each kind. PostgreSQL runs wherever Debian's server is installed (`make
    system-deps` installs it); it is skipped only where it is not."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'faults.db'}"
        return
    if not have_postgres():
        pytest.skip("PostgreSQL is not installed (make system-deps installs it)")
    with postgres(tmp_path) as url:
        yield create_database(url, "faults")
