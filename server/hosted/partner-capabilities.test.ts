import { describe, expect, it } from '@jest/globals';
import { checklistCapabilities } from './partner-capabilities.js';

describe('checklistCapabilities', () => {
  it("reads a partner's capabilities in the checklist's words, each once, in the checklist's order", () => {
    expect(checklistCapabilities(['kiosk', 'refund', 'hub', 'menu-form-b'])).toEqual(['refund', 'hub', 'kiosk', 'menu-form-b']);
  });

  it('reads the names of earlier files: refunds is refund; orders, order-status and menu-form-a declare nothing', () => {
    expect(checklistCapabilities(['refunds', 'orders', 'order-status', 'menu-form-a', 'hub', 'refund'])).toEqual(['refund', 'hub']);
    expect(checklistCapabilities(['orders'])).toEqual([]);
  });
});
