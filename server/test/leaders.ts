/**
 * Who leads which partner on a database several instances serve, as the tests read it: the instance id of a process
 * (its host's name and its pid, as `serve` makes it), the leaders table, and a wait until it says what is expected.
 */
import type { ChildProcess } from 'node:child_process';
import { hostname } from 'node:os';
import pg from 'pg';

export const instanceIdOf = (child: ChildProcess): string => `${hostname()}-${child.pid}`;

/** partner → the instance the leaders table names. */
export async function leadersOf(databaseUrl: string): Promise<Map<string, string>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ partner: string; instance_id: string }>('SELECT partner, instance_id FROM sandbox_leaders');
    return new Map(rows.map((row) => [row.partner, row.instance_id]));
  } finally {
    await client.end();
  }
}

/** Waits until every partner of `expected` is led by the instance it names; the leaders table then, or a timeout error naming what differs. */
export async function waitForLeaders(databaseUrl: string, expected: ReadonlyMap<string, string>, timeoutMs: number): Promise<Map<string, string>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const leaders = await leadersOf(databaseUrl);
    const wrong = [...expected].filter(([partner, instance]) => leaders.get(partner) !== instance);
    if (wrong.length === 0) return leaders;
    if (Date.now() > deadline) throw new Error(`after ${timeoutMs} ms, ${wrong.length} partners are not led as expected, e.g. ${wrong.slice(0, 3).map(([partner, instance]) => `${partner}: ${leaders.get(partner) ?? 'nobody'}, not ${instance}`).join('; ')}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
