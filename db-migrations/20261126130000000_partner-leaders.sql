-- Several instances on one database (docs/hosting.md): each partner is led by one instance at a time, which holds an
-- advisory lock on it and is recorded here with the address the others forward its requests to. The epoch grows at
-- every change of leader; the leader's writes carry it, so an instance that lost the lead can no longer write.
-- The forward key, made once, is what an instance shows when it sends a request on: the leader then takes the
-- address the request came from as the client's (a loopback client of another instance keeps its loopback rights).

-- Up Migration
CREATE TABLE sandbox_leaders (
  partner text PRIMARY KEY,
  instance_id text NOT NULL,
  url text,
  epoch bigint NOT NULL,
  since timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE sandbox_cluster (
  one boolean PRIMARY KEY DEFAULT true CHECK (one),
  forward_key text NOT NULL
);
INSERT INTO sandbox_cluster (forward_key) VALUES (encode(sha256((random()::text || clock_timestamp()::text || random()::text)::bytea), 'hex'));

-- Down Migration
DROP TABLE sandbox_cluster;
DROP TABLE sandbox_leaders;
