import { describe, expect, it } from '@jest/globals';
import { JtiRegistry } from './jti-registry.js';

describe('JtiRegistry', () => {
  it('tells a first use, the same token again, and another token with the same jti apart', () => {
    const jtis = new JtiRegistry();
    expect(jtis.use('a', 'token-1')).toBe('first');
    expect(jtis.use('a', 'token-1')).toBe('same-token');
    expect(jtis.use('a', 'token-2')).toBe('reused');
    expect(jtis.use('b', 'token-2')).toBe('first');
  });

  it('forgets the oldest jti past its capacity', () => {
    const jtis = new JtiRegistry(2);
    jtis.use('a', 't1');
    jtis.use('b', 't2');
    jtis.use('c', 't3');
    expect(jtis.use('a', 'other')).toBe('first');
    expect(jtis.use('c', 'other')).toBe('reused');
  });
});
