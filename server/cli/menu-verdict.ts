/** Pure: what `validate-menu` says of a payload, with the server's own check, apply and findings, so the messages are PUT /menu's. */
import { applyMenuUpdate, describeChange, type MenuChange, menuUpdateFindings } from '../menus/apply-menu-update.js';
import { strictMessage, type Finding } from '../http/findings.js';
import { LOCATION_REQUIRED } from '../http/pos-call.js';
import { checkMenuUpdate, type MenuCheckContext, isRecord } from '../menus/menu-update-check.js';
import type { MenuForm } from '../menus/menu-update-check.js';
import type { ParsedBody } from '../http/json-text.js';
import { renderEnvelope, type ErrorEnvelope } from '../errors.js';

export interface MenuVerdict {
  file: string;
  valid: boolean;
  form?: MenuForm;
  locationId?: string;
  /** What PUT /menu would answer: 200, or 400 with this envelope. */
  status: 200 | 400;
  body?: ErrorEnvelope;
  findings: Finding[];
  changes: MenuChange[];
}

/** `location` stands for the header; without it form A's LocationId is taken, and the header-required message is left out offline. */
export function menuVerdict(file: string, body: ParsedBody, location: string | undefined, strict: boolean, context: MenuCheckContext): MenuVerdict {
  const header = location ?? formALocationOf(body);
  const check = checkMenuUpdate(body, header, context);
  if (!check.ok) {
    const problems = header === undefined ? check.problems.filter((p) => p !== LOCATION_REQUIRED) : check.problems;
    return rejected(file, problems, [], check.form);
  }
  const { update } = check;
  const { changes } = applyMenuUpdate(check.menu, update);
  const findings = menuUpdateFindings(update, check.menu, changes);
  const base = { form: update.form, locationId: update.locationId, changes };
  // Under --strict nothing would be applied, so a rejected verdict lists no changes.
  if (strict && findings.length > 0) return { ...rejected(file, findings.map(strictMessage), findings, update.form), locationId: update.locationId };
  return { file, valid: true, status: 200, findings, ...base };
}

function formALocationOf(body: ParsedBody): string | undefined {
  if (!body.ok || !isRecord(body.value)) return undefined;
  const id = body.value.LocationId;
  return typeof id === 'string' && id.trim() !== '' ? id : undefined;
}

function rejected(file: string, problems: string[], findings: Finding[], form: MenuForm | undefined): MenuVerdict {
  return {
    file,
    valid: false,
    ...(form === undefined ? {} : { form }),
    status: 400,
    body: renderEnvelope('menu', 'VALIDATION_ERROR', problems),
    findings,
    changes: [],
  };
}

/** The verdict as a person reads it in a terminal. */
export function formatVerdict(verdict: MenuVerdict): string {
  const lines: string[] = [];
  const form = verdict.form === undefined ? '' : ` form ${verdict.form}`;
  const where = verdict.locationId === undefined ? '' : ` for location ${verdict.locationId}`;
  if (verdict.valid) {
    lines.push(`${verdict.file}: valid${form} update${where}; PUT /menu would answer 200`);
    if (verdict.changes.length === 0) lines.push('  changes: none (every listed name and price is already on the menu)');
    else lines.push(`  changes (${verdict.changes.length}):`, ...verdict.changes.map((change) => `    ${describeChange(change)}`));
  } else {
    const errors = verdict.body?.errors ?? [];
    lines.push(`${verdict.file}: ${errors.length} problem${errors.length === 1 ? '' : 's'}${form ? ` in this${form} update` : ''}; PUT /menu would answer 400 VALIDATION_ERROR:`);
    for (const error of errors) lines.push(`  - ${'Message' in error ? error.Message : error.message}`);
  }
  if (verdict.valid) {
    if (verdict.findings.length === 0) lines.push('  findings: none');
    else lines.push(`  findings (${verdict.findings.length}):`, ...verdict.findings.map((f) => `    ${f.code} (${f.section}): ${f.message}`));
  }
  return `${lines.join('\n')}\n`;
}
