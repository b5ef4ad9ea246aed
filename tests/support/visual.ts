import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';

/**
 * Visual baselines: a screenshot of the screen as the visitor first sees it, compared with the
 * one committed under tests/e2e/baselines/. Both are scaled down to at most 640 px wide (a phone's
 * 2× screenshot to its 375 CSS pixels, a 1280 px desktop to half) first, and a pixel counts as changed only when a colour channel moved by more than CHANNEL_TOLERANCE,
 * so font anti-aliasing and sub-pixel positioning pass while a moved button, a new line of text
 * or another colour fails. `UPDATE_BASELINES=1` writes the baselines instead (then look at them
 * and commit them): a change to a page's look is made on purpose.
 */

export const baselineDir = path.resolve(import.meta.dirname, '../e2e/baselines');
const resultDir = path.resolve(import.meta.dirname, '../../test-results/visual');
/** A channel (0–255) moving by more than this is a changed pixel. */
const CHANNEL_TOLERANCE = 40;
/**
 * More than this share of changed pixels is a real difference. Text drawn again after
 * hydration comes out with other anti-aliasing now and then: 0.55–0.59% of /rent at 375 px,
 * every glyph of its bold labels a few pixels off, nothing moved. A block that moves or
 * changes colour changes several percent.
 */
export const CHANGED_SHARE_LIMIT = 0.01;

export const updatingBaselines = process.env.UPDATE_BASELINES === '1';

async function scaledDown(png: Buffer, cssWidth: number): Promise<{ data: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(png)
    .resize({ width: Math.min(cssWidth, 640) })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

export type VisualResult = { baseline: string; changedShare: number; sizeChanged: boolean; missing: boolean };

/**
 * Screenshots the viewport (animations off, caret hidden, `mask` painted over: text that changes
 * by the day) and compares it with the baseline `name`. Writes the screenshot and a map of the
 * changed pixels to test-results/visual/ when they differ.
 */
export async function compareWithBaseline(page: Page, name: string, options: { mask?: Locator[] } = {}): Promise<VisualResult> {
  const width = page.viewportSize()?.width ?? 1280;
  const shot = await page.screenshot({ animations: 'disabled', caret: 'hide', mask: options.mask ?? [], maskColor: '#ff00ff' });
  const actual = await scaledDown(shot, width);
  const baseline = path.join(baselineDir, `${name}.png`);
  const encoded = await sharp(actual.data, { raw: { width: actual.width, height: actual.height, channels: 3 } })
    .png({ compressionLevel: 9 })
    .toBuffer();
  if (updatingBaselines) {
    await mkdir(baselineDir, { recursive: true });
    await writeFile(baseline, encoded);
    return { baseline, changedShare: 0, sizeChanged: false, missing: false };
  }
  let expectedPng: Buffer;
  try {
    expectedPng = await readFile(baseline);
  } catch {
    return { baseline, changedShare: 1, sizeChanged: false, missing: true };
  }
  const { data: expected, info } = await sharp(expectedPng).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const sizeChanged = info.width !== actual.width || info.height !== actual.height;
  let changed = 0;
  const diff = Buffer.alloc(actual.data.length);
  if (!sizeChanged) {
    for (let offset = 0; offset < actual.data.length; offset += 3) {
      const moved = Math.max(
        Math.abs(actual.data[offset]! - expected[offset]!),
        Math.abs(actual.data[offset + 1]! - expected[offset + 1]!),
        Math.abs(actual.data[offset + 2]! - expected[offset + 2]!),
      );
      if (moved > CHANNEL_TOLERANCE) {
        changed += 1;
        diff[offset] = 255;
      } else {
        // The page, faded, so the changed pixels stand out in red.
        const grey = 200 + Math.round(actual.data[offset]! / 5);
        diff.fill(grey, offset, offset + 3);
      }
    }
  }
  const changedShare = sizeChanged ? 1 : changed / (actual.width * actual.height);
  if (changedShare > 0) {
    await mkdir(resultDir, { recursive: true });
    await writeFile(path.join(resultDir, `${name}.actual.png`), encoded);
    if (!sizeChanged)
      await sharp(diff, { raw: { width: actual.width, height: actual.height, channels: 3 } })
        .png()
        .toFile(path.join(resultDir, `${name}.diff.png`));
  }
  return { baseline, changedShare, sizeChanged, missing: false };
}

/** What a failed comparison says: how to look at it and how to accept it when it was meant. */
export function describeDifference(name: string, result: VisualResult): string {
  if (result.missing)
    return `${name}: no baseline at ${result.baseline}. Run UPDATE_BASELINES=1 npm exec -- vitest run --project e2e tests/e2e/visual.test.ts, look at it and commit it.`;
  const what = result.sizeChanged ? 'the page has another size' : `${(result.changedShare * 100).toFixed(2)}% of the pixels changed`;
  return `${name}: ${what}; see test-results/visual/${name}.actual.png and .diff.png. If the change is meant, update the baselines with UPDATE_BASELINES=1 and commit them.`;
}
