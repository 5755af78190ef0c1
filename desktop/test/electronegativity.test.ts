/**
 * Electron's security checklist, checked by @doyensec/electronegativity over the desktop sources (main,
 * preload, renderer): no finding of HIGH severity or above. Lower findings are printed for review.
 */
import path from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { DESKTOP_DIR } from './helpers/api.js';

interface Issue {
  file: string;
  id: string;
  description: string;
  location: { line: number };
  severity: { value: number; name: string };
}
type Run = (
  options: Record<string, unknown>,
  forCli: boolean,
) => Promise<{ issues?: Issue[]; errors?: { file: string; message: string; tolerable: boolean }[] }>;

describe('electronegativity', () => {
  it('finds nothing of high severity in desktop/src', async () => {
    const required = createRequire(import.meta.url)('@doyensec/electronegativity') as { default?: Run } & Run;
    const run = required.default ?? required;
    const result = await run(
      {
        input: path.join(DESKTOP_DIR, 'src'),
        customScan: [],
        excludeFromScan: [],
        severitySet: 'informational',
        confidenceSet: 'tentative',
        isRelative: true,
        electronVersionOverride: '41.7.1',
        parserPlugins: [],
      },
      false,
    );
    const issues = result.issues ?? [];
    for (const issue of issues) {
      console.info(
        `electronegativity ${issue.severity.name} ${issue.id} ${issue.file}:${issue.location.line} ${issue.description}`,
      );
    }
    expect(issues.length).toBeGreaterThan(0); // the scan ran over the sources (it always lists review items)
    expect(
      issues.filter((i) => i.severity.value >= 3).map((i) => `${i.id} ${i.file}:${i.location.line}`),
    ).toEqual([]);
    expect((result.errors ?? []).filter((e) => !e.tolerable)).toEqual([]);
  }, 60_000);
});
