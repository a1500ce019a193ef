/** Requests whose client has no loopback address: real HTTP over a Unix socket. */
import { request as httpRequest } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Express } from 'express';

/** A real HTTP request over a Unix socket: the client has no loopback address. */
export async function overUnixSocket(app: Express, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: unknown }> {
  const dir = mkdtempSync(join(tmpdir(), 'sock-'));
  const socketPath = join(dir, 'sandbox.sock');
  const server = app.listen(socketPath);
  try {
    await new Promise((resolve) => server.once('listening', resolve));
    return await new Promise((resolve, reject) => {
      httpRequest({ socketPath, path, headers }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => {
          // JSON answers are parsed; anything else (the dashboard's files) is handed back as text.
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // Not JSON.
          }
          resolve({ status: res.statusCode ?? 0, body });
        });
      })
        .on('error', reject)
        .end();
    });
  } finally {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

