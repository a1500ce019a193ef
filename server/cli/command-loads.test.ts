import { describe, expect, it } from '@jest/globals';
import { build } from 'esbuild';
import { PACKAGE_ROOT } from '../version.js';

/** What a module loads before it runs, as the build bundles it: the packages and the sources its static imports reach. */
async function loads(entry: string): Promise<{ packages: string[]; sources: string[] }> {
  const { metafile } = await build({ absWorkingDir: PACKAGE_ROOT, entryPoints: [entry], bundle: true, write: false, metafile: true, platform: 'node', format: 'esm', packages: 'external', logLevel: 'silent', outdir: 'unused' });
  const sources = new Set([entry]);
  const packages = new Set<string>();
  const queue = [entry];
  for (let source = queue.shift(); source !== undefined; source = queue.shift()) {
    for (const imported of metafile.inputs[source]?.imports ?? []) {
      if (imported.kind === 'dynamic-import') continue;
      if (imported.external) {
        if (!imported.path.startsWith('node:')) packages.add(imported.path);
      } else if (!sources.has(imported.path)) {
        sources.add(imported.path);
        queue.push(imported.path);
      }
    }
  }
  return { packages: [...packages].sort(), sources: [...sources] };
}

describe('what a command loads', () => {
  it('pos-sandbox alone (--help, --version) loads commander and nothing of the sandbox', async () => {
    const { packages, sources } = await loads('server/cli.ts');
    expect(packages).toEqual(['commander']);
    expect(sources.filter((source) => /server\/(store|http\/json-body|app|sandbox)\b/.test(source))).toEqual([]);
  }, 20_000);

  it.each(['control-commands', 'fault-commands', 'journal-command', 'migration-command', 'keys-command', 'reports-command', 'token', 'validate-menu', 'verify-report'])(
    '%s loads neither Express nor the stored state: it asks a running sandbox, or reads a file',
    async (command) => {
      const { packages, sources } = await loads(`server/cli/${command}.ts`);
      expect(packages.filter((name) => ['express', 'pg', 'lowdb', 'pino'].includes(name))).toEqual([]);
      expect(sources.filter((source) => /server\/(app|sandbox|store\/sandbox-store|store\/read-stored-files|http\/json-body)\.ts$/.test(source))).toEqual([]);
    },
    20_000,
  );
});
