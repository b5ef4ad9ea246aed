import { rentText as t } from './rent-texts.ts';
import type { Language } from '../../lib/i18n/language.ts';
import type { ReturnCharges } from './rental-price.ts';
import { FUEL_EIGHTHS_MAX } from './rentals.ts';

/**
 * The photo checklist of a rental's handover and return (docs/decisions/067): the odometer, the
 * fuel level, one photo of each side and of the dashboard, and any damage noted, each with its
 * photo. Shared by the desk page, the renter's page and the API.
 */

/** The photos every handover and return must have. */
export const CHECKLIST_ITEMS = ['front', 'back', 'left', 'right', 'dashboard'] as const;
export type ChecklistItem = (typeof CHECKLIST_ITEMS)[number];
export type ChecklistStage = 'handover' | 'return';

export function checklistItemLabels(language?: Language): Record<ChecklistItem, string> {
  return {
    front: t('itemFront', {}, language),
    back: t('itemBack', {}, language),
    left: t('itemLeft', {}, language),
    right: t('itemRight', {}, language),
    dashboard: t('itemDashboard', {}, language),
  };
}

/**
 * Damage notes per checklist. With the five required photos this keeps a checklist at ten
 * photos, what one request may decode (server/media/images.ts MAX_REQUEST_PIXELS).
 */
export const MAX_DAMAGE_NOTES = 5;
export const MAX_DAMAGE_NOTE_LENGTH = 200;
/** Most a desk may charge for one damage from the deposit flow; a larger repair is settled apart. */
export const MAX_DAMAGE_CHARGE = 1_000_000;

/** The desk form's damage row fields: `damage0Note`, `damage0Photo`, and at return `damage0New`, `damage0Charge`. */
export const damageField = (index: number, part: 'Note' | 'Photo' | 'New' | 'Charge') => `damage${index}${part}`;

/** One photo of a checklist, as pages and the API show it (its storage key never leaves the server). */
export type ChecklistPhotoView = {
  id: string;
  item: ChecklistItem | 'damage';
  /** A damage note's description; '' for the required photos. */
  note: string;
  /** A damage first seen at this return (never at a handover). */
  isNew: boolean;
  /** What the desk charged for this damage, in rupees (0 when none). */
  charge: number;
};

export type ChecklistView = {
  stage: ChecklistStage;
  odometer: number;
  /** Eighths of a tank. */
  fuel: number;
  photos: ChecklistPhotoView[];
  recordedAt: string;
};

/** 6 → "6/8 (¾ tank)". */
export function fuelText(eighths: number): string {
  const names: Record<number, string> = { 0: t('fuelEmpty'), 2: t('fuelQuarter'), 4: t('fuelHalf'), 6: t('fuelThreeQuarters'), 8: t('fuelFull') };
  const name = names[eighths];
  return `${eighths}/${FUEL_EIGHTHS_MAX}${name ? ` (${name})` : ''}`;
}

/** The handover and return compared: km driven and the fuel difference (negative: less fuel back). */
export function checklistComparison(handover: ChecklistView | null, returned: ChecklistView | null): { kmDriven: number; fuelDifference: number } | null {
  if (!handover || !returned) return null;
  return { kmDriven: Math.max(0, returned.odometer - handover.odometer), fuelDifference: returned.fuel - handover.fuel };
}

/** One charge at settlement with the photo that shows it (null for a late return: the clock is its evidence). */
export type ChargeLine = { kind: 'extra-km' | 'late' | 'fuel' | 'damage'; label: string; amount: number; photoId: string | null };

/**
 * The charges of a return, each with its photo: extra km and fuel shortfall show the return's
 * dashboard photo, each damage its own photo. Only charges above zero are listed.
 */
export function chargeLines(charges: ReturnCharges, returned: ChecklistView | null): ChargeLine[] {
  const dashboard = returned?.photos.find((photo) => photo.item === 'dashboard')?.id ?? null;
  const lines: ChargeLine[] = [];
  if (charges.extraKmCharge > 0)
    lines.push({ kind: 'extra-km', label: t('chargeExtraKm', { km: charges.extraKm }), amount: charges.extraKmCharge, photoId: dashboard });
  if (charges.lateFee > 0) lines.push({ kind: 'late', label: t('chargeLate', { hours: charges.lateHours }), amount: charges.lateFee, photoId: null });
  if (charges.fuelCharge > 0) lines.push({ kind: 'fuel', label: t('chargeFuel'), amount: charges.fuelCharge, photoId: dashboard });
  for (const damage of charges.damage ?? []) {
    if (damage.charge > 0)
      lines.push({ kind: 'damage', label: t('chargeDamage', { note: damage.note }), amount: damage.charge, photoId: damage.photoId || null });
  }
  return lines;
}
