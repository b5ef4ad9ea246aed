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
  /**
   * server/ runs only on the server and uses from app/ nothing but the shared app/lib and a
   * feature's pure public modules (decision 110): a `.ts` file directly in `app/features/<name>/`
   * other than its React hooks and stores (`use-*.ts`, `*-store.ts`).
   */
  serverImportsOnlyAppLib: {
    regex: '(^|/)app/(?!lib/|features/[^/]+/(?!use-|[^/]*-store\\.ts$)[^/]+\\.ts$)|^~/(?!lib/|features/[^/]+/(?!use-|[^/]*-store\\.ts$)[^/]+\\.ts$)',
    message:
      "Server code imports from app/ only app/lib and a feature's pure public modules (app/features/<name>/<module>.ts, no React: decision 110). Move what both sides need there.",
  },
  /** Components and app/lib run in the browser: not even types from server/ (or through app/context.ts). */
  browserCodeImportsNoServer: {
    regex: '(^|/)server/|(^|/)context\\.ts$',
    message: 'Components and app/lib run in the browser and import nothing from server/, not even types. Declare shared types and constants in app/lib.',
  },
  /**
   * A feature's rules, schemas and texts (the `.ts` modules directly in its folder, but its hooks
   * and stores) are what the server may import: no React, no components (decision 110).
   */
  featureRulesArePure: {
    regex: '^(react|react-dom|react-router)(/|$)|\\.tsx$|(^|/)components/',
    message:
      "A feature's rules, schemas and texts (app/features/<name>/<module>.ts) are imported by the server too: no React, no components. Put React code in a .tsx module, a hook in use-*.ts or a store in *-store.ts (decision 110).",
  },
};

/**
 * The browser runs preact/compat where the server runs React (decision 039). These are the React
 * 19 APIs preact/compat 11 lacks (the browser bundle would fail or import undefined) or fakes (it
 * typechecks against React's types and does nothing right in the browser). The list is checked
 * against preact/compat's exports on every Preact or React update (decision 053).
 */
const reactApisTheBrowserLacks = [
  {
    name: 'react',
    importNames: [
      // Missing from preact/compat.
      'Activity',
      'Profiler',
      'ViewTransition',
      'act',
      'addTransitionType',
      'cache',
      'cacheSignal',
      'captureOwnerStack',
      'unstable_useCacheRefresh',
      'useActionState',
      // Faked: app/browser/react.ts's useOptimistic never shows the optimistic value, and
      // preact/compat's useTransition is never pending (its startTransition runs at once).
      'useOptimistic',
      'useTransition',
      // `React.x` would bypass the names above.
      'default',
    ],
    message:
      'The browser runs preact/compat, which lacks or fakes this React API (decision 039, 053); it typechecks and then breaks or does nothing in the browser.',
  },
  {
    name: 'react-dom',
    importNames: [
      'preconnect',
      'prefetchDNS',
      'preinit',
      'preinitModule',
      'preload',
      'preloadModule',
      'requestFormReset',
      'useFormState',
      'useFormStatus',
      'default',
    ],
    message: 'The browser runs preact/compat, which lacks this react-dom API (decision 039, 053); it typechecks and then breaks in the browser.',
  },
];

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
    // The demo inventory (and, in demo mode, its week of bookings) is loaded by the server entry.
    target: 'server/http/**',
    from: insideSubfolders('server/!(http)'),
    except: ['**/server/*/http/**', '**/server/db/demo/seed.ts', '**/server/db/demo/week.ts'],
    message: "The edge uses a domain's public modules (server/<domain>/*.ts), not its internals (decision 058).",
  },
];

/**
 * The browser code by feature (decision 110): each feature is a folder `app/features/<name>/`
 * holding its components, rules, schemas and texts. Its public surface is the modules directly
 * in that folder; its subfolders (texts/ with the JSON of its namespaces) are its own. Route
 * modules compose features; shared building blocks (app/components, app/lib) import none.
 */
const features = readdirSync(`${import.meta.dirname}/app/features`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const featureZones = features.map((feature) => ({
  target: ['app/!(features)/**', 'app/*.{ts,tsx}', `app/features/!(${feature})/**`, 'server/**', 'pwa/**', 'scripts/**'],
  from: insideSubfolders(`app/features/${feature}`),
  message: `Other code uses ${feature}'s public modules (app/features/${feature}/*.ts, *.tsx) only; its subfolders are its own (decision 110).`,
}));
/**
 * Every feature's browser code is in app/features/ (decision 110's two steps), so app/components
 * and app/lib are building blocks only, with no exception: the site layout, which composes the
 * search, the compare tray and the install button, is a route module (app/routes/site-layout.tsx),
 * and routes compose features.
 */
const sharedImportsNoFeature = {
  target: ['app/lib/**', 'app/components/**'],
  from: 'app/features/**',
  message:
    'Shared building blocks (app/lib, app/components) import no feature: what two features share moves here, what one feature owns stays in it (decision 110).',
};

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
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // Every package imported is declared in package.json: one that arrives only as another's
      // dependency can vanish or change version under us when that package updates.
      'import-x/no-extraneous-dependencies': ['error', { devDependencies: true, optionalDependencies: false, peerDependencies: false }],
    },
  },
  {
    // What the server and the pages run in production comes from `dependencies`; a type-only
    // import is erased at build time.
    files: ['server/**', 'app/**'],
    // app/routes.ts is read by the build (@react-router/dev), never run by the server.
    ignores: ['app/routes.ts'],
    rules: {
      'import-x/no-extraneous-dependencies': ['error', { devDependencies: false, optionalDependencies: false, peerDependencies: false, includeTypes: false }],
    },
  },
  {
    files: ['server/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [boundaries.serverImportsOnlyAppLib] }],
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: [...domainZones, ...featureZones] }],
      // The time comes from the clock handed in (services.clock, decision 016), so a rule can be
      // tested at any moment. new Date(ms) of a given time is fine.
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'Read the time from the clock handed in (services.clock.now()), not new Date().',
        },
        {
          selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
          message: 'Read the time from the clock handed in (services.clock.now()), not Date.now().',
        },
      ],
    },
  },
  {
    // The one place that reads the system's time.
    files: ['server/clock.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    // Everything under app/ may reach the browser. A later block replaces this rule's options
    // for its files, so the one below repeats the paths.
    files: ['app/**'],
    ignores: ['app/entry.server.tsx'],
    rules: { 'no-restricted-imports': ['error', { paths: reactApisTheBrowserLacks }] },
  },
  {
    // Route modules may import server code for their loaders and actions; the build refuses any
    // server module that page code pulls into the browser bundle (vite.config.ts).
    files: ['app/components/**', 'app/lib/**', 'app/features/**'],
    rules: { 'no-restricted-imports': ['error', { paths: reactApisTheBrowserLacks, patterns: [boundaries.browserCodeImportsNoServer] }] },
  },
  {
    // A feature's rules, schemas and texts, which the server may import too.
    files: ['app/features/*/*.ts'],
    ignores: ['app/features/*/use-*.ts', 'app/features/*/*-store.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: reactApisTheBrowserLacks, patterns: [boundaries.browserCodeImportsNoServer, boundaries.featureRulesArePure] },
      ],
    },
  },
  {
    // Browser code, the service worker and the scripts reach a feature through its public modules.
    files: ['app/**', 'pwa/**', 'scripts/**'],
    rules: { 'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: featureZones }] },
  },
  {
    files: ['app/components/**', 'app/lib/**'],
    rules: { 'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: [...featureZones, sharedImportsNoFeature] }] },
  },
  {
    files: ['**/*.{js,mjs}'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
