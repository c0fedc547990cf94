"""Each seat's holding as a persistent vector: the same answers as a tuple,
and a seat changed copies only the path to it, whatever the table."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from aces.rules.seats import WIDTH, Seats

tables = st.lists(st.integers(min_value=0, max_value=5), min_size=1, max_size=3 * WIDTH * WIDTH)


@given(tables, st.data())
def test_a_vector_answers_as_its_tuple_would(held: list[int], data: st.DataObject) -> None:
    seats = Seats(held)
    for _ in range(data.draw(st.integers(min_value=1, max_value=8))):
        seat = data.draw(st.integers(min_value=0, max_value=len(held) - 1))
        delta = data.draw(st.integers(min_value=-held[seat], max_value=3))
        after = seats.moved({seat: delta})
        now = list(held)
        now[seat] += delta
        assert list(after) == now
        assert after.as_tuple() == tuple(now)
        assert (after.total, after.holders) == (sum(now), len(now) - now.count(0))
        assert after.changed(seats) == [s for s in range(len(now)) if now[s] != held[s]]
        assert (after == seats) == (now == held)
        assert after == Seats(now)
        assert hash(after) == hash(Seats(now))
        if after.holders == 1:
            assert now[after.holder()] > 0
        seats, held = after, now


def _nodes(node: tuple[object, ...]) -> list[int]:
    """The identities of every tuple in a vector's tree."""
    found = [id(node)]
    for child in node:
        if isinstance(child, tuple):
            found.extend(_nodes(child))
    return found


def test_a_seat_changed_copies_the_path_to_it_and_shares_the_rest() -> None:
    for players in (2_000, 8_000, 30_000):
        seats = Seats([2] * players)
        after = seats.moved({players // 2: -1, players // 2 + 1: +1})
        before_nodes = set(_nodes(seats._root))
        new_nodes = [node for node in _nodes(after._root) if node not in before_nodes]
        # One new leaf (both seats share one) and one new node a level above it.
        depth = 1 + after._shift // 5
        assert len(new_nodes) <= depth
        assert after.changed(seats) == [players // 2, players // 2 + 1]


def test_a_small_table_is_one_tuple_and_costs_no_copy_to_read() -> None:
    seats = Seats((2, 2, 2, 2))
    assert seats.as_tuple() is seats.as_tuple()
    assert seats.moved({0: -2}).holders == 3
