import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The import rules of eslint.config.js (decision 015) catch what they are meant to catch: each
 * fixture in tests/lint-fixtures/ breaks one rule, and linting it with the project's own
 * configuration must report that rule. Remove a rule and its test fails.
 */

const root = path.resolve(import.meta.dirname, '../..');
const fixtures = path.join(root, 'tests/lint-fixtures');

let eslint: ESLint;
beforeAll(() => {
  // The fixtures folder is ignored by `npm run lint`; here it is linted on purpose.
  eslint = new ESLint({ cwd: root, ignore: false });
});

/**
 * Lints a fixture with the project configuration as if it stood at `lintAs` (a path under the
 * project root), since the boundary rules apply by folder. Returns the rules it broke.
 */
async function rulesBroken(fixture: string, lintAs = fixture): Promise<string[]> {
  const text = await readFile(path.join(fixtures, fixture), 'utf8');
  const [result] = await eslint.lintText(text, { filePath: path.join(root, lintAs) });
  return (result?.messages ?? []).map((message) => message.ruleId ?? `fatal: ${message.message}`);
}

describe('import boundaries', { timeout: 60_000 }, () => {
  it('refuses a server module importing an app/ module other than app/lib', async () => {
    expect(await rulesBroken('server/imports-app-component.ts')).toEqual(['no-restricted-imports']);
  });

  it('refuses a server module importing a type from app/ outside app/lib', async () => {
    expect(await rulesBroken('server/imports-app-context-type.ts')).toEqual(['no-restricted-imports']);
  });

  it('lets a server module import app/lib', async () => {
    expect(await rulesBroken('server/imports-app-lib.ts')).toEqual([]);
  });

  it('refuses app/lib importing even a type from server/', async () => {
    expect(await rulesBroken('app/lib/imports-server-type.ts')).toEqual(['no-restricted-imports']);
  });

  it('refuses a component importing server code', async () => {
    expect(await rulesBroken('app/components/imports-server.tsx')).toEqual(['no-restricted-imports']);
  });

  it("refuses a component reaching the server's services through app/context.ts", async () => {
    expect(await rulesBroken('app/components/imports-app-context.tsx')).toEqual(['no-restricted-imports']);
  });

  it('refuses a package that package.json does not declare', async () => {
    expect(await rulesBroken('server/imports-undeclared-package.ts')).toEqual(['import-x/no-extraneous-dependencies']);
  });

  it('refuses a devDependency in server code', async () => {
    expect(await rulesBroken('server/imports-dev-dependency.ts')).toEqual(['import-x/no-extraneous-dependencies']);
  });

  it('refuses new Date() and Date.now() in server code, but not in server/clock.ts', async () => {
    expect(await rulesBroken('server/reads-wall-clock.ts')).toEqual(['no-restricted-syntax', 'no-restricted-syntax']);
    expect(await rulesBroken('server/reads-wall-clock.ts', 'server/clock.ts')).toEqual([]);
  });

  it("refuses a server domain importing another domain's internals (a subfolder of it)", async () => {
    expect(await rulesBroken('server/rentals/imports-catalog-internals.ts')).toEqual(['import-x/no-restricted-paths']);
  });

  it("lets a server domain import another domain's public modules and its own subfolders", async () => {
    expect(await rulesBroken('server/rentals/imports-catalog-service.ts')).toEqual([]);
    expect(await rulesBroken('server/catalog/imports-own-internals.ts')).toEqual([]);
  });

  it("refuses the edge (server/http/) importing a domain's internals", async () => {
    expect(await rulesBroken('server/http/imports-db-internals.ts')).toEqual(['import-x/no-restricted-paths']);
  });

  it("refuses a server domain importing another domain's http/ adapters", async () => {
    expect(await rulesBroken('server/rentals/imports-leads-http.ts')).toEqual(['import-x/no-restricted-paths']);
  });

  it("lets only the app's assembly in server/http/ import a domain's http/ adapters", async () => {
    expect(await rulesBroken('server/http/imports-domain-http.ts')).toEqual(['import-x/no-restricted-paths']);
    expect(await rulesBroken('server/http/app.ts')).toEqual([]);
  });

  it('refuses shared code (app/lib, app/components) importing a feature', async () => {
    expect(await rulesBroken('app/lib/imports-feature.ts')).toEqual(['import-x/no-restricted-paths']);
    expect(await rulesBroken('app/components/imports-feature.tsx')).toEqual(['import-x/no-restricted-paths']);
  });

  it("refuses a feature importing another feature's subfolder, and lets it and a route use its public modules", async () => {
    expect(await rulesBroken('app/features/compare/imports-other-feature-texts.ts')).toEqual(['import-x/no-restricted-paths']);
    expect(await rulesBroken('app/features/compare/imports-other-feature.ts')).toEqual([]);
    expect(await rulesBroken('app/routes/imports-feature.tsx')).toEqual([]);
  });

  it("keeps a feature's rules free of React, but not its hooks", async () => {
    expect(await rulesBroken('app/features/emi/rules-import-react.ts')).toEqual(['no-restricted-imports']);
    expect(await rulesBroken('app/features/emi/use-rules.ts')).toEqual([]);
  });

  it("lets the server import a feature's pure modules, not its stores or components", async () => {
    expect(await rulesBroken('server/imports-feature-rules.ts')).toEqual([]);
    expect(await rulesBroken('server/imports-feature-store.ts')).toEqual(['no-restricted-imports']);
    expect(await rulesBroken('server/imports-app-component.ts')).toEqual(['no-restricted-imports']);
  });

  it('refuses an import cycle', async () => {
    const where = 'tests/lint-fixtures/cycle';
    expect(await rulesBroken('cycle/first.ts', `${where}/first.ts`)).toEqual(['import-x/no-cycle']);
    expect(await rulesBroken('cycle/second.ts', `${where}/second.ts`)).toEqual(['import-x/no-cycle']);
  });
});

describe('React APIs the browser runtime lacks (decision 053)', { timeout: 60_000 }, () => {
  it("refuses a route importing React's useOptimistic, which preact/compat only fakes", async () => {
    expect(await rulesBroken('app/routes/uses-use-optimistic.tsx')).toEqual(['no-restricted-imports']);
  });

  it("refuses a component importing react-dom's useFormStatus, which preact/compat lacks, and keeps the server boundary there", async () => {
    expect(await rulesBroken('app/components/uses-form-status.tsx')).toEqual(['no-restricted-imports']);
    expect(await rulesBroken('app/components/imports-server.tsx')).toEqual(['no-restricted-imports']);
  });

  it("refuses React's default export, through which any of them could be reached", async () => {
    expect(await rulesBroken('app/components/uses-react-namespace.tsx')).toEqual(['no-restricted-imports']);
  });

  it('lets the server entry, which React renders, import what it needs', async () => {
    const [result] = await eslint.lintText(
      "import { renderToPipeableStream } from 'react-dom/server';\nimport { preload } from 'react-dom';\nexport { renderToPipeableStream, preload };\n",
      {
        filePath: path.join(root, 'app/entry.server.tsx'),
      },
    );
    expect(result?.messages.map((message) => message.ruleId)).toEqual([]);
  });
});
