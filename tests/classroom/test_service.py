"""The live class without a server: joins, submissions decided once, and a
restart after a crash at every moment that matters (aces.classroom.service)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import typing as t

import pytest

from aces.classroom.files import FileStore
from aces.classroom.service import Answer, Classroom, Group
from aces.errors import AcesError, ClassError
from aces.events import Rolled
from aces.rules import Roll

import loops

if t.TYPE_CHECKING:
    from collections.abc import Callable, Coroutine
    from pathlib import Path

DICE: t.Final = [(3,), (5,), (2,), (1, 6), (3, 5), (6, 6), (1, 1), (4, 2), (2, 2), (1, 3)]


def run(test: Callable[[], Coroutine[t.Any, t.Any, None]]) -> None:
    loops.run(test())


async def served(folder: Path) -> Classroom:
    room = Classroom(FileStore(str(folder)))
    await room.open(None, None, "en")
    return room


async def rolled(room: Classroom, group: Group, count: int) -> list[Answer]:
    answers = []
    for number in range(count):
        table = group.table
        request = table.request()
        assert request is not None
        dice = next(d for d in DICE[number % len(DICE):] + DICE if len(d) == request.dice)
        answers.append(await room.roll(group, f"s{number}", table.seq, table.game, Roll(dice)))
    return answers


def verify(folder: Path) -> None:
    for log in folder.glob("*.jsonl"):
        done = subprocess.run([sys.executable, "-m", "aces", "verify", str(log)],
                              capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr


def test_a_retry_after_a_crash_before_the_feed_gets_its_first_answer(tmp_path: Path) -> None:
    """The block reached the log, the crash came before the feed and the
    answer: the same submission, decided again at its seq, gives the lines
    the log holds, so it is answered as the first time, and nothing is added."""
    async def test() -> None:
        room = await served(tmp_path)
        group, _ = await room.join(room.class_record.code, "Lost", ["Ada", "Bo", "Cy"], "nb",
                                   "device")
        answers = await rolled(room, group, 5)
        seq_before = answers[-1].first - 1
        await room.close()
        feed = tmp_path / ".feed"
        feed.write_bytes(feed.read_bytes()[: -len(feed.read_bytes()) // 6])
        log = (tmp_path / "group-001.jsonl").read_bytes()
        again = await served(tmp_path)
        group = again.groups[1]
        last = answers[-1].events[0]
        assert isinstance(last, Rolled)
        answer = await again.roll(group, "s4", seq_before, 1, Roll(last.dice))
        assert answer == answers[-1]
        assert (tmp_path / "group-001.jsonl").read_bytes() == log
        # Another roll for that moment is stale: the moment has passed.
        with pytest.raises(ClassError, match="another device"):
            await again.roll(group, "other", seq_before, 1, Roll((6, 6)))
        await again.close()
        verify(tmp_path)

    run(test)


def test_a_log_cut_between_a_roll_and_what_it_settles_is_settled_on_start(
        tmp_path: Path) -> None:
    async def test() -> None:
        room = await served(tmp_path)
        group, _ = await room.join(room.class_record.code, "Cut", ["Ada", "Bo"], "en", "device")
        answers = await rolled(room, group, 4)
        await room.close()
        settled = [answer for answer in answers if answer.last > answer.first][-1]
        log = tmp_path / "group-001.jsonl"
        whole = log.read_bytes().splitlines(keepends=True)
        log.write_bytes(b"".join(whole[:settled.first]))
        # The crash came before the block's line of the feed, which follows its log.
        feed = tmp_path / ".feed"
        kept = [line for line in feed.read_bytes().splitlines(keepends=True)
                if int(line.split()[2]) < settled.first]
        feed.write_bytes(b"".join(kept))
        again = await served(tmp_path)
        assert again.groups[1].table.seq >= settled.last
        await again.close()
        verify(tmp_path)

    run(test)


def test_the_same_roll_from_two_devices_at_once_is_recorded_once(tmp_path: Path) -> None:
    async def test() -> None:
        room = await served(tmp_path)
        group, _ = await room.join(room.class_record.code, "Two", ["Ada", "Bo"], "en", "device")
        seq = group.table.seq
        results = await asyncio.gather(room.roll(group, "tablet", seq, 1, Roll((4,))),
                                       room.roll(group, "laptop", seq, 1, Roll((4,))),
                                       return_exceptions=True)
        assert sum(isinstance(result, Answer) for result in results) == 1
        assert sum(isinstance(result, ClassError) and result.code == "stale"
                   for result in results) == 1
        assert group.table.seq == seq + 1
        await room.close()

    run(test)


def test_the_next_game_begins_with_its_first_roll(tmp_path: Path) -> None:
    async def test() -> None:
        import random

        room = await served(tmp_path)
        group, _ = await room.join(room.class_record.code, "Next", ["Ada", "Bo"], "en", "device")
        dice = random.Random(7)
        number = 0
        while group.table.request() is not None:
            request = group.table.request()
            assert request is not None
            number += 1
            await room.roll(group, f"r{number}", group.table.seq, 1,
                            Roll(tuple(dice.randint(1, 6) for _ in range(request.dice))))
        with pytest.raises(AcesError, match="the game is over"):
            await room.roll(group, "late", group.table.seq, 1, Roll((4,)))
        answer = await room.roll(group, "next", group.table.seq, 2, Roll((4,)))
        assert [type(event).__name__ for event in answer.events] == ["GameStarted", "Rolled"]
        assert group.table.game == 2
        assert answer.told["en"][0].startswith("Aces in the Pot, game 2")
        # Taken back, the new game's header goes too: the last game is over again.
        undone = await room.undo(group, "undo", group.table.seq)
        assert type(undone.events[0]).__name__ == "RollUndone"
        await room.close()
        verify(tmp_path)

    run(test)


async def rolled_on(room: Classroom, group: Group, count: int) -> None:
    """``count`` rolls, from game to game."""
    for number in range(count):
        table = group.table
        request = table.request()
        game = table.game
        if request is None:
            request, game = table.following()[1], game + 1
        dice = next(d for d in DICE[number % len(DICE):] + DICE if len(d) == request.dice)
        await room.roll(group, f"r{number}", table.seq, game, Roll(dice))


def test_a_group_stops_at_the_most_a_log_holds_as_the_log_stands(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A group's log stops at the most events a log may hold, with the message
    of aces play; the table stays as the log stands (it once went on showing
    the refused roll as recorded, and telling it), and the log reads back."""
    import aces.log
    from aces.log import full_log

    monkeypatch.setattr(aces.log, "EVENT_LIMIT", 150)

    async def test() -> None:
        room = await served(tmp_path)
        group, _ = await room.join(room.class_record.code, "Full", ["Ada", "Bo"], "en", "dev")
        with pytest.raises(AcesError) as raised:
            await rolled_on(room, group, 1000)
        assert str(raised.value) == str(full_log())
        written = room.store.seq(group.record.id)
        assert group.table.seq == written <= 150
        story = list(group.table.story["en"])
        with pytest.raises(AcesError):
            await rolled_on(room, group, 1)
        assert group.table.seq == written
        assert list(group.table.story["en"]) == story
        await room.close()
        again = await served(tmp_path)
        assert list(again.groups[1].table.story["en"]) == story
        await again.close()
        verify(tmp_path)

    run(test)
