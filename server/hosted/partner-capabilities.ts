/**
 * Pure: the capabilities a partners file declares, in the checklist's words (refund, hub, kiosk, menu-form-b: what
 * `checklist --capabilities` takes), so one partner is described one way everywhere. Files written before read as
 * well: `refunds` is `refund`; `orders`, `order-status` and `menu-form-a` are what every POS does (the required
 * items), so they declare nothing and are left out.
 */
import { CAPABILITIES, type Capability } from '../../certification-checklist/checklist-types.js';

/** The names of an earlier version of the partners file, and what each is now (undefined: every POS does it). */
export const EARLIER_CAPABILITIES: Readonly<Record<string, Capability | undefined>> = {
  refunds: 'refund',
  orders: undefined,
  'order-status': undefined,
  'menu-form-a': undefined,
};

/** What the file's `capabilities` may hold. */
export const PARTNER_CAPABILITIES = [...CAPABILITIES, ...Object.keys(EARLIER_CAPABILITIES)] as const;

/** The declared list in the checklist's words, each once, in the checklist's order. */
export function checklistCapabilities(declared: readonly string[]): Capability[] {
  const named = new Set(declared.map((name) => (name in EARLIER_CAPABILITIES ? EARLIER_CAPABILITIES[name] : (name as Capability))));
  return CAPABILITIES.filter((capability) => named.has(capability));
}
