"""``.. aces-walkthrough:: LOG``: a log told as a walkthrough of the rules, on a page.

What ``aces walkthrough`` writes (:mod:`aces.walkthrough`), as docutils
nodes that every builder writes its own way: each game's opening as a
rubric, the narration as line blocks, each rule as an admonition, the
standings as small tables. Its options:

``:lang: nb``
    The language it is told in, any the package ships, whatever the
    build's language (by default the build's, or English where the package
    does not speak it).
``:game: 2``
    Only that game of the log (from 1), its rules explained as if it stood
    alone.
``:show: narration, standings, rules, turning-points``
    What it shows (these four by default), among :data:`SHOWN`: ``odds``
    adds each player's chance after every roll to the narration, and
    ``page`` the log's replay page below (see :mod:`aces.sphinxext.pages`).
"""

from __future__ import annotations

import typing as t

from docutils.parsers.rst import directives

from aces.errors import EmptyLogError, Names, OptionError
from aces.i18n import translations
from aces.sphinxext.build import DEFAULT_SHOWN, AcesDirective, walkthrough_nodes
from aces.sphinxext.pages import replay_page
from aces.walkthrough import walkthrough

if t.TYPE_CHECKING:

    from docutils import nodes
    pass

__all__ = ["DEFAULT_SHOWN", "SHOWN", "WalkthroughDirective", "walkthrough_nodes"]

#: What a walkthrough can show.
SHOWN: t.Final = ("narration", "standings", "rules", "turning-points", "odds", "page")


class WalkthroughDirective(AcesDirective):
    """``.. aces-walkthrough:: LOG``: a log told as a walkthrough of the rules."""

    required_arguments = 1
    final_argument_whitespace = True
    option_spec: t.ClassVar[dict[str, t.Callable[[str], t.Any]]] = {
        "lang": directives.unchanged_required, "game": directives.unchanged_required,
        "show": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        name, lang, game, shown = self.arguments[0], self.lang, self.number("game"), self.shown()
        parts, _ = self.read_log(name, lambda log: walkthrough(
            log, name, translations(lang), lang, game=game, odds="odds" in shown,
            turning_points="turning-points" in shown))
        if not parts:
            self.fail(EmptyLogError("{source} is empty: it holds no events", source=name))
        found: list[nodes.Node] = [walkthrough_nodes(parts, shown, self.marked(lang))]
        if "page" in shown:
            found.append(replay_page(self, name, lang, game))
        return found

    def shown(self) -> frozenset[str]:
        """What ``:show:`` names, some of :data:`SHOWN` between commas or spaces;
        without it, :data:`DEFAULT_SHOWN`."""

        given = self.options.get("show")
        if given is None:
            return DEFAULT_SHOWN
        words = str(given).replace(",", " ").split()
        unknown = [word for word in words if word not in SHOWN] or ([] if words else [""])
        if unknown:
            # Translators: an error of a walkthrough in the documentation, whose
            # ":show:" names something it cannot show. {value}: what it names;
            # {known}: the words it takes, kept as they are typed.
            self.fail(OptionError("a walkthrough cannot show {value!r}; it shows {known}",
                                  value=unknown[0], known=Names(SHOWN)))
        return frozenset(words)
