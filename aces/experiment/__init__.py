"""The class experiment: a class's logs pooled and held against the exact odds.

* :mod:`aces.experiment.observe` — a visitor of the walk that keeps each
  game's record and counts of its rolls (by seat, length, what the rolls did);
* :mod:`aces.experiment.exact` — what the rules expect exactly, each game
  working its values out itself (:mod:`aces.experiment.pot`,
  :mod:`aces.experiment.fivedice`);
* :mod:`aces.experiment.analysis` — the counts against the exact values:
  shares with their 95 % intervals, and chi-square tests (:mod:`aces.inference`);
* :mod:`aces.experiment.pool` — many logs read, damaged ones left out, and
  pooled by their rules.

The report in words, the tables and the plot made of a pool are documents
(:mod:`aces.reports.stats`, :mod:`aces.reports.export`,
:mod:`aces.reports.plot`).
"""

__all__: list[str] = []
