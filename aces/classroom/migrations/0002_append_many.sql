-- The school's class store, version 2: group commit. A process sends the
-- appends that arrive while its last call is in flight in one call, one
-- transaction, one round trip (aces.classroom.postgres): one commit, one
-- wake of the listeners, where each append cost one of each.

-- The appends given, in one transaction: each is aces.append() of its own
-- arguments (item i of every array; its lines are the next _counts[i] of
-- _lines), and its outcome is aces.append()'s, so a stale, reused or
-- missing append does not hold the others back. They are taken in the order
-- of their classes, so the classes' locks are always taken in one order and
-- two processes' batches never wait for each other in a circle; within a
-- class, in the order given. item: the append's index in the arrays (from 1).
CREATE FUNCTION aces.append_many(_classes bigint[], _streams integer[], _expected bigint[],
                                 _previous text[], _counts integer[], _lines bytea[],
                                 _digests text[], _ids text[], _payloads text[])
RETURNS TABLE (item integer, outcome text, block bigint, first_seq bigint, last_seq bigint,
               head_seq bigint, head_digest text)
LANGUAGE plpgsql AS $$
DECLARE
    _starts integer[] := '{}';
    _at integer := 0;
    _i integer;
    _done record;
BEGIN
    FOR _i IN 1 .. coalesce(cardinality(_classes), 0) LOOP
        _starts := _starts || _at;
        _at := _at + _counts[_i];
    END LOOP;
    FOR _i IN SELECT i FROM generate_subscripts(_classes, 1) i ORDER BY _classes[i], i LOOP
        SELECT * INTO _done FROM aces.append(
            _classes[_i], _streams[_i], _expected[_i], _previous[_i],
            _lines[_starts[_i] + 1 : _starts[_i] + _counts[_i]], _digests[_i], _ids[_i],
            _payloads[_i]) a;
        item := _i;
        outcome := _done.outcome;
        block := _done.block;
        first_seq := _done.first_seq;
        last_seq := _done.last_seq;
        head_seq := _done.head_seq;
        head_digest := _done.head_digest;
        RETURN NEXT;
    END LOOP;
END;
$$;
