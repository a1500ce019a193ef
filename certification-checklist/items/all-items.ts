/** The whole checklist, in the order it runs and is reported; its version goes into every report. */
import type { ChecklistItem } from '../checklist-types.js';
import { AUTH_ITEMS } from './auth-items.js';
import { MENU_ITEMS } from './menu-items.js';
import { MIGRATION_ITEMS } from './migration-items.js';
import { ORDER_ITEMS } from './order-items.js';
import { REFUND_ITEMS } from './refund-items.js';

/** Raise it whenever an item is added, removed, or judges differently: a report names the checklist it was judged by. */
export const CHECKLIST_VERSION = '2.3.0';

export const CHECKLIST: readonly ChecklistItem[] = [...AUTH_ITEMS, ...ORDER_ITEMS, ...MENU_ITEMS, ...REFUND_ITEMS, ...MIGRATION_ITEMS];
