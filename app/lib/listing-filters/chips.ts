import { browseText as t } from '../i18n/browse.ts';
import { bodyTypeLabel, budgetLabel, colourLabel, fuelLabel, kmLabel, ownerLabel, transmissionLabel, type FilterName } from './options.ts';
import { stateName } from './registration.ts';

/** A chip's text for one value of one filter. */
export function chipLabel(name: FilterName, value: string, names: { make?: Record<string, string>; model?: Record<string, string> } = {}): string {
  switch (name) {
    case 'budget':
      return budgetLabel(value) ?? t('budgetLakh', { range: value.replace('-', '–') });
    case 'km':
      return kmLabel(value) ?? t('kmRange', { range: value.replace('-', '–') });
    case 'year': {
      const [from, to] = value.split('-');
      if (!value.includes('-')) return value;
      if (from && to) return `${from}–${to}`;
      return from ? t('yearOrNewer', { year: from }) : t('yearOrOlder', { year: to });
    }
    case 'make':
      return names.make?.[value] ?? value;
    case 'model':
      return names.model?.[value] ?? value;
    case 'fuel':
      return fuelLabel(value);
    case 'trans':
      return transmissionLabel(value);
    case 'body':
      return bodyTypeLabel(value);
    case 'owners':
      return ownerLabel(value);
    case 'color':
      return colourLabel(value);
    case 'state':
      return t('stateChip', { code: value, name: stateName(value) });
  }
}

