import { randomBytes } from 'node:crypto';
import { mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BackupUnreadableError, createArchiveWriter, readArchive } from '../../server/backups/archive.ts';

const folder = await mkdtemp(path.join(tmpdir(), 'gaadi-archive-'));
afterAll(() => rm(folder, { recursive: true, force: true }));

async function written(entries: { name: string; bytes: Buffer }[], secret = 'the-key-of-this-test'): Promise<string> {
  const file = path.join(folder, `${Math.random()}.gbk`);
  const handle = await open(file, 'w');
  const archive = await createArchiveWriter(handle, secret);
  for (const entry of entries) await archive.add(entry.name, entry.bytes.length, [entry.bytes.subarray(0, 7), entry.bytes.subarray(7)]);
  await archive.finish();
  await handle.close();
  return file;
}

async function readAll(file: string, secret = 'the-key-of-this-test') {
  const entries = [];
  for await (const entry of readArchive(file, secret)) {
    const pieces: Buffer[] = [];
    for await (const piece of entry.body) pieces.push(piece);
    entries.push({ name: entry.name, bytes: Buffer.concat(pieces) });
  }
  return entries;
}

describe('the backup archive', () => {
  it('gives back every entry as written, across chunk boundaries, and hides the contents', async () => {
    const entries = [
      { name: 'database.sqlite', bytes: randomBytes(2_500_000) },
      { name: 'media/empty.webp', bytes: Buffer.alloc(0) },
      { name: 'manifest.json', bytes: Buffer.from('{"tables":{"leads":{"rows":3}}}') },
    ];
    const file = await written(entries);
    const read = await readAll(file);
    expect(read.map((entry) => entry.name)).toEqual(entries.map((entry) => entry.name));
    // Buffer.equals: a deep comparison of megabytes byte by byte takes the test runner half a minute.
    for (const [index, entry] of read.entries()) expect(entry.bytes.equals(entries[index]!.bytes)).toBe(true);
    expect((await readFile(file)).includes(Buffer.from('"tables"'))).toBe(false);
  });

  it('skips the rest of an entry a reader stops reading', async () => {
    const file = await written([
      { name: 'a', bytes: randomBytes(1_500_000) },
      { name: 'b', bytes: Buffer.from('second entry') },
    ]);
    const names = [];
    for await (const entry of readArchive(file, 'the-key-of-this-test')) {
      names.push(entry.name);
      for await (const piece of entry.body) if (piece) break;
    }
    expect(names).toEqual(['a', 'b']);
  });

  it('refuses the wrong key, any changed byte, a cut, and a file that is not a backup', async () => {
    const file = await written([{ name: 'database.sqlite', bytes: randomBytes(1_200_000) }]);
    await expect(readAll(file, 'some-other-key-here')).rejects.toThrow(BackupUnreadableError);
    const bytes = await readFile(file);
    for (const position of [10, 45, 1000, bytes.length - 5]) {
      const altered = Buffer.from(bytes);
      altered[position]! ^= 0x80;
      await writeFile(`${file}.altered`, altered);
      await expect(readAll(`${file}.altered`)).rejects.toThrow(BackupUnreadableError);
    }
    // Cut at a chunk's end: every chunk left is whole and true, yet the last one is missing.
    await writeFile(`${file}.cut`, bytes.subarray(0, 40 + 4 + (1 << 20) + 16));
    await expect(readAll(`${file}.cut`)).rejects.toThrow(/cut short|altered/);
    await writeFile(`${file}.text`, 'not a backup at all');
    await expect(readAll(`${file}.text`)).rejects.toThrow(/not a backup of this app/);
    // Seven key derivations (scrypt, made slow on purpose): seconds on a busy machine.
  }, 60_000);
});
