"""What each seat holds, as an immutable vector that changes one seat at the cost of a few.

A game's state is a value: every event gives a new one, and the walk keeps
the states an undo may go back to. With the chips of a table in a plain
tuple, every chip moved would copy every seat, and a log of a table of
thousands would cost its events times its players. :class:`Seats` is a
persistent vector (a tree of tuples, 32 seats a leaf, as Clojure's and
pyrsistent's vectors are): a new vector with one seat changed copies one
leaf and the path to it, at most 32 entries at each of at most four levels
for any table a log line can hold, and shares everything else with the
vector it came from. It also keeps what the rules ask of the whole table
after every roll, so that no question reads every seat: the total held
(:attr:`total`), how many seats hold anything (:attr:`holders`), and the
one seat that does when only one is left (:meth:`holder`).

>>> chips = Seats((2, 2, 2))
>>> after = chips.moved({0: -2, 1: +1})
>>> after, after.total, after.holders, chips
(Seats((0, 3, 2)), 5, 2, Seats((2, 2, 2)))
>>> after.moved({2: -2}).holder()
1
"""

from __future__ import annotations

import itertools
import operator
import typing as t
from collections.abc import Iterable, Iterator, Mapping, Sequence

__all__ = ["WIDTH", "Seats"]

#: Seats a leaf holds, and children a branch has.
WIDTH: t.Final = 32
_BITS: t.Final = 5
_MASK: t.Final = WIDTH - 1

#: A node: a leaf (a tuple of values) or a branch (a tuple of nodes).
Node = tuple[t.Any, ...]


class Seats(Sequence[int]):
    """Each seat's holding, seat 0 first: a sequence of whole numbers that never changes.

    :meth:`moved` gives a new vector with some seats changed; equal vectors
    are equal whatever their history, and hash alike.
    """

    __slots__ = ("_hash", "_holders", "_root", "_seat_sum", "_shift", "_size", "_total", "flat")

    _root: Node
    _shift: int
    _size: int
    #: A table of up to :data:`WIDTH` seats is one leaf: this tuple, every
    #: seat's holding (``None`` at a larger table). Read at C speed, it is
    #: what a small table's memo keys on.
    flat: tuple[int, ...] | None
    #: The sums below; at a small table counted when first asked for (at C
    #: speed, from :attr:`flat`), at a large one kept as seats change.
    _total: int | None
    _holders: int | None
    #: The sum of the numbers of the seats that hold anything: the seat
    #: itself, when only one does.
    _seat_sum: int | None
    _hash: int | None

    def __init__(self, values: Iterable[int]) -> None:
        held = tuple(values)
        self._size = len(held)
        self._hash = None
        if len(held) <= WIDTH:
            # One leaf, the tuple itself (every game of a session starts
            # with one): its sums are counted when first asked for.
            self._root = self.flat = held
            self._shift = 0
            self._total = self._holders = self._seat_sum = None
            return
        level: list[Node] = [held[start:start + WIDTH]
                             for start in range(0, len(held), WIDTH)]
        shift = 0
        while len(level) > 1:
            level = [tuple(level[start:start + WIDTH]) for start in range(0, len(level), WIDTH)]
            shift += _BITS
        self._root = level[0]
        self._shift = shift
        self.flat = None
        self._total = sum(held)
        self._holders = len(held) - held.count(0)
        self._seat_sum = sum(itertools.compress(range(len(held)), held))

    @property
    def total(self) -> int:
        """The sum of every seat's holding."""
        if self._total is None:
            self._total = sum(self._root)
        return self._total

    @property
    def holders(self) -> int:
        """How many seats hold anything."""
        if self._holders is None:
            self._holders = self._size - self._root.count(0)
        return self._holders

    # -- Reading -----------------------------------------------------------------

    def __len__(self) -> int:
        return self._size

    @t.overload
    def __getitem__(self, seat: int) -> int: ...

    @t.overload
    def __getitem__(self, seat: slice) -> tuple[int, ...]: ...

    def __getitem__(self, seat: int | slice) -> int | tuple[int, ...]:
        if self.flat is not None:
            # A table of up to 32 seats is one leaf: the tuple itself.
            return self.flat[seat]
        if isinstance(seat, slice):
            return self.as_tuple()[seat]
        if seat < 0:
            seat += self._size
        if not 0 <= seat < self._size:
            raise IndexError("no such seat")
        node = self._root
        shift = self._shift
        while shift:
            node = node[(seat >> shift) & _MASK]
            shift -= _BITS
        value: int = node[seat & _MASK]
        return value

    def __iter__(self) -> Iterator[int]:
        return iter(self.as_tuple())

    def as_tuple(self) -> tuple[int, ...]:
        """Every seat's holding as a plain tuple: free at a table of up to
        :data:`WIDTH` seats (the vector is that tuple), a copy beyond."""
        if self.flat is not None:
            return self.flat
        return tuple(_values(self._root, self._shift))

    def holder(self) -> int:
        """The one seat that holds anything, when only one does.

        :raises ValueError: when none does, or more than one.
        """
        if self.holders != 1:
            raise ValueError(f"{self.holders} seats hold something, not one")
        if self._seat_sum is None:
            self._seat_sum = sum(itertools.compress(range(self._size), self._root))
        return self._seat_sum

    def changed(self, other: Seats) -> list[int]:
        """The seats whose holdings differ from ``other``'s, in seat order, found
        without reading the parts the two vectors share (any vector made from
        the other by :meth:`moved`).

        >>> Seats(range(70)).moved({3: 1, 65: -1}).changed(Seats(range(70)))
        [3, 65]

        :raises ValueError: for vectors of two tables of different sizes.
        """
        if self._size != other._size or self._shift != other._shift:
            raise ValueError("the vectors are not of one table")
        found: list[int] = []
        _differ(self._root, other._root, self._shift, 0, found)
        return found

    # -- Changing ------------------------------------------------------------------

    def moved(self, deltas: Mapping[int, int]) -> Seats:
        """A new vector, with ``deltas[seat]`` added to each seat named.

        :raises ValueError: if a seat would hold less than nothing.
        """
        made = _new(Seats)
        made._size, made._hash = self._size, None
        if self.flat is not None:
            # A table of up to 32 seats is one leaf, changed as a list is,
            # its sums counted when asked for: as cheap as a tuple.
            leaf = list(self.flat)
            for seat, delta in deltas.items():
                now = leaf[seat] = leaf[seat] + delta
                if now < 0:
                    raise ValueError(f"seat {seat} cannot hold {now}")
            made._root = made.flat = tuple(leaf)
            made._shift = 0
            made._total = made._holders = made._seat_sum = None
            return made
        root = self._root
        total, holders, seat_sum = self.total, self.holders, self._seat_sum
        assert seat_sum is not None, "kept at a large table"
        for seat, delta in deltas.items():
            if not delta:
                continue
            was = self[seat]
            now = was + delta
            if now < 0:
                raise ValueError(f"seat {seat} cannot hold {now}")
            root = _assoc(root, self._shift, seat, now)
            total += delta
            if not was:
                holders += 1
                seat_sum += seat
            elif not now:
                holders -= 1
                seat_sum -= seat
        made._root, made._shift, made.flat = root, self._shift, None
        made._total, made._holders, made._seat_sum = total, holders, seat_sum
        return made

    def shifted(self, giver: int, gives: int, taker: int, takes: int) -> Seats:
        """A new vector in which ``giver`` holds ``gives`` less and ``taker``
        ``takes`` more (one seat may be both): all that a roll or an event
        of the games changes, without the mapping :meth:`moved` takes,
        which at a small table would cost more to build than the change.

        >>> Seats((2, 2, 2)).shifted(0, 2, 1, 1), Seats((2, 2)).shifted(1, 1, 1, 0)
        (Seats((0, 3, 2)), Seats((2, 1)))

        :raises ValueError: if a seat would hold less than nothing.
        """
        flat = self.flat
        if flat is None:
            return self.moved({giver: takes - gives} if giver == taker
                              else {giver: -gives, taker: takes})
        leaf = list(flat)
        leaf[taker] += takes
        now = leaf[giver] = leaf[giver] - gives
        if now < 0:
            raise ValueError(f"seat {giver} cannot hold {now}")
        made = _new(Seats)
        made._root = made.flat = tuple(leaf)
        made._shift, made._size, made._hash = 0, self._size, None
        made._total = made._holders = made._seat_sum = None
        return made

    # -- A value -----------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Seats):
            # Tuples compare their items by identity first: shared parts cost nothing.
            return self._size == other._size and self._root == other._root
        if isinstance(other, tuple):
            return self.as_tuple() == other
        return NotImplemented

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(self.as_tuple())
        return self._hash

    def __repr__(self) -> str:
        return f"Seats({self.as_tuple()!r})"


_new: t.Final = object.__new__


def _values(node: Node, shift: int) -> Iterator[int]:
    if not shift:
        yield from node
        return
    for child in node:
        yield from _values(child, shift - _BITS)


def _assoc(node: Node, shift: int, seat: int, value: int) -> Node:
    """``node`` with ``seat`` set to ``value``: the path to it copied, the rest shared."""
    slot = (seat >> shift) & _MASK
    inner = value if not shift else _assoc(node[slot], shift - _BITS, seat, value)
    return (*node[:slot], inner, *node[slot + 1:])


def _differ(mine: Node, theirs: Node, shift: int, first: int, found: list[int]) -> None:
    """Add to ``found`` the seats where two nodes of one shape differ."""
    if mine is theirs:
        return
    if not shift:
        found.extend(itertools.compress(range(first, first + len(mine)),
                                        map(operator.ne, mine, theirs)))
        return
    span = 1 << shift
    for slot, (one, other) in enumerate(zip(mine, theirs, strict=True)):
        if one is not other:
            _differ(one, other, shift - _BITS, first + slot * span, found)
