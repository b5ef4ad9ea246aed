// Makes the app icons in public/icons/ from the brand mark in public/favicon.svg (decision 085):
// 192 and 512 for Android, 512 maskable (the car inside the central safe circle on a full-bleed
// background, so a launcher's round or squircle mask never cuts it) and 180 for iOS's home screen.
// The PNGs are committed; run again after changing the mark:  node scripts/make-icons.mjs
import { Buffer } from 'node:buffer';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

const root = path.resolve(import.meta.dirname, '..');
const out = path.join(root, 'public/icons');
mkdirSync(out, { recursive: true });

const mark = readFileSync(path.join(root, 'public/favicon.svg'), 'utf8');
const brand = /fill="(#[0-9a-f]{6})"/i.exec(mark)?.[1] ?? '#1e40af';
// The car and its wheels: everything in the mark after its rounded background.
const car = mark.replace(/^[\s\S]*?<rect[^>]*\/>/, '').replace(/<\/svg>\s*$/, '');
// Square corners (iOS rounds them itself) and a safe margin: the car scaled around its centre.
const square = (scale) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="${brand}"/><g transform="translate(32 32) scale(${scale}) translate(-32 -35.75)">${car}</g></svg>`;

const icons = [
  { file: 'icon-192.png', size: 192, svg: mark },
  { file: 'icon-512.png', size: 512, svg: mark },
  { file: 'maskable-512.png', size: 512, svg: square(0.8) },
  { file: 'apple-touch-icon-180.png', size: 180, svg: square(1) },
];
for (const icon of icons) {
  await sharp(Buffer.from(icon.svg), { density: (72 * icon.size) / 64 })
    .resize(icon.size, icon.size)
    .png({ compressionLevel: 9 })
    .toFile(path.join(out, icon.file));
  console.log(`public/icons/${icon.file} ${icon.size}x${icon.size}`);
}
