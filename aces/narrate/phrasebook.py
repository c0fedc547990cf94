"""What every game's narration shares: the phrasebook base and its cache.

A phrasebook says one game's events in one language. Each game has its
own (:mod:`aces.narrate.pot`, :mod:`aces.narrate.fivedice`), built on
:class:`Phrasebook`, which holds the sentences the games have in common
(the opening, the entries of standings and tallies) and the caches that
make a long replay cheap (about twice as fast): an event's lines depend
only on the event and a little context, so each distinct event is put
into words once.

The keys of the caches cannot go stale, as the rules' memo cannot
(:class:`aces.rules.pot.Situation`): a sentence is made by
:meth:`Phrasebook.tell` from the event and its :meth:`Phrasebook.context`
alone, never from the step, so whatever a sentence reads is in its key;
the standings are made from the :class:`~aces.games.Holding` that keys
them.
"""

from __future__ import annotations

import itertools
import operator
import typing as t
import weakref

from aces.events import GameExcluded, OpeningTied, OpeningWon, Rolled, RollUndone
from aces.games import registration
from aces.memo import Memo, weigh
from aces.rules.seats import Seats

if t.TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from aces.errors import Plural
    from aces.events import Event, GameOver, GameStarted, Stage
    from aces.games import Holding
    from aces.voice import Voice
    from aces.walk import Step

__all__ = ["CACHE_BUDGET", "LARGE_TABLE", "Lines", "Phrasebook", "changed_seats", "few_holders",
           "memos", "told_once"]

Lines = tuple[str, ...]

#: The bytes of sentences (and the events they tell) each cache may hold
#: before it starts afresh; a log of new names in every game must not grow
#: it without end.
CACHE_BUDGET: t.Final = 8 << 20
#: The most players whose standings line names everyone. At a larger table
#: a line names only the players whose holdings changed since the line
#: before, and at the game's milestones (the start of the finish) those who
#: hold anything, saying that no one else does (:func:`few_holders`): a line
#: listing thousands of players after every roll, or at every new start of
#: a last-holder finish, would make the story grow with the table times
#: the rolls.
LARGE_TABLE: t.Final = 12
#: What keeping a state's standings line by the state costs besides the
#: line, roughly: the entry, and the state it keeps alive.
_STATE: t.Final = 512


#: The caches of each kind of phrasebook that speaks with a voice.
Memos: t.TypeAlias = tuple["Memo[t.Hashable, Lines]", "Memo[t.Hashable, str]",
                            "Memo[int, tuple[t.Any, str]]"]
_MEMOS: weakref.WeakKeyDictionary[Voice, dict[type, Memos]] = weakref.WeakKeyDictionary()
#: The voices marked by :func:`told_once`.
_ONCE: weakref.WeakSet[Voice] = weakref.WeakSet()


def memos(voice: Voice, kind: type) -> Memos:
    """The caches of sentences, of standings and of standings by state of the
    phrasebooks of ``kind`` that speak with ``voice``: one set for all of them,
    as a sentence is made from its key alone (and a state's line from the
    state). A replay has a voice of its own; a class's groups share one a
    language, so two hundred tables fill one set, not two hundred (see
    :mod:`aces.classroom.group`). A voice marked by :func:`told_once` keeps
    no standings by state."""
    kept = _MEMOS.setdefault(voice, {})
    found = kept.get(kind)
    if found is None:
        by_state = 0 if voice in _ONCE else CACHE_BUDGET
        found = kept[kind] = (Memo(CACHE_BUDGET), Memo(CACHE_BUDGET), Memo(by_state))
    return found


def told_once(voice: Voice) -> Voice:
    """``voice``, marked as one whose phrasebooks are handed each state once,
    before the first of them is made: they keep no standings line by the
    state's identity, which would never be found again.

    A live class's tables are (:mod:`aces.classroom.group`): every roll
    makes a new state, told once in each language. Kept by state, their
    lines found nothing, and filled the memo for minutes at a busy class's
    rate (8 MB a language by its estimate), the server's memory with it;
    the standings by holding, which the tables do find again, are kept as
    for any voice.
    """
    _ONCE.add(voice)
    return voice


def changed_seats(now: Sequence[int], then: Sequence[int]) -> list[int]:
    """The seats whose holdings differ. Two vectors of a game's state
    (:class:`~aces.rules.seats.Seats`) are compared without reading what
    they share, so the cost is the seats changed, not the table; any
    other two sequences seat by seat, at C speed.

    >>> changed_seats((2, 0, 3), (2, 1, 2))
    [1, 2]
    """
    if now is then:
        return []
    if isinstance(now, Seats) and isinstance(then, Seats):
        return now.changed(then)
    return list(itertools.compress(range(len(now)), map(operator.ne, now, then)))


def few_holders(held: Sequence[int]) -> list[int] | None:
    """The seats that hold anything, when at most :data:`LARGE_TABLE` do
    and they are found without reading a large table seat by seat; else
    ``None``.

    A large table's vector knows how many seats hold anything, and which
    one when only one does: so at the start of a finish, when one player
    holds everything, this costs the same at any table.

    >>> few_holders((0, 3, 0)), few_holders(Seats((0,) * 40 + (2,)))
    ([1], [40])
    >>> few_holders(Seats((1,) * 40)) is None, few_holders((0, 0)) is None
    (True, True)
    """
    if isinstance(held, Seats) and held.flat is None:
        return [held.holder()] if held.holders == 1 else None
    seats = list(itertools.compress(range(len(held)), held))
    return seats if 0 < len(seats) <= LARGE_TABLE else None


class Phrasebook:
    """The sentences of one game, in the language of a :class:`Voice`.

    A game's standings, its session's tally and verdict read alike in
    every game but for their words: a phrasebook names its messages
    (marked for extraction with ``N_`` and ``Plural``, each with its
    translator comment) and the base puts them into words.
    """

    #: The game's name, as in the log header.
    game: t.ClassVar[str]
    #: Events that settle a roll: the standings wait until these are told.
    settling: t.ClassVar[frozenset[type]] = frozenset()
    #: Events that change the standings.
    moving: t.ClassVar[frozenset[type]] = frozenset()
    #: Events before which a large table's standings are whole: they name
    #: everyone who holds anything and say that no one else does.
    milestones: t.ClassVar[frozenset[type]] = frozenset()
    #: Events whose words read a :meth:`context`; every other event is told
    #: from itself alone, and its context is not asked for.
    contextual: t.ClassVar[frozenset[type]] = frozenset()
    #: The stages whose rolls read a context, when rolls are :attr:`contextual`:
    #: a roll of another stage is told from itself alone. Asked at every
    #: roll, so that the commonest (a turn's, in Aces in the Pot) costs no call.
    contextual_stages: t.ClassVar[frozenset[Stage]] = frozenset({"opening", "turn", "try"})

    #: The standings line that names every player: ``{players}``, each with
    #: what they hold, and what is out of their hands under :attr:`out_name`.
    standings_line: t.ClassVar[str]
    #: The standings line of a large table, naming only the players whose
    #: holdings changed; the same placeholders.
    changed_line: t.ClassVar[str]
    #: The standings line of a large table at a milestone (a game with
    #: :attr:`milestones` only): everyone who holds anything, and that no one
    #: else does; the same placeholders.
    holders_line: t.ClassVar[str | None] = None
    #: The placeholder of what is out of the players' hands: ``pot``, ``centre``.
    out_name: t.ClassVar[str]
    #: The heading of what is out of the players' hands, the last column of
    #: a walkthrough's standings table.
    out_heading: t.ClassVar[str]
    #: A session's tally after each game: ``{count}`` (the games played) and
    #: ``{players}`` (each with the score).
    tally_line: t.ClassVar[Plural]
    #: The last word on a session with one player ahead: ``{player}``,
    #: ``{count}`` (the score) and ``{games}``.
    verdict_line: t.ClassVar[str]
    #: The last word on a session whose most is shared: ``{players}`` and
    #: ``{count}``, the score each of them has.
    shared_verdict_line: t.ClassVar[Plural]

    def __init__(self, voice: Voice) -> None:
        self.voice = voice
        # Read at every step: an attribute of the instance, which Python 3.11
        # finds at once, where a class's is looked up anew each time.
        self._contextual = self.contextual
        self._stages = self.contextual_stages
        #: The standings line of a state of a small table, by the state's id
        #: (:meth:`standings`), with the state; like the sentences, shared by
        #: every phrasebook of this kind that speaks with this voice.
        self._said, self._standings, self._by_state = memos(voice, type(self))
        self._holding: t.Callable[[t.Any], Holding] | None = None

    # -- For subclasses --------------------------------------------------------

    def header(self, number: int, event: GameStarted) -> Lines:
        """The lines that open game ``number`` of the log."""
        raise NotImplementedError

    def context(self, step: Step[t.Any]) -> t.Hashable:
        """What the words of ``step``'s event read besides the event itself
        (an option of the game, a count of its state), or ``None`` for
        nothing: with the event, the key of the sentence in the cache.

        Asked for once for each step of a :attr:`contextual` kind (a roll,
        of a :attr:`contextual_stages` stage), in order, so that a
        phrasebook may note here what a later event is told with.
        """
        return None

    def tell(self, event: Event, context: t.Any) -> Lines:
        """An event in words, worked out afresh from the event and its
        :meth:`context` alone (see :meth:`say`)."""
        return self.tell_shared(event)

    def score(self, event: GameOver) -> str | None:
        """The player a finished game scores for in the session's tally."""
        return event.winner

    # -- Shared ----------------------------------------------------------------

    def tell_standings(self, counts: Mapping[str, int], out: int, *, every: bool) -> str:
        """The standings in words, worked out afresh.

        ``counts`` holds the players to name, with what each holds: every
        player (``every``), or at a large table those whose holdings
        changed; ``out`` is what is out of their hands (the pot, the centre).
        """
        return self._standings_in(self.standings_line if every else self.changed_line,
                                  counts, out)

    def tell_holders(self, counts: Mapping[str, int], out: int) -> str:
        """The standings of a large table at a milestone, worked out afresh:
        ``counts`` holds everyone who holds anything (a few, see
        :func:`few_holders`), and no one else does; ``out`` as in
        :meth:`tell_standings`. Only a game with :attr:`milestones` is asked."""
        assert self.holders_line is not None, "a game with milestones has a holders line"
        return self._standings_in(self.holders_line, counts, out)

    def _standings_in(self, line: str, counts: Mapping[str, int], out: int) -> str:
        v = self.voice
        return v.gettext(line).format_map({"players": self.entries("standings", counts),
                                           self.out_name: v.number(out)})

    def out_label(self) -> str:
        """The heading of what is out of the players' hands (the pot, the
        centre), the last column of a walkthrough's standings table."""
        return self.voice.gettext(self.out_heading)

    def tally(self, scores: Mapping[str, int], games: int) -> str:
        """The session's tally after ``games`` games."""
        v = self.voice
        line = self.tally_line
        return v.ngettext(line.singular, line.plural, games).format(
            count=v.count(games), players=self.entries("tally", scores))

    def verdict(self, scores: Mapping[str, int], games: int) -> str:
        """The last word on a session: who scored most."""
        v = self.voice
        best = max(scores.values())
        leaders = [name for name, scored in scores.items() if scored == best]
        if len(leaders) == 1:
            return v.gettext(self.verdict_line).format(
                player=leaders[0], count=v.count(best), games=v.count(games))
        line = self.shared_verdict_line
        return v.ngettext(line.singular, line.plural, best).format(players=v.names(leaders),
                                                                   count=v.count(best))

    def say(self, step: Step[t.Any]) -> Lines:
        """An event in words, from the cache when it has been told before in
        the same context."""
        event = step.event
        context = None
        if type(event) in self._contextual and not (
                type(event) is Rolled and event.stage not in self._stages):
            context = self.context(step)
        key = event if context is None else (event, context)
        lines = self._said.get(key)
        if lines is None:
            lines = self.remember(self._said, key, self.tell(event, context))
        return lines

    def say_afresh(self, step: Step[t.Any]) -> Lines:
        """What :meth:`say` gives, worked out afresh without the cache (the
        tests hold the cache against it)."""
        event = step.event
        reads = type(event) in self.contextual and not (
            type(event) is Rolled and event.stage not in self.contextual_stages)
        return self.tell(event, self.context(step) if reads else None)

    def standings(self, state: t.Any, shown: t.Any, *, full: bool = False) -> str | None:
        """The standings line of ``state``, from the cache when it can.

        ``shown`` is the state of the last standings line of this game (or
        its start). At a large table only the players whose holdings
        changed since then are named, ``None`` when none did; or with
        ``full`` (a milestone), those who hold anything, when they are few.
        """
        known = self._by_state.get(id(state))
        if known is not None:
            return known[1]
        holding = self._holding
        if holding is None:
            # What a player holds is the game's, looked up once a phrasebook.
            holding = self._holding = registration(self.game).holding
        now = holding(state)
        players, held = now.players, now.held
        if len(held) > LARGE_TABLE:
            holders = few_holders(held) if full else None
            if holders is not None:
                return self.tell_holders({players[seat]: held[seat] for seat in holders},
                                         now.out)
            changed = {players[seat]: held[seat]
                       for seat in changed_seats(held, holding(shown).held)}
            if not changed:
                return None
            return self.tell_standings(changed, now.out, every=False)
        line = self._standings.get(now)
        if line is None:
            everyone = dict(zip(players, held, strict=True))
            line = self.remember(self._standings, now,
                                 self.tell_standings(everyone, now.out, every=True))
        # The walk hands on one object for each state it has met, over and
        # over: its line is kept by its identity too, found without making
        # and hashing its holding. The entry holds the state, so that no
        # other object can take its id while it is kept.
        self._by_state.keep(id(state), (state, line), _STATE + len(line))
        return line

    @staticmethod
    def remember(cache: Memo[t.Any, t.Any], key: t.Hashable, value: t.Any) -> t.Any:
        return cache.keep(key, value, weigh(key) + weigh(value))

    def opening_rule(self, dice: int) -> str:
        """How the opening goes, when everyone rolls ``dice`` dice."""
        v = self.voice
        if dice == 1:
            # Translators: the narrator, before the opening rolls.
            return v.gettext("Everyone rolls one die; whoever rolls highest starts.")
        # Translators: the narrator, before the opening rolls of the five-dice
        # game, where each player rolls every die they hold and adds them up.
        return v.gettext("Everyone rolls all their dice; whoever has the highest total"
                         " starts.")

    def opening_roll(self, event: Rolled) -> str:
        """An opening roll: one die's number, or several dice and their total."""
        v = self.voice
        if len(event.dice) == 1:
            # Translators: the narrator; an opening roll of one die.
            # {player}: who rolls; {value}: the number rolled.
            return v.gettext("{player} rolls {value}.").format(
                player=event.player, value=v.number(event.dice[0]))
        # Translators: the narrator; an opening roll of several dice, whose
        # total counts. {player}: who rolls; {dice}: the dice, like "1-2-4-5-5";
        # {total}: their sum.
        return v.gettext("{player} rolls {dice}, {total} in all.").format(
            player=event.player, dice=v.dice(event.dice), total=v.number(sum(event.dice)))

    def tell_shared(self, event: Event, *, total: bool = False) -> Lines:
        """The events every game has: the opening, and a roll taken back.

        ``total`` says that each player rolled several dice, so the values
        are totals (the five-dice game with more than one die each).
        """
        v = self.voice
        if isinstance(event, OpeningTied):
            players, value = v.names(event.players), v.number(event.value)
            if total:
                # Translators: the narrator of a replay. {players}: the
                # players who share the highest total in the opening, as a
                # list ("Ada and Bo"); {value}: that total.
                return (v.gettext("{players} tie with a total of {value} and roll again.")
                        .format(players=players, value=value),)
            # Translators: the narrator of a replay. {players}: the players
            # who share the highest opening roll, as a list ("Ada and Bo");
            # {value}: the number they rolled.
            return (v.gettext("{players} tie with {value} and roll again.").format(
                players=players, value=value),)
        if isinstance(event, OpeningWon):
            if total:
                # Translators: the narrator of a replay. {player}: the player
                # with the highest total in the opening; {value}: that total.
                return (v.gettext("{player} has the highest total, {value}, and starts.")
                        .format(player=event.player, value=v.number(event.value)),)
            # Translators: the narrator of a replay. {player}: the player who
            # rolled highest in the opening; {value}: the number rolled.
            return (v.gettext("{player} rolls highest with {value} and starts.").format(
                player=event.player, value=v.number(event.value)),)
        if isinstance(event, RollUndone):
            # Translators: the narrator; a roll typed in wrong at the table was
            # taken back ("undo"), and the game goes on from before it.
            # {player}: who rolled; {dice}: the dice taken back, like "1-6".
            return (v.gettext("Correction: {player}'s roll of {dice} is taken back, with"
                              " everything it settled, and play goes on from before it.")
                    .format(player=event.player, dice=v.dice(event.dice)),)
        if isinstance(event, GameExcluded):
            # Translators: the narrator; the teacher of a live class took a game
            # of the log out of the class's results. {number}: the game's number.
            return (v.gettext("The teacher takes game {number} out of the class's results;"
                              " it stays in the log.").format(number=v.number(event.game)),)
        return ()

    def entries(self, context: t.Literal["standings", "tally"],
                counts: Mapping[str, int]) -> str:
        """``Ada 2, Bo 1, and Cy 0``: one entry per player, as a list."""
        v = self.voice
        if context == "standings":
            # Translators: one entry of the standings line. {player}: a
            # player's name; {count}: the chips (or dice) that player holds.
            template = v.pgettext("standings", "{player} {count}")
        else:
            # Translators: one entry of a session's tally. {player}: a
            # player's name; {count}: how many games that player has scored
            # (pots won, or in the five-dice game, games lost).
            template = v.pgettext("tally", "{player} {count}")
        # A session's tally is said once (its counts only grow): not kept.
        return v.names([template.format(player=name, count=v.number(count))
                        for name, count in counts.items()], keep=context == "standings")
