/** ../control.test.ts with every test sandbox on PostgreSQL. */
import { onPostgres } from './postgres-store.js';

await onPostgres(() => import('../control.test.js'));
