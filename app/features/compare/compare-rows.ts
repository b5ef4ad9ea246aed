/**
 * The compare page's rows (only the page loads this: the tray and the toggles need compare.ts).
 * Body type, colour and the registration state are read with the listing filters' own rules.
 */
import { emiFrom, type FinanceTerms } from '../emi/emi.ts';
import { detailPriceLabel, formatDate, formatKilometres, formatRupees, priceLabel } from '../../lib/format.ts';
import { compareText as t } from './compare-texts.ts';
import { bodyTypeLabel, colourLabel, typedFuelText, typedTransmissionText } from '../../lib/listing-filters/options.ts';
import { registrationState } from '../../lib/listing-filters/registration.ts';
import type { Vehicle } from '../../lib/vehicle.ts';
import { validityOf } from '../../lib/validity.ts';
import { dealerWord } from '../../lib/dealer-words.ts';

export type CompareRow = { label: string; values: string[]; differs: boolean; group: 'specs' | 'inspection' };

/** A row differs when its values are not all the same (blank counts as a value). */
export function compareRow(label: string, values: string[], group: CompareRow['group'] = 'specs'): CompareRow {
  return { label, values, differs: new Set(values.map((value) => value.trim().toLowerCase())).size > 1, group };
}

/**
 * The compare page's rows for the cars shown, in the order; the photo and price sit in
 * the column heads. Inspection items come last, each item any of the cars has, side by side.
 */
export function compareRows(vehicles: readonly Vehicle[], terms: FinanceTerms, today: string): CompareRow[] {
  const dash = (value: string) => value.trim() || '—';
  const rows = [
    compareRow(
      priceLabel(),
      vehicles.map((vehicle) => detailPriceLabel(vehicle.price)),
    ),
    compareRow(
      t('rowEmi'),
      vehicles.map((vehicle) => {
        const amount = emiFrom(vehicle.priceRupees, terms);
        return amount === null ? '—' : t('perMonth', { amount: formatRupees(amount) });
      }),
    ),
    compareRow(
      t('rowYear'),
      vehicles.map((vehicle) => dash(vehicle.year)),
    ),
    compareRow(
      t('rowKm'),
      vehicles.map((vehicle) => formatKilometres(vehicle.odometer)),
    ),
    compareRow(
      t('rowFuel'),
      vehicles.map((vehicle) => dash(typedFuelText(vehicle.fuelType))),
    ),
    compareRow(
      t('rowTrans'),
      vehicles.map((vehicle) => dash(typedTransmissionText(vehicle.transmission))),
    ),
    compareRow(
      t('rowOwners'),
      vehicles.map((vehicle) => dash(dealerWord(vehicle.owners))),
    ),
    compareRow(
      t('rowBody'),
      vehicles.map((vehicle) => dash(bodyTypeLabel(vehicle.bodyType))),
    ),
    compareRow(
      t('rowState'),
      vehicles.map((vehicle) => registrationState(vehicle.registration) || '—'),
    ),
    compareRow(
      t('rowInsurance'),
      vehicles.map((vehicle) => {
        const validity = validityOf(vehicle.insuranceValidity, today);
        return validity ? `${formatDate(vehicle.insuranceValidity)} (${validity.label})` : formatDate(vehicle.insuranceValidity);
      }),
    ),
    compareRow(
      t('rowColour'),
      vehicles.map((vehicle) => dash(colourLabel(vehicle.colour))),
    ),
  ];
  const items: string[] = [];
  for (const vehicle of vehicles) for (const item of Object.keys(vehicle.inspection ?? {})) if (!items.includes(item)) items.push(item);
  for (const item of items)
    rows.push(
      compareRow(
        dealerWord(item),
        vehicles.map((vehicle) => dash(dealerWord(vehicle.inspection?.[item] ?? ''))),
        'inspection',
      ),
    );
  return rows;
}

/** The rows shown: all, or with "Hide common rows" only those that differ (once there are two cars to differ). */
export function visibleRows(rows: readonly CompareRow[], hideCommon: boolean, carCount: number): CompareRow[] {
  return hideCommon && carCount > 1 ? rows.filter((row) => row.differs) : [...rows];
}
