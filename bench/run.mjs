// Entry of `npm run bench`: runs the benchmark sections, each in its own process, then writes
// bench/RESULTS.md from their figures (bench/results/<section>.json).
//
//   npm run bench                        all sections
//   npm run bench -- search js           some sections (search, ssr, js, lighthouse, attack, scale, mix, inp)
//   npm run bench -- --no-build ssr      skip `npm run build` (ssr, js and lighthouse use build/)
//   npm run bench -- --report            only rewrite RESULTS.md
// Other --name=value options go to every section (see the top of each section's file).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { renderResults } from './lib/report.mjs';

const SECTIONS = {
  search: 'search.ts',
  ssr: 'ssr.mjs',
  js: 'js-size.mjs',
  lighthouse: 'lighthouse.mjs',
  attack: 'attack.mjs',
  scale: 'scale.ts',
  mix: 'listing-mix.ts',
  inp: 'inp.mjs',
  writes: 'catalogue-writes.ts',
};
const NEEDS_BUILD = new Set(['ssr', 'js', 'lighthouse', 'attack', 'scale', 'mix', 'inp']);

const major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  console.error(`Node ${process.version}: the benchmarks need Node 24 (node:sqlite, TypeScript type stripping). Run them through npm: npm run bench`);
  process.exit(1);
}

const args = process.argv.slice(2);
const flags = new Set(args.filter((arg) => arg.startsWith('--') && !arg.includes('=')));
const options = args.filter((arg) => arg.startsWith('--') && arg.includes('='));
const named = args.filter((arg) => !arg.startsWith('--'));
const unknown = named.filter((name) => !(name in SECTIONS));
if (unknown.length > 0) {
  console.error(`Unknown section(s): ${unknown.join(', ')}. Sections: ${Object.keys(SECTIONS).join(', ')}`);
  process.exit(2);
}

const root = path.resolve(import.meta.dirname, '..');
const failed = [];
if (!flags.has('--report')) {
  const chosen = named.length > 0 ? named : Object.keys(SECTIONS);
  if (chosen.some((name) => NEEDS_BUILD.has(name)) && !flags.has('--no-build')) {
    console.log('> npm run build');
    const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) {
      console.error('The build failed; nothing was measured.');
      process.exit(1);
    }
  }
  for (const name of chosen) {
    console.log(`\n> bench ${name}`);
    const run = spawnSync(process.execPath, [path.join(import.meta.dirname, SECTIONS[name]), ...options], { cwd: root, stdio: 'inherit' });
    if (run.status !== 0) {
      console.error(`bench ${name} failed (exit ${run.status ?? run.signal}); its previous figures, if any, stay in RESULTS.md`);
      failed.push(name);
    }
  }
}
renderResults();
console.log('\nwrote bench/RESULTS.md');
if (failed.length > 0) process.exit(1);
