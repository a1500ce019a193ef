-- The sandbox's state in PostgreSQL (docs/hosting.md): the same documents and record logs the embedded store keeps
-- as files, one row a document and one row an append, each belonging to one partner. Bodies are JSON text as the
-- embedded store writes it, read back by the same decoders and checked by the same schemas at start.

-- Up Migration
CREATE TABLE sandbox_documents (
  partner text NOT NULL,
  name text NOT NULL,
  body text NOT NULL,
  PRIMARY KEY (partner, name)
);

CREATE TABLE sandbox_log_appends (
  partner text NOT NULL,
  name text NOT NULL,
  seq bigserial NOT NULL,
  body text NOT NULL,
  PRIMARY KEY (partner, name, seq)
);

-- Down Migration
DROP TABLE sandbox_log_appends;
DROP TABLE sandbox_documents;
