import { describe, expect, it } from '@jest/globals';
import { headingAnchors, headingSlug, markdownLinks } from './markdown-links.js';

describe('headingSlug', () => {
  it.each([
    ['Quick start', 'quick-start'],
    ['Tokens (§5)', 'tokens-5'],
    ['Refunds (§4.1)', 'refunds-41'],
    ['Findings and `--strict`', 'findings-and---strict'],
    ['Use it from Postman, Insomnia or Prism', 'use-it-from-postman-insomnia-or-prism'],
    ['Performance: `npm run bench`', 'performance-npm-run-bench'],
    ['The `pos-sandbox` command', 'the-pos-sandbox-command'],
    ['Dependencies, and why each is here', 'dependencies-and-why-each-is-here'],
    ['What the [journal](x.md) holds', 'what-the-journal-holds'],
    ['Orders to the POS (§3, §4.3)', 'orders-to-the-pos-3-43'],
    ['Où est la clé ?', 'où-est-la-clé-'],
    ['snake_case and **bold**', 'snake_case-and-bold'],
  ])('%s → #%s', (heading, slug) => {
    expect(headingSlug(heading)).toBe(slug);
  });
});

describe('headingAnchors', () => {
  it('numbers a repeated heading as GitHub does, and ignores "headings" inside code', () => {
    expect([...headingAnchors('# A\n## B\n## B\n```sh\n# not a heading\n```\n### B ###\n')]).toEqual(['a', 'b', 'b-1', 'b-2']);
  });
});

describe('markdownLinks', () => {
  it('finds links and images with their lines, and none in code', () => {
    const page = ['See [the docs](docs/a.md#x) and ![shot](img/s.png "title").', '`[not](a-link)`', '```', '[nor](this)', '```', '<[angle](<b.md>)>'].join('\n');
    expect(markdownLinks(page)).toEqual([
      { line: 1, target: 'docs/a.md#x' },
      { line: 1, target: 'img/s.png' },
      { line: 6, target: 'b.md' },
    ]);
  });
});
