import type { z } from 'zod';
import { adminSettingsText } from '../../app/features/admin/admin-settings-texts.ts';
import type { TextValues } from '../../app/lib/i18n/texts.ts';

/**
 * How a domain declares the settings it owns (decision 109): each key with its schema, its
 * default and the admin settings text that names it. The domain keeps them beside its rules
 * (server/rentals/settings.ts, server/test-drives/settings.ts…); server/admin/settings.ts only
 * assembles them for storage and the admin page. A key is stored under its own name in the
 * `settings` table, so a key that moves between domains keeps its saved value.
 */

/** A key of the admin settings texts (the label of a setting, or one of its messages). */
export type SettingText = Parameters<typeof adminSettingsText>[0];

export type SettingDeclaration<Schema extends z.ZodType = z.ZodType> = {
  schema: Schema;
  default: z.output<Schema>;
  /** The admin settings text naming it, on the page and (in English) in the audit log. */
  label: SettingText;
};

export type SettingDeclarations = Record<string, SettingDeclaration>;

export type SettingsDomain<Declarations = SettingDeclarations> = {
  /** The domain's folder under server/ (and its group on the admin page). */
  domain: string;
  settings: Declarations;
};

/** A domain's settings, each default checked against its own schema. */
export function declareSettings<const Declarations extends SettingDeclarations>(
  domain: string,
  settings: Declarations & { [Key in keyof Declarations]: { default: z.output<Declarations[Key]['schema']> } },
): SettingsDomain<Declarations> {
  return { domain, settings };
}

/**
 * A validation message, read when a value is refused: in the language of the request being
 * answered (the schema itself is made once, at start).
 */
export function say(key: SettingText, values?: TextValues) {
  return { error: () => adminSettingsText(key, values) };
}

type UnionToIntersection<Union> = (Union extends unknown ? (value: Union) => void : never) extends (value: infer Intersection) => void ? Intersection : never;
type Merged<Domains extends readonly SettingsDomain<object>[]> = UnionToIntersection<Domains[number]['settings']>;

/**
 * Every domain's settings as one record. Two domains declaring the same key would share one
 * stored row and overwrite each other's value, so that is refused when the server starts.
 */
export function assembleSettings<const Domains extends readonly SettingsDomain<object>[]>(domains: Domains): Merged<Domains> {
  const owner = new Map<string, string>();
  const all: SettingDeclarations = {};
  for (const { domain, settings } of domains) {
    for (const [key, declaration] of Object.entries(settings as SettingDeclarations)) {
      const first = owner.get(key);
      if (first !== undefined)
        throw new Error(`The setting ${key} is declared by both ${first} and ${domain}; each key is stored once and belongs to one domain.`);
      owner.set(key, domain);
      all[key] = declaration;
    }
  }
  return all as Merged<Domains>;
}
