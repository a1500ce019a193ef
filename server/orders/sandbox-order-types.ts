/* Generated from order-model/ by `npm run generate:types`; do not edit by hand. */

export type Id = string;
export type Money = number;

/**
 * The body of POST <posOrderUrl>: an order the sandbox sends to the POS. The sandbox's own model: §2.5 names its parts (nested variations and modifiers; fees, promotions and taxes kept separate; LocationId; RequestId) but does not publish its fields. Money is in whole minor units of Currency.
 */
export interface SandboxOrder {
  /**
   * The service's id of the order; the same on every retry and every resend. The POS answers one OrderId with one ExternalId.
   */
  OrderId: string;
  /**
   * Traceability id of this delivery (§2.5); the same value as the x-request-id header. A resend gets a new one.
   */
  RequestId: string;
  /**
   * The merchant location the order is for; for a Hub, the brand's location. Every later call for this order uses it.
   */
  LocationId: string;
  /**
   * Where the guest ordered.
   */
  Channel: 'marketplace' | 'kiosk' | 'web' | 'phone';
  ServiceType: 'Delivery' | 'Takeout' | 'EatIn';
  CreatedAt: string;
  Currency: string;
  Customer?: {
    Name?: string;
    Phone?: string;
  };
  /**
   * @minItems 1
   */
  Items: [OrderItem, ...OrderItem[]];
  Fees: Fee[];
  Promotions: Promotion[];
  Taxes: Tax[];
  Payment: Payment;
  /**
   * Items (each line: Quantity × (UnitPrice + variations + modifiers)) + fees − promotions. Taxes marked Included are already in it.
   */
  Total: number;
  /**
   * Present when the location is a brand of a Hub: one POS serves several brand locations.
   */
  Hub?: {
    HubId: Id;
    HubName: string;
    Brand: string;
  };
  /**
   * Present for a Kiosk order: prepaid self-service, eaten in or taken out, called by pager (or served at a table).
   */
  Kiosk?: {
    PagerNumber: string;
    TableNumber?: string;
    EatIn: boolean;
  };
}
export interface OrderItem {
  Id: Id;
  Name: string;
  Quantity: number;
  UnitPrice: Money;
  Variations: Variation[];
  Modifiers: Modifier[];
}
/**
 * A variation of the main item (size, kind); its Price is added to the unit price.
 */
export interface Variation {
  Id: Id;
  Name: string;
  Price: Money;
}
/**
 * An add-on to one unit of the main item; Quantity per unit.
 */
export interface Modifier {
  Id: Id;
  Name: string;
  Quantity: number;
  Price: Money;
}
export interface Fee {
  Type: string;
  Name: string;
  Amount: Money;
}
export interface Promotion {
  Id: Id;
  Name: string;
  Amount: Money;
}
export interface Tax {
  Name: string;
  /**
   * Percent.
   */
  Rate: number;
  Amount: Money;
  /**
   * true when Amount is already in the prices (VAT).
   */
  Included: boolean;
}
export interface Payment {
  /**
   * true: the guest has paid the service; the POS must not charge again.
   */
  Prepaid: boolean;
  Method: string;
  /**
   * Paid (Prepaid) or to be collected; equals Total.
   */
  Amount: number;
}
