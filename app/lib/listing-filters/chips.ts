import { BUDGET_BUCKETS, bodyTypeLabel, colourLabel, FUELS, KM_BUCKETS, OWNER_OPTIONS, TRANSMISSION_KEYS, type FilterName, type Fuel, type OwnerOption, type TransmissionKey } from './options.ts';
import { REGISTRATION_STATES } from './registration.ts';

/** A chip's text for one value of one filter. */
export function chipLabel(name: FilterName, value: string, names: { make?: Record<string, string>; model?: Record<string, string> } = {}): string {
  switch (name) {
    case 'budget':
      return BUDGET_BUCKETS.find((bucket) => bucket.value === value)?.label ?? `₹${value.replace('-', '–')} lakh`;
    case 'km':
      return KM_BUCKETS.find((bucket) => bucket.value === value)?.label ?? `${value.replace('-', '–')} km`;
    case 'year': {
      const [from, to] = value.split('-');
      if (!value.includes('-')) return value;
      if (from && to) return `${from}–${to}`;
      return from ? `${from} or newer` : `${to} or older`;
    }
    case 'make':
      return names.make?.[value] ?? value;
    case 'model':
      return names.model?.[value] ?? value;
    case 'fuel':
      return FUELS[value as Fuel] ?? value;
    case 'trans':
      return TRANSMISSION_KEYS[value as TransmissionKey] ?? value;
    case 'body':
      return bodyTypeLabel(value);
    case 'owners':
      return OWNER_OPTIONS[Number(value) as OwnerOption] ?? value;
    case 'color':
      return colourLabel(value);
    case 'state':
      return `${value} (${REGISTRATION_STATES[value] ?? value})`;
  }
}

