import type { Storage } from '../../server/media/storage.ts';

/** Storage in memory, as the local folder and the bucket behave; `failOnPut` makes the nth put throw, as a full disk would. */
export function memoryStorage(failOnPut?: number): Storage & { files: Map<string, { body: Uint8Array; type: string }> } {
  const files = new Map<string, { body: Uint8Array; type: string }>();
  let puts = 0;
  return {
    files,
    async put(key, body, type) {
      puts += 1;
      if (puts === failOnPut) throw new Error('disk full');
      files.set(key, { body, type });
    },
    async get(key) {
      const file = files.get(key);
      return file ? { body: new Blob([file.body as Uint8Array<ArrayBuffer>]).stream(), size: file.body.byteLength } : null;
    },
    async delete(key) {
      files.delete(key);
    },
    async *keys() {
      yield* [...files.keys()];
    },
    answers: async () => true,
  };
}
