import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * Where the texts are (decisions 087, 110): the shared namespaces in app/lib/i18n/{en,hi}/ and
 * each feature's own in app/features/<feature>/texts/{en,hi}/. A namespace is one JSON file per
 * language in one of these folders; its name is the file's name and is unique across them.
 */

const root = path.resolve(import.meta.dirname, '../..');

/** The folders holding `en/` and `hi/` text files, shared ones first. */
export function textFolders(): string[] {
  const features = path.join(root, 'app/features');
  const featureFolders = existsSync(features)
    ? readdirSync(features, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => path.join(features, entry.name, 'texts'))
        .filter((folder) => existsSync(folder))
        .sort()
    : [];
  return [path.join(root, 'app/lib/i18n'), ...featureFolders];
}

/** Every namespace with the folder that holds its `en/<namespace>.json` and `hi/<namespace>.json`. */
export function textNamespaces(): Array<{ namespace: string; folder: string }> {
  return textFolders().flatMap((folder) =>
    readdirSync(path.join(folder, 'en'))
      .filter((file) => file.endsWith('.json'))
      .map((file) => ({ namespace: file.slice(0, -'.json'.length), folder })),
  );
}
