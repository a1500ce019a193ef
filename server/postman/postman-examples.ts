/** Pure: the fixture data the collection's examples are made of, so that each example is answered as it says. */
import type { Fixtures } from '../fixtures/load-fixtures.js';
import type { Location } from '../fixtures/fixture-schemas.js';

export interface MenuExample {
  Id: string;
  Name: string;
  /** The item's Takeout price now; the examples send it plus a little, a change the sandbox applies. */
  Price: number;
}

/**
 * An ACCEPTED order of the fixtures: a status call for it is answered 409 INVALID_STATE, and so is a resend,
 * whether the sandbox can deliver orders or not (a REJECTED one could be resent only then).
 */
export interface DecidedOrder {
  OrderId: string;
  ExternalId: string;
  LocationId: string;
  Status: 'ACCEPTED';
}

export interface PostmanExamples {
  location: Location;
  /** The order template of the location's kind, for POST /_sandbox/orders. */
  template: string;
  /** Form A updates the first, form B the second (or the first again when the menu has one). */
  menuItems: [MenuExample, MenuExample];
  decidedOrder: DecidedOrder;
}

/** The examples for `locationId` (default: the first standard location), or why the fixtures cannot give them. */
export function pickExamples(fixtures: Fixtures, locationId: string | undefined): { ok: true; examples: PostmanExamples } | { ok: false; problem: string } {
  const location = locationId === undefined ? fixtures.locations.find((l) => l.kind === 'standard') : fixtures.locations.find((l) => l.id === locationId);
  const known = fixtures.locations.map((l) => l.id).join(', ');
  if (!location) {
    return { ok: false, problem: locationId === undefined ? `the fixtures have no standard location; choose one with --location (${known})` : `--location '${locationId}' is not a fixture location (${known})` };
  }
  // Takeout: the one service type §2.2 lists for form A; another would draw UNDOCUMENTED_VALUE.
  const items = (fixtures.menus[location.id]?.Items ?? []).flatMap((item) => {
    const takeout = item.Prices.find((price) => price.ServiceType === 'Takeout');
    return takeout ? [{ Id: item.Id, Name: item.Name, Price: takeout.Price }] : [];
  });
  if (items.length === 0) return { ok: false, problem: `the menu of location '${location.id}' has no item with a Takeout price to update` };
  const template = Object.values(fixtures.templates).find((t) => t.LocationKind === location.kind)?.Template;
  if (!template) return { ok: false, problem: `the fixtures have no order template for ${location.kind} locations like '${location.id}'` };
  const decided = fixtures.orders
    .filter((order) => order.ExternalId !== undefined && order.Status === 'ACCEPTED')
    .sort((a, b) => Number(b.LocationId === location.id) - Number(a.LocationId === location.id))[0];
  if (!decided) return { ok: false, problem: 'the fixtures have no ACCEPTED order with an ExternalId for the status call to name' };
  return {
    ok: true,
    examples: {
      location,
      template,
      menuItems: [items[0]!, items[1] ?? items[0]!],
      decidedOrder: { OrderId: decided.OrderId, ExternalId: decided.ExternalId!, LocationId: decided.LocationId, Status: 'ACCEPTED' },
    },
  };
}
