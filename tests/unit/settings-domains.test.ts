import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { assembleSettings, declareSettings } from '../../server/settings/declarations.ts';
import { defaultSettings, SETTING_LABELS, SETTINGS_DOMAINS, settingsSchema } from '../../server/admin/settings.ts';
import { adminSettingsText } from '../../app/features/admin/admin-settings-texts.ts';

/** Each domain declares its own settings (decision 109); the admin's settings assemble them. */
describe('settings declared by their domains', () => {
  it('refuses two domains declaring the same key: they would share one stored row', () => {
    const rentals = declareSettings('rentals', { graceHours: { schema: z.coerce.number(), default: 1, label: 'rentalGraceHoursLabel' } });
    const testDrives = declareSettings('test-drives', { graceHours: { schema: z.coerce.number(), default: 2, label: 'rentalGraceHoursLabel' } });
    expect(() => assembleSettings([rentals, testDrives])).toThrow('The setting graceHours is declared by both rentals and test-drives');
    expect(Object.keys(assembleSettings([rentals]))).toEqual(['graceHours']);
  });

  it('holds every domain’s keys once, each with a label and a default its schema takes', () => {
    const keys = SETTINGS_DOMAINS.flatMap(({ settings }) => Object.keys(settings));
    expect(new Set(keys).size).toBe(keys.length);
    expect(Object.keys(settingsSchema.shape).sort()).toEqual([...keys].sort());
    expect(SETTINGS_DOMAINS.map(({ domain }) => domain)).toEqual(['admin', 'catalog', 'leads', 'rentals', 'reservations', 'sales', 'test-drives']);
    const defaults = defaultSettings({ siteName: 'Gaadi Bazaar', adminEmail: 'admin@example.in' });
    expect(settingsSchema.parse(defaults)).toEqual(defaults);
    for (const key of keys) expect(adminSettingsText(SETTING_LABELS[key as keyof typeof SETTING_LABELS])).not.toBe('');
  });

  it('keeps the stored keys (no migration): the rental, test-drive and reservation keys are where they were', () => {
    const owner = Object.fromEntries(SETTINGS_DOMAINS.flatMap(({ domain, settings }) => Object.keys(settings).map((key) => [key, domain])));
    expect(owner).toMatchObject({
      siteName: 'admin',
      maintenanceMode: 'admin',
      emiRatePercent: 'catalog',
      trustPoints: 'catalog',
      sellEstimateMarginPercent: 'leads',
      inspectionCapacity: 'leads',
      rentalGstPercent: 'rentals',
      reservationAmount: 'reservations',
      serviceAreas: 'test-drives',
    });
  });

  it('gives each default afresh, so changing one copy changes no other', () => {
    const first = defaultSettings({ siteName: 'A', adminEmail: '' });
    first.serviceAreas.pop();
    expect(defaultSettings({ siteName: 'A', adminEmail: '' }).serviceAreas.length).toBe(first.serviceAreas.length + 1);
  });
});
