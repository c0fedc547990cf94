"""Markup from untrusted text: what a short text is made kept, and the same as made afresh."""

from __future__ import annotations

import html

from hypothesis import given
from hypothesis import strategies as st

from aces import escape
from aces.escape import markup, visible


@given(st.text(max_size=2 * escape._SHORT))
def test_markup_kept_or_not_is_the_text_escaped(text: str) -> None:
    made = html.escape(visible(text), quote=True)
    assert markup(text) == made
    assert markup(text) == made


def test_a_short_text_is_made_markup_once_and_a_long_one_each_time() -> None:
    """A class's pool puts the same short texts into its tables twice a second."""
    short = '17,3 % <b title="x">Bo' + chr(27) + chr(0x202E)
    assert len(short) <= escape._SHORT
    first = markup(short)
    assert first == '17,3 % &lt;b title=&quot;x&quot;&gt;Bo\\x1b\\u202e'
    assert markup(short) is first
    long = "<" * (escape._SHORT + 1)
    assert markup(long) == "&lt;" * len(long)
    assert escape._MARKED.get(long) is None
    assert escape._MARKED.get(short) is first
