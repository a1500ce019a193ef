/** Pure: a fixture template + a location → the order the sandbox sends to the POS, totals worked out, money in minor units. */
import type { Location, OrderTemplate } from '../fixtures/fixture-schemas.js';
import type { OrderItem, SandboxOrder, Tax } from './sandbox-order-types.js';

export type TemplateName = OrderTemplate['Template'];
type TemplateLine = OrderTemplate['Items'][number];

export interface OrderOptions {
  /** Kiosk only: false makes a takeout kiosk order. Default: the template's. */
  eatIn?: boolean;
  /** Kiosk only. Default: the template's. */
  pagerNumber?: string;
}

export interface BuildOrderInput {
  template: OrderTemplate;
  location: Location;
  orderId: string;
  requestId: string;
  createdAt: string;
  options?: OrderOptions;
}

/** One line's amount: each unit carries its variations and its modifiers. */
export function lineAmount(line: Pick<OrderItem, 'Quantity' | 'UnitPrice' | 'Variations' | 'Modifiers'>): number {
  const variations = line.Variations.reduce((sum, variation) => sum + variation.Price, 0);
  const modifiers = line.Modifiers.reduce((sum, modifier) => sum + modifier.Quantity * modifier.Price, 0);
  return line.Quantity * (line.UnitPrice + variations + modifiers);
}

/** Items + fees − promotions + taxes not already in the prices; the included taxes are worked out of that total. */
export function orderTotals(
  items: OrderItem[],
  template: Pick<OrderTemplate, 'Fees' | 'Promotions' | 'Taxes'>,
): { total: number; taxes: Tax[] } {
  const gross =
    items.reduce((sum, item) => sum + lineAmount(item), 0) +
    template.Fees.reduce((sum, fee) => sum + fee.Amount, 0) -
    template.Promotions.reduce((sum, promotion) => sum + promotion.Amount, 0);
  const base = Math.max(0, gross);
  const taxes = template.Taxes.map((tax) => {
    const rate = tax.Rate ?? 0;
    const amount = tax.Included ? Math.round((base * rate) / (100 + rate)) : Math.round((base * rate) / 100);
    return { Name: tax.Name, Rate: rate, Amount: amount, Included: tax.Included };
  });
  const added = taxes.filter((tax) => !tax.Included).reduce((sum, tax) => sum + tax.Amount, 0);
  return { total: base + added, taxes };
}

/** The template's lines for this location: a Hub brand gets its own items (BrandItems), everyone else the template's Items. */
export function templateLines(template: OrderTemplate, locationId: string): TemplateLine[] {
  const brandItems = template.BrandItems;
  return (brandItems && Object.hasOwn(brandItems, locationId) ? brandItems[locationId] : undefined) ?? template.Items;
}

export function buildOrder({ template, location, orderId, requestId, createdAt, options = {} }: BuildOrderInput): SandboxOrder {
  const items = templateLines(template, location.id).map(
    (line): OrderItem => ({
      Id: line.Id,
      Name: line.Name,
      Quantity: line.Quantity,
      UnitPrice: line.UnitPrice,
      Variations: (line.Variations ?? []).map((variation) => ({ ...variation })),
      Modifiers: (line.Modifiers ?? []).map((modifier) => ({ ...modifier })),
    }),
  );
  const { total, taxes } = orderTotals(items, template);
  const kiosk = template.Kiosk
    ? { ...template.Kiosk, EatIn: options.eatIn ?? template.Kiosk.EatIn, PagerNumber: options.pagerNumber ?? template.Kiosk.PagerNumber }
    : undefined;
  return {
    OrderId: orderId,
    RequestId: requestId,
    LocationId: location.id,
    Channel: template.Channel as SandboxOrder['Channel'],
    // A kiosk order taken away is Takeout whatever the template says.
    ServiceType: kiosk ? (kiosk.EatIn ? 'EatIn' : 'Takeout') : template.ServiceType,
    CreatedAt: createdAt,
    Currency: location.currency ?? template.Currency,
    ...(template.Customer ? { Customer: { ...template.Customer } } : {}),
    Items: items as SandboxOrder['Items'],
    Fees: template.Fees.map((fee) => ({ Type: fee.Type, Name: fee.Name ?? fee.Type, Amount: fee.Amount })),
    Promotions: template.Promotions.map((promotion) => ({ Id: promotion.Id, Name: promotion.Name ?? promotion.Id, Amount: promotion.Amount })),
    Taxes: taxes,
    Payment: { Prepaid: template.Payment.Prepaid, Method: template.Payment.Method ?? (template.Payment.Prepaid ? 'Online' : 'Cash'), Amount: total },
    Total: total,
    ...(location.hub ? { Hub: { HubId: location.hub.id, HubName: location.hub.name, Brand: location.hub.brand } } : {}),
    ...(kiosk ? { Kiosk: kiosk } : {}),
  };
}
