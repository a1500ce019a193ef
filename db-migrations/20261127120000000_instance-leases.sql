-- Partners spread over the live instances (docs/hosting.md): each instance renews a lease here every second, on its
-- lock connection; the instances whose lease has not run out are the live ones, and each partner is led by the one
-- rendezvous hashing names among them (server/cluster/rendezvous.ts). A lease that runs out (the instance died, or
-- lost its database) gives its partners to the others; a graceful stop deletes its row at once.

-- Up Migration
CREATE TABLE sandbox_instances (
  instance_id text PRIMARY KEY,
  lease_until timestamptz NOT NULL,
  joined timestamptz NOT NULL DEFAULT now()
);

-- Down Migration
DROP TABLE sandbox_instances;
