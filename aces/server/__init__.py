"""The class server: the live class (:mod:`aces.classroom`) on the web.

A face of the package beside the command line, the Python API and the
docs extension: an ASGI application on Starlette, served by uvicorn, with
the pupils' pages, the projector, the JSON API under ``/api/v1/`` and the
class's stream of server-sent events. It decides nothing itself: every
roll goes to :class:`aces.classroom.service.Classroom`, which checks it
with the package's rules.

- :mod:`~aces.server.guard`: the checks every request passes first (its
  host, where it comes from, its size) and the headers every answer gets;
- :mod:`~aces.server.answers`: answers and refusals, in the caller's language;
- :mod:`~aces.server.api`: the JSON API;
- :mod:`~aces.server.pages`: the pages, which work without a script;
- :mod:`~aces.server.stream`: the class's stream, resumed by ``Last-Event-ID``;
- :mod:`~aces.server.app`: the routes, put together;
- :mod:`~aces.server.serve`: ``aces class serve``, started and stopped.
"""

__all__: list[str] = []
