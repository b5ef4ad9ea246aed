import { mkdir, mkdtemp, readdir, readFile, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyClassFor, LONG_TEXT_FORM_MAX_BYTES, PLAIN_FORM_MAX_BYTES } from '../../server/http/body-limit.ts';
import { FormReadError, readForm, readUploadForm, removeStaleUploads } from '../../server/http/forms.ts';
import { checkPixelBudget, MAX_REQUEST_PIXELS } from '../../server/media/images.ts';

let tempDir: string;
beforeAll(async () => {
  tempDir = await mkdtemp(path.join(tmpdir(), 'gaadi-forms-'));
});
afterAll(async () => {
  await rm(tempDir, { recursive: true, force: true });
});

function post(url: string, body: BodyInit | ReadableStream<Uint8Array>, headers: Record<string, string> = {}): Request {
  return new Request(url, { method: 'POST', body, headers, duplex: 'half' } as RequestInit);
}

function multipartForm(parts: Array<{ name: string; value: string | Blob; fileName?: string }>): FormData {
  const form = new FormData();
  for (const part of parts) {
    if (typeof part.value === 'string') form.append(part.name, part.value);
    else form.append(part.name, part.value, part.fileName);
  }
  return form;
}

async function refusal(promise: Promise<unknown>): Promise<FormReadError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(FormReadError);
  return error as FormReadError;
}

/** A body of `total` bytes, produced only as it is read; `sent()` tells how much was pulled. */
function endless(total: number) {
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      sent += 64 * 1024;
      controller.enqueue(new Uint8Array(64 * 1024).fill(0x61));
      if (sent >= total) controller.close();
    },
  });
  return { body, sent: () => sent };
}

const leftovers = async () => (await readdir(tempDir)).length;

describe('body classes', () => {
  it('gives the upload forms their caps and everything else a few KB, data requests like their page', () => {
    expect(bodyClassFor('/login').maxBytes).toBe(PLAIN_FORM_MAX_BYTES);
    expect(bodyClassFor('/login.data').maxBytes).toBe(PLAIN_FORM_MAX_BYTES);
    expect(bodyClassFor('/api/auth/sign-in/email').maxBytes).toBe(PLAIN_FORM_MAX_BYTES);
    expect(bodyClassFor('/request-vehicle.data').maxBytes).toBe(LONG_TEXT_FORM_MAX_BYTES);
    expect(bodyClassFor('/sell-vehicle.data').upload).toEqual({ maxFileBytes: 15 * 1024 * 1024, maxFiles: 10 });
    expect(bodyClassFor('/admin-panel/vehicles/edit/suvs/12').upload?.maxFiles).toBe(10);
    expect(bodyClassFor('/admin/add-category').upload?.maxFiles).toBe(1);
  });
});

describe('readForm', () => {
  it('reads URL-encoded and multipart forms', async () => {
    const encoded = await readForm(post('http://x/login', 'email=a%40b.in&password=x', { 'content-type': 'application/x-www-form-urlencoded' }));
    expect(encoded.get('email')).toBe('a@b.in');
    const multipart = await readForm(post('http://x/login', multipartForm([{ name: 'email', value: 'c@d.in' }])));
    expect(multipart.get('email')).toBe('c@d.in');
  });

  it('refuses JSON, XML and unknown types, a missing boundary and a malformed multipart body with 400', async () => {
    for (const type of ['application/json', 'application/xml', 'text/plain', '']) {
      const error = await refusal(readForm(post('http://x/login', '{"email":"a@b.in"}', type ? { 'content-type': type } : {})));
      expect(error.status, type).toBe(400);
      expect(error.message).toMatch(/only a form/);
    }
    const noBoundary = await refusal(readForm(post('http://x/login', '--x\r\n', { 'content-type': 'multipart/form-data' })));
    expect(noBoundary.status).toBe(400);
    const malformed = await refusal(readForm(post('http://x/login', 'garbage without parts', { 'content-type': 'multipart/form-data; boundary=xyz' })));
    expect(malformed.status).toBe(400);
  });

  it('refuses a declared length over the limit without reading, and cuts off a streamed one at the limit', async () => {
    const declared = endless(10 * 1024 * 1024);
    const refusedByLength = await refusal(
      readForm(post('http://x/login', declared.body, { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(10 * 1024 * 1024) })),
    );
    expect(refusedByLength.status).toBe(413);
    expect(declared.sent()).toBeLessThanOrEqual(128 * 1024);

    const streamed = endless(10 * 1024 * 1024);
    const refusedWhileReading = await refusal(readForm(post('http://x/login', streamed.body, { 'content-type': 'application/x-www-form-urlencoded' })));
    expect(refusedWhileReading.status).toBe(413);
    expect(streamed.sent()).toBeLessThan(PLAIN_FORM_MAX_BYTES + 256 * 1024);
  });
});

describe('readUploadForm', () => {
  it('streams files to disk and keeps the text fields; discard removes the files', async () => {
    const request = post(
      'http://x/sell-vehicle',
      multipartForm([
        { name: 'name', value: 'Ravi' },
        { name: 'images', value: new Blob([new Uint8Array([1, 2, 3])]), fileName: 'front.jpg' },
        { name: 'images', value: new Blob([]), fileName: '' },
        { name: 'images', value: new Blob([new Uint8Array([4, 5])]), fileName: 'back.jpg' },
      ]),
    );
    const form = await readUploadForm(request, { tempDir });
    expect(form.fields.get('name')).toBe('Ravi');
    expect(form.files.map((file) => [file.field, file.name, file.size])).toEqual([
      ['images', 'front.jpg', 3],
      ['images', 'back.jpg', 2],
    ]);
    expect([...(await readFile(form.files[0]!.path))]).toEqual([1, 2, 3]);
    expect(await leftovers()).toBe(1);
    await form.discard();
    expect(await leftovers()).toBe(0);
  });

  it('refuses a file over the per-file limit while streaming, keeping the fields read so far and no file', async () => {
    const request = post(
      'http://x/sell-vehicle',
      multipartForm([
        { name: 'name', value: 'Ravi' },
        { name: 'images', value: new Blob([new Uint8Array(2048)]), fileName: 'huge.png' },
      ]),
    );
    const error = await refusal(readUploadForm(request, { tempDir, maxFileBytes: 1024 }));
    expect(error.problem).toBe('file-too-large');
    expect(error.fileName).toBe('huge.png');
    expect(error.fields.get('name')).toBe('Ravi');
    expect(await leftovers()).toBe(0);
  });

  it('refuses too many files, and a streamed body over the limit, leaving nothing on disk', async () => {
    const files = Array.from({ length: 3 }, (_, index) => ({ name: 'images', value: new Blob([new Uint8Array([index])]), fileName: `p${index}.jpg` }));
    const tooMany = await refusal(
      readUploadForm(post('http://x/sell-vehicle', multipartForm(files)), { tempDir, maxFiles: 2, messages: { tooManyFiles: 'At most 2.' } }),
    );
    expect([tooMany.status, tooMany.message]).toEqual([400, 'At most 2.']);

    const streamed = endless(20 * 1024 * 1024);
    const tooLarge = await refusal(
      readUploadForm(post('http://x/sell-vehicle', streamed.body, { 'content-type': 'multipart/form-data; boundary=abc' }), { tempDir, maxBytes: 1024 * 1024 }),
    );
    expect(tooLarge.status).toBe(413);
    expect(streamed.sent()).toBeLessThan(2 * 1024 * 1024);
    expect(await leftovers()).toBe(0);
  });

  it('refuses a truncated or boundary-less multipart body and a JSON one with 400', async () => {
    const truncated = '--abc\r\nContent-Disposition: form-data; name="images"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\nabc';
    const cut = await refusal(readUploadForm(post('http://x/sell-vehicle', truncated, { 'content-type': 'multipart/form-data; boundary=abc' }), { tempDir }));
    expect(cut.status).toBe(400);
    const noBoundary = await refusal(readUploadForm(post('http://x/sell-vehicle', truncated, { 'content-type': 'multipart/form-data' }), { tempDir }));
    expect(noBoundary.status).toBe(400);
    const json = await refusal(readUploadForm(post('http://x/sell-vehicle', '{}', { 'content-type': 'application/json' }), { tempDir }));
    expect(json.status).toBe(400);
    expect(await leftovers()).toBe(0);
  });
});

describe('removeStaleUploads', () => {
  it('removes upload folders a crash left behind an hour ago, and only those', async () => {
    const old = path.join(tempDir, 'upload-old');
    const fresh = path.join(tempDir, 'upload-fresh');
    await mkdir(old);
    await mkdir(fresh);
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60_000);
    await utimes(old, twoHoursAgo, twoHoursAgo);
    expect(await removeStaleUploads(tempDir, Date.now())).toBe(1);
    expect(await readdir(tempDir)).toEqual(['upload-fresh']);
    await rm(fresh, { recursive: true });
    expect(await removeStaleUploads(path.join(tempDir, 'missing'), Date.now())).toBe(0);
  });
});

describe('checkPixelBudget', () => {
  it('lets ten 12-megapixel photos through and refuses more pixels in one request', () => {
    expect(() =>
      checkPixelBudget(
        Array.from({ length: 10 }, () => ({ width: 4000, height: 3000 })),
        'images',
      ),
    ).not.toThrow();
    expect(() =>
      checkPixelBudget(
        [
          { width: 8000, height: 6000 },
          { width: 8000, height: 6000 },
          { width: 8000, height: 6000 },
        ],
        'images',
      ),
    ).toThrow(`at most ${MAX_REQUEST_PIXELS / 1_000_000}`);
  });
});
