/**
 * Bodies for the three POS endpoints (§2.1, §2.2, and the status call of §4.3) as text: the right shape with any field
 * wrong, missing or doubled; deep nesting and megabyte strings in a field; and the valid ones the sanity checks send.
 */
import fc from 'fast-check';
import {
  brokenJsonText, extraEntries, fieldText, hugeString, jsonText, nonBlankString, numberText, objectText, type NestShape, nestedText, nestDepth,
} from './nasty-text.js';

export type PosEndpoint = 'refund' | 'status' | 'menu';

/** What a body generator needs to know of the sandbox's data. */
export interface BodyContext {
  locations: readonly string[];
  /** Item Ids on each location's menu. */
  menuItems: Readonly<Record<string, readonly string[]>>;
  /** ExternalIds of known orders. */
  externalIds: readonly string[];
}

export interface BuiltBody {
  text: string;
  kind: string;
  recipe?: string;
}

const quoted = (values: readonly string[]) => fc.constantFrom(...values.map((value) => JSON.stringify(value)));

/** Prices as a POS might get them wrong: strings, decimals, 1e309, -0, 0.1+0.2. */
const priceText = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 0, max: 100_000 }).map(String) },
  { weight: 3, arbitrary: fc.oneof(numberText, fc.constantFrom('"1150"', '"11.50"', '"11,50"', '"€11.50"', '11.5', '0.30000000000000004', '1e309', '-0', '-1', 'null')) },
);

function refundFields(ctx: BodyContext): fc.Arbitrary<string> {
  return fc
    .record({ externalId: fieldText(fc.oneof(quoted(ctx.externalIds), nonBlankString.map((s) => JSON.stringify(s)))), extra: extraEntries, twice: fc.boolean() })
    .map(({ externalId, extra, twice }) => objectText([['ExternalId', externalId], ...extra, ...(twice ? ([['ExternalId', '""']] as Array<[string, string]>) : [])]));
}

function statusFields(ctx: BodyContext): fc.Arbitrary<string> {
  return fc
    .record({
      externalId: fieldText(quoted(ctx.externalIds)),
      status: fieldText(quoted(['ACCEPTED', 'REJECTED', 'accepted', 'PENDING', 'AWAITING_STATUS', ''])),
      reason: fc.option(fieldText(nonBlankString.map((s) => JSON.stringify(s))), { nil: undefined }),
      extra: extraEntries,
    })
    .map(({ externalId, status, reason, extra }) => objectText([['ExternalId', externalId], ['Status', status], ['Reason', reason], ...extra]));
}

/** A menu update of form A or B whose every field may be wrong: the location, each item, each price. */
function menuFields(ctx: BodyContext): fc.Arbitrary<string> {
  const itemIds = [...new Set(Object.values(ctx.menuItems).flat())];
  const price = (form: 'A' | 'B') =>
    fc
      .record({ service: fieldText(quoted(form === 'A' ? ['Takeout', 'Pickup', 'Delivery', ''] : ['Pickup', 'Takeout', ''])), price: fieldText(priceText), extra: extraEntries })
      .map(({ service, price, extra }) => objectText([[form === 'A' ? 'ServiceType' : 'Service', service], ['Price', price], ...extra]));
  const item = (form: 'A' | 'B') =>
    fc
      .record({
        id: fieldText(quoted([...itemIds, 'var-margherita-30', 'mod-chili-oil', 'itm-unknown'])),
        name: fieldText(nonBlankString.map((s) => JSON.stringify(s))),
        type: fieldText(quoted(['Item', 'Variation', 'Modifier', ''])),
        prices: fieldText(fc.array(price(form), { maxLength: 3 }).map((entries) => `[${entries.join(',')}]`)),
        extra: extraEntries,
      })
      .map(({ id, name, type, prices, extra }) => objectText([['Id', id], ['Name', name], ['Type', type], ['Prices', prices], ...extra]));
  const form = (form: 'A' | 'B') =>
    fc
      .record({
        location: form === 'A' ? fieldText(quoted(ctx.locations)) : fc.constant(undefined),
        items: fieldText(fc.array(fc.oneof({ weight: 4, arbitrary: item(form) }, { weight: 1, arbitrary: jsonText }), { maxLength: 4 }).map((entries) => `[${entries.join(',')}]`)),
        extra: extraEntries,
      })
      .map(({ location, items, extra }) => objectText([['LocationId', location], ['Items', items], ...extra]));
  return fc.oneof(form('A'), form('B'));
}

/** Any body for `endpoint`: the right shape with fields wrong, any JSON, or not JSON. */
export function fieldBodies(endpoint: PosEndpoint, ctx: BodyContext): fc.Arbitrary<BuiltBody> {
  const shaped = endpoint === 'refund' ? refundFields(ctx) : endpoint === 'status' ? statusFields(ctx) : menuFields(ctx);
  return fc.oneof(
    { weight: 6, arbitrary: shaped.map((text) => ({ text, kind: 'body: fields' })) },
    { weight: 2, arbitrary: jsonText.map((text) => ({ text, kind: 'body: any json' })) },
    { weight: 1, arbitrary: brokenJsonText.map((text) => ({ text, kind: 'body: not json' })) },
  );
}

/** Nesting up to 20,000 deep: the whole body, or inside a field the endpoint reads, or beside valid fields. */
export function deepBodies(endpoint: PosEndpoint, ctx: BodyContext): fc.Arbitrary<BuiltBody> {
  const valid = validBodyText(endpoint, ctx);
  const field = endpoint === 'menu' ? 'Items' : 'ExternalId';
  return fc
    .record({ depth: nestDepth, shape: fc.constantFrom<NestShape>('array', 'object', 'mixed', 'unclosed'), where: fc.constantFrom('whole', 'field', 'beside') })
    .map(({ depth, shape, where }) => {
      const inner = nestedText(depth, shape);
      if (where === 'whole') return { text: inner.text, kind: `deep ${shape}: whole body`, recipe: inner.recipe };
      if (where === 'field') return { text: `{"${field}":${inner.text}}`, kind: `deep ${shape}: in ${field}`, recipe: `{"${field}": ${inner.recipe}}` };
      return { text: `${valid.slice(0, -1)},"x":${inner.text}}`, kind: `deep ${shape}: beside valid fields`, recipe: `${valid.slice(0, -1)},"x": ${inner.recipe}}` };
    });
}

/** Strings near and over the 1 MiB body limit, in a field or as the body; wide arrays and objects with many keys. */
export function hugeBodies(endpoint: PosEndpoint, ctx: BodyContext): fc.Arbitrary<BuiltBody> {
  const field = { refund: 'ExternalId', status: 'Reason', menu: 'LocationId' }[endpoint];
  const valid = validBodyText(endpoint, ctx);
  return fc.oneof(
    hugeString.map(({ text, recipe }) => ({ text: `${valid.slice(0, -1)},"${field}":${JSON.stringify(text)}}`, kind: `huge string in ${field}`, recipe: `{…, "${field}": ${recipe}}` })),
    hugeString.map(({ text, recipe }) => ({ text: JSON.stringify(text), kind: 'huge string as body', recipe })),
    fc.integer({ min: 1000, max: 400_000 }).map((n) => ({ text: `[${'1,'.repeat(n)}1]`, kind: 'wide array', recipe: `[ '1,' × ${n} 1 ]` })),
    fc.integer({ min: 1000, max: 60_000 }).map((n) => ({
      text: `{${Array.from({ length: n }, (_, i) => `"k${i}":${i}`).join(',')}}`,
      kind: 'many keys',
      recipe: `{"k0":0, … "k${n - 1}":${n - 1}}`,
    })),
  );
}

/** The body of a request that succeeds (or, for a status call about no order, is refused only for that). */
export function validBodyText(endpoint: PosEndpoint, ctx: BodyContext, location = ctx.locations[0]!): string {
  if (endpoint === 'refund') return JSON.stringify({ ExternalId: ctx.externalIds[0] });
  if (endpoint === 'status') return JSON.stringify({ ExternalId: ctx.externalIds[0], Status: 'ACCEPTED' });
  const [item] = ctx.menuItems[location] ?? [];
  return JSON.stringify({ LocationId: location, Items: [{ Id: item, Name: 'Fuzz', Type: 'Item', Prices: [{ ServiceType: 'Takeout', Price: 100 }] }] });
}

/** A menu update §4.2 accepts: known items of the location, names not blank, whole prices from 0, form A or B. */
export function validMenuBody(ctx: BodyContext, location: string): fc.Arbitrary<string> {
  const items = ctx.menuItems[location] ?? [];
  return fc
    .record({
      form: fc.constantFrom('A', 'B'),
      chosen: fc.subarray([...items], { minLength: 1 }),
      names: fc.array(nonBlankString, { minLength: items.length, maxLength: items.length }),
      prices: fc.array(fc.oneof(fc.integer({ min: 0, max: 1_000_000_000 }), fc.constant(-0)), { minLength: items.length, maxLength: items.length }),
    })
    .map(({ form, chosen, names, prices }) => {
      const list = chosen.map((id, i) => ({
        Id: id,
        Name: names[i]!,
        Type: 'Item',
        Prices: [form === 'A' ? { ServiceType: 'Takeout', Price: prices[i]! } : { Service: 'Pickup', Price: prices[i]! }],
      }));
      return JSON.stringify(form === 'A' ? { LocationId: location, Items: list } : { Items: list });
    });
}
