/** The checklist's control client reads whole lists, following the Link rel="next" pages the sandbox answers with. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from '@jest/globals';
import { closeServers, listen, liveSandbox } from '../../server/test/live.js';
import { postRefund } from '../../server/test/helpers.js';
import { SandboxControl } from '../sandbox-control.js';

afterEach(closeServers);

describe('SandboxControl', () => {
  it('follows every Link rel="next" to the end of a list', async () => {
    const asked: string[] = [];
    const url = await listen((req: IncomingMessage, res: ServerResponse) => {
      asked.push(req.url!);
      const after = new URL(req.url!, 'http://x').searchParams.get('after');
      const pages: Record<string, { body: object[]; next?: string }> = {
        none: { body: [{ id: 'r-3' }, { id: 'r-2' }], next: '/_sandbox/refunds?limit=5000&after=r-2' },
        'r-2': { body: [{ id: 'r-1' }] },
      };
      const page = pages[after ?? 'none']!;
      res.writeHead(200, { 'content-type': 'application/json', ...(page.next ? { link: `<${page.next}>; rel="next"` } : {}) }).end(JSON.stringify(page.body));
    });
    expect(await new SandboxControl(url).refunds()).toEqual([{ id: 'r-3' }, { id: 'r-2' }, { id: 'r-1' }]);
    expect(asked).toEqual(['/_sandbox/refunds?limit=5000', '/_sandbox/refunds?limit=5000&after=r-2']);
  });

  it('reads the journal after a mark in pages of 1000, in id order', async () => {
    const sandbox = await liveSandbox();
    for (let i = 0; i < 3; i++) await postRefund(sandbox.app, { body: JSON.stringify({ ExternalId: `M-${i}` }) });
    const control = new SandboxControl(sandbox.url);
    expect((await control.journalSince('j-000001')).map((entry) => entry.id)).toEqual(['j-000002', 'j-000003']);
  });
});
