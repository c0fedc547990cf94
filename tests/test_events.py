"""The log schema: every event type, encoded and decoded."""

from __future__ import annotations

import typing as t

import msgspec
import pytest

from aces.events import (
    EVENT_TYPES,
    SCHEMA,
    AceIgnored,
    ChipsPassed,
    ChipsToPot,
    DicePassed,
    DiceToCentre,
    Event,
    FinishStarted,
    GameExcluded,
    GameOver,
    GameStarted,
    OpeningTied,
    OpeningWon,
    PlayResumed,
    RollAgain,
    Rolled,
    RollUndone,
    TryFailed,
    TryStarted,
    TryWon,
    TurnMissed,
    Unpaid,
    type_name,
)

ONE_OF_EACH: t.Final[list[Event]] = [
    GameStarted(schema=SCHEMA, game="pot", players=("Ada", "Bo"),
                options={"finish": "last-chip", "chips": 2}, seed=7),
    Rolled(player="Ada", dice=(1, 6), stage="turn"),
    OpeningTied(players=("Ada", "Bo"), value=4),
    OpeningWon(player="Bo", value=5),
    TurnMissed(player="Ada"),
    GameOver(winner="Bo", pot=3),
    ChipsToPot(player="Ada", count=1),
    AceIgnored(player="Ada"),
    ChipsPassed(player="Ada", to="Bo", count=2),
    Unpaid(player="Ada", aces=1),
    FinishStarted(player="Bo", chips=1),
    TryStarted(player="Bo"),
    TryFailed(player="Bo", roll=3),
    TryWon(player="Bo"),
    PlayResumed(player="Ada"),
    DiceToCentre(player="Cy", count=2),
    DicePassed(player="Cy", to="Ada", count=1, face=5),
    RollAgain(player="Cy"),
    Rolled(player="Cy", dice=(3, 4), stage="turn", to=("Bo",)),
    RollUndone(undoes=12, player="Ada", dice=(1, 6)),
    GameExcluded(game=1),
]


def test_the_examples_cover_every_event_type() -> None:
    assert {type(e) for e in ONE_OF_EACH} == set(EVENT_TYPES)


@pytest.mark.parametrize("event", ONE_OF_EACH, ids=type_name)
def test_every_event_survives_a_round_trip_through_json(event: Event) -> None:
    encoded = msgspec.json.encode(event)
    assert msgspec.json.decode(encoded, type=Event) == event
    assert msgspec.json.decode(encoded)["type"] == type_name(event)


def test_type_tags_are_distinct_snake_case_names() -> None:
    tags = list({type(e): type_name(e) for e in ONE_OF_EACH}.values())
    assert len(set(tags)) == len(tags)
    assert all(tag.replace("_", "").isalpha() and tag.islower() for tag in tags)


def test_defaults_are_left_out_of_the_log() -> None:
    assert b'"to"' not in msgspec.json.encode(Rolled(player="Ada", dice=(3,), stage="opening"))
    assert msgspec.json.decode(msgspec.json.encode(GameOver(winner="Bo", pot=5))) == {
        "type": "game_over", "winner": "Bo", "pot": 5}
    assert b'"seed"' not in msgspec.json.encode(
        GameStarted(schema=SCHEMA, game="pot", players=("A", "B"), options={}))
    assert msgspec.json.decode(msgspec.json.encode(Unpaid(player="Ada", sixes=1))) == {
        "type": "unpaid", "player": "Ada", "sixes": 1}


def test_a_field_the_schema_does_not_know_is_refused() -> None:
    # A digest covers the whole line, so a line holds nothing it does not check.
    with pytest.raises(msgspec.ValidationError, match="unknown field `note`"):
        msgspec.json.decode(b'{"type":"try_won","player":"Bo","note":"hi"}', type=Event)


def test_events_are_immutable() -> None:
    event = ChipsToPot(player="Ada", count=1)
    with pytest.raises(AttributeError):
        event.count = 2  # type: ignore[misc]

