import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * A clone holds everything the README and docs/ send a reader to: every relative link resolves to a file
 * in the repository, and nothing points outside it (the product's specification once lived in
 * ../shared, which a clone does not have).
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DOCS = [
  'README.md',
  ...readdirSync(path.join(ROOT, 'docs')).map((name) => path.join('docs', name)),
].filter((file) => file.endsWith('.md'));

function relativeLinks(markdown: string): string[] {
  const links = [...markdown.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
  return links.filter((link) => !/^[a-z]+:/i.test(link) && !link.startsWith('#'));
}

describe('the README and docs/ stand on their own', () => {
  it.each(DOCS)('%s links only to files the repository has', (file) => {
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    for (const link of relativeLinks(text)) {
      const target = path.resolve(path.dirname(path.join(ROOT, file)), link.split('#')[0]!);
      expect(target.startsWith(ROOT), `${file}: ${link} leaves the repository`).toBe(true);
      expect(existsSync(target), `${file}: ${link} does not exist`).toBe(true);
    }
    expect(text).not.toMatch(/\.\.\/shared\//);
  });

  it('the README names the specification and design it relies on, inside docs/', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    expect(relativeLinks(readme)).toEqual(expect.arrayContaining(['docs/SPEC.md', 'docs/DESIGN.md']));
  });
});
