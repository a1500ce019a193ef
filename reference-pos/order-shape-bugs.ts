/** Pure: bugs only some orders trigger, for `pos-sandbox stress` to hunt; the checklist's orders never do. */
export const ORDER_SHAPE_BUGS = {
  'non-latin-name': 'an order whose item, variation or modifier name holds a letter of another script than Latin is answered 500',
  'many-modifiers': `an order with an item of more than ${8} modifiers is answered 500`,
  'zero-total': 'an order whose Total is 0 (a free item, a promotion taking all) is answered 500',
  'slow-big-order': 'an order of more than 8 items is answered after --big-order-ms (default 4000 ms): a kiosk guest waits too long',
} as const;

export type OrderShapeBug = keyof typeof ORDER_SHAPE_BUGS;

/** How many modifiers on one item, and how many items, the bugs take before they break. */
export const SHAPE_LIMITS = { modifiers: 8, items: 8 } as const;

interface Named {
  Name?: unknown;
}
interface OrderShape {
  Total?: unknown;
  Items?: Array<Named & { Variations?: Named[]; Modifiers?: Named[] }>;
}

const NOT_LATIN = /[^\p{Script=Latin}\P{L}]/u;

/** What the bugs make of `order`: a 500 with its reason, a delay, or nothing. */
export function orderShapeFault(order: OrderShape, bugs: ReadonlySet<string>, bigOrderMs: number): { status: 500; reason: string } | { delayMs: number } | undefined {
  const items = Array.isArray(order.Items) ? order.Items : [];
  const names = items.flatMap((item) => [item.Name, ...(item.Variations ?? []).map((one) => one.Name), ...(item.Modifiers ?? []).map((one) => one.Name)]);
  if (bugs.has('non-latin-name') && names.some((name) => typeof name === 'string' && NOT_LATIN.test(name))) return { status: 500, reason: 'cannot encode an item name in the kitchen printer charset' };
  if (bugs.has('many-modifiers') && items.some((item) => (item.Modifiers ?? []).length > SHAPE_LIMITS.modifiers)) return { status: 500, reason: 'modifier table overflow' };
  if (bugs.has('zero-total') && order.Total === 0) return { status: 500, reason: 'division by zero in the service charge' };
  if (bugs.has('slow-big-order') && items.length > SHAPE_LIMITS.items) return { delayMs: bigOrderMs };
  return undefined;
}
