-- The journal and the event stream's backlog of each partner, kept in the database (docs/hosting.md): a partner's
-- sandbox made on another instance (a move, a takeover, a restart, a partner put away and made again) reads its
-- last entries and events back, so a checklist run or a dashboard that spans the move sees all its traffic, and a
-- client reconnecting with Last-Event-ID to another instance misses nothing. Entries are stored as the journal shows
-- them: redacted. Each partner keeps its journal's limit of entries and the events a reconnection replays.

-- Up Migration
CREATE TABLE sandbox_journal (
  partner text NOT NULL,
  seq bigint NOT NULL,
  entry text NOT NULL,
  PRIMARY KEY (partner, seq)
);

CREATE TABLE sandbox_events (
  partner text NOT NULL,
  id bigint NOT NULL,
  event text NOT NULL,
  PRIMARY KEY (partner, id)
);

-- Down Migration
DROP TABLE sandbox_events;
DROP TABLE sandbox_journal;
