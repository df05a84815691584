"""Issue #13, hardening: each fix with a test that fails on the code before it."""

from __future__ import annotations


def test_stray_query_arguments_on_the_burn_list_are_not_passed_to_url_for(clerk_client):
    """A stray ``endpoint=`` (or ``_external``, ``_scheme``) once reached url_for and gave a 500."""
    for extra in ("endpoint=x", "_external=1", "_scheme=javascript", "_anchor=x"):
        r = clerk_client.get(f"/clerk/burns?from=2026-12-01&{extra}")
        assert r.status_code == 200, extra
        page = r.get_data(as_text=True)
        assert "/clerk/burns.csv?from=2026-12-01" in page and "javascript" not in page
