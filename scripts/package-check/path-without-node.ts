/** A PATH for a machine with no Node: links to every command of the system's usual folders but Node's own. */
import { existsSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

/** The commands a Node install brings. */
export const NODE_COMMANDS = new Set(['node', 'nodejs', 'npm', 'npx', 'corepack']);

/** Fills `folder` with the links and answers it, to be the whole PATH. */
export function pathWithoutNode(folder: string): string {
  mkdirSync(folder, { recursive: true });
  for (const dir of ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin']) {
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      if (!NODE_COMMANDS.has(name) && !existsSync(join(folder, name))) symlinkSync(join(dir, name), join(folder, name));
    }
  }
  return folder;
}
