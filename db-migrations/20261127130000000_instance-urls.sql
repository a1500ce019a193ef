-- Idle partners cost nothing (docs/hosting.md): a partner's sandbox is made on its first request and put away when
-- idle. A partner put away has no leader: its row in sandbox_leaders keeps its epoch (which fences every write of a
-- leader before it) with an empty instance_id. Its first request goes to the instance rendezvous hashing names, at
-- the address that instance gives here.

-- Up Migration
ALTER TABLE sandbox_instances ADD COLUMN url text;

-- Down Migration
ALTER TABLE sandbox_instances DROP COLUMN url;
