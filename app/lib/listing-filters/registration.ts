/**
 * Indian registration numbers ('MH-12 AB 1234'): the state a car is registered in (the
 * registration-state filter and the compare page) and the place its RTO is in (searched, so
 * "pune" finds MH-12 cars).
 */

import { browseStatesText } from '../i18n/browseStates.ts';

/**
 * The state codes of Indian registration numbers (the first two letters), with the state's name
 * in English (the searched text); a page shows stateName(code), in its language.
 */
export const REGISTRATION_STATES: Record<string, string> = {
  AN: 'Andaman and Nicobar',
  AP: 'Andhra Pradesh',
  AR: 'Arunachal Pradesh',
  AS: 'Assam',
  BR: 'Bihar',
  CG: 'Chhattisgarh',
  CH: 'Chandigarh',
  DD: 'Dadra, Nagar Haveli, Daman and Diu',
  DL: 'Delhi',
  DN: 'Dadra and Nagar Haveli',
  GA: 'Goa',
  GJ: 'Gujarat',
  HP: 'Himachal Pradesh',
  HR: 'Haryana',
  JH: 'Jharkhand',
  JK: 'Jammu and Kashmir',
  KA: 'Karnataka',
  KL: 'Kerala',
  LA: 'Ladakh',
  LD: 'Lakshadweep',
  MH: 'Maharashtra',
  ML: 'Meghalaya',
  MN: 'Manipur',
  MP: 'Madhya Pradesh',
  MZ: 'Mizoram',
  NL: 'Nagaland',
  OD: 'Odisha',
  OR: 'Odisha',
  PB: 'Punjab',
  PY: 'Puducherry',
  RJ: 'Rajasthan',
  SK: 'Sikkim',
  TN: 'Tamil Nadu',
  TR: 'Tripura',
  TS: 'Telangana',
  TG: 'Telangana',
  UK: 'Uttarakhand',
  UA: 'Uttarakhand',
  UP: 'Uttar Pradesh',
  WB: 'West Bengal',
};

/**
 * The city of the RTOs the dealer registers most often: searched, so "pune" finds MH-12 cars.
 * Delhi's codes are all Delhi; an office not listed is found by its state's name only.
 */
const RTO_CITIES: Record<string, string> = {
  'MH-01': 'Mumbai',
  'MH-02': 'Mumbai',
  'MH-03': 'Mumbai',
  'MH-47': 'Mumbai',
  'MH-04': 'Thane',
  'MH-05': 'Kalyan',
  'MH-43': 'Navi Mumbai',
  'MH-12': 'Pune',
  'MH-14': 'Pune',
  'MH-31': 'Nagpur',
  'MH-15': 'Nashik',
  'KA-01': 'Bengaluru',
  'KA-02': 'Bengaluru',
  'KA-03': 'Bengaluru',
  'KA-04': 'Bengaluru',
  'KA-05': 'Bengaluru',
  'KA-51': 'Bengaluru',
  'KA-53': 'Bengaluru',
  'KA-19': 'Mangaluru',
  'KA-09': 'Mysuru',
  'HR-26': 'Gurugram',
  'HR-55': 'Gurugram',
  'HR-51': 'Faridabad',
  'UP-16': 'Noida',
  'UP-14': 'Ghaziabad',
  'UP-32': 'Lucknow',
  'TN-01': 'Chennai',
  'TN-02': 'Chennai',
  'TN-07': 'Chennai',
  'TN-09': 'Chennai',
  'TN-22': 'Chennai',
  'TN-37': 'Coimbatore',
  'TS-07': 'Hyderabad',
  'TS-08': 'Hyderabad',
  'TS-09': 'Hyderabad',
  'TS-10': 'Hyderabad',
  'AP-39': 'Vijayawada',
  'GJ-01': 'Ahmedabad',
  'GJ-05': 'Surat',
  'GJ-06': 'Vadodara',
  'RJ-14': 'Jaipur',
  'WB-02': 'Kolkata',
  'WB-06': 'Kolkata',
  'KL-07': 'Kochi',
  'KL-01': 'Thiruvananthapuram',
  'PB-10': 'Ludhiana',
  'PB-08': 'Jalandhar',
  'MP-09': 'Indore',
  'MP-04': 'Bhopal',
  'CH-01': 'Chandigarh',
  'GA-01': 'Panaji',
};

/** A state's name by its code, in the page's language; an unknown code as it is. */
export function stateName(code: string): string {
  return Object.hasOwn(REGISTRATION_STATES, code) ? browseStatesText(code as Parameters<typeof browseStatesText>[0]) : code;
}

/** The state code at the start of a registration number ('MH-02', 'ka 05 ab 1234'), or ''. */
export function registrationState(registration: string): string {
  const code = /^\s*([a-z]{2})(?![a-z])/i.exec(registration)?.[1]?.toUpperCase() ?? '';
  return code in REGISTRATION_STATES ? code : '';
}

/** The RTO's city and the state's name, for the searched text ('Pune Maharashtra'). */
export function registrationPlace(registration: string): string {
  const state = registrationState(registration);
  if (!state) return '';
  const office = /^\s*[a-z]{2}[\s-]*(\d{1,2})/i.exec(registration)?.[1];
  const rto = office ? `${state}-${office.padStart(2, '0')}` : '';
  const city = state === 'DL' ? 'Delhi' : (RTO_CITIES[rto] ?? '');
  return [city, REGISTRATION_STATES[state]].filter((part, index, all) => part && all.indexOf(part) === index).join(' ');
}
