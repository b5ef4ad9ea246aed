/**
 * Section 3: compressed JavaScript a first visit downloads, for the home page, a vehicle page
 * and the rental page, in English and in Hindi. Every script the served HTML names (script src, modulepreload links, imports in inline
 * module scripts) plus anything those import statically, fetched as the server sends it with
 * Accept-Encoding br and then gzip; the bytes counted are the bytes on the wire.
 *
 *   npm run bench -- js
 */
import { URL } from 'node:url';
import { loadAverage, writeResult } from './lib/common.ts';
import { get } from './lib/http.mjs';
import { measureBudgetPages } from './lib/server.mjs';

const TARGET_BYTES = 100_000; // 100 KB, counted as 1,000 bytes per KB

/** Script URLs the HTML asks for on first load (not the route manifest's lazy entries). */
function scriptsInHtml(html) {
  const found = new Set();
  for (const match of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) found.add(match[1]);
  for (const match of html.matchAll(/<link\b[^>]*>/g)) {
    const tag = match[0];
    if (/\brel="modulepreload"/.test(tag)) found.add(/\bhref="([^"]+)"/.exec(tag)?.[1]);
  }
  for (const match of html.matchAll(/<script\b[^>]*type="module"[^>]*>([\s\S]*?)<\/script>/g)) {
    // Only the import statements: the manifest inside names modules that are not loaded.
    for (const imported of match[1].matchAll(/\bimport\s*(?:[\w*{}\s,$]+\s*from\s*)?["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g)) {
      found.add(imported[1] ?? imported[2]);
    }
  }
  found.delete(undefined);
  return [...found];
}

/** Static imports of a built module (`import ... from "./x.js"`, `import "./x.js"`), resolved. */
function staticImports(source, base) {
  const found = new Set();
  for (const match of source.matchAll(/\b(?:import|export)\s*(?:[\w*{}\s,$]+\s*from\s*)?["'](\.{1,2}\/[^"']+|\/[^"']+)["']/g)) {
    found.add(new URL(match[1], base).pathname);
  }
  return [...found];
}

async function measurePage(server, page) {
  const html = await get(`${server.url}${page}`);
  if (html.status !== 200) throw new Error(`${page} answered ${html.status}`);
  const listed = scriptsInHtml(html.body.toString());
  const queue = [...listed];
  const seen = new Set(queue);
  const files = [];
  while (queue.length > 0) {
    const src = queue.shift();
    const url = new URL(src, server.url);
    const plain = await get(url.href);
    if (plain.status !== 200) throw new Error(`${src} answered ${plain.status}`);
    const entry = { src, listedInHtml: listed.includes(src), identity: plain.body.length };
    for (const encoding of ['br', 'gzip']) {
      const response = await get(url.href, { 'accept-encoding': encoding });
      entry[encoding] = response.body.length;
      entry[`${encoding}Encoding`] = response.headers['content-encoding'] ?? 'identity';
    }
    files.push(entry);
    for (const imported of staticImports(plain.body.toString(), url.href)) {
      if (!seen.has(imported)) {
        seen.add(imported);
        queue.push(imported);
      }
    }
  }
  const sum = (key) => files.reduce((total, file) => total + file[key], 0);
  const totals = { identity: sum('identity'), br: sum('br'), gzip: sum('gzip') };
  const uncompressed = files.filter((file) => file.brEncoding !== 'br' || file.gzipEncoding !== 'gzip').map((file) => file.src);
  return {
    page,
    files,
    totals,
    notPreloaded: files.filter((file) => !file.listedInHtml).map((file) => file.src),
    uncompressed,
    met: totals.br <= TARGET_BYTES && totals.gzip <= TARGET_BYTES,
  };
}

const loadStart = loadAverage();
// The budget's pages (issue 13): the listing, a car, and the rental entry, in both languages (issue 29).
const pages = await measureBudgetPages(
  async (server, page) => {
    const result = await measurePage(server, page);
    console.log(`${page}: ${result.files.length} scripts, br ${result.totals.br} B, gzip ${result.totals.gzip} B, identity ${result.totals.identity} B`);
    return result;
  },
  { hindi: true },
);
writeResult('js', { load: { start: loadStart, end: loadAverage() }, target: { bytes: TARGET_BYTES }, pages });
