"""The live class: groups record their games in a browser, the class is pooled as it plays.

The application behind ``aces class serve``, under every face that shows
it (the web server in :mod:`aces.server`, a school's own tools through its
JSON API). Nothing here knows HTTP: :class:`~aces.classroom.service.Classroom`
takes a group's submission, decides it with the package's rules
(:mod:`aces.record`'s table, the one fold behind ``aces record``), appends
what it settles to the group's log through a :class:`~aces.classroom.store.Store`,
and answers with the narration in the group's language; the class's
results are pooled by :mod:`aces.experiment`, so they are the numbers of
``aces stats`` on the same logs.

- :mod:`~aces.classroom.store`: what an event store promises the class
  (one contract, for the folder of files and for PostgreSQL);
- :mod:`~aces.classroom.files`: the store of a folder of ordinary logs;
- :mod:`~aces.classroom.feed`: the class-wide cursor of the file store;
- :mod:`~aces.classroom.group`: one group's table, in memory;
- :mod:`~aces.classroom.pooled`: the class pooled against the exact odds;
- :mod:`~aces.classroom.service`: the class itself, and who may do what;
- :mod:`~aces.classroom.access`: class codes, tokens and secrets.
"""

__all__: list[str] = []
