import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/**
 * Where code may import from (decision 015). Regular expressions over the import specifier, so
 * they hold for every relative depth ('../server/…', '../../../server/…') and the `~/` alias.
 */
const boundaries = {
  /** server/ runs only on the server and uses from app/ nothing but the shared app/lib. */
  serverImportsOnlyAppLib: {
    regex: '(^|/)app/(?!lib/)|^~/(?!lib/)',
    message: 'Server code imports from app/ only app/lib (code shared with the browser). Move what both sides need to app/lib.',
  },
  /** Components and app/lib run in the browser: not even types from server/ (or through app/context.ts). */
  browserCodeImportsNoServer: {
    regex: '(^|/)server/|(^|/)context\\.ts$',
    message: 'Components and app/lib run in the browser and import nothing from server/, not even types. Declare shared types and constants in app/lib.',
  },
};

/**
 * A feature in one place (decision 058): each server domain is a folder `server/<domain>/`. Its
 * public surface is the modules directly in that folder (its services, types and rules); its
 * subfolders are its own: `http/` holds its HTTP adapters (API routes, upload readers,
 * webhooks), mounted by the app's assembly (server/http/app.ts) and used by route modules, and
 * any other subfolder (catalog/listing/, db/migrations/) is used only inside the domain.
 * `server/http/` is the edge every domain shares, not a domain.
 */
const domains = readdirSync(`${import.meta.dirname}/server`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== 'http')
  .map((entry) => entry.name);
/** Files in a subfolder of `folder`, at any depth (`*` then `**` then a file: never a module directly in `folder`). */
const insideSubfolders = (folder) => `${folder}/*/**/*`;
const domainZones = [
  ...domains.map((domain) => ({
    target: [`server/!(${domain}|http)/**`, 'server/*.ts'],
    from: insideSubfolders(`server/${domain}`),
    message: `Another domain uses ${domain}'s public modules (server/${domain}/*.ts) only; its subfolders (its http/ adapters, its internals) are its own (decision 058).`,
  })),
  {
    // The edge reads requests for every domain; it mounts a domain's adapters in one place.
    target: 'server/http/!(app).ts',
    from: 'server/*/http/**',
    message: "Only the app's assembly (server/http/app.ts) mounts a domain's http/ adapters; the rest of the edge serves every domain alike (decision 058).",
  },
  {
    // The demo inventory is loaded by the server entry when APP_MODE=demo.
    target: 'server/http/**',
    from: insideSubfolders('server/!(http)'),
    except: ['**/server/*/http/**', '**/server/db/demo/seed.ts'],
    message: "The edge uses a domain's public modules (server/<domain>/*.ts), not its internals (decision 058).",
  },
];

export default tseslint.config(
  // tests/lint-fixtures/ break the rules on purpose; tests/unit/lint-boundaries.test.ts lints them.
  { ignores: ['build/', 'node_modules/', '.react-router/', 'data/', 'test-results/', 'bench/results/', 'tests/lint-fixtures/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // No import cycles: a cycle makes module start-up order matter and hides which module owns
    // what. Type-only imports are erased at build time and are not counted.
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs'] })],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['server/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [boundaries.serverImportsOnlyAppLib] }],
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: domainZones }],
    },
  },
  {
    // Route modules may import server code for their loaders and actions; the build refuses any
    // server module that page code pulls into the browser bundle (vite.config.ts).
    files: ['app/components/**', 'app/lib/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [boundaries.browserCodeImportsNoServer] }] },
  },
  {
    files: ['**/*.{js,mjs}'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
