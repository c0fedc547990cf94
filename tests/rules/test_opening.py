"""The opening shared by both games: who rolls, and who is still in it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from aces.rules.opening import Opening


def test_everyone_contends_in_seat_order() -> None:
    opening = Opening.everyone(4)
    assert opening.contenders == (0, 1, 2, 3)
    assert [opening.record(1).roller(), opening.roller()] == [1, 0]


def test_a_round_is_complete_once_every_contender_has_rolled() -> None:
    opening = Opening((1, 3))
    assert not opening.complete()
    opening = opening.record(5)
    assert not opening.complete()
    assert opening.roller() == 3
    assert opening.record(2).complete()


def test_a_single_leader_wins() -> None:
    opening = Opening.everyone(3).record(2).record(6).record(4)
    assert (opening.top(), opening.leaders()) == (6, (1,))


def test_leaders_are_named_by_seat_not_by_position_in_the_round() -> None:
    opening = Opening((0, 2, 3)).record(5).record(1).record(5)
    assert opening.leaders() == (0, 3)


def test_recording_never_changes_the_opening() -> None:
    opening = Opening.everyone(2)
    opening.record(3)
    assert opening == Opening((0, 1))
    assert opening.rolled == 0


@given(st.lists(st.integers(1, 6), min_size=2, max_size=8))
def test_leaders_are_exactly_the_seats_on_the_top_value(values: list[int]) -> None:
    opening = Opening.everyone(len(values))
    for value in values:
        opening = opening.record(value)
    assert opening.complete()
    assert opening.top() == max(values)
    assert opening.leaders() == tuple(s for s, v in enumerate(values) if v == max(values))


@given(st.lists(st.integers(1, 30), min_size=2, max_size=12), st.data())
def test_a_round_part_way_knows_its_top_and_leaders_so_far(
    values: list[int], data: st.DataObject,
) -> None:
    """What the odds of an opening read before it is over: the seats still
    to roll, and the highest so far with the seats that share it."""
    contenders = tuple(sorted(data.draw(st.sets(st.integers(0, 40), min_size=len(values),
                                                max_size=len(values)))))
    opening = Opening(contenders)
    for done, value in enumerate(values, 1):
        opening = opening.record(value)
        so_far = values[:done]
        assert opening.rolled == done
        assert opening.contenders[opening.rolled:] == contenders[done:]
        assert opening.top() == max(so_far)
        assert opening.leaders() == tuple(s for s, v in zip(contenders, so_far, strict=False)
                                          if v == max(so_far))
