/** The dashboard's files: who gets them, with which headers, and what a missing build or file answers. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import express from 'express';
import request from 'supertest';
import { dashboardRoute } from '../control/dashboard-routes.js';
import { silentLogger } from '../logger.js';
import { errorHandler } from '../http/error-handler.js';
import { orderEnvelope, testSandbox } from './helpers.js';
import { overUnixSocket } from './unix-socket.js';

describe('the dashboard files', () => {
  it('leads / to the dashboard, and /_sandbox/ui to its slash (the page loads its files relative to it)', async () => {
    const { app } = await testSandbox();
    const root = await request(app).get('/');
    expect([root.status, root.headers.location]).toEqual([302, '/_sandbox/ui/']);
    const bare = await request(app).get('/_sandbox/ui');
    expect([bare.status, bare.headers.location]).toEqual([301, '/_sandbox/ui/']);
  });

  it('serves the page, its script and its style, none of them frameable or loading anything from elsewhere', async () => {
    const { app } = await testSandbox();
    const page = await request(app).get('/_sandbox/ui/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.text).toContain('<script type="module" src="app.js"></script>');
    expect(page.headers['content-security-policy']).toBe(
      "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    const script = await request(app).get('/_sandbox/ui/app.js');
    expect([script.status, script.headers['content-type']]).toEqual([200, 'text/javascript; charset=utf-8']);
    // Offline: no address of another site in what the page loads, but the XML namespaces Preact names elements by
    // and the loopback addresses the Checklist form suggests for a POS driver.
    const addresses = `${page.text}${script.text}`.match(/https?:\/\/[^\s"'`)]+/gi) ?? [];
    const elsewhere = addresses.filter((address) => !/^http:\/\/www\.w3\.org\/\d{4}\/(svg|xhtml|Math\/MathML)$/.test(address) && !/^http:\/\/127\.0\.0\.1:\d+(\/\w*)?$/.test(address));
    expect(elsewhere).toEqual([]);
    const style = await request(app).get('/_sandbox/ui/app.css');
    expect([style.status, style.headers['content-type']]).toEqual([200, 'text/css; charset=utf-8']);
  });

  it.each(['nope.js', '..%2Fpackage.json', '%2e%2e', 'index.html%00'])('answers 404 in the envelope for /_sandbox/ui/%s, and reads nothing else', async (name) => {
    const { app } = await testSandbox();
    const response = await request(app).get(`/_sandbox/ui/${name}`);
    expect(response.status).toBe(404);
    expect(response.body.errors[0].code).toBe('NOT_FOUND');
    expect(response.text).not.toContain('"version"');
  });

  it('keeps the page from clients that are not on loopback and from other Host names, as the control API', async () => {
    const { app } = await testSandbox();
    expect(await overUnixSocket(app, '/_sandbox/ui/')).toEqual({
      status: 403,
      body: orderEnvelope('FORBIDDEN', 'the dashboard answers loopback clients only (this request came from an address-less socket); start the sandbox with --admin-token to allow others'),
    });
    const rebound = await request(app).get('/_sandbox/ui/').set('Host', 'attacker.example');
    expect(rebound.status).toBe(403);
    expect(rebound.body).toEqual(
      orderEnvelope('FORBIDDEN', "Host 'attacker.example' is not this sandbox's name; open the dashboard at http://127.0.0.1 or http://localhost (DNS rebinding protection, as the control API)"),
    );
  });

  it('with --admin-token, serves the page to anyone (it holds no data) while every call behind it needs the token', async () => {
    const { app } = await testSandbox({ adminToken: 'admin-token-for-tests-0001' });
    expect((await overUnixSocket(app, '/_sandbox/ui/app.css')).status).toBe(200);
    expect((await request(app).get('/_sandbox/ui/').set('Host', 'sandbox.example.net')).status).toBe(200);
    expect((await request(app).get('/_sandbox/journal')).status).toBe(401);
  });

  it('says how to build the dashboard when its files are missing', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'no-dashboard-'));
    const app = express().get(dashboardRoute.path, dashboardRoute.handle({ dashboardDirectory: directory })).use(errorHandler(silentLogger()));
    const response = await request(app).get('/_sandbox/ui/');
    expect(response.status).toBe(404);
    expect(response.body).toEqual(orderEnvelope('NOT_FOUND', `the dashboard is not built in ${directory}: run npm run build (npm install runs it too)`));
  });
});
