"""Pupil sheets: each lesson's questions and exercises without the answers, for A4.

A lesson marks the sections a pupil may see with ``.. rst-class:: aces-pupil``
(the question, the questions for the class, the exercises, a tally table
where the class rolls dice) and says where its sheet is offered with
``.. aces-sheet::``. Inside such a section, a line for the teacher ("ask the
class for a show of hands") is marked ``.. rst-class:: aces-teacher``: the
lesson shows it where the teacher needs it, the sheet leaves it out, so the
sheet speaks to pupils only. When the HTML builder has resolved the lesson, those
sections, already in the build's language, are copied into a page of their
own, ``NAME-sheet.html`` beside the lesson: one offline file with a print
stylesheet for A4, which the browser prints as it stands. The same page is
typeset as ``NAME-sheet.pdf`` by WeasyPrint, which needs no TeX: a tagged
PDF/UA-1 file, its language, headings, lists and tables marked for a screen
reader, and each formula's picture with the formula in words as its text.

Everything else (the exact answer, the simulation, the answers, the notes
for the teacher) stays out, because only marked sections are copied: a new
section is hidden from pupils until someone decides otherwise. Formulas
are drawn as pictures for the sheet (:mod:`sphinxext.formulas`), since
neither a printed page nor WeasyPrint runs MathJax. A sheet that cannot be
made (no section marked, a formula that cannot be drawn, WeasyPrint
missing) stops the build with the page and the reason.
"""

from __future__ import annotations

import html
import re
import typing as t
from pathlib import Path

from docutils import nodes

from aces.i18n import translations
from aces.sphinxext.build import AcesDirective, failed, language, registered

if t.TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

    from sphinxext.languages import Alternate

__all__ = ["LOCAL_LINK", "PDF_VARIANT", "PUPIL", "STYLE", "SUFFIX", "TEACHER", "SheetDirective",
           "SheetError", "pupil_sections", "setup", "sheet_html", "typeset", "under_title",
           "unlinked", "write"]

#: The class that puts a section on the pupils' sheet.
PUPIL: t.Final = "aces-pupil"
#: The class of a line in a pupils' section that speaks to the teacher: left off the sheet.
TEACHER: t.Final = "aces-teacher"
SUFFIX: t.Final = "-sheet"

#: A4, black on white, the tally cells tall enough to write in; the link back to
#: the lesson shows on the screen only, where a wide tally table scrolls sideways
#: on a phone rather than the page, in a box the keyboard reaches
#: (aces.sphinxext.access).
STYLE: t.Final = """
@page { size: A4; margin: 16mm 16mm 18mm; }
html { font-family: "DejaVu Sans", "Liberation Sans", Arial, sans-serif; color: #111;
       background: #fff; }
body { max-width: 48rem; margin: 1rem auto; padding: 0 1rem; line-height: 1.45; }
header { border-bottom: 1.5pt solid #111; margin-bottom: 1rem; }
header h1 { font-size: 1.6rem; margin: 0 0 .3rem; overflow-wrap: break-word; hyphens: auto; }
.aces-who { display: flex; flex-wrap: wrap; gap: .3rem 1.5rem; margin: .6rem 0 .8rem; }
.aces-who span { flex: 1 1 10rem; border-bottom: .8pt solid #111; padding-top: 1rem; }
main h2, main h3 { font-size: 1.15rem; margin: 1.2rem 0 .4rem; break-after: avoid; }
main section { break-inside: avoid-page; }
main li { margin: .25rem 0 .9rem; }
table { border-collapse: collapse; width: 100%; margin: .4rem 0 1rem; }
th, td { border: .8pt solid #111; padding: .35rem .5rem; text-align: left;
         vertical-align: top; }
td { height: 1.6rem; }
th p, td p { margin: 0; }
.headerlink { display: none; }
img { max-width: 100%; }
img.aces-math { display: inline; max-width: none; }
.aces-math-block { text-align: center; margin: .6rem 0; }
nav { margin-top: 2rem; font-size: .9rem; }
.aces-languages ul { display: flex; gap: 1.5rem; list-style: none; padding: 0; }
.aces-languages [aria-current] { font-weight: bold; }
@media print { body { margin: 0; padding: 0; max-width: none; } nav { display: none; } }
@media screen and (max-width: 40rem) { .table-wrapper { overflow-x: auto; } }
.table-wrapper:focus-visible { outline: 3px solid #0b4f8a; outline-offset: 2px; }
"""


class SheetDirective(AcesDirective):
    """``.. aces-sheet::``: where a lesson offers its pupil sheet, as HTML and PDF."""

    def run(self) -> list[nodes.Node]:
        if self.builder == "gettext":
            return []
        _ = translations(self.lang).gettext
        name = Path(self.env.docname).name + SUFFIX
        box = nodes.paragraph(classes=["aces-sheet-links"])
        # Translators: on a lesson page, before the links to its pupil sheet
        # (the exercises without the answers), as a page to print and as a PDF file.
        box += nodes.strong("", _("Pupil sheet, without the answers:"))
        box += nodes.Text(" ")
        # Translators: the link to the pupil sheet as a page, printed from the browser.
        box += nodes.reference("", _("print from the browser"), refuri=name + ".html",
                               internal=False)
        box += nodes.Text(" · ")
        # Translators: the link to the pupil sheet as a PDF file.
        box += nodes.reference("", _("PDF for A4"), refuri=name + ".pdf", internal=False)
        return [box]


def pupil_sections(doctree: nodes.document) -> list[nodes.section]:
    """The sections a lesson shows its pupils, copied, in the order of the page,
    without the lines in them that speak to the teacher."""
    copies = [section.deepcopy() for section in doctree.findall(nodes.section)
              if PUPIL in section["classes"]]
    for section in copies:
        for line in list(section.findall(nodes.Element)):
            if TEACHER in line.get("classes", ()) and line.parent is not None:
                line.parent.remove(line)
    return copies


def _resolved(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    if app.builder.format != "html" or not any(
            "aces-sheet-links" in node["classes"] for node in doctree.findall(nodes.paragraph)):
        return
    try:
        write(app, doctree, docname)
    except SheetError as exc:
        message = f"aces-sheet: {exc}"
        failed(app.env, docname, message)
        from sphinx.util import logging

        logging.getLogger(__name__).error(message, location=docname)


class SheetError(Exception):
    """A pupil sheet cannot be made; the message says why."""


def write(app: Sphinx, doctree: nodes.document, docname: str) -> tuple[Path, Path]:
    """Write the pupil sheet of a lesson as HTML and PDF beside the lesson's page.

    :raises SheetError: for a lesson without a section for pupils, or one
        the sheet cannot show (see :func:`typeset` too).
    """
    sections = pupil_sections(doctree)
    if not sections:
        raise SheetError(f"no section is marked for pupils (.. rst-class:: {PUPIL})")
    from sphinxext.formulas import FormulaError, pictures

    for section in sections:
        # WeasyPrint runs no MathJax: the sheet's formulas are pictures, drawn now.
        try:
            pictures(section, language(app.config.language))
        except FormulaError as exc:
            raise SheetError(f"in the pupils' section {section[0].astext()!r}, {exc}") from None
    from sphinx.locale import _ as theme_words

    from sphinxext.languages import alternates

    lang = language(app.config.language)
    title = app.env.titles[docname].astext()
    # The builder sets the numbers of a page's sections and figures when it writes the
    # page, which is after this: set this page's now (they are the same), or the writer
    # would read another page's, or none at all for the first page written.
    builder = t.cast("t.Any", app.builder)
    builder.secnumbers = app.env.toc_secnumbers.get(docname, {})
    builder.fignumbers = app.env.toc_fignumbers.get(docname, {})
    # Each section is rendered as a page of its own, its title an <h1>: under the
    # sheet's own <h1>, each goes one level down, so that the PDF's headings nest.
    body = "".join(under_title(builder.render_partial(section)["fragment"])
                   for section in sections)
    name = docname + SUFFIX + ".html"
    codes = list(getattr(app.config, "aces_languages", ()))
    current = app.config.language or "en"
    others = alternates(name, current, codes) if len(codes) > 1 and current in codes else []
    page = sheet_html(title, body, Path(docname).name, lang, others, theme_words("Languages"))
    out = Path(app.outdir, name)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(page, encoding="utf-8")
    pdf = out.with_suffix(".pdf")
    pdf.write_bytes(typeset(page, out.parent))
    return out, pdf


def sheet_html(title: str, body: str, lesson: str, lang: str,
               others: t.Sequence[Alternate] = (), languages: str = "Languages") -> str:
    """The sheet as one offline page: its words, the fields for a name, the A4 style,
    and on the screen only, the way back to the lesson and to the sheet in other languages."""
    _ = translations(lang).gettext
    # Translators: the blanks at the top of a pupil sheet, to write one's name,
    # class and the date on.
    who = "".join(f"<span>{html.escape(label)}:</span>"
                  for label in (_("Name"), _("Class"), _("Date")))
    # Translators: the heading of a pupil sheet; {title}: the lesson's title.
    heading = _("{title}: pupil sheet").format(title=title)
    # Translators: a link at the foot of a pupil sheet (shown on screen, not printed).
    back = _("Back to the lesson")
    esc = html.escape
    head = "".join(f'<link rel="alternate" hreflang="{esc(alt.code)}" href="{esc(alt.href)}">\n'
                   + (f'<link rel="alternate" hreflang="x-default" href="{esc(alt.href)}">\n'
                      if alt.code == "en" else "")
                   for alt in others)
    switch = "".join(
        f'<li><span lang="{esc(alt.code)}" aria-current="page">{esc(alt.name)}</span></li>'
        if alt.current else
        f'<li><a href="{esc(alt.href)}" hreflang="{esc(alt.code)}" lang="{esc(alt.code)}"'
        f' rel="alternate">{esc(alt.name)}</a></li>'
        for alt in others)
    if switch:
        switch = (f'<nav class="aces-languages" aria-label="{esc(languages)}"><ul>{switch}'
                  "</ul></nav>\n")
    return (f'<!DOCTYPE html>\n<html lang="{html.escape(lang)}">\n<head>\n'
            '<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{html.escape(heading)}</title>\n{head}<style>{STYLE}</style>\n</head>\n"
            f'<body>\n<header><h1>{html.escape(heading)}</h1>\n'
            f'<p class="aces-who">{who}</p></header>\n<main>\n{body}</main>\n'
            f'<nav><a href="{html.escape(lesson)}.html">{html.escape(back)}</a></nav>\n'
            f"{switch}</body>\n</html>\n")


#: The start and end tags of a heading in HTML the builder wrote (text in it is escaped).
_HEADING: t.Final = re.compile(r"<(/?)h([1-6])\b")


def under_title(fragment: str) -> str:
    """A section's HTML, its headings one level down (``<h1>`` becomes ``<h2>``),
    for a page whose own title is its one ``<h1>``.

    >>> under_title('<section><h1>Try<a class="headerlink">#</a></h1><h2>A</h2></section>')
    '<section><h2>Try<a class="headerlink">#</a></h2><h3>A</h3></section>'
    """
    def lower(match: re.Match[str]) -> str:
        level = int(match[2])
        if level == 6:
            raise SheetError("a section of a pupil sheet is nested too deep for its headings")
        return f"<{match[1]}h{level + 1}"

    return _HEADING.sub(lower, fragment)


#: A link to another page of the site. On paper it is only words; in a PDF WeasyPrint
#: would resolve it against the build's folder, a ``file://`` address that leads
#: nowhere on the pupil's computer and names a folder on the builder's.
LOCAL_LINK: t.Final = re.compile(
    r'<a\b[^>]*?\shref="(?![a-zA-Z][a-zA-Z0-9+.-]*:|#)[^"]*"[^>]*>(.*?)</a>', re.DOTALL)


def unlinked(page: str) -> str:
    """The page with its links to other pages of the site made plain words (links do
    not nest, so each one ends at the first ``</a>``); web links and links within the
    sheet stay.

    >>> unlinked('<a class="reference internal" href="fair.html"><span>Fair</span></a>, '
    ...          '<a href="#q1">1</a>, <a href="https://www.udir.no/">Udir</a>')
    '<span>Fair</span>, <a href="#q1">1</a>, <a href="https://www.udir.no/">Udir</a>'
    """
    return LOCAL_LINK.sub(r"\1", page)


#: The PDF a sheet is: universally accessible (ISO 14289-1), as Norway's regulation
#: on universal design asks of documents pupils download.
PDF_VARIANT: t.Final = "pdf/ua-1"


def typeset(page: str, base: Path) -> bytes:
    """A sheet's page as tagged PDF/UA bytes, by WeasyPrint, with no link into the
    build's folder.

    :raises SheetError: without WeasyPrint or the system libraries it needs.
    """
    import logging

    # Its progress report is not news in a build's output; its warnings are.
    logging.getLogger("weasyprint.progress").setLevel(logging.WARNING)
    try:
        from weasyprint import HTML
    except ImportError as exc:
        raise SheetError(f"WeasyPrint is needed for the PDF sheets ({exc}):"
                         " pip install -e '.[docs]'") from None
    except OSError as exc:
        raise SheetError(f"WeasyPrint cannot find its system libraries (Pango): {exc}"
                         " (Debian: apt-get install libpango-1.0-0 libpangoft2-1.0-0)") from None
    printed = HTML(string=unlinked(page), base_url=str(base) + "/")
    # PDF/UA-1: tagged, so that a screen reader finds the headings, lists and
    # tables in their order, the page's language and every formula's text.
    return t.cast("bytes", printed.write_pdf(pdf_variant=PDF_VARIANT))


def setup(app: Sphinx) -> ExtensionMetadata:
    """Register the pupil sheets."""
    return registered(app, {"aces-sheet": SheetDirective}, events=[("doctree-resolved", _resolved)])
