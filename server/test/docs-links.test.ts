/**
 * The README and docs/ stand alone: every relative link leads to a file of the repository and every #anchor to a
 * heading of its page; every web link is a well-formed URL (not fetched: tests have no network). And no tracked
 * file names the internal documents the product was first written from, which users do not have.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { headingAnchors, markdownLinks } from './markdown-links.js';
import { PACKAGE_ROOT } from '../version.js';

const pages = ['README.md', ...readdirSync(join(PACKAGE_ROOT, 'docs'), { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.md')).map((file) => join('docs', file))];
const text = new Map(pages.map((page) => [page, readFileSync(join(PACKAGE_ROOT, page), 'utf8')]));
const anchorsOf = (page: string) => headingAnchors(text.get(page) ?? readFileSync(join(PACKAGE_ROOT, page), 'utf8'));

/** What is wrong with one link of `page`, or undefined when it leads somewhere. */
function brokenLink(page: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
    if (target.startsWith('mailto:')) return undefined;
    try {
      new URL(target);
      return undefined;
    } catch {
      return 'not a well-formed URL';
    }
  }
  const [path, anchor] = target.split('#') as [string, string | undefined];
  const file = path === '' ? page : relative(PACKAGE_ROOT, join(PACKAGE_ROOT, dirname(page), decodeURIComponent(path)));
  if (file.startsWith('..')) return 'leads out of the repository';
  if (!existsSync(join(PACKAGE_ROOT, file))) return `${file} does not exist`;
  if (anchor !== undefined && file.endsWith('.md') && !anchorsOf(file).has(anchor)) return `${file} has no heading #${anchor}`;
  return undefined;
}

describe('the links of the README and docs/', () => {
  it.each(pages)('%s: every link leads somewhere', (page) => {
    const broken = markdownLinks(text.get(page)!).flatMap(({ line, target }) => {
      const problem = brokenLink(page, target);
      return problem === undefined ? [] : [`${page}:${line} → ${target}: ${problem}`];
    });
    expect(broken).toEqual([]);
  });
});

describe('the repository', () => {
  // Built from parts, so this file does not name them either.
  const internal = [['SANDBOX', 'SPEC'].join('-'), ['HOUSE', 'STYLE'].join('-')];

  it('names none of the internal documents users do not have, in any tracked file', () => {
    const files = execFileSync('git', ['ls-files', '-z'], { cwd: PACKAGE_ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
    const naming = files.filter((file) => {
      if (!existsSync(join(PACKAGE_ROOT, file))) return false;
      const content = readFileSync(join(PACKAGE_ROOT, file), 'latin1');
      return internal.some((name) => content.includes(name));
    });
    expect(naming).toEqual([]);
  });
});
