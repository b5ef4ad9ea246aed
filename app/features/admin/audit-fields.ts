/**
 * The names people read for the fields of an audit record. The audit log keeps each record as
 * the code wrote it (`depositRefund`, `emiRatePercent`), in English, before and after a change;
 * the list of what changed names each field in the page's language instead: a setting by its
 * label on the settings page, any other field by its name here (texts/en/auditFields.json and its Hindi twin).
 */
import en from './texts/en/auditFields.json' with { type: 'json' };
import settingsEn from './texts/en/adminSettings.json' with { type: 'json' };
import { adminSettingsText } from './admin-settings-texts.ts';
import { auditFieldsText } from './audit-fields-texts.ts';

type FieldKey = Parameters<typeof auditFieldsText>[0];
type SettingsKey = Parameters<typeof adminSettingsText>[0];

/** Whether the audit log has a name for this field of a record of `entity`. */
export function hasAuditFieldLabel(entity: string, key: string): boolean {
  return (entity === 'settings' && Object.hasOwn(settingsEn, `${key}Label`)) || Object.hasOwn(en, key);
}

/** A field of an audit record as people read it: its label, or its code in words when it has none (never `depositRefund`). */
export function auditFieldLabel(entity: string, key: string): string {
  // The settings page's own labels ("Items per page"), so the log names a setting as the page does.
  if (entity === 'settings' && Object.hasOwn(settingsEn, `${key}Label`)) return adminSettingsText(`${key}Label` as SettingsKey);
  if (Object.hasOwn(en, key)) return auditFieldsText(key as FieldKey);
  return inWords(key);
}

/**
 * A key inside a recorded value (the charges of a return, a car's condition report): named when it
 * is one of the code's fields (`extraKmCharge` → "Extra-km charge"), else as it was written, since
 * such keys are what the desk typed ("AC & Heating").
 */
export function auditNestedLabel(key: string): string {
  return Object.hasOwn(en, key) ? auditFieldsText(key as FieldKey) : key;
}

/** `depositRefund` → "deposit refund", `fitness_fc` → "fitness fc": a field nobody named yet still reads as words. */
function inWords(code: string): string {
  return code
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
}
