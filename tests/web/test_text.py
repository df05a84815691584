"""Properties of the text helpers: SMS pages, "/" stripping, citation segments."""

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from web.rasa import clean_user_text
from web.text import gsm7_length, is_gsm7, segments, sms_pages, to_gsm7

MORE = " Reply MORE for the rest."


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=2000))
def test_sms_pages_are_gsm7_within_320_and_lose_no_words(text):
    pages = sms_pages(text)
    assert all(is_gsm7(p) and gsm7_length(p) <= 320 for p in pages)
    assert all(p.endswith(MORE) for p in pages[:-1])
    rebuilt = " ".join(p[: -len(MORE)] if i < len(pages) - 1 else p for i, p in enumerate(pages))
    expected = to_gsm7(re.sub(r"[ \t]+", " ", text).strip())
    assert "".join(rebuilt.split()) == "".join(expected.split())


@given(st.text(max_size=200))
def test_clean_user_text_never_starts_with_slash(text):
    assert not clean_user_text(text).startswith("/")


@given(st.text(max_size=300))
def test_segments_rebuild_the_text(text):
    parts = segments(text, ("7.02-6", "7.10", "Wis. Stat. 174.05"), lambda n: "/code/" + n)
    assert "".join(p["text"] for p in parts) == text


def test_segments_link_known_sections_only():
    parts = segments("See 7.02-6(a)(1), 7.10 and 17.10 or 7.105.", ("7.02-6", "7.10"), lambda n: "/code/" + n)
    assert [p for p in parts if "href" in p] == [{"text": "7.02-6(a)(1)", "href": "/code/7.02-6"},
                                                 {"text": "7.10", "href": "/code/7.10"}]
