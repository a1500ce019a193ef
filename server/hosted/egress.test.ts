import { describe, expect, it } from '@jest/globals';
import { addressProblem, checkEgressUrl, grantOrigin, networkProblem, OPEN_EGRESS, originKey, parseOriginRule, partnerEgress } from './egress.js';

const policy = () => partnerEgress('acme-pos', ['https://pos.acme.example', 'http://*.acme-ci.example:8080', 'http://10.20.0.5:*'], ['10.20.0.0/16', 'fd00:1::/64']);
const allowedText = 'https://pos.acme.example, http://*.acme-ci.example:8080, http://10.20.0.5:*';
const notAllowed = (origin: string) =>
  `posOrderUrl ${origin} is not an address this hosted sandbox calls for partner 'acme-pos': it calls only the origins the operator allowed for it (${allowedText}); ask the operator to add yours to egress.allow in the partners file`;

describe('parseOriginRule', () => {
  it.each([
    ['https://pos.acme.example', { protocol: 'https:', host: 'pos.acme.example', wildcard: false, port: 443 }],
    ['HTTP://POS.Acme.Example/', { protocol: 'http:', host: 'pos.acme.example', wildcard: false, port: 80 }],
    ['http://*.acme.example:8080', { protocol: 'http:', host: 'acme.example', wildcard: true, port: 8080 }],
    ['http://10.0.0.5:*', { protocol: 'http:', host: '10.0.0.5', wildcard: false, port: '*' }],
    ['http://[fd00:1::5]:8080', { protocol: 'http:', host: '[fd00:1::5]', wildcard: false, port: 8080 }],
    // The URL parser's reading: a host written in decimal is the address it stands for.
    ['http://2130706433', { protocol: 'http:', host: '127.0.0.1', wildcard: false, port: 80 }],
  ])('reads %s', (text, rule) => {
    expect(parseOriginRule(text)).toEqual({ ...rule, text });
  });

  it.each(['pos.acme.example', 'ftp://pos.acme.example', 'https://pos.acme.example/order', 'https://user@pos.acme.example', 'https://*.*.example', 'https://pos.acme.example?x=1', 'https://'])(
    'refuses %s, saying what an origin is',
    (text) => {
      expect(parseOriginRule(text)).toBe(`'${text}' is not an origin such as https://pos.example.com, https://*.example.com or http://10.0.0.5:* (a scheme, a host, a port if any, and no path)`);
    },
  );

  it('refuses a port past 65535', () => {
    expect(parseOriginRule('http://pos.example:70000')).toBe("'http://pos.example:70000' names port 70000; a port is 1 to 65535");
  });
});

describe('networkProblem', () => {
  it('takes CIDR networks of both families and names anything else', () => {
    expect([networkProblem('10.20.0.0/16'), networkProblem('fd00:1::/64'), networkProblem('127.0.0.1/32')]).toEqual([undefined, undefined, undefined]);
    expect(networkProblem('10.20.0.0')).toBe("'10.20.0.0' is not a network in CIDR form, such as 10.20.0.0/16 or fd00:1::/64");
    expect(networkProblem('loopback')).toBe("'loopback' is not a network in CIDR form, such as 10.20.0.0/16 or fd00:1::/64");
  });
});

describe('checkEgressUrl', () => {
  it.each([
    ['https://pos.acme.example/order', true],
    ['https://pos.acme.example:443/order?x=1', true],
    ['http://pos.acme.example/order', false],
    ['https://pos.acme.example:8443/order', false],
    ['https://evil.pos.acme.example/order', false],
    ['https://pos.acme.example.evil.example/order', false],
    ['http://build-7.acme-ci.example:8080/order', true],
    ['http://a.b.acme-ci.example:8080/order', true],
    ['http://acme-ci.example:8080/order', false],
    ['http://xacme-ci.example:8080/order', false],
    ['http://build-7.acme-ci.example:8081/order', false],
    ['http://10.20.0.5:4242/order', true],
    ['http://10.20.0.6:4242/order', false],
    ['http://127.0.0.1:6420/x', false],
  ])('for %s: %s', (url, allowed) => {
    const verdict = checkEgressUrl(policy(), url, 'posOrderUrl');
    expect(verdict.ok).toBe(allowed);
    if (!verdict.ok) expect(verdict.problem).toBe(notAllowed(new URL(url).origin));
  });

  it('refuses what is no http(s) URL, or one with credentials, on a laptop too', () => {
    for (const given of [policy(), OPEN_EGRESS]) {
      expect(checkEgressUrl(given, 'not a url', 'posOrderUrl')).toEqual({ ok: false, problem: 'posOrderUrl "not a url" is not a URL' });
      expect(checkEgressUrl(given, 'file:///etc/passwd', 'posOrderUrl')).toEqual({ ok: false, problem: 'posOrderUrl must be an http or https URL, got file:' });
      expect(checkEgressUrl(given, 'https://u:p@pos.acme.example/', 'posOrderUrl')).toEqual({ ok: false, problem: 'posOrderUrl must not carry a user name or password' });
    }
  });

  it('lets a laptop call anything else', () => {
    expect(checkEgressUrl(OPEN_EGRESS, 'http://127.0.0.1:6420/x', 'posOrderUrl').ok).toBe(true);
  });

  it('says none are allowed yet when the operator listed none', () => {
    expect(checkEgressUrl(partnerEgress('kiosk-co', [], []), 'http://10.0.0.1/', 'driverUrl')).toEqual({
      ok: false,
      problem: "driverUrl http://10.0.0.1 is not an address this hosted sandbox calls for partner 'kiosk-co': it calls only the origins the operator allowed for it (none yet); ask the operator to add yours to egress.allow in the partners file",
    });
  });
});

describe('addressProblem', () => {
  const refused = (origin: string) =>
    `the host of ${origin} resolves to an address of a loopback, private, link-local or reserved network, which this hosted sandbox does not call for partner 'acme-pos' unless the operator opens that network for it (egress.allowNetworks in the partners file)`;
  const bare = partnerEgress('acme-pos', ['https://pos.acme.example'], []);

  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.45.0.9', 'loopback'],
    ['::1', 'IPv6 loopback'],
    ['::ffff:127.0.0.1', 'loopback mapped into IPv6'],
    ['::ffff:7f00:1', 'loopback mapped into IPv6, in hex'],
    ['0.0.0.0', 'the unspecified address (Linux connects it to loopback)'],
    ['::', 'the IPv6 unspecified address'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local: the cloud metadata service'],
    ['fd00:ec2::254', 'unique-local: a cloud metadata service over IPv6'],
    ['fe80::1', 'IPv6 link-local'],
    ['100.100.100.200', 'shared address space (another metadata service)'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['198.18.0.1', 'benchmarking'],
    ['64:ff9b::a01:203', 'NAT64, carrying a private IPv4 address'],
    ['2002:a01:203::1', '6to4, carrying a private IPv4 address'],
    ['not-an-address', 'what is no address'],
  ])('refuses %s (%s)', (address) => {
    const problem = addressProblem(bare, address, 'https://pos.acme.example:443');
    expect(problem).toBe(address === 'not-an-address' ? 'the host of https://pos.acme.example:443 resolves to an address the sandbox cannot read' : refused('https://pos.acme.example:443'));
  });

  it.each(['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946', '::ffff:93.184.216.34'])('takes the public address %s', (address) => {
    expect(addressProblem(bare, address, 'https://pos.acme.example:443')).toBeUndefined();
  });

  it('takes the networks the operator opened for the partner, and only those', () => {
    expect(addressProblem(policy(), '10.20.3.4', 'x')).toBeUndefined();
    expect(addressProblem(policy(), 'fd00:1::9', 'x')).toBeUndefined();
    expect(addressProblem(policy(), '::ffff:10.20.3.4', 'x')).toBeUndefined();
    expect(addressProblem(policy(), '10.21.0.1', 'x')).toBeDefined();
    expect(addressProblem(policy(), '127.0.0.1', 'x')).toBeDefined();
  });

  it('lets a laptop connect anywhere', () => {
    expect(addressProblem(OPEN_EGRESS, '127.0.0.1', 'x')).toBeUndefined();
  });
});

describe('grantOrigin', () => {
  it("opens an origin, address included, until every holder has given it back", () => {
    const given = policy();
    const origin = originKey(new URL('http://127.0.0.1:4321/order'));
    const first = grantOrigin(given, 'http://127.0.0.1:4321');
    const second = grantOrigin(given, 'http://127.0.0.1:4321/');
    expect([checkEgressUrl(given, 'http://127.0.0.1:4321/order', 'x').ok, addressProblem(given, '127.0.0.1', origin)]).toEqual([true, undefined]);
    first();
    first();
    expect(checkEgressUrl(given, 'http://127.0.0.1:4321/order', 'x').ok).toBe(true);
    second();
    expect([checkEgressUrl(given, 'http://127.0.0.1:4321/order', 'x').ok, addressProblem(given, '127.0.0.1', origin)]).toEqual([false, expect.any(String)]);
  });
});
