/** The README and docs/ are the contract users read: every finding, fault kind, ready fault script, checklist item, checklist flag and --bug is in them. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { FINDING_CODES } from '../http/findings.js';
import { FAULT_KINDS } from '../faults/fault-rules.js';
import { BUGS } from '../../reference-pos/bugs.js';
import { CHECKLIST } from '../../certification-checklist/items/all-items.js';
import { PACKAGE_ROOT } from '../version.js';
import { checklistCommand } from '../cli/checklist.js';
import { damagedStateError } from '../store/sandbox-store.js';
import { setAsideReport } from '../store/set-aside-state.js';
import { REFUND_STATUSES } from '../refunds/refund-rules.js';

const README = readFileSync(join(PACKAGE_ROOT, 'README.md'), 'utf8');
const doc = (page: string) => readFileSync(join(PACKAGE_ROOT, 'docs', page), 'utf8');
const FINDINGS = doc('findings.md');
const FAULTS = doc('faults.md');
const REFERENCE_POS = doc('reference-pos.md');
const CERTIFICATION = readFileSync(join(PACKAGE_ROOT, 'docs', 'certification.md'), 'utf8');
const STATE_FILE = readFileSync(join(PACKAGE_ROOT, 'docs', 'state-file.md'), 'utf8');

describe('the README and docs/', () => {
  it("shows refunds list's --status choices in docs/cli.md as the command takes them: a refund's own statuses", async () => {
    const { refundsCommand } = await import('../cli/control-commands.js');
    const status = refundsCommand().commands.find((command) => command.name() === 'list')!.options.find((option) => option.long === '--status')!;
    expect(status.argChoices).toEqual([...REFUND_STATUSES]);
    expect(doc('cli.md')).toContain(`[--status ${REFUND_STATUSES.join('\\|')}]`);
  });

  it('keeps the README under 300 lines: the rest is in docs/', () => {
    expect(README.split('\n').length).toBeLessThan(300);
  });

  it.each(FINDING_CODES)('has a row for the finding %s in docs/findings.md', (code) => {
    expect(FINDINGS).toMatch(new RegExp(`^\\| \`${code}\` \\|`, 'm'));
  });

  it.each([...FAULT_KINDS])('has a row for the fault kind %s in docs/faults.md', (kind) => {
    expect(FAULTS).toMatch(new RegExp(`^\\| \`${kind}\`( \\(|  ?\\|)`, 'm'));
  });

  it.each(readdirSync(join(PACKAGE_ROOT, 'fixtures', 'faults')))('names the ready fault script %s in docs/faults.md', (file) => {
    expect(FAULTS).toContain(`| \`${file}\` |`);
  });

  it.each(CHECKLIST.map((item) => item.id))('has a row for the checklist item %s in docs/certification.md', (id) => {
    expect(CERTIFICATION).toMatch(new RegExp(`^\\| \`${id}\` \\|`, 'm'));
  });

  it.each(checklistCommand().options.map((option) => option.long!))('has a row for the checklist flag %s in docs/certification.md', (flag) => {
    expect(CERTIFICATION).toMatch(new RegExp(`^\\| \`${flag}[ \`]`, 'm'));
  });

  it('links every page of docs/ from the README', () => {
    // Pages, that is: docs/screenshots/ holds the dashboard's pictures, which the pages show.
    for (const page of readdirSync(join(PACKAGE_ROOT, 'docs')).filter((name) => name.endsWith('.md'))) expect(README).toContain(`(docs/${page})`);
  });

  it.each(Object.keys(BUGS))('has a row for the reference POS --bug %s in docs/reference-pos.md', (bug) => {
    expect(REFERENCE_POS).toMatch(new RegExp(`^\\| \`${bug}\` \\|`, 'm'));
  });
});

describe('docs/state-file.md', () => {
  it('shows the message of a refused start and the report of --fresh-state as serve prints them', () => {
    const [first, , ...ways] = `pos-sandbox: ${damagedStateError(['x'], { dataFile: '.sandbox/db.json', segmentsFolder: '.sandbox/db.segments' }).message}`.split('\n');
    for (const line of [first!, ...ways]) expect(STATE_FILE).toContain(`${line}\n`);
    const aside = '.sandbox/db.moved-2026-11-23T15-07-08Z';
    const report = setAsideReport('.sandbox/db.json', [
      { from: '.sandbox/db.json', to: `${aside}.json` },
      { from: '.sandbox/db.segments', to: `${aside}.segments` },
    ]);
    expect(STATE_FILE).toContain(report);
  });
});
