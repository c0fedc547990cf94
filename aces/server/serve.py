"""``aces class serve DIR``: the class server, started, announced and stopped.

The socket is bound first, so that the port (``--port 0`` takes a free
one) and the addresses the server answers to are known before it is
announced; uvicorn then serves on it, with no access log (no address of
any pupil is written anywhere). Ctrl-C (or ``SIGTERM``) stops it: the
streams end, every append in flight finishes, the logs are let go.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import gc
import importlib.util
import io
import logging
import os
import socket
import sys
import typing as t

from aces.classroom.files import FileStore
from aces.classroom.school import OneClass
from aces.classroom.service import Classroom
from aces.collector import SELDOM
from aces.errors import OptionError, Term, visible
from aces.files import os_reason
from aces.rules import keep_decisions
from aces.server.app import make_app
from aces.server.stream import DroppedQuietly

if t.TYPE_CHECKING:
    import gettext
    from collections.abc import Callable, Coroutine, Mapping, Sequence

    from aces.classroom.service import Opening, Settings
    from aces.rules import OptionValue

__all__ = ["DECISIONS", "EXTRA_MODULES", "addresses", "bind", "few_arenas", "hosts",
           "run", "run_loop", "serve", "steady"]

#: What the ``class`` extra brings, by the modules the server imports: the
#: web framework, its server, its event streams, its forms (python-multipart,
#: importable by either name) and the QR code.
EXTRA_MODULES: t.Final = (("starlette",), ("uvicorn",), ("sse_starlette",),
                          ("python_multipart", "multipart"), ("segno",))


def addresses(host: str) -> list[str]:
    """The addresses other devices can reach a server bound to ``host`` at:
    the machine's own on its networks for a wildcard, else ``host`` itself."""
    if host not in ("0.0.0.0", "::", ""):
        return [host]
    found: list[str] = []
    with contextlib.suppress(OSError):
        for _, _, _, _, address in socket.getaddrinfo(socket.gethostname(), None,
                                                      socket.AF_INET):
            ip = str(address[0])
            if not ip.startswith("127.") and ip not in found:
                found.append(ip)
    found.extend(ip for ip in _interfaces() if ip not in found)
    return found or ["127.0.0.1"]


def _interfaces() -> list[str]:
    """The IPv4 addresses of this machine's network interfaces (Linux), loopback aside."""
    try:
        import fcntl
        import struct
    except ImportError:
        return []
    found = []
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for _, name in socket.if_nameindex():
            with contextlib.suppress(OSError):
                packed = fcntl.ioctl(probe.fileno(), 0x8915,  # SIOCGIFADDR
                                     struct.pack("256s", name.encode()[:15]))
                ip = socket.inet_ntoa(packed[20:24])
                if not ip.startswith("127."):
                    found.append(ip)
    return found


def hosts(host: str, port: int) -> list[str]:
    names = {"localhost", "127.0.0.1", "[::1]", socket.gethostname().lower()}
    names.update(addresses(host))
    if host not in ("0.0.0.0", "::", ""):
        names.add(host)
    return [f"{name}:{port}" for name in names] + (list(names) if port == 80 else [])


def serve(folder: str, host: str, port: int, game: str | None,
          options: Mapping[str, OptionValue] | None, lang: str, settings: Settings,
          catalog: gettext.NullTranslations,
          say: Callable[[str], None] = print) -> None:
    """Serve the class in ``folder`` until Ctrl-C."""
    _require_the_extra()
    run_loop(_serve(folder, host, port, game, options, lang, settings, catalog, say))


def run_loop(main: Coroutine[t.Any, t.Any, None]) -> None:
    """Run a server's ``main`` to its end on uvloop where it is installed (the
    class extra brings it, on every system but Windows), else on asyncio's
    own loop: uvloop's sockets, timers and futures are compiled, asyncio's Python."""
    few_arenas()
    try:
        import uvloop
    except ImportError:
        asyncio.run(main)
        return
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        runner.run(main)


#: The C library's memory pools a server keeps (glibc's ``M_ARENA_MAX``).
ARENAS: t.Final = 2
#: ``mallopt``'s number for it.
_M_ARENA_MAX: t.Final = -8


def few_arenas() -> bool:
    """Keep the C library's memory in :data:`ARENAS` pools, where it is glibc's;
    whether it is. A server's many threads (the class's syncs) each got a
    pool of their own, up to eight a core, and the memory freed in one was
    not reused by another: a busy class's server grew by some 9 % from the
    second to the fourth minute of a run, its Python objects steady; kept
    to two, by some 3 %. Before any thread is started, so at the start."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None)
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False  # musl and others: no arenas to set
    return bool(mallopt(_M_ARENA_MAX, ARENAS))


def _require_the_extra() -> None:
    """Refuse at once, in one line, where the package was installed without the
    ``class`` extra: nothing of the class is opened, and no traceback names a
    module the teacher never asked for."""
    if any(all(importlib.util.find_spec(name) is None for name in names)
           for names in EXTRA_MODULES):
        # Translators: an error of "aces class serve" where the package was
        # installed without its class extra. {command}: aces class serve. Keep
        # the command after the colon as it is: it is typed as it stands.
        raise OptionError("{command} needs the server that comes with the class extra:"
                          " pip install 'aces-dice[class]'", command=Term("aces class serve"))


async def _serve(folder: str, host: str, port: int, game: str | None,
                 options: Mapping[str, OptionValue] | None, lang: str, settings: Settings,
                 catalog: gettext.NullTranslations, say: Callable[[str], None]) -> None:
    room = Classroom(FileStore(folder), settings)
    try:
        opening = await room.open(game, options, lang)
    except BaseException:
        # Refused (other rules, a log changed): the logs opened are let go,
        # and the locks beside them removed, as when the server stops.
        await room.close()
        raise
    try:
        sock = bind(host, port)
        bound = sock.getsockname()[1]
        shown = addresses(host)[0]
        base = f"http://{shown}:{bound}"
        app = make_app(OneClass(room), hosts(host, bound), base, os.urandom(32))
        _announce(opening, folder, base, catalog, say)
        try:
            await run(app, sock)
        finally:
            # Translators: the last line of "aces class serve", after Ctrl-C.
            # {folder}: the class's folder.
            say(catalog.gettext("Stopped. The class is kept in {folder}; the same command"
                                " serves it again.").format(folder=folder))
    finally:
        await room.close()


def bind(host: str, port: int) -> socket.socket:
    """A listening socket at ``host:port`` (``0``: a free port).

    :raises ~aces.errors.OptionError: for an address that cannot be had.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP named, not 0: asyncio turns Nagle's algorithm off only
    # on sockets that say they are TCP, and with it on, a response's body
    # waits 40 ms for the acknowledgement of its headers.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        # Translators: an error of "aces class serve" when its address
        # cannot be had. {address}: host and port; {reason}: why.
        raise OptionError("cannot serve at {address}: {reason}",
                          address=host + ":" + str(port), reason=os_reason(exc)) from None
    sock.listen(512)
    sock.set_inheritable(True)
    return sock


async def run(app: t.Any, sock: socket.socket, proxies: Sequence[str] = ()) -> None:
    """Serve ``app`` on ``sock`` under uvicorn until Ctrl-C or ``SIGTERM``,
    with no access log and httptools' parser where it is installed (the class
    extra brings it; h11's is Python, and parses every roll's post); ``proxies``
    are the addresses of reverse proxies whose ``X-Forwarded-For`` names the
    client (kept in memory only, for the limit of wrong guesses)."""
    import uvicorn

    steady()
    config = uvicorn.Config(app, access_log=False, log_level="warning", lifespan="off",
                            timeout_graceful_shutdown=3, server_header=False,
                            proxy_headers=bool(proxies),
                            forwarded_allow_ips=list(proxies) or None,
                            limit_concurrency=2000, timeout_keep_alive=10)
    # After the config, which sets uvicorn's logging up.
    said = logging.getLogger("uvicorn.error")
    if not any(isinstance(kept, DroppedQuietly) for kept in said.filters):
        said.addFilter(DroppedQuietly())
    await uvicorn.Server(config).serve(sockets=[sock])


#: The bytes of each game's decisions a server keeps (:func:`aces.rules.keep_decisions`).
DECISIONS: t.Final = 2 << 20


def steady() -> None:
    """Keep Python's cycle collector from pausing the loop, and the server's
    memory from growing for long, once the server has started (its modules
    imported, the class opened or resumed).

    The rules' memo of decisions is kept to :data:`DECISIONS` bytes, some
    6,000 decisions at tables of four, which the class fills early: its
    default, 20 MB, filled for the whole of a lesson (10,000 situations
    after 24,000 rolls of 200 groups, each a new entry), and the server's
    memory grew with it, for a saving of less than a microsecond a roll.

    What start-up made lives as long as the server: frozen
    (:func:`gc.freeze`), it is never scanned again, and a full collection
    scans only what came since. At hundreds of rolls a second, a roll's
    answer, its narration and its request live a few tenths of a second:
    with Python's threshold of 700 new objects they outlive two young
    collections and are moved to the oldest generation, whose collections
    then come every few seconds and scan all of it. A young generation of
    :data:`~aces.collector.SELDOM` objects lets them die young, as most do, by their
    reference counts."""
    keep_decisions(DECISIONS)
    gc.collect()
    gc.freeze()
    gc.set_threshold(*SELDOM)


def _announce(opening: Opening, folder: str, base: str, catalog: gettext.NullTranslations,
              say: Callable[[str], None]) -> None:
    import segno

    _ = catalog.gettext
    record = opening.record
    join = f"{base}/join/{record.code}"
    if not opening.new:
        # Translators: "aces class serve" going on with a class. {folder}: its
        # folder; {count}: how many groups it has.
        say(catalog.ngettext("Going on with the class in {folder}: {count} group has joined.",
                             "Going on with the class in {folder}: {count} groups have joined.",
                             len(record.groups)).format(folder=folder,
                                                        count=len(record.groups)))
    for label, log, line in opening.repaired:
        # Translators: a notice of "aces class serve" on start. {group}: a
        # group's name; {log}: its log's file; {line}: the line cut off.
        say(_("The last line of {log} ({group}, line {line}) was cut short while it was"
              " written, so it is dropped; it was never recorded for the group.").format(
            log=log, group=visible(label), line=line))
    # Translators: "aces class serve": how pupils join. {address}: what they
    # open in a browser; {code}: the class code.
    say(_("Pupils open {address} and type the code {code}, or scan this:").format(
        address=base, code=record.code))
    picture = io.StringIO()
    segno.make(join, error="m").terminal(out=picture, compact=True, border=2)
    say(picture.getvalue().rstrip("\n"))
    # Translators: "aces class serve": the teacher's private address.
    # {address}: the address, which holds the teacher's secret.
    say(_("The projector and the teacher's controls, at an address to keep to yourself:"
          " {address}").format(address=f"{base}/teacher/{record.secret}"))
    # Translators: "aces class serve": where the logs are and how to stop.
    # {folder}: the class's folder.
    say(_("The groups' logs are kept in {folder}. Ctrl-C stops the server; the same command"
          " serves the class again.").format(folder=folder))
    sys.stdout.flush()
