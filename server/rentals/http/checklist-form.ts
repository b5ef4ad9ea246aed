import { cleanLine } from '../../../app/lib/input.ts';
import {
  CHECKLIST_ITEMS,
  damageField,
  MAX_DAMAGE_CHARGE,
  MAX_DAMAGE_NOTE_LENGTH,
  MAX_DAMAGE_NOTES,
  type ChecklistStage,
} from '../../../app/features/rentals/rental-checklist.ts';
import { uploadsFrom, type UploadForm } from '../../http/forms.ts';
import type { ChecklistInput } from '../checklists.ts';

/**
 * The checklist as the desk's form sends it (multipart): `front`, `back`, `left`, `right`,
 * `dashboard` photos and up to MAX_DAMAGE_NOTES damage rows (`damage0Note`, `damage0Photo`, and
 * at return `damage0New`, `damage0Charge`). Rows left blank are skipped; the service says what
 * is missing. A charge that is not whole rupees becomes -1, which the service refuses by name.
 */
export function checklistFromForm(form: UploadForm, stage: ChecklistStage): ChecklistInput {
  const photos: ChecklistInput['photos'] = {};
  for (const item of CHECKLIST_ITEMS) photos[item] = uploadsFrom(form, item)[0] ?? null;
  return { photos, damage: damageFromForm(form, stage) };
}

/** The damage rows of the form (also what the return preview charges). */
export function damageFromForm(form: Pick<UploadForm, 'fields' | 'files'>, stage: ChecklistStage): ChecklistInput['damage'] {
  const damage: ChecklistInput['damage'] = [];
  for (let index = 0; index < MAX_DAMAGE_NOTES; index++) {
    const note = cleanLine(form.fields.get(damageField(index, 'Note')), MAX_DAMAGE_NOTE_LENGTH + 1);
    const photo = uploadsFrom(form, damageField(index, 'Photo'))[0] ?? null;
    const chargeText = stage === 'return' ? cleanLine(form.fields.get(damageField(index, 'Charge')), 12).replace(/[₹,\s]/g, '') : '';
    // A browser sends every row; one with nothing typed (a zero charge, the New box as it was) is no damage.
    if (!note && !photo && (chargeText === '' || chargeText === '0')) continue;
    const charge = chargeText === '' ? 0 : /^\d{1,9}$/.test(chargeText) && Number(chargeText) <= MAX_DAMAGE_CHARGE ? Number(chargeText) : -1;
    damage.push({ note, photo, isNew: stage === 'return' && form.fields.get(damageField(index, 'New')) === 'on', charge });
  }
  return damage;
}
