-- The school's class store, version 1: teachers, classes, every group's log
-- line by line, the class-wide feed, and the submissions that make retries
-- idempotent. Applied by aces at start (aces.classroom.database); never edit
-- a migration that has been released: add the next one.

CREATE TABLE aces.teachers (
    id bigserial PRIMARY KEY,
    -- SHA-256 of the teacher's key, in hexadecimal: the key itself is never kept.
    key text NOT NULL UNIQUE,
    -- What the operator called the teacher (a name, initials, a room).
    label text NOT NULL,
    created timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX teachers_label ON aces.teachers (lower(label));

CREATE TABLE aces.classes (
    id bigserial PRIMARY KEY,
    teacher bigint REFERENCES aces.teachers ON DELETE SET NULL,
    -- The class's record (aces.classroom.store.ClassRecord) as JSON: its code,
    -- the teacher's secret, its rules, its groups with their tokens' digests;
    -- none yet for a class made but not begun.
    record jsonb,
    -- How many times the record was kept: other processes follow it.
    revision bigint NOT NULL DEFAULT 1,
    created timestamptz NOT NULL DEFAULT now(),
    -- When the class was closed; it is deleted once the retention has passed.
    closed timestamptz
);
-- A code admits to one open class only; a closed class's code may come again.
CREATE UNIQUE INDEX classes_open_code ON aces.classes ((record->>'code')) WHERE closed IS NULL;
CREATE UNIQUE INDEX classes_secret ON aces.classes ((record->>'secret'));
-- A group's token (its digest) names its class.
CREATE INDEX classes_groups ON aces.classes USING gin ((record->'groups') jsonb_path_ops);
CREATE INDEX classes_teacher ON aces.classes (teacher);

-- The feed's last position of each class: its row is locked by every append,
-- so a class's appends commit in the order of their positions, none skipped.
CREATE TABLE aces.feeds (
    class bigint PRIMARY KEY REFERENCES aces.classes ON DELETE CASCADE,
    position bigint NOT NULL DEFAULT 0,
    -- The last append: a class left idle is closed.
    active timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE aces.streams (
    class bigint NOT NULL REFERENCES aces.classes ON DELETE CASCADE,
    stream integer NOT NULL,
    -- The name of the group's log: group-001.jsonl.
    log text NOT NULL,
    -- The seq and digest of the last line.
    seq bigint NOT NULL DEFAULT 0,
    digest text NOT NULL DEFAULT '',
    PRIMARY KEY (class, stream)
);

-- Every line of every log, byte for byte as aces record writes it.
CREATE TABLE aces.lines (
    class bigint NOT NULL,
    stream integer NOT NULL,
    seq bigint NOT NULL,
    line bytea NOT NULL,
    PRIMARY KEY (class, stream, seq),
    FOREIGN KEY (class, stream) REFERENCES aces.streams ON DELETE CASCADE
);

-- The class-wide feed: a block a position, gapless within a class.
CREATE TABLE aces.blocks (
    class bigint NOT NULL REFERENCES aces.classes ON DELETE CASCADE,
    position bigint NOT NULL,
    stream integer NOT NULL,
    first bigint NOT NULL,
    last bigint NOT NULL,
    PRIMARY KEY (class, position)
);

-- Submissions appended: digests of their id and payload, and their block.
CREATE TABLE aces.submissions (
    class bigint NOT NULL,
    stream integer NOT NULL,
    id text NOT NULL,
    payload text NOT NULL,
    position bigint NOT NULL,
    PRIMARY KEY (class, stream, id),
    FOREIGN KEY (class, position) REFERENCES aces.blocks ON DELETE CASCADE
);

-- One append, in one call and one transaction: the class's feed locked, the
-- submission looked up, the stream's last line checked, the lines, the block
-- and the submission written, and the other processes rung (on commit).
-- outcome: 'appended' (at block, lines first_seq to last_seq), 'again' (the
-- submission was appended before: its block), 'reused' (its id with another
-- payload), 'stale' (the stream's last line is head_seq, head_digest: not
-- _expected and _previous), 'missing' (no such class or stream).
CREATE FUNCTION aces.append(_class bigint, _stream integer, _expected bigint, _previous text,
                            _lines bytea[], _digest text, _id text, _payload text,
                            OUT outcome text, OUT block bigint, OUT first_seq bigint,
                            OUT last_seq bigint, OUT head_seq bigint, OUT head_digest text)
LANGUAGE plpgsql AS $$
DECLARE
    _known text;
    _count integer := coalesce(cardinality(_lines), 0);
BEGIN
    PERFORM 1 FROM aces.feeds f WHERE f.class = _class FOR UPDATE;
    IF NOT FOUND THEN
        outcome := 'missing';
        RETURN;
    END IF;
    IF _id IS NOT NULL THEN
        SELECT s.payload, b.position, b.first, b.last INTO _known, block, first_seq, last_seq
            FROM aces.submissions s JOIN aces.blocks b
                ON b.class = s.class AND b.position = s.position
            WHERE s.class = _class AND s.stream = _stream AND s.id = _id;
        IF FOUND THEN
            outcome := CASE WHEN _known = _payload THEN 'again' ELSE 'reused' END;
            RETURN;
        END IF;
    END IF;
    SELECT s.seq, s.digest INTO head_seq, head_digest
        FROM aces.streams s WHERE s.class = _class AND s.stream = _stream;
    IF NOT FOUND THEN
        outcome := 'missing';
        RETURN;
    END IF;
    IF head_seq <> _expected OR _previous IS NULL OR head_digest <> _previous OR _count = 0 THEN
        outcome := 'stale';
        RETURN;
    END IF;
    INSERT INTO aces.lines (class, stream, seq, line)
        SELECT _class, _stream, _expected + i, _lines[i] FROM generate_subscripts(_lines, 1) i;
    first_seq := _expected + 1;
    last_seq := _expected + _count;
    UPDATE aces.streams s SET seq = last_seq, digest = _digest
        WHERE s.class = _class AND s.stream = _stream;
    UPDATE aces.feeds f SET position = f.position + 1, active = now() WHERE f.class = _class
        RETURNING f.position INTO block;
    INSERT INTO aces.blocks (class, position, stream, first, last)
        VALUES (_class, block, _stream, first_seq, last_seq);
    IF _id IS NOT NULL THEN
        INSERT INTO aces.submissions (class, stream, id, payload, position)
            VALUES (_class, _stream, _id, _payload, block);
    END IF;
    PERFORM pg_notify('aces', _class || ' ' || block);
    head_seq := last_seq;
    head_digest := _digest;
    outcome := 'appended';
END;
$$;
