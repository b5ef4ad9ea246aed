import { crc32, deflateSync } from 'node:zlib';

/**
 * Greyscale PNG files built byte by byte, for image bombs: tiny on the wire, huge once decoded.
 * Used by the upload tests and the benchmark's attackers (bench/lib/attacker.mjs).
 */

function pngChunk(type: string, data: Uint8Array): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** A PNG whose header says width x height (8-bit greyscale) and whose pixel data is `rows`, compressed. */
function greyscalePng(width: number, height: number, rows: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  const signature = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);
  return Buffer.concat([signature, pngChunk('IHDR', header), pngChunk('IDAT', deflateSync(rows, { level: 9 })), pngChunk('IEND', Buffer.alloc(0))]);
}

/** A real PNG of width x height black pixels: a few hundred KB at most, width x height bytes decoded. */
export function blackPng(width: number, height: number): Buffer {
  return greyscalePng(width, height, Buffer.alloc((width + 1) * height));
}

/** A small file that only claims width x height pixels: a decompression bomb's header over a few rows of data. */
export function pngClaiming(width: number, height: number): Buffer {
  return greyscalePng(width, height, Buffer.alloc((width + 1) * 4));
}
