/** The dashboard's three built files, served from memory to whom the control API answers (anyone behind --admin-token: the page holds no data), never framed, loading nothing from elsewhere. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Response } from 'express';
import type { PageRoute } from '../http/route.js';
import { ApiError } from '../errors.js';
import { PACKAGE_ROOT } from '../version.js';
import { clientAddress, isLoopbackAddress } from '../hosted/forwarding.js';
import { isOwnHost } from './control-guards.js';

const DASHBOARD_PATH = '/_sandbox/ui/';

const FILES: Record<string, string> = {
  '': 'text/html; charset=utf-8',
  'index.html': 'text/html; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
};

/** Nothing but the sandbox's own, no framing, no forms; inline style for a report opened from a blob, which inherits this policy. */
const CONTENT_SECURITY_POLICY =
  "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

interface DashboardDeps {
  adminToken?: string;
  listenHost?: string;
  /** Where the built files are; dist/dashboard of the package by default. */
  dashboardDirectory?: string;
  forwardKey?: string;
}

export const dashboardRootRoute: PageRoute<DashboardDeps> = {
  method: 'GET',
  path: '/',
  api: 'page',
  handle: () => (_req, res) => {
    res.set('cache-control', 'no-store');
    res.redirect(302, DASHBOARD_PATH);
  },
};

export const dashboardRoute: PageRoute<DashboardDeps> = {
  method: 'GET',
  // /_sandbox/ui/ too: trailing slashes are not strict.
  path: '/_sandbox/ui{/:file}',
  api: 'page',
  handle: (deps) => {
    const directory = deps.dashboardDirectory ?? join(PACKAGE_ROOT, 'dist', 'dashboard');
    const cache = new Map<string, Buffer>();
    const read = (name: string): Buffer | undefined => {
      if (!cache.has(name)) {
        try {
          cache.set(name, readFileSync(join(directory, name)));
        } catch {
          return undefined;
        }
      }
      return cache.get(name);
    };
    return (req, res) => {
      // The page's relative links (app.js, app.css) need the slash.
      if (!req.path.endsWith('/') && req.params.file === undefined) return res.redirect(301, DASHBOARD_PATH);
      if (deps.adminToken === undefined) {
        if (!isLoopbackAddress(clientAddress(req, deps.forwardKey))) {
          throw new ApiError('FORBIDDEN', `the dashboard answers loopback clients only (this request came from ${req.socket.remoteAddress ?? 'an address-less socket'}); start the sandbox with --admin-token to allow others`);
        }
        if (req.headers.host !== undefined && !isOwnHost(req.headers.host, deps.listenHost)) {
          throw new ApiError('FORBIDDEN', `Host '${req.headers.host}' is not this sandbox's name; open the dashboard at http://127.0.0.1 or http://localhost (DNS rebinding protection, as the control API)`);
        }
      }
      const name = typeof req.params.file === 'string' ? req.params.file : '';
      const type = Object.hasOwn(FILES, name) ? FILES[name] : undefined;
      if (type === undefined) throw new ApiError('NOT_FOUND', `no dashboard file '${name}'; the dashboard is at ${DASHBOARD_PATH}`);
      const body = read(name === '' ? 'index.html' : name);
      if (body === undefined) throw new ApiError('NOT_FOUND', `the dashboard is not built in ${directory}: run npm run build (npm install runs it too)`);
      send(res, type, body);
    };
  },
};

function send(res: Response, type: string, body: Buffer): void {
  res.set({
    'content-type': type,
    'content-security-policy': CONTENT_SECURITY_POLICY,
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    // The files change with the sandbox's version; a reload must never show an old page against a new API.
    'cache-control': 'no-cache',
  });
  res.send(body);
}
