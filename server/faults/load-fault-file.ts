/** Reads a --faults file: a JSON list of fault rules (or one rule), checked like POST /_sandbox/faults. */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ConfigError } from '../config.js';
import { checkFaultRules } from './check-fault-rules.js';
import type { FaultRule } from './fault-rule-types.js';

export function loadFaultFile(file: string, readyScriptsDir?: string): FaultRule[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const ready = readyScriptsDir ? readyScripts(readyScriptsDir) : '';
    throw new ConfigError(`--faults ${file}: ${code === 'ENOENT' ? 'no such file' : (error as Error).message}${ready}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`--faults ${file}: not JSON (${(error as Error).message}); it must be a JSON list of fault rules, like the ready scripts in fixtures/faults/`);
  }
  const check = checkFaultRules(value);
  if (!check.ok) {
    throw new ConfigError(`--faults ${file} is not a valid list of fault rules:\n${check.problems.map((problem) => `  - ${problem}`).join('\n')}`);
  }
  return check.rules;
}

function readyScripts(dir: string): string {
  try {
    const files = readdirSync(dir).filter((name) => name.endsWith('.json'));
    return files.length > 0 ? `; ready scripts are in ${dir}/: ${files.join(', ')}` : '';
  } catch {
    return ` (and ${dirname(dir)} has no ready scripts)`;
  }
}

/** A ready script of fixtures/faults/: its name (the file's, without .json) and its rules, checked. */
export interface ReadyScript {
  name: string;
  rules: FaultRule[];
}

/** Every ready script of `dir` that holds a valid list of rules, by name; a broken file is left out, not fatal. */
export function loadReadyScripts(dir: string): ReadyScript[] {
  let files: string[];
  try {
    files = readdirSync(dir).filter((name) => name.endsWith('.json')).sort();
  } catch {
    return [];
  }
  const scripts: ReadyScript[] = [];
  for (const file of files) {
    try {
      scripts.push({ name: file.slice(0, -'.json'.length), rules: loadFaultFile(join(dir, file)) });
    } catch {
      // Not a list of rules: the dashboard offers only what it could add.
    }
  }
  return scripts;
}
