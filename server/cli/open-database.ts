/**
 * serve --store: the database opened (migrations applied) and the partners served locked to this instance
 * (instance-lock.ts). The driver is loaded only here, when a database is asked for.
 */
import type { Logger } from '../logger.js';
import type { OpenedPostgres } from '../store/open-postgres.js';

export async function openDatabase(url: string, partners: string[], instanceId: string, logger: Logger): Promise<OpenedPostgres> {
  const { openPostgres } = await import('../store/open-postgres.js');
  const { lockPartners } = await import('../store/instance-lock.js');
  const opened = await openPostgres(url, { log: (message) => logger.warn(message) });
  let lock;
  try {
    lock = await lockPartners(url, opened.where, partners, instanceId);
  } catch (error) {
    await opened.close();
    throw error;
  }
  return {
    ...opened,
    close: async () => {
      await lock.release().catch(() => undefined);
      await opened.close();
    },
  };
}
