// Refuses an import cycle between features (app/features/<name>/) and between server domains
// (server/<domain>/), run by `npm run lint` after eslint (decision 110). import-x/no-cycle sees
// cycles between modules; this sees them between folders: compare importing emi while emi's card
// imports compare is a tangle even when no single module cycle closes. The graph is read with a
// regular expression over import specifiers (relative ones; packages are not folders of ours);
// type-only imports are erased at build time and are not counted, as in import-x/no-cycle.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// `--root=<folder>` checks another tree (tests/unit/import-cycles.test.ts gives it one with a cycle).
const root = path.resolve(process.argv.find((argument) => argument.startsWith('--root='))?.slice('--root='.length) ?? path.join(import.meta.dirname, '..'));

/**
 * Modules that put every domain together and belong to none, as server/http/app.ts does for the
 * requests: each domain's http/ adapters (the edge, decision 058: they read the session and answer
 * in HTTP, and no domain service imports them), the migrations (frozen history that may call a
 * rule as it stood), the settings every domain declares, put together and read (decision 109), the job registry (each domain's jobs), the list of every domain's personal data, the
 * demo's seed, and the commands that move or back up a whole installation. A domain never imports
 * them; they import the domains. Counted as part of no domain, so they close no cycle.
 */
const ASSEMBLY = [
  /^server\/[^/]+\/http\//,
  /^server\/db\/migrations\//,
  /^server\/jobs\/registry\.ts$/,
  /^server\/admin\/settings\.ts$/,
  /^server\/privacy\/all-personal-data\.ts$/,
  /^server\/db\/demo\//,
  /^server\/db\/migrate-to-postgres\.ts$/,
  /^server\/backups\/commands\.ts$/,
];
const isAssembly = (file) => ASSEMBLY.some((pattern) => pattern.test(path.relative(root, file).split(path.sep).join('/')));

const SPECIFIER = /(?:^|[\s;}])(?:import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]|\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

function filesUnder(folder) {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx|mjs|js)$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** The folder-level graph of a set of folders: `group/name` -> Map(`group/name` -> example import). */
function folderGraph(base, names) {
  const nodes = new Set(names.map((name) => path.join(base, name)));
  const graph = new Map([...nodes].map((node) => [node, new Map()]));
  const nodeOf = (file) => {
    const relative = path.relative(root, file).split(path.sep);
    const node = relative.slice(0, base.split('/').length + 1).join('/');
    return nodes.has(node) ? node : null;
  };
  for (const node of nodes) {
    for (const file of filesUnder(path.join(root, node))) {
      if (isAssembly(file)) continue;
      const source = readFileSync(file, 'utf8');
      for (const match of source.matchAll(SPECIFIER)) {
        if (match[1]) continue;
        const imported = path.resolve(path.dirname(file), match[2] ?? match[3]);
        const target = isAssembly(imported) ? null : nodeOf(imported);
        if (target && target !== node && !graph.get(node).has(target))
          graph.get(node).set(target, `${path.relative(root, file)} imports ${match[2] ?? match[3]}`);
      }
    }
  }
  return graph;
}

/** The cycles of a graph, one per strongly connected component of more than one folder (Tarjan). */
function cycles(graph) {
  let index = 0;
  const indexOf = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  const visit = (node) => {
    indexOf.set(node, index);
    low.set(node, index++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node).keys()) {
      if (!indexOf.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node), indexOf.get(next)));
    }
    if (low.get(node) === indexOf.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!indexOf.has(node)) visit(node);
  return components;
}

/** Says a component's dependencies, each with one import that makes it. */
function describe(graph, component) {
  const members = new Set(component);
  const lines = [`  ${component.join(', ')}:`];
  for (const from of component) for (const [to, example] of graph.get(from)) if (members.has(to)) lines.push(`    ${from} -> ${to} (${example})`);
  return lines.join('\n');
}

const directories = (folder) =>
  readdirSync(path.join(root, folder), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

let failed = false;
const features = folderGraph('app/features', directories('app/features'));
for (const component of cycles(features)) {
  failed = true;
  console.error(
    `Features import each other (decision 110): share through app/lib or app/components, or let one feature own it.\n${describe(features, component)}`,
  );
}

// server/http/ is the edge every domain shares (decision 058), not a domain.
const domains = folderGraph(
  'server',
  directories('server').filter((name) => name !== 'http'),
);
const domainCycles = cycles(domains);
if (process.argv.includes('--report')) {
  for (const component of domainCycles) console.log(`Server domains in a cycle:\n${describe(domains, component)}`);
  const mutual = [...domains].flatMap(([from, targets]) =>
    [...targets.keys()].filter((to) => from < to && domains.get(to).has(from)).map((to) => `${from} <-> ${to}`),
  );
  console.log(`Mutual imports:\n  ${mutual.join('\n  ')}`);
}
for (const component of domainCycles) {
  failed = true;
  console.error(
    `Server domains import each other (decisions 110, 113): let the lower one own what both need, or put them together in an assembly module.\n${describe(domains, component)}`,
  );
}
process.exit(failed ? 1 : 0);
