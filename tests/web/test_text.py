"""Properties of the text helpers: SMS pages, "/" stripping, citation segments."""

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from web.rasa import clean_user_text
from web.text import gsm7_length, is_gsm7, segments, sms_pages, to_gsm7

from web.text import MORE_FIRST, MORE_NOTE, SMS_LIMIT, answer_pages, clean_answer

MORE = MORE_NOTE
WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789$'", min_size=1, max_size=12)
SENTENCE = st.builds(lambda first, words, end: " ".join([first.capitalize()] + words) + end,
                     WORD, st.lists(WORD, max_size=40), st.sampled_from([".", "?", "!"]))


def _body(page: str) -> str:
    return page[: -len(MORE)] if page.endswith(MORE) else page


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=2000))
def test_sms_pages_are_gsm7_within_two_segments_and_lose_no_words(text):
    pages = sms_pages(text)
    assert all(is_gsm7(p) and gsm7_length(p) <= SMS_LIMIT == 306 for p in pages)
    assert all(p.endswith(MORE) for p in pages[:-1])
    rebuilt = " ".join(_body(p) if i < len(pages) - 1 else p for i, p in enumerate(pages))
    expected = to_gsm7(re.sub(r"[ \t]+", " ", text).strip())
    assert "".join(rebuilt.split()) == "".join(expected.split())


@settings(max_examples=300, deadline=None)
@given(st.lists(SENTENCE, min_size=1, max_size=30))
def test_pages_break_between_sentences_never_inside_one_that_fits(sentences):
    text = " ".join(sentences)
    pages = sms_pages(text)
    bodies = [_body(p) for p in pages]
    assert " ".join(bodies).split() == text.split(), "no word is cut or lost"
    if all(gsm7_length(s) <= SMS_LIMIT - len(MORE) for s in sentences):
        assert all(b.endswith((".", "?", "!")) for b in bodies), "every page ends a sentence"


@settings(max_examples=200, deadline=None)
@given(SENTENCE, st.lists(SENTENCE, max_size=8), st.lists(SENTENCE, max_size=4), st.lists(SENTENCE, max_size=3))
def test_an_answers_page_one_is_its_lead_and_more_only_when_there_is_more(lead, steps, gaps, notes):
    lead = lead[:160]
    shown = re.sub(r"[ \t]+", " ", lead).strip()  # a lead cut at 160 may end in a space; a page never does
    answer = clean_answer({"lead": lead, "rest": "", "steps": [{"text": s, "cites": []} for s in steps],
                           "sources": [], "gaps": gaps, "caveats": notes})
    pages = answer_pages(answer)
    assert all(gsm7_length(p) <= SMS_LIMIT and is_gsm7(p) for p in pages)
    if steps or gaps or notes:
        assert pages[0] == to_gsm7(shown) + MORE_FIRST and len(pages) > 1
    else:
        assert pages == [to_gsm7(shown)]


def test_clean_answer_refuses_what_is_not_an_answer_and_keeps_strings_only():
    assert clean_answer(None) is None and clean_answer({"lead": ""}) is None and clean_answer({"lead": 5}) is None
    got = clean_answer({"lead": "Yes.", "steps": [{"text": "a", "cites": ["x", 3]}, "b", {"text": None}],
                        "sources": [{"label": "Dunkirk Code 7.02-4", "ref": "7.02-4", "quote": 7}], "gaps": [None, "g"]})
    assert got["steps"] == [{"text": "a", "cites": ["x"]}]
    assert got["sources"] == [{"label": "Dunkirk Code 7.02-4", "ref": "7.02-4", "section": "", "quote": ""}]
    assert got["gaps"] == ["g"] and got["caveats"] == [] and got["rest"] == ""


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
