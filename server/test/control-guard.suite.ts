/** /_sandbox refuses what a web page in the developer's browser could send it: other origins, DNS rebinding, text/plain and form bodies. */
import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { orderEnvelope, postRefund, testSandbox } from './helpers.js';

const REBINDING_MESSAGE = (host: string) =>
  `Host '${host}' is not this sandbox's name: the control API answers requests addressed to localhost, *.localhost, 127.x.x.x or [::1], so that a web page cannot reach it through a DNS name pointed at this machine (DNS rebinding); address the sandbox by one of those names, or start it with --admin-token to take any Host`;
const CROSS_ORIGIN_MESSAGE = (origin: string, own: string) =>
  `cross-site request refused: Origin '${origin}' is not this sandbox's (its own is ${own}); the control API takes no calls from web pages of other origins, so that a page open in your browser cannot read or change the sandbox. Call it from a tool (curl, a script, the checklist), which sends no Origin header`;

describe('/_sandbox and web pages', () => {
  it('refuses a reset a page on another site sends as text/plain, and nothing is wiped', async () => {
    const sandbox = await testSandbox();
    await postRefund(sandbox.app);
    const reset = await request(sandbox.app).post('/_sandbox/reset').set('Host', '127.0.0.1:4100').set('Origin', 'http://evil.example').set('Content-Type', 'text/plain').send('x');
    expect(reset.status).toBe(403);
    expect(reset.body).toEqual(orderEnvelope('FORBIDDEN', CROSS_ORIGIN_MESSAGE('http://evil.example', 'http://127.0.0.1:4100')));
    expect(sandbox.store.refunds.size).toBe(1);
  });

  it('refuses a token to a page that reached the sandbox through its own DNS name (rebinding)', async () => {
    const { app } = await testSandbox();
    const minted = await request(app).post('/_sandbox/tokens').set('Host', 'attacker.example').send({ locationId: 'loc-std-001' });
    expect(minted.status).toBe(403);
    expect(minted.body).toEqual(orderEnvelope('FORBIDDEN', REBINDING_MESSAGE('attacker.example')));
  });

  it('refuses a call the browser marks Sec-Fetch-Site: cross-site', async () => {
    const { app } = await testSandbox();
    const response = await request(app).get('/_sandbox/health').set('Sec-Fetch-Site', 'cross-site');
    expect(response.status).toBe(403);
    expect(response.body).toEqual(
      orderEnvelope(
        'FORBIDDEN',
        'cross-site request refused: the browser marked it Sec-Fetch-Site: cross-site; the control API takes no calls from web pages of other sites, so that a page open in your browser cannot read or change the sandbox. Call it from a tool (curl, a script, the checklist)',
      ),
    );
  });

  it('answers a call from its own origin, and a call with no Origin at all', async () => {
    const { app } = await testSandbox();
    const own = await request(app).post('/_sandbox/tokens').set('Host', 'localhost:4100').set('Origin', 'http://localhost:4100').send({ locationId: 'loc-std-001' });
    expect(own.status).toBe(201);
    expect((await request(app).post('/_sandbox/tokens').send({ locationId: 'loc-std-001' })).status).toBe(201);
    expect((await request(app).get('/_sandbox/health').set('Sec-Fetch-Site', 'same-origin')).status).toBe(200);
  });

  it.each(['localhost:4100', 'localhost', 'dashboard.localhost:4100', '127.0.0.1:4100', '127.1.2.3', '[::1]:4100'])('takes Host %s', async (host) => {
    const { app } = await testSandbox();
    expect((await request(app).get('/_sandbox/health').set('Host', host)).status).toBe(200);
  });

  it.each(['attacker.example:4100', '192.168.1.20:4100', 'localhost.attacker.example', '0.0.0.0:4100'])('refuses Host %s', async (host) => {
    const { app } = await testSandbox();
    const response = await request(app).get('/_sandbox/health').set('Host', host);
    expect(response.status).toBe(403);
    expect(response.body).toEqual(orderEnvelope('FORBIDDEN', REBINDING_MESSAGE(host)));
  });

  it('takes the address given with --host as a Host, and names it when it refuses another', async () => {
    const { app } = await testSandbox({ listenHost: '192.168.1.20' });
    expect((await request(app).get('/_sandbox/health').set('Host', '192.168.1.20:4100')).status).toBe(200);
    const refused = await request(app).get('/_sandbox/health').set('Host', '192.168.1.21:4100');
    expect(refused.body).toEqual(
      orderEnvelope(
        'FORBIDDEN',
        "Host '192.168.1.21:4100' is not this sandbox's name: the control API answers requests addressed to localhost, *.localhost, 127.x.x.x, [::1] or 192.168.1.20 (--host), so that a web page cannot reach it through a DNS name pointed at this machine (DNS rebinding); address the sandbox by one of those names, or start it with --admin-token to take any Host",
      ),
    );
  });

  it('with --admin-token, takes any Host from whoever holds the token, and still refuses other origins', async () => {
    const { app } = await testSandbox({ adminToken: 'admin-token-for-tests-0001' });
    const auth = 'Bearer admin-token-for-tests-0001';
    expect((await request(app).get('/_sandbox/health').set('Host', 'sandbox.example:4100').set('Authorization', auth)).status).toBe(200);
    expect((await request(app).get('/_sandbox/health').set('Host', 'sandbox.example:4100')).status).toBe(401);
    const page = await request(app).get('/_sandbox/health').set('Host', 'sandbox.example:4100').set('Origin', 'http://evil.example').set('Authorization', auth);
    expect(page.body).toEqual(orderEnvelope('FORBIDDEN', CROSS_ORIGIN_MESSAGE('http://evil.example', 'http://sandbox.example:4100')));
  });

  it.each([
    ['text/plain', 'x'],
    ['application/x-www-form-urlencoded', 'template=standard'],
    ['multipart/form-data; boundary=b', '--b--'],
  ])('answers 415 to a POST of %s, whatever its Origin', async (contentType, body) => {
    const { app } = await testSandbox();
    const response = await request(app).post('/_sandbox/orders').set('Content-Type', contentType).send(body);
    expect(response.status).toBe(415);
    expect(response.body).toEqual(
      orderEnvelope(
        'UNSUPPORTED_MEDIA_TYPE',
        `Content-Type '${contentType}' refused on POST: the control API takes application/json bodies only, since a web page may send text/plain, form and multipart bodies to any site without asking first; send Content-Type: application/json, or no body and no Content-Type`,
      ),
    );
  });

  it('takes a state-changing call with no body and no Content-Type, as curl -X POST sends it', async () => {
    const { app } = await testSandbox();
    expect((await request(app).post('/_sandbox/reset')).status).toBe(200);
    expect((await request(app).delete('/_sandbox/faults')).status).toBe(200);
  });
});
