"""Pages for a browser: one self-contained, offline HTML file each.

* :mod:`aces.page.replay` gathers what the replay page shows, one game of
  a log: every roll with the table after it, its narration in every
  language the package ships, and each player's chance at that moment;
* :mod:`aces.page.html` turns that into the page (the data as JSON the
  script reads, the whole game as a list that needs no script) and writes
  it without ever leaving half a file.

The page's data is a stable contract, documented in ``docs/page-format.rst``.
"""

__all__: list[str] = []
