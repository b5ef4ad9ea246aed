// Renders bench/RESULTS.md from the per-section figures in bench/results/*.json.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const benchDir = path.resolve(import.meta.dirname, '..');
const resultsDir = path.join(benchDir, 'results');

function load(section) {
  const file = path.join(resultsDir, `${section}.json`);
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
}

const ms = (value) =>
  value === null || value === undefined || Number.isNaN(value) ? '—' : value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : value.toFixed(0);
const kb = (bytes) => `${(bytes / 1000).toFixed(1)} KB`;
const yes = (met) => (met === null || met === undefined ? '—' : met ? '**met**' : '**not met**');
const when = (iso) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;
const sizeLabel = (size) => (size >= 1000 ? `${size / 1000}k` : String(size));
const q = (query) => (query === '' ? '(empty)' : `\`${query}\``);
const loadNote = (data) => (data.load ? `load average (1 min) ${data.load.start} at start, ${data.load.end} at end` : '');
const stamp = (data) => `Run ${when(data.date)} on ${data.machine.nproc} CPUs, Node ${data.machine.node}; ${loadNote(data)}.`;

/** Why the slow SQLite queries are slow, read off the plans and statement times above. */
function sqliteWhy(dialect, target) {
  const largest = dialect.sizes.at(-1);
  const totals = new Map(largest.queries.map((entry) => [entry.query, entry.total]));
  const over = largest.queries.filter((entry) => entry.stats.p95 > target.p95Ms).map((entry) => entry.query);
  if (over.length === 0) return [];
  const plans = new Map(dialect.diagnostics.map((entry) => [entry.query, entry.statements]));
  const withPlan = (pattern, kind) =>
    over.filter((query) =>
      (plans.get(query) ?? []).some((statement) => (!kind || statement.kind === kind) && statement.plan.some((line) => pattern.test(line))),
    );
  const bytesPerRow = largest.storedBytes ? Math.round(largest.storedBytes / largest.size) : null;
  const lines = [`Why the queries over ${target.p95Ms} ms are slow (read off the plans):`, ''];
  const fullScans = withPlan(/^\s*SCAN vehicles$/);
  if (fullScans.length > 0) {
    lines.push(
      `- ${fullScans.map(q).join(', ')}: \`SCAN vehicles\` reads every row of the table, for the count and again for the page${bytesPerRow ? ` (rows are wide: about ${(bytesPerRow / 1000).toFixed(1)} KB each with description, search text and JSON maps)` : ''}. ` +
        'For the empty query the count could come from a covering index, but the join to `categories` needs `category_id` from each row; 1-2 letter words are matched with LIKE, which no index serves.',
    );
  }
  const sorted = withPlan(/USE TEMP B-TREE FOR ORDER BY/, 'page');
  if (sorted.length > 0) {
    lines.push(
      `- ${sorted.map(q).join(', ')}: \`USE TEMP B-TREE FOR ORDER BY\`: no index serves \`featured DESC, created_at DESC, id DESC\` among vehicles that are not sold ` +
        "(`vehicles_listing_idx` starts with `status`, which `!= 'sold'` cannot seek), so every match is read and sorted to keep 10.",
    );
  }
  const lookups = withPlan(/SEARCH vehicles USING INTEGER PRIMARY KEY/, 'count').filter((query) => totals.get(query) > 0);
  if (lookups.length > 0) {
    const perRow = lookups.map((query) => {
      const count = plans.get(query).find((statement) => statement.kind === 'count');
      return `${q(query)} ${((count.medianMs * 1000) / totals.get(query)).toFixed(1)} µs`;
    });
    lines.push(
      `- ${lookups.map(q).join(', ')}: the FTS5 trigram index finds the matches quickly, but both the count and the page then fetch every matching row by rowid ` +
        `(\`SEARCH vehicles USING INTEGER PRIMARY KEY\`) to check \`status\` and join the category, so the time grows with the number of matches (count statement per match: ${perRow.join(', ')}).`,
    );
  }
  return lines;
}

/** The search goal per database; older result files had one target, for SQLite. */
function searchTargets(data) {
  if (data.targets) return data.targets;
  return data.target?.worstP95Ms === null || !data.target ? [] : [{ dialect: 'sqlite', ...data.target }];
}

function searchSection(data) {
  const out = ['## 1. Search latency (`listVehicles`, in-process)', '', stamp(data), ''];
  out.push(
    'The real service function `listVehicles` (server/catalog/vehicles.ts) on a database built by the real migrations, page 1 with ' +
      `${data.perPage} per page, as the home page asks. The inventory is synthetic but shaped like the demo one: the demo vehicles as templates with other ` +
      'variants, years, prices, cities and description sentences; about 10% sold (they leave the listing), 2% reserved, 4% featured, 1-5 image rows each, ' +
      'and a rare classic (Hindustan Motors Ambassador, about 1 in 2,000). Sizes are built one after the other in the same database. ' +
      `Each query: ${data.warmup} warm-up calls, then repeated for ${data.budgetMs / 1000} s (at least 20, at most 300 calls); times in ms. ` +
      'PostgreSQL gets `VACUUM ANALYZE` after loading (autovacuum would do it within a minute); SQLite is measured as the product ships it (it never runs `ANALYZE`).',
    '',
  );
  const targets = searchTargets(data);
  if (data.totalsSeconds !== undefined) {
    out.push(
      `Each call is what a listing page asks for: the page of cars and the filter counts beside it. As deployed, each listing's count of matches and its filter counts are kept ${data.totalsSeconds} s (\`LISTING_TOTALS_SECONDS\`, server/catalog/listing-totals.ts, decision 042): every query starts with an empty cache, ` +
        'so its first call counts and groups (the "first call" column); the repeated calls then read the page only. The count statement alone is timed in the table of statements below.',
      '',
    );
  }
  for (const target of targets) {
    out.push(
      `**Target: p95 ≤ ${target.p95Ms} ms on ${target.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'} at ${sizeLabel(target.size)} vehicles, for every query of the mix: ${target.met ? 'met' : 'not met'}** (worst p95 ${ms(target.worstP95Ms)} ms, ${q(target.worstQuery ?? '')}).`,
      '',
    );
  }
  if (data.skipped.length > 0) out.push(`Skipped: ${data.skipped.join(', ')}.`, '');
  if (Array.isArray(data.parity)) {
    out.push(
      data.parity.length === 0
        ? 'Both databases hold the same inventory (same seed) and gave the same page (ids, order, count) for every query at every size.'
        : `**Pages that differ between SQLite and PostgreSQL**: ${data.parity.join('; ')}.`,
      '',
    );
  }
  for (const dialect of data.dialects) {
    const sizes = dialect.sizes;
    const target = targets.find((entry) => entry.dialect === dialect.dialect);
    const largestSize = sizes.at(-1);
    out.push(`### ${dialect.version}`, '');
    out.push(
      `| query | kind | matches (${sizes.map((entry) => sizeLabel(entry.size)).join(' / ')}) | ${sizes.map((entry) => `${sizeLabel(entry.size)}: p50 / p95 / mean`).join(' | ')} | first call at ${sizeLabel(largestSize.size)} |`,
    );
    out.push(`|---|---|---|${sizes.map(() => '---|').join('')}---|`);
    for (const [index, { query, kind }] of sizes[0].queries.entries()) {
      const cells = sizes.map((entry) => {
        const { stats } = entry.queries[index];
        const over = target && entry.size === target.size && stats.p95 > target.p95Ms;
        return `${ms(stats.p50)} / ${over ? '**' : ''}${ms(stats.p95)}${over ? '**' : ''} / ${ms(stats.mean)}`;
      });
      const matches = sizes.map((entry) => `${entry.queries[index].total}${entry.queries[index].totalCapped ? '+' : ''}`).join(' / ');
      out.push(`| ${q(query)} | ${kind} | ${matches} | ${cells.join(' | ')} | ${ms(largestSize.queries[index].firstMs)} |`);
    }
    const stored = (entry) => (entry.storedBytes ? `, ${(entry.storedBytes / 1e6).toFixed(0)} MB` : '');
    out.push(
      '',
      `Loading: ${sizes.map((entry) => `${sizeLabel(entry.size)} in ${entry.insertSeconds.toFixed(1)} s${stored(entry)}`).join('; ')} (batched multi-row inserts, cumulative; MB: ${dialect.dialect === 'sqlite' ? 'the database file' : 'the vehicles table with its indexes'}).`,
      '',
    );

    const largest = sizes.at(-1).size;
    out.push(
      `Where the time goes at ${sizeLabel(largest)}: each statement \`listVehicles\` sends, timed alone (median of 15, ms), with the plan of the page statement:`,
      '',
    );
    out.push('| query | count | page | covers | plan of the page statement |', '|---|---|---|---|---|');
    for (const { query, statements } of dialect.diagnostics) {
      const time = (kind) => ms(statements.find((statement) => statement.kind === kind)?.medianMs ?? null);
      const page = statements.find((statement) => statement.kind === 'page');
      const plan = (page?.plan ?? [])
        // PostgreSQL: only the plan nodes (the lines EXPLAIN ANALYZE gives actual rows for).
        .filter((line) => dialect.dialect === 'sqlite' || /\((actual|never executed)/.test(line))
        .map((line) =>
          line
            .trim()
            .replace(/^->\s+/, '')
            .replace(/\s*\((actual|never executed).*$/, '')
            .replace(/\|/g, '\\|'),
        )
        .join(' → ');
      out.push(`| ${q(query)} | ${time('count')} | ${time('page')} | ${time('covers')} | ${plan} |`);
    }
    out.push('');
    if (dialect.dialect === 'sqlite' && target) out.push(...sqliteWhy(dialect, target), '');
    out.push('<details><summary>Full plans and SQL</summary>', '');
    for (const { query, statements } of dialect.diagnostics) {
      out.push(`${q(query)}`, '', '```');
      for (const statement of statements)
        out.push(`-- ${statement.kind} (${ms(statement.medianMs)} ms): ${statement.sql.replace(/\s+/g, ' ')}`, ...statement.plan, '');
      out.push('```', '');
    }
    out.push('</details>', '');

    if (dialect.whatIf) {
      const { whatIf } = dialect;
      out.push(`#### What-if on SQLite at ${sizeLabel(largest)} (a sketch of the suggested fix, not product code)`, '');
      out.push(
        'Timed on the same database after the measurements above, through the same Kysely connection (p50 / p95 ms; counts checked equal to `listVehicles`):',
        '',
        "1. `CREATE INDEX … ON vehicles (featured, created_at) WHERE status != 'sold'`: the listing order, walked backwards (the rowid breaks ties, as `id DESC` asks), so a page reads 10 index entries instead of sorting every vehicle for sale;",
        '2. the FTS index holds only vehicles for sale (its triggers skip sold ones), so a search count is answered by the FTS index alone; other counts leave out the `categories` join, which never removes a row (`category_id` is NOT NULL with a RESTRICT foreign key) but makes SQLite read every wide vehicle row;',
        `3. the page statement walks that index when more than ${whatIf.walkAbove} vehicles match, and sorts the matches (FTS first) when fewer do;`,
        `4. last column only: the count stops at ${(whatIf.cap + 1).toLocaleString('en-IN')} ("${whatIf.cap.toLocaleString('en-IN')}+ vehicles found"), the one way found to bound 1-2 letter searches, which no trigram index can serve.`,
        '',
      );
      const shipped = new Map(sizes.at(-1).queries.map((entry) => [entry.query, entry.stats]));
      out.push('| query | matches | as shipped | with 1-3 | with 1-4 (capped count) |', '|---|---|---|---|---|');
      for (const entry of whatIf.queries) {
        const before = shipped.get(entry.query);
        out.push(
          `| ${q(entry.query)} | ${entry.total} | ${ms(before?.p50)} / ${ms(before?.p95)} | ${ms(entry.proposed.p50)} / ${ms(entry.proposed.p95)} | ${ms(entry.capped.p50)} / ${ms(entry.capped.p95)} |`,
        );
      }
      out.push('');
    }
  }
  return out;
}

const ssrTarget = (target) => `≥ ${target.ratio * 100}% of bare${target.cpuMs ? `, ≤ ${target.cpuMs} ms CPU` : ''}`;
const ssrLabel = (run) => (run.kind === 'cached' ? `cached \`${run.page}\`, signed out` : `uncached render of \`${run.page}\`, signed in`);

function ssrSection(data) {
  const out = ['## 2. Server-rendered pages per second', '', stamp(data), ''];
  if (!data.acceptEncoding) {
    out.push('(Figures from an older version of this benchmark; rerun `npm run bench -- ssr`.)', '');
    return out;
  }
  const env = Object.entries(data.env)
    .map(([key, value]) => `${key}=${value}`)
    .join(' ');
  out.push(
    `autocannon, ${data.connections} connections, ${data.durationSeconds} s per measurement after ${data.warmupSeconds} s of warm-up, loopback only, ` +
      `every request with \`Accept-Encoding: ${data.acceptEncoding}\` as a browser sends it, against the built server ` +
      `(a private copy of build/, SQLite, demo inventory, \`${env}\`) and, in the same run, against a bare \`node:http\` server answering ` +
      'every request with the exact bytes the app sent for that page (fetched once: the same compressed body, Content-Type and Content-Encoding). ' +
      'Both servers run as their own process; autocannon runs in the bench process (on a 2-CPU machine the load generator takes one CPU). ' +
      "Cached pages are the signed-out visitor's `/` and vehicle page, served from the page cache; the uncached render is `/` for a signed-in visitor (a real account and session), rendered for every request.",
    '',
    '| page | bytes on the wire | app req/s | bare req/s | app / bare | server CPU ms per request, app / bare | app latency p50 / p99 (ms) | non-2xx / errors | target | |',
    '|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const run of data.runs) {
    out.push(
      `| ${ssrLabel(run)} | ${run.bytes} (${run.contentEncoding || 'identity'}) | ${run.app.requestsPerSecond.toFixed(0)} | ${run.bare.requestsPerSecond.toFixed(0)} | ${(run.ratio * 100).toFixed(1)}% | ${run.app.cpuMsPerRequest?.toFixed(3) ?? '—'} / ${run.bare.cpuMsPerRequest?.toFixed(3) ?? '—'} | ${run.app.latencyMs.p50} / ${run.app.latencyMs.p99} | ${run.app.non2xx} / ${run.app.errors} | ${ssrTarget(run.target)} | ${yes(run.met)} |`,
    );
  }
  out.push(
    '',
    'The server CPU columns come from /proc: user + system CPU time of each server process over the measured period, divided by the requests it answered. ' +
      'They measure the cost of a request even when other work competes for the CPUs, which the rates do not.',
  );
  out.push(
    '',
    "`npm start` (server.js) and `npm run demo` set `NODE_ENV=production` unless it is already set, so they render with React's production build, like the rows above.",
    '',
  );
  return out;
}

function jsSection(data) {
  const out = ['## 3. Compressed JavaScript on first load', '', stamp(data), ''];
  out.push(
    'Every script the served HTML asks for (script `src`, `<link rel="modulepreload">`, the imports of the inline module script) and anything those import ' +
      'statically, each fetched from the built server with `Accept-Encoding: br` and then `gzip`; bytes are as sent on the wire (KB = 1,000 bytes). ' +
      `Target: at most ${kb(data.target.bytes)} per page.`,
    '',
    '| page | scripts | brotli | gzip | uncompressed | target (brotli and gzip) |',
    '|---|---|---|---|---|---|',
  );
  for (const page of data.pages)
    out.push(`| \`${page.page}\` | ${page.files.length} | ${kb(page.totals.br)} | ${kb(page.totals.gzip)} | ${kb(page.totals.identity)} | ${yes(page.met)} |`);
  out.push('');
  for (const page of data.pages) {
    out.push(`<details><summary>Files of <code>${page.page}</code></summary>`, '', '| file | brotli | gzip | uncompressed |', '|---|---|---|---|');
    for (const file of [...page.files].sort((a, b) => b.br - a.br))
      out.push(`| \`${file.src}\`${file.listedInHtml ? '' : ' (not preloaded)'} | ${file.br} | ${file.gzip} | ${file.identity} |`);
    out.push('', '</details>', '');
    if (page.notPreloaded.length > 0) out.push(`Imported but not preloaded on \`${page.page}\`: ${page.notPreloaded.join(', ')}.`, '');
    if (page.uncompressed.length > 0) out.push(`Sent without the asked-for compression on \`${page.page}\`: ${page.uncompressed.join(', ')}.`, '');
  }
  return out;
}

function lighthouseSection(data) {
  const out = ['## 4. Lighthouse, mobile', '', stamp(data), ''];
  const version = data.pages[0]?.median.lighthouseVersion ?? '?';
  out.push(
    `Lighthouse ${version} (npm) with its default mobile settings (emulated phone, simulated slow 4G, 4x CPU slowdown) in Debian's chromium ` +
      `(\`${data.chromePath}\`, flags \`${data.chromeFlags}\`), against the built server on loopback (SQLite, demo inventory). ` +
      `${data.runsPerPage} run${data.runsPerPage === 1 ? '' : 's'} per page; the run with the median performance score is shown. Target: performance ≥ ${data.target.performance}.`,
    '',
    '| page | performance | accessibility | best practices | SEO | LCP | CLS | TBT | FCP | Speed Index | all runs (performance) | target |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const page of data.pages) {
    const { scores, metrics } = page.median;
    out.push(
      `| \`${page.page}\` | ${scores.performance} | ${scores.accessibility} | ${scores['best-practices']} | ${scores.seo} | ${(metrics.lcpMs / 1000).toFixed(2)} s | ${metrics.cls.toFixed(3)} | ${metrics.tbtMs.toFixed(0)} ms | ${(metrics.fcpMs / 1000).toFixed(2)} s | ${(metrics.speedIndexMs / 1000).toFixed(2)} s | ${page.runs.map((run) => run.scores.performance).join(', ')} | ${yes(page.met)} |`,
    );
  }
  out.push('');
  for (const page of data.pages) {
    const { median } = page;
    const below = Object.entries(median.belowPar)
      .filter(([, audits]) => audits.length > 0)
      .map(([category, audits]) => `${category}: ${audits.join(', ')}`);
    out.push(`\`${page.page}\` (median run):`, '');
    if (below.length > 0) out.push(`- audits scoring under 0.9: ${below.join('; ')}`);
    if ((median.opportunities ?? []).length > 0)
      out.push(
        `- Lighthouse's estimated savings: ${median.opportunities.map((entry) => `${entry.id}${entry.detail ? ` (${entry.detail})` : ''}: LCP ${entry.lcpMs.toFixed(0)} ms, FCP ${entry.fcpMs.toFixed(0)} ms`).join('; ')}`,
      );
    out.push(`- LCP element: \`${(median.lcpElement ?? '—').slice(0, 120)}…\``);
    out.push(
      `- server response ${median.metrics.serverResponseMs?.toFixed(0)} ms, total transfer ${kb(median.totalByteWeight ?? 0)}, CPU benchmark index ${median.benchmarkIndex}`,
    );
    for (const warning of median.warnings) out.push(`- Lighthouse warning: ${warning.replace(/\s*Learn more[\s\S]*$/, '').replace(/\s+/g, ' ')}`);
    out.push('');
  }
  return out;
}

function attackSection(data) {
  const out = ['## 5. The home page under attack', '', stamp(data), ''];
  out.push(
    `\`/\` requested over ${data.connections} keep-alive connections for ${data.durationSeconds} s with \`Accept-Encoding: gzip, br\` like a browser ` +
      `(${data.homeBytes} bytes, ${data.encoding}), against the built server (a private copy of build/, SQLite, demo inventory, ` +
      `\`${Object.entries(data.env)
        .map(([key, value]) => `${key}=${value}`)
        .join(' ')}\`: every request rendered), first at rest and then, in the same run against the same server, ` +
      'while attackers keep posting. Each row keeps its attackers busy for the whole measurement:',
    '',
    '- **image bombs**: sell submissions of ten 59-megapixel PNGs (about 170 KB each, the probe of issue 8), each with a solved bot check from its own address, so they reach the image checks;',
    '- **largest allowed photos**: sell submissions of ten 12-megapixel photos (the 120-megapixel budget of one request), each with a solved bot check, so every photo is decoded and resized;',
    '- **oversize bodies**: 64 MiB posts to `/sell-vehicle`, `/sell-vehicle.data`, `/login.data` and `/login`, with and without Content-Length, from one address, written as fast as loopback takes them.',
    '',
    'Each kind alone first, then image submissions and oversize bodies at once (the probe). The attackers run in a process of their own.',
    '',
    'Latencies in ms from every request (not sampled). Server CPU: user + system seconds of the server process during the measurement (/proc). Peak RSS: the server process, sampled every 100 ms.',
    '',
    '| condition | `/` p50 | `/` p95 | `/` p99 | `/` req/s | attack requests answered (status: count) | server CPU s | peak RSS MB |',
    '|---|---|---|---|---|---|---|---|',
  );
  const statuses = (bucket) =>
    Object.entries(bucket)
      .map(([status, count]) => `${status}: ${count}`)
      .join(', ') || '—';
  out.push(
    `| at rest | ${ms(data.rest.home.stats.p50)} | ${ms(data.rest.home.stats.p95)} | ${ms(data.rest.home.stats.p99)} | ${data.rest.home.requestsPerSecond.toFixed(0)} | — | ${data.rest.serverCpuSeconds.toFixed(1)} | ${data.rest.peakRssMb?.toFixed(0) ?? '—'} |`,
  );
  for (const run of data.runs) {
    const condition = [run.images !== 'none' ? `${run.attackers} × ${run.images}` : null, run.bodies ? `${run.attackers} × oversize bodies` : null]
      .filter(Boolean)
      .join(' + ');
    out.push(
      `| ${condition} | ${ms(run.home.stats.p50)} | ${ms(run.home.stats.p95)} | ${ms(run.home.stats.p99)} | ${run.home.requestsPerSecond.toFixed(0)} | submissions ${statuses(run.attack.submissions)}; oversize ${statuses(run.attack.oversize)} | ${run.serverCpuSeconds.toFixed(1)} | ${run.peakRssMb.toFixed(0)} |`,
    );
  }
  out.push(
    '',
    'Image work runs through a server-wide queue of `IMAGE_CONCURRENCY` slots (1 here) with one libvips thread each, so on 2 CPUs one stays for the pages; ' +
      'oversize bodies are refused by their length or cut off at the path limit before anything is parsed (docs/decisions/011). ' +
      'After refusing a body it has not read, the server (@hono/node-server) still reads and discards up to 64 MB of it (at most half a second) before closing the ' +
      'connection, so that the client can read the answer: on loopback, where an attacker writes gigabytes a second, that discarding is what the oversize rows cost. ' +
      'A status 0 is a connection closed before the client read the answer.',
    '',
  );
  return out;
}

function summary(search, ssr, js, lighthouse, attack, scale, mix, inp, writes) {
  const rows = [];
  if (writes)
    rows.push(
      `| concurrent writes to different cars on PostgreSQL (${writes.concurrency} writers): writes/s with the catalogue version ÷ without it (load average ${writes.load.start} → ${writes.load.end}) | ≥ ${WRITES_TARGET * 100}% | ${(writes.ratio * 100).toFixed(1)}% (${writes.shipped.toFixed(0)} vs ${writes.without.toFixed(0)} writes/s; one row: ${(writes.oneRowRatio * 100).toFixed(1)}%) | ${yes(writes.ratio >= WRITES_TARGET)} |`,
    );
  for (const target of search ? searchTargets(search) : []) {
    rows.push(
      `| search p95 on ${target.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'} at ${sizeLabel(target.size)}, worst query of the mix (load average ${search.load.start} → ${search.load.end}) | ≤ ${target.p95Ms} ms | ${ms(target.worstP95Ms)} ms (${q(target.worstQuery ?? '')}) | ${yes(target.met)} |`,
    );
  }
  for (const run of ssr?.acceptEncoding ? ssr.runs : []) {
    const cpu = run.target.cpuMs ? `, ${run.app.cpuMsPerRequest?.toFixed(2) ?? '—'} ms CPU` : '';
    rows.push(
      `| SSR ${ssrLabel(run)}, \`${ssr.acceptEncoding}\`: app req/s ÷ bare node:http req/s (same bytes) | ${ssrTarget(run.target)} | ${(run.ratio * 100).toFixed(1)}% (${run.app.requestsPerSecond.toFixed(0)} vs ${run.bare.requestsPerSecond.toFixed(0)} req/s)${cpu} | ${yes(run.met)} |`,
    );
  }
  for (const page of js?.pages ?? [])
    rows.push(
      `| compressed JS on first load of \`${page.page}\` | ≤ ${kb(js.target.bytes)} | ${kb(page.totals.br)} brotli, ${kb(page.totals.gzip)} gzip | ${yes(page.met)} |`,
    );
  for (const page of inp?.pages ?? [])
    rows.push(
      `| INP of changing a filter on \`${page.page}\`, ${inp.target.viewport} px, CPU ÷${inp.target.cpuSlowdown} (load average ${inp.load.start} → ${inp.load.end}) | ≤ ${inp.target.ms} ms | ${page.medianMs} ms (rounds: ${page.rounds.map((entry) => entry.inp).join(', ')}) | ${yes(page.met)} |`,
    );
  for (const page of lighthouse?.pages ?? [])
    rows.push(
      `| Lighthouse mobile performance, \`${page.page}\` | ≥ ${lighthouse.target.performance} | ${page.median.scores.performance} (runs: ${page.runs.map((run) => run.scores.performance).join(', ')}) | ${yes(page.met)} |`,
    );
  for (const comparison of scale?.comparisons ?? []) {
    const [small, large] = [scale.sizes[0].size, scale.sizes.at(-1).size];
    rows.push(
      `| \`${comparison.page}\` over HTTP (uncached render), ${sizeLabel(large)} vs ${sizeLabel(small)} vehicles: req/s slowdown | ≤ ${scale.targets.slowdown}× | ${comparison.slowdown.toFixed(2)}× (CPU per request ${comparison.cpuRatio?.toFixed(2) ?? '—'}×) | ${yes(comparison.met)} |`,
    );
  }
  for (const comparison of mix?.comparisons ?? []) {
    const database = comparison.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL';
    rows.push(
      `| listing, ${mix.queries} distinct queries each asked once, on ${database}: p95 at ${sizeLabel(comparison.large)} ÷ p95 at ${sizeLabel(comparison.small)} | ≤ ${mix.targets.ratio}× | ${comparison.ratio.toFixed(2)}× | ${yes(comparison.met.ratio)} |`,
    );
    rows.push(
      `| listing, ${mix.queries} distinct queries each asked once, on ${database}: p95 at ${sizeLabel(comparison.large)} | ≤ ${mix.targets.p95Ms} ms | ${ms(comparison.p95Ms)} ms | ${yes(comparison.met.p95)} |`,
    );
    rows.push(
      `| unfiltered listing's first call at ${sizeLabel(comparison.large)} on ${database}, once the server says it is ready | ≤ ${mix.targets.firstCallMs} ms | ${ms(comparison.firstCallMs)} ms | ${yes(comparison.met.firstCall)} |`,
    );
    if (comparison.firstFilteredMs !== undefined)
      rows.push(
        `| first listing of filters nobody asked before (\`body=suv\`) at ${sizeLabel(comparison.large)} on ${database} | — | ${ms(comparison.firstFilteredMs)} ms | — |`,
      );
  }
  if (scale)
    rows.push(
      `| server RSS at ${sizeLabel(scale.rss.size)} vehicles after the load run | ≤ ${scale.targets.rssMb} MB | ${scale.rss.afterRssMb?.toFixed(0) ?? '—'} MB | ${yes(scale.rss.met)} |`,
    );
  for (const run of (attack?.runs ?? []).filter((entry) => entry.images !== 'none' && entry.bodies)) {
    rows.push(
      `| \`/\` p95 under ${run.attackers} × ${run.images} + ${run.attackers} × oversize bodies (at rest in the same run: ${ms(attack.rest.home.stats.p95)} ms) | — | ${ms(run.home.stats.p95)} ms | — |`,
    );
  }
  return rows.length > 0 ? ['## Summary', '', '| benchmark | target | result | |', '|---|---|---|---|', ...rows, ''] : [];
}

function scaleSection(data) {
  const out = ['## 6. The listing over HTTP at 100k vehicles against 1k; server memory', '', stamp(data), ''];
  const [small, large] = [data.sizes[0], data.sizes.at(-1)];
  out.push(
    `The built server (a private copy of build/, SQLite, \`${Object.entries(data.env)
      .map(([key, value]) => `${key}=${value}`)
      .join(' ')}\`) started on a database holding the synthetic inventory of section 1, ` +
      `first with ${sizeLabel(small.size)} cars, then with ${sizeLabel(large.size)}; each page loaded by autocannon (${data.connections} connections, ${data.durationSeconds} s after ${data.warmupSeconds} s of warm-up, \`Accept-Encoding: gzip, br\`). ` +
      'The page cache is off, so every request renders and queries; listing counts are kept as deployed. ' +
      `Slowdown: req/s at ${sizeLabel(small.size)} ÷ req/s at ${sizeLabel(large.size)} (target ≤ ${data.targets.slowdown}×); the server's CPU per request gives the same comparison unaffected by other work on the machine.`,
    '',
    `| page | ${sizeLabel(small.size)}: req/s, p50 ms, CPU ms/req | ${sizeLabel(large.size)}: req/s, p50 ms, CPU ms/req | slowdown (req/s) | CPU per request, ratio | |`,
    '|---|---|---|---|---|---|',
  );
  const cell = (entry) =>
    `${entry.requestsPerSecond.toFixed(0)}, ${entry.latencyMs.p50}, ${entry.cpuMsPerRequest?.toFixed(2) ?? '—'}${entry.non2xx || entry.errors ? ` (non-2xx ${entry.non2xx}, errors ${entry.errors})` : ''}`;
  for (const [index, comparison] of data.comparisons.entries()) {
    out.push(
      `| \`${comparison.page}\` | ${cell(small.pages[index])} | ${cell(large.pages[index])} | ${comparison.slowdown.toFixed(2)}× | ${comparison.cpuRatio?.toFixed(2) ?? '—'}× | ${yes(comparison.met)} |`,
    );
  }
  out.push(
    '',
    `Server resident memory (VmRSS): ${sizes(data)}. Target after the load at ${sizeLabel(large.size)}: ≤ ${data.targets.rssMb} MB: ${yes(data.rss.met)}.`,
    '',
  );
  return out;
}

/** The catalogue version may cost concurrent car writes at most a fifth of their rate. */
const WRITES_TARGET = 0.8;

function writesSection(data) {
  return [
    '## 8. Writes to cars on PostgreSQL: what the catalogue version costs',
    '',
    stamp(data),
    '',
    `bench/catalogue-writes.ts: ${data.concurrency} writers, each writing its own cars among ${data.cars} (a reservation's shape: update the car, read its photos, update it again, commit), for ${data.seconds} s per round, ${data.rounds} rounds, the three ways alternating. ` +
      'Every write to `vehicles` bumps `catalogue_version` in its transaction, which tells every instance that its listing index is out of date (decision 082, amended).',
    '',
    '| the version kept | writes/s (median) | rounds | ÷ without |',
    '|---|---|---|---|',
    `| in 64 rows, the transaction's own (as shipped, migration 040) | ${data.shipped.toFixed(0)} | ${data.samples['as shipped'].map((value) => value.toFixed(0)).join(', ')} | ${(data.ratio * 100).toFixed(1)}% |`,
    `| in one row (migration 026) | ${data.oneRow.toFixed(0)} | ${data.samples['one row'].map((value) => value.toFixed(0)).join(', ')} | ${(data.oneRowRatio * 100).toFixed(1)}% |`,
    `| not at all (trigger off) | ${data.without.toFixed(0)} | ${data.samples['without the version'].map((value) => value.toFixed(0)).join(', ')} | 100% |`,
    '',
  ];
}

function mixSection(data) {
  const out = ['## 7. The listing as visitors ask for it: distinct queries, each asked once', '', stamp(data), ''];
  out.push(
    `A seeded generator (bench/listing-mix.ts) makes ${data.queries} distinct listing pages (search words, about a fifth of them misspelt, make, fuel, budget, transmission, sort, page) and ${data.queries} other distinct API queries. ` +
      `The built server answers each once, one visitor at a time, over HTTP with \`Accept-Encoding: gzip, br\`: \`${Object.entries(data.env)
        .map(([key, value]) => `${key}=${value}`)
        .join(' ')}\`, so nothing is answered from the page cache and each listing's counts are counted on their first ask. ` +
      "The first call is the unfiltered listing (`/api/v1/vehicles`) once the server says it is ready (`/readyz`), as a load balancer sends it: the cold figure. The server renders the listing page, that listing and a car for itself before it says so (decision 088), so the first call of a listing whose filters nobody asked before (`body=suv`, one pass over every car with its counts) is shown beside it. Ten pages of filters only (no search words, none of the mix's combinations) follow before the mix, so it measures a running server rather than a new process's first seconds. Times are wall-clock at the client, in ms.",
    '',
    '| database | cars | first call (first filtered) | pages p50 | pages p95 | pages max | API p50 | API p95 | API max | slowest pages |',
    '|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const run of data.runs) {
    const slow = run.slowest
      .slice(0, 3)
      .map((entry) => `\`${entry.query || '(empty)'}\` ${ms(entry.ms)}`)
      .join('; ');
    out.push(
      `| ${run.dialect} | ${sizeLabel(run.size)} | ${ms(run.firstCallMs)}${run.firstFilteredMs === undefined ? '' : ` (${ms(run.firstFilteredMs)})`} | ${ms(run.page.p50)} | ${ms(run.page.p95)} | ${ms(run.page.max)} | ${ms(run.api.p50)} | ${ms(run.api.p95)} | ${ms(run.api.max)} | ${slow} |`,
    );
  }
  out.push('');
  for (const comparison of data.comparisons) {
    out.push(
      `- ${comparison.dialect}: pages p95 ${ms(comparison.p95Ms)} ms at ${sizeLabel(comparison.large)}, ${comparison.ratio.toFixed(2)}× the p95 at ${sizeLabel(comparison.small)} (API ${comparison.apiRatio.toFixed(2)}×); first call ${ms(comparison.firstCallMs)} ms${comparison.firstFilteredMs === undefined ? '' : `, first filtered listing ${ms(comparison.firstFilteredMs)} ms`}.`,
    );
  }
  if (data.skipped.length > 0) out.push(`- Skipped: ${data.skipped.join(', ')}.`);
  out.push('');
  return out;
}

const sizes = (data) =>
  data.sizes
    .map((entry) => `${sizeLabel(entry.size)}: ${entry.idleRssMb?.toFixed(0) ?? '—'} MB idle, ${entry.afterRssMb?.toFixed(0) ?? '—'} MB after the load`)
    .join('; ');

export function renderResults() {
  const search = load('search');
  const ssr = load('ssr');
  const js = load('js');
  const lighthouse = load('lighthouse');
  const attack = load('attack');
  const scale = load('scale');
  const mix = load('mix');
  const inp = load('inp');
  const writes = load('writes');
  const latest = [search, ssr, js, lighthouse, attack, scale, mix, inp, writes].filter(Boolean).sort((a, b) => b.date.localeCompare(a.date))[0];
  const out = ['# Benchmark results', ''];
  out.push(
    'Generated by `npm run bench` (bench/run.mjs) from the figures in `bench/results/*.json`; each section says when it was last run. Do not edit by hand.',
    '',
  );
  if (latest) {
    const m = latest.machine;
    out.push(`Machine: ${m.nproc} CPUs (\`nproc\`), ${m.cpu}, ${m.memoryGiB} GiB memory, ${m.os}; Node ${m.node}. Written ${when(latest.date)}.`, '');
    // The benchmark itself keeps about two processes busy (load generator and server).
    const loads = [search, ssr, js, lighthouse, attack, scale, mix, inp, writes]
      .filter(Boolean)
      .map((data) => Math.max(data.load?.start ?? 0, data.load?.end ?? 0));
    if (Math.max(...loads) > m.nproc + 2) {
      out.push(
        `Note: during some sections the load average went above the CPU count plus the benchmark's own two busy processes: other work was running on the machine, which inflates latencies and lowers throughput. Each section gives its load; compare runs made under similar load.`,
        '',
      );
    }
  }
  out.push(
    '## How to rerun',
    '',
    '```sh',
    'npm run bench                      # all nine sections (builds first; about 25 minutes)',
    'npm run bench -- search            # one or more sections: search ssr js lighthouse attack scale mix inp writes',
    'npm run bench -- writes --concurrency=16 --seconds=3 --rounds=3',
    'npm run bench -- inp --runs=5',
    'npm run bench -- mix --sizes=1000,100000 --dialects=sqlite,postgres --queries=120',
    'npm run bench -- scale --duration=5 --sizes=1000,100000',
    'npm run bench -- search --sizes=1000,10000 --dialects=sqlite --budget-ms=1000',
    'npm run bench -- ssr --duration=10 --connections=10 --modes=render,page-cache',
    'npm run bench -- lighthouse --runs=3',
    'npm run bench -- attack --duration=10 --connections=10 --attackers=5',
    'npm run bench -- --no-build ssr js # reuse the current build/',
    'npm run bench -- --report          # only rewrite RESULTS.md from bench/results/',
    '```',
    '',
    'Needs Node 24 through npm (`npm run`/`npm exec`), PostgreSQL on 127.0.0.1:5432 as `postgres` for the PostgreSQL half of `search` ' +
      '(`TEST_POSTGRES_URL` overrides; skipped when not reachable), and chromium at /usr/bin/chromium (`CHROME_PATH` overrides) for `lighthouse`. ' +
      'Everything runs on loopback with temporary data directories and databases, removed afterwards.',
    '',
  );
  out.push(...summary(search, ssr, js, lighthouse, attack, scale, mix, inp, writes));
  // Written by hand beside the figures: why a goal is not met with this stack (bench/LIMITS.md).
  const limits = path.join(benchDir, 'LIMITS.md');
  if (existsSync(limits)) out.push(readFileSync(limits, 'utf8').trim(), '');
  if (search) out.push(...searchSection(search));
  if (ssr) out.push(...ssrSection(ssr));
  if (js) out.push(...jsSection(js));
  if (lighthouse) out.push(...lighthouseSection(lighthouse));
  if (attack) out.push(...attackSection(attack));
  if (scale) out.push(...scaleSection(scale));
  if (mix) out.push(...mixSection(mix));
  if (writes) out.push(...writesSection(writes));
  writeFileSync(path.join(benchDir, 'RESULTS.md'), `${out.join('\n').replace(/\n{3,}/g, '\n\n')}\n`);
}
