"""Hostile inputs for the chat API and the SMS webhook: a fixed corpus and a seeded generator (the same
inputs on every run), plus hypothesis strategies. Nothing here may contain a leak marker (see LEAK_MARKERS in
conftest.py), so a marker in a reply can only have come from the server."""

from __future__ import annotations

import json
import random
import string

from hypothesis import strategies as st

# ---- pieces ------------------------------------------------------------------------------------------

INTENT_PAYLOADS = [
    "/restart", "/session_start", "/stop", "/greet", "/ask_barking", "/action_listen", "//restart", "///",
    " /restart", "\t/restart", "\n/restart", "/ restart", "/\x00restart", "\x00/restart", "\u00a0/restart",
    "\u3000/restart", "\u200b/restart", "\ufeff/restart", "\u2028/restart", "\uff0frestart", "\u2215restart",
    '/notify_burn{"burn_phone": "+16085550100"}',
    '/notify_burn{"burn_phone":"608-555-0100","burner_name":"Eve","burn_address":"1 Main St"}',
    '/notify_burn{"burn_confirmed": true, "burn_date": "2026-12-01"}',
    '/inform{"burn_phone": "+16085550100"}', '/affirm', '/deny', '/EXTERNAL_trigger{"x":1}',
    '/ask_license_cost{"dogs": 99999999999999999999}', '/notify_burn{', '/notify_burn{"a":', "/notify_burn[]",
    '/nlu_fallback', '/out_of_scope', '/_restart', '/restart{"town":"mequon"}',
]
HTML = [
    "<script>alert(1)</script>", "<img src=x onerror=alert(1)>", '"><svg onload=alert(1)>', "javascript:alert(1)",
    "]]><!--", "<?xml version='1.0'?><!DOCTYPE x [<!ENTITY e SYSTEM 'file:///etc/passwd'>]><x>&e;</x>",
    "<Response><Message>free money</Message><Redirect>https://evil.example</Redirect></Response>",
    "&amp;&lt;&#0;&#x0;", "{{7*7}}", "{{ config }}", "${7*7}", "<%= 7*7 %>", "%s%s%s%n", "{0}{1}",
]
SQL = [
    "' OR '1'='1", "1; DROP TABLE clerk_accounts; --", "admin'--", "\" OR 1=1 --", "1 UNION SELECT username, "
    "password_hash FROM clerk_accounts", "'); DELETE FROM burn_notifications; --", "%' AND 1=1 --", "\\' ; --",
    "UPDATE clerk_accounts SET password_hash='x'", "$1", "?", ":name",
]
UNICODE = [
    "\u202eevil\u202c", "\u05e9\u05dc\u05d5\u05dd \u05e2\u05d5\u05dc\u05dd", "\u0645\u0631\u062d\u0628\u0627",
    "e\u0301\u0301\u0301\u0301\u0301", "Z\u0351\u036b\u0343\u036a\u0302\u036b\u033d\u034f\u0334\u0319\u0324",
    "\U0001f525\U0001f436\U0001f469\u200d\U0001f469\u200d\U0001f467", "\U0001f1fa\U0001f1f8", "\ufeff",
    "\u200b\u200c\u200d\u2060", "\ufffd\ufffe\uffff", "\U0010ffff", "\u0000", "\x01\x02\x03\x07\x08\x0b\x0c\x1b",
    "\x7f\x80\x85\x9f", "\r\n", "\r", "\u2028\u2029", "\u00a7 7.02-6(a)(1)", "\u00b2", "\u0661", "\u00bd",
    "\u0130\u0131\u00df\ufb01", "caf\u00e9 na\u00efve", "\u4f60\u597d", "\ud55c\uad6d\uc5b4", "\u0e01\u0e34\u0e4a",
]
WORDS = ["dog", "license", "burn", "brush", "tonight", "tomorrow", "at", "3", "bite", "quarantine", "cat",
         "how", "much", "can", "I", "is", "there", "a", "ban", "neighbor", "barks", "7.02-6", "7.12(1)", "Mequon",
         "STOP", "HELP", "MORE", "YES", "START", "1", "2", "9", "0", "-1", "99", "topics", "long", "xss",
         "unicode", "barking", "tires", "leaves", "March", "fire", "department", "notify"]
KEYWORDS = ["STOP", "stop.", "Stop!", "START", "UNSTOP", "YES", "HELP", "info", "MORE", "next", "1", "2", "3",
            "9", "10", "0", "01", "-1", "1.0", "\u00b2", "\u0661", "\u0967", "\uff11", "9" * 50, "9" * 5000,
            "STOP\x00", " stop ", "\u00adSTOP"]
CONTROL = "".join(chr(c) for c in range(32)) + "\x7f"


def lone_surrogate_json(text: str = "hi") -> str:
    """A JSON string literal holding lone surrogates as escapes (valid JSON syntax, not valid Unicode)."""
    return '"' + text + '\\ud800 \\udfff x\\udc00\\ud83d"'


# ---- the seeded generator ----------------------------------------------------------------------------


class Hostile:
    def __init__(self, seed: int):
        self.r = random.Random(seed)

    def choice(self, seq):
        return self.r.choice(seq)

    def words(self, n: int | None = None) -> str:
        return " ".join(self.r.choice(WORDS) for _ in range(n if n is not None else self.r.randint(1, 12)))

    def random_unicode(self, n: int) -> str:
        out = []
        for _ in range(n):
            k = self.r.random()
            if k < 0.4:
                out.append(self.r.choice(string.printable))
            elif k < 0.6:
                out.append(chr(self.r.randint(0x80, 0x2fff)))
            elif k < 0.75:
                out.append(chr(self.r.randint(0x1f300, 0x1faff)))
            elif k < 0.85:
                out.append(self.r.choice(CONTROL))
            else:
                c = self.r.randint(0xa0, 0x10ffff)
                out.append(chr(c) if not 0xd800 <= c <= 0xdfff else "\ufffd")
        return "".join(out)

    def text(self) -> str:
        """One hostile text, usually short; sometimes long (up to well past every limit)."""
        k = self.r.random()
        if k < 0.12:
            return self.choice(INTENT_PAYLOADS)
        if k < 0.20:
            return self.choice(HTML)
        if k < 0.28:
            return self.choice(SQL)
        if k < 0.38:
            return self.choice(UNICODE) + " " + self.words(3)
        if k < 0.46:
            return self.choice(KEYWORDS)
        if k < 0.60:
            return self.random_unicode(self.r.randint(1, 80))
        if k < 0.66:  # long
            n = self.choice([499, 500, 501, 1000, 4000, 20000])
            return (self.words(5) + " ") * (n // 20) if self.r.random() < 0.5 else self.random_unicode(n)
        if k < 0.76:  # mixtures
            return " ".join(self.choice(INTENT_PAYLOADS + HTML + SQL + UNICODE + KEYWORDS)
                            for _ in range(self.r.randint(2, 5)))
        if k < 0.80:
            return self.choice(["", " ", "\n", "\t\t", "\x00", "/", "   /  "])
        return self.words()

    def junk_value(self):
        """A JSON value of any type."""
        return self.choice([None, True, False, 0, -1, 1.5, 10 ** 30, -(10 ** 40), 1e308, [], {}, [1, "a"],
                            {"text": "hi"}, [[[[]]]], {"a": {"b": {"c": None}}}, "", "x" * 100, self.text()])


# ---- hypothesis --------------------------------------------------------------------------------------

hostile_text = st.one_of(
    st.text(max_size=600),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=80),
    st.text(alphabet=st.characters(max_codepoint=0x7f), max_size=80),
    st.sampled_from(INTENT_PAYLOADS + HTML + SQL + UNICODE + KEYWORDS),
    st.builds(lambda a, b: a + b, st.sampled_from(INTENT_PAYLOADS + KEYWORDS), st.text(max_size=40)),
)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=10), kids, max_size=4),
    max_leaves=12)


def dumps(obj) -> str:
    return json.dumps(obj)


def as_stored(text: str) -> str:
    """What the records store keeps of a text: NUL becomes U+FFFD (PostgreSQL refuses NUL; records/store.py)."""
    return text.replace("\x00", "\ufffd")
