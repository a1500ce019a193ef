/** ../journal.test.ts with every test sandbox on PostgreSQL. */
import { onPostgres } from './postgres-store.js';

await onPostgres(() => import('../journal.test.js'));
