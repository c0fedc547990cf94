"""The accessibility check every browser test uses (tests/browser.py), tested on
pages made for it: it finds what it must, so a page can never pass it unseen.

Each planted fault breaks one success criterion of WCAG 2.0 or 2.1 that axe-core
can see; the check must name its rule, the element and the fix. A clean page
passes, and the same clean page with one fault fails, so the check is neither
blind nor always failing.
"""

from __future__ import annotations

import re
import time
import typing as t

import pytest

from browser import WCAG21_AA, assert_accessible, axe_violations, visit

if t.TYPE_CHECKING:
    from pathlib import Path

    from playwright.sync_api import Browser

CLEAN: t.Final = """<!DOCTYPE html>
<html lang="nb">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<meta http-equiv="Content-Security-Policy"
 content="default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>Ess i potten</title></head>
<body><main><h1>Ess i potten</h1>
<p>Kari kaster en ener og en sekser.</p>
<label>Spillere <input id="players" type="number" value="3"></label>
<button type="button">Kast</button>
<noscript><p id="without">Uten JavaScript vises hele partiet.</p></noscript>
{fault}
</main>
<script>document.body.dataset.ready = "";</script>
</body></html>
"""

#: One fault each, the criterion it breaks, and the axe-core rule that must name it.
FAULTS: t.Final = {
    # 1.1.1 Non-text content: a picture with no text alternative.
    "image-alt": '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">',
    # 4.1.2 Name, role, value: the docs' table-of-contents captions as they were.
    "aria-required-attr": '<p class="caption" role="heading"><span>Innhold</span></p>',
    # 1.4.3 Contrast (minimum): light grey on white.
    "color-contrast": '<p style="color: #bbb">Kast 3 av 12</p>',
    # 4.1.2: a control with no name.
    "button-name": '<button type="button"></button>',
    # 1.3.5 Identify input purpose, a criterion new in WCAG 2.1 (tag wcag21aa).
    "autocomplete-valid": '<label>Navn <input autocomplete="kallenavn"></label>',
    # 2.1.1 Keyboard: a region that scrolls and that no key can reach.
    "scrollable-region-focusable":
        '<div style="overflow-x: auto; width: 5rem"><p style="width: 50rem">'
        "En lang tabell som ruller til siden</p></div>",
}


def _page(folder: Path, name: str, fault: str = "") -> Path:
    path = folder / f"{name}.html"
    path.write_text(CLEAN.format(fault=fault), encoding="utf-8")
    return path


def test_a_clean_page_passes(browser: Browser, tmp_path: Path) -> None:
    opened = visit(browser, _page(tmp_path, "clean"), script="blocked")
    assert axe_violations(opened.page) == []
    assert_accessible(opened.page)


@pytest.mark.parametrize("rule", sorted(FAULTS))
def test_a_planted_fault_fails_and_is_named(browser: Browser, tmp_path: Path,
                                            rule: str) -> None:
    opened = visit(browser, _page(tmp_path, rule, FAULTS[rule]), script="blocked")
    with pytest.raises(pytest.fail.Exception) as failed:
        assert_accessible(opened.page, label=f"planted {rule}")
    report = str(failed.value)
    assert report.startswith(f"planted {rule} ({opened.url}): 1 WCAG 2.1 A/AA rule(s) broken")
    assert f"\n{rule} (" in report
    assert "https://dequeuniversity.com/rules/axe/" in report  # where to read how to mend it
    assert "Fix " in report  # axe's advice for the element, in the report
    found = axe_violations(opened.page)
    assert [v.rule for v in found] == [rule]
    assert found[0].impact in ("minor", "moderate", "serious", "critical")
    assert len(found[0].nodes) == 1


def test_several_faults_are_each_listed(browser: Browser, tmp_path: Path) -> None:
    opened = visit(browser, _page(tmp_path, "all", "\n".join(FAULTS.values())), script="blocked")
    assert sorted(v.rule for v in axe_violations(opened.page)) == sorted(FAULTS)
    # A part of the page is checked alone, and a rule left out is not reported.
    assert axe_violations(opened.page, "h1") == []
    left = axe_violations(opened.page, disabled=["color-contrast"])
    assert "color-contrast" not in {v.rule for v in left}


def test_the_check_runs_after_the_page_has_changed(browser: Browser, tmp_path: Path) -> None:
    """A page a script has changed is checked as it is now, and again after a reload."""
    opened = visit(browser, _page(tmp_path, "later"))
    page = opened.page
    assert axe_violations(page) == []
    page.evaluate("document.querySelector('main').append(document.createElement('button'))")
    assert [v.rule for v in axe_violations(page)] == ["button-name"]
    page.reload()
    assert axe_violations(page) == []


def test_a_page_without_its_scripts_is_checked_as_a_reader_sees_it(browser: Browser,
                                                                  tmp_path: Path) -> None:
    """Blocked, the page's own script does not run and ``<noscript>`` shows, as in a
    browser with JavaScript off; a planted fault there is found."""
    fault = '<noscript><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></noscript>'
    path = _page(tmp_path, "noscript", fault)
    opened = visit(browser, path, script="blocked")
    page = opened.page
    assert page.is_visible("#without")
    assert page.get_attribute("body", "data-ready") is None
    assert [v.rule for v in axe_violations(page)] == ["image-alt"]
    assert opened.errors == []
    assert opened.requests == []
    running = visit(browser, path).page
    assert running.get_attribute("body", "data-ready") == ""
    assert axe_violations(running) == []  # with scripts on, <noscript> is not shown
    off = visit(browser, path, script=False).page
    assert off.is_visible("#without")
    with pytest.raises(pytest.fail.Exception, match='script="blocked"'):
        axe_violations(off)


def test_a_page_with_javascript_off_is_refused_at_once_however_it_was_opened(
        browser: Browser, tmp_path: Path) -> None:
    """axe-core waits on timers, which never fire with JavaScript off: the
    check says so at once, rather than wait for ever, for a page opened
    in any such context (a live server's pages are opened so), not only by
    visit()."""
    path = _page(tmp_path, "off")
    context = browser.new_context(java_script_enabled=False, offline=True)
    try:
        page = context.new_page()
        page.goto(path.resolve().as_uri())
        assert page.is_visible("#without")
        started = time.monotonic()
        with pytest.raises(pytest.fail.Exception, match="JavaScript is off") as refused:
            assert_accessible(page, label="off")
        assert 'script="blocked"' in str(refused.value)
        assert time.monotonic() - started < 30
    finally:
        context.close()


def test_a_fault_inside_a_sandboxed_frame_is_found(browser: Browser, tmp_path: Path) -> None:
    """A notebook shows a page in an ``<iframe srcdoc sandbox>``, an origin of its
    own: the page inside is checked too, and its findings say where."""
    inner = CLEAN.format(fault=FAULTS["button-name"]).replace("&", "&amp;").replace('"', "&quot;")
    path = tmp_path / "notebook.html"
    path.write_text('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
                    "<title>A notebook</title></head><body data-ready><main>"
                    f'<iframe srcdoc="{inner}" sandbox="allow-scripts" title="A game">'
                    "</iframe></main></body></html>", encoding="utf-8")
    opened = visit(browser, path)
    opened.page.frames[1].wait_for_selector("body[data-ready]")
    found = axe_violations(opened.page)
    assert [v.rule for v in found] == ["button-name"]
    assert found[0].nodes[0][0].startswith("(frame about:srcdoc) ")
    assert axe_violations(opened.page, "main") == []  # the page itself, without its frames


def test_only_the_rules_of_wcag_2_1_a_and_aa_are_run(browser: Browser, tmp_path: Path) -> None:
    """Best practice beyond WCAG (a page without landmarks, say) is not a failure,
    and the tags are those of the 47 criteria."""
    path = tmp_path / "bare.html"
    path.write_text('<!DOCTYPE html><html lang="en"><head><title>A roll</title></head>'
                    "<body><p>Ada rolls a six.</p></body></html>", encoding="utf-8")
    opened = visit(browser, path, script="blocked")
    assert axe_violations(opened.page) == []
    assert {v.rule for v in axe_violations(opened.page, tags=["best-practice"])} >= {"region"}
    assert WCAG21_AA == ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa")


#: Text of one look on several grounds, for the contrast rule checked one element of
#: each kind: many paragraphs alike and fine, and the same grey where it fails.
KINDS: t.Final = {
    # The same look as every other paragraph, but on a dark box of its own.
    "a dark box": '<div style="background: #333"><p style="color: #767676">Kast 2 av 12</p>'
                  "</div>",
    # The same look, in a box placed over a dark one that is not its ancestor.
    "placed over": '<div style="position: relative; height: 3rem"><div style="background:'
                   ' #333; height: 3rem"></div><p style="position: absolute; top: 0;'
                   ' margin: 0; color: #767676">Kast 3 av 12</p></div>',
    # A look of its own among the others: lighter grey.
    "a lighter grey": '<p style="color: #aaa">Kast 5 av 12</p>',
}
ALIKE: t.Final = "\n".join(f'<p style="color: #767676">Kast {k} av 12: Kari kaster.</p>'
                           for k in range(6, 30))


@pytest.mark.parametrize("where", sorted(KINDS))
def test_contrast_checked_per_kind_finds_what_checking_every_element_finds(
        browser: Browser, tmp_path: Path, where: str) -> None:
    """``contrast="per kind"`` checks one element of each look on each ground, and
    every element that may stand on another ground by itself: a fault that only one
    element of a common look has, because of where it stands, is found as checking
    every element finds it."""
    page = visit(browser, _page(tmp_path, "kinds", f"{ALIKE}\n{KINDS[where]}"),
                 script="blocked").page
    every = axe_violations(page, rules=["color-contrast"])
    assert [len(v.nodes) for v in every] == [1], where
    with pytest.raises(pytest.fail.Exception, match="color-contrast") as failed:
        assert_accessible(page, rules=["color-contrast"], contrast="per kind")
    marked = re.search(r"Kast \d+ av 12", KINDS[where])
    assert marked is not None
    assert marked.group(0) in str(failed.value)
    # The paragraphs alike pass, checked one for all; and the rule is itself again after.
    clean = visit(browser, _page(tmp_path, "alike", ALIKE), script="blocked").page
    assert_accessible(clean, contrast="per kind")
    assert page.locator("[data-aces-kind]").count() < 10
    assert [len(v.nodes) for v in axe_violations(page, rules=["color-contrast"])] == [1]
