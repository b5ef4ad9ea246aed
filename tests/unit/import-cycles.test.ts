import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * scripts/import-cycles.mjs (run by `npm run lint`, decision 110) refuses features that import
 * each other and server domains in a cycle; it is run here over small trees.
 */

const script = path.resolve(import.meta.dirname, '../../scripts/import-cycles.mjs');
let tree: string;

afterEach(() => rmSync(tree, { recursive: true, force: true }));

/** Writes a tree of files (path -> text) with empty app/features and server folders, and runs the check over it. */
function check(files: Record<string, string>) {
  tree = mkdtempSync(path.join(tmpdir(), 'import-cycles-'));
  for (const folder of ['app/features', 'server']) mkdirSync(path.join(tree, folder), { recursive: true });
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(tree, file)), { recursive: true });
    writeFileSync(path.join(tree, file), text);
  }
  const run = spawnSync(process.execPath, [script, `--root=${tree}`], { encoding: 'utf8' });
  return { status: run.status, output: run.stdout + run.stderr };
}

describe('the folder-level import cycle check', () => {
  it('refuses two features importing each other, even through different modules', () => {
    const result = check({
      'app/features/compare/rows.ts': "import { emi } from '../emi/emi.ts';\nexport const rows = emi;\n",
      'app/features/emi/emi.ts': 'export const emi = 1;\n',
      'app/features/emi/card.tsx': "import { rows } from '../compare/rows.ts';\nexport const card = rows;\n",
    });
    expect(result.status).toBe(1);
    expect(result.output).toContain('app/features/compare -> app/features/emi');
    expect(result.output).toContain('app/features/emi -> app/features/compare');
  });

  it('lets one feature use another, and does not count type-only imports', () => {
    const result = check({
      'app/features/compare/rows.ts': "import { emi } from '../emi/emi.ts';\nexport const rows = emi;\n",
      'app/features/emi/emi.ts': "import type { Rows } from '../compare/types.ts';\nexport const emi = 1;\nexport type R = Rows;\n",
      'app/features/compare/types.ts': 'export type Rows = number;\n',
    });
    expect(result).toEqual({ status: 0, output: expect.not.stringContaining('import each other') });
  });

  it('refuses server domains importing each other, not the edge (server/http)', () => {
    const edge = check({
      'server/media/images.ts': "import { body } from '../http/forms.ts';\nexport const images = body;\n",
      'server/http/forms.ts': "import { images } from '../media/images.ts';\nexport const body = images;\n",
    });
    expect(edge.status).toBe(0);
    rmSync(tree, { recursive: true, force: true });
    const domains = check({
      'server/media/images.ts': "export { payments } from '../payments/gateway.ts';\n",
      'server/payments/gateway.ts': "import { images } from '../media/images.ts';\nexport const payments = images;\n",
    });
    expect(domains.status).toBe(1);
    expect(domains.output).toContain('Server domains import each other');
    expect(domains.output).toContain('server/media -> server/payments');
  });
});
