/* global document, window -- the functions given to page.evaluate and waitForFunction run in the page. */
/**
 * Section 8: how soon the listing answers a tap on a phone (issue 30). Interaction to Next
 * Paint of changing a filter, measured in Debian's chromium at 375 × 667 with the CPU slowed
 * 4× (DevTools' "mid-tier mobile"), on the built server: open the filter sheet, tick a fuel,
 * then show the cars. The browser's own Event Timing entries give each interaction's latency
 * (input delay, handlers and the next paint); a round's INP is its slowest interaction (fewer
 * than 50 interactions). Each round loads the page afresh; the median round is reported.
 *
 *   npm run bench -- inp [--runs=5]
 */
import { chromium } from 'playwright-core';
import { loadAverage, option, writeResult } from './lib/common.ts';
import { snapshotBuild, startServer } from './lib/server.mjs';

const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const RUNS = Number(option('runs') ?? 5);
const TARGET_MS = 200;
const CPU_SLOWDOWN = 4;

/** Kept from the first moment of each page: every interaction's slowest event. */
const RECORD_INTERACTIONS = `
  window.__interactions = {};
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (!entry.interactionId) continue;
      const kept = window.__interactions[entry.interactionId];
      if (!kept || entry.duration > kept.duration) window.__interactions[entry.interactionId] = { name: entry.name, duration: entry.duration, target: entry.target?.textContent?.trim().slice(0, 40) ?? '' };
    }
  }).observe({ type: 'event', durationThreshold: 16, buffered: true });
`;

async function round(browser, url, language) {
  const context = await browser.newContext({ viewport: { width: 375, height: 667 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, locale: 'en-IN' });
  const page = await context.newPage();
  await page.addInitScript(RECORD_INTERACTIONS);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  await page.goto(`${url}${language === 'hi' ? '/hi' : '/'}`, { waitUntil: 'networkidle' });
  // The filter options hydrate after the page (app/components/later-hydration.tsx): wait for them as a visitor would.
  await page.waitForTimeout(1500);
  await page.locator('a[href="#filters"]').first().tap();
  await page.locator('#filters input[name="fuel"]').first().waitFor({ state: 'visible' });
  await page
    .locator('#filters label.filter-option', { has: page.locator('input[name="fuel"]') })
    .first()
    .tap();
  // The live count answers (the button says how many cars), then the visitor shows them.
  await page.waitForFunction(() => !document.querySelector('#filters button[type="submit"][aria-busy="true"]'));
  const before = page.url();
  await page.locator('#filters button[type="submit"]').tap();
  await page.waitForURL((address) => address.href !== before);
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(500);
  const interactions = Object.values(await page.evaluate(() => window.__interactions));
  await context.close();
  const inp = Math.max(0, ...interactions.map((interaction) => interaction.duration));
  return { inp, interactions };
}

const loadStart = loadAverage();
const snapshot = await snapshotBuild();
const results = [];
try {
  const server = await startServer(snapshot.dir);
  const browser = await chromium.launch({ executablePath: CHROME_PATH, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    for (const language of ['en', 'hi']) {
      const rounds = [];
      for (let run = 0; run < RUNS; run++) rounds.push(await round(browser, server.url, language));
      const sorted = rounds.map((entry) => entry.inp).sort((a, b) => a - b);
      const median = sorted[Math.floor(sorted.length / 2)];
      console.log(`${language}: INP per round ${sorted.join(', ')} ms, median ${median} ms`);
      results.push({ page: language === 'hi' ? '/hi' : '/', medianMs: median, rounds, met: median <= TARGET_MS });
    }
  } finally {
    await browser.close();
    await server.stop();
  }
} finally {
  await snapshot.remove();
}
writeResult('inp', {
  load: { start: loadStart, end: loadAverage() },
  target: { ms: TARGET_MS, cpuSlowdown: CPU_SLOWDOWN, viewport: '375x667' },
  pages: results,
});
