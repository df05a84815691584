"""Answers as text and as SMS pages."""

from datetime import date

from hypothesis import given, settings
from hypothesis import strategies as st

from knowledge import handlers, render
from knowledge.model import Answer
from knowledge.render import MORE, gsm7


def test_text_puts_the_result_first_then_steps_sources_and_notes(dunkirk):
    answer = handlers.license_cost(dunkirk, on=date(2026, 5, 15), dogs=1, neutered=0)
    out = render.text(answer)
    assert out.startswith(answer.result)
    assert out.index("How:") < out.index("Source:") < out.index("Note:")
    assert "Dunkirk Code 7.02-4" in out


def test_sms_pages_fit_320_gsm7_characters_and_offer_more(dunkirk):
    answer = handlers.burning(dunkirk, at=__import__("knowledge.when", fromlist=["x"]).resolve(
        "tomorrow at 3", dunkirk, __import__("tests.knowledge.conftest", fromlist=["x"]).local(2026, 7, 4, 12)))
    pages = render.sms_pages(answer)
    assert len(pages) > 1
    assert all(len(p) <= 320 and gsm7(p) == p for p in pages)
    assert pages[0].endswith(MORE) and not pages[-1].endswith(MORE)
    assert " ".join(p.replace(MORE, "") for p in pages).split() == gsm7(render.text(answer).replace("\n\n", " ")).split()


@settings(max_examples=200, deadline=None)
@given(st.text(min_size=1, max_size=2000))
def test_any_text_pages_within_the_limit(value):
    pages = render.sms_pages(Answer(topic="t", result=value))
    assert all(len(p) <= 320 for p in pages)


def test_gsm7_replaces_typographic_characters():
    assert gsm7("“Quoted” — it’s 5…") == '"Quoted" - it\'s 5...'
