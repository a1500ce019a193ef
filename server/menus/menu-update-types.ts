/* Generated from menu-template/schemas by `npm run generate:types`; do not edit by hand. */

/**
 * PUT /menu payload, form A (interface-v2 §2.2): LocationId in the body, prices carry ServiceType. Only item prices and names change (§4.2 rule 1); list only the items that change (§4.2 rule 2).
 */
export interface MenuUpdateFormA {
  /**
   * Merchant location identifier; the same value as the x-service-locationid header.
   */
  LocationId: string;
  /**
   * The items being updated.
   *
   * @minItems 1
   */
  Items: [MenuItemFormA, ...MenuItemFormA[]];
}
export interface MenuItemFormA {
  /**
   * Item identifier, as on the location's menu.
   */
  Id: string;
  /**
   * Item name (the new one, or the current one when only the price changes).
   */
  Name: string;
  /**
   * Item kind. The interface lists only Item; other values are accepted with a finding.
   */
  Type: string;
  /**
   * Prices of the item, one per service type.
   *
   * @minItems 1
   */
  Prices: [PriceFormA, ...PriceFormA[]];
}
export interface PriceFormA {
  /**
   * Service type. The interface lists only Takeout; other values are accepted with a finding.
   */
  ServiceType: string;
  /**
   * Price as a whole number of minor units of the location's currency (1150 is 11.50).
   */
  Price: number;
}

/**
 * PUT /menu payload, form B (interface-v2 §2.2): no LocationId (the location is the x-service-locationid header), prices carry Service. Only item prices and names change (§4.2 rule 1); list only the items that change (§4.2 rule 2).
 */
export interface MenuUpdateFormB {
  /**
   * The items being updated.
   *
   * @minItems 1
   */
  Items: [MenuItemFormB, ...MenuItemFormB[]];
}
export interface MenuItemFormB {
  /**
   * Item identifier, as on the location's menu.
   */
  Id: string;
  /**
   * Item name (the new one, or the current one when only the price changes).
   */
  Name: string;
  /**
   * Item kind. The interface lists only Item; other values are accepted with a finding.
   */
  Type: string;
  /**
   * Prices of the item, one per service type.
   *
   * @minItems 1
   */
  Prices: [PriceFormB, ...PriceFormB[]];
}
export interface PriceFormB {
  /**
   * Service type. The interface lists only Pickup; other values are accepted with a finding.
   */
  Service: string;
  /**
   * Price as a whole number of minor units of the location's currency (1150 is 11.50).
   */
  Price: number;
}
