import { formsText as t } from './i18n/forms.ts';
import { isPinCode, pinCodeMessages, pinCodeProblem } from './pin-code.ts';

/**
 * The areas the team drives to (decision 097): home test drives, home inspections and rental
 * delivery. The admin keeps them as a locality and its PIN code ("Andheri West — 400053"); the
 * forms list them before a person types, and a PIN code outside them is refused with the nearest
 * area we do visit and the hub. One rule here for the pages, the API and the services.
 */

export type ServiceArea = { locality: string; pinCode: string };

export const LOCALITY_MAX = 60;
export const MAX_SERVICE_AREAS = 500;

/**
 * Localities of the Mumbai PIN codes the demo serves, shipped so that a list saved as bare PIN
 * codes (before areas had names, migration 033) reads as places. A PIN code not here keeps the
 * code itself as its name until the admin names it.
 */
export const KNOWN_LOCALITIES: Readonly<Record<string, string>> = {
  '400049': 'Juhu',
  '400053': 'Andheri West',
  '400054': 'Santacruz West',
  '400055': 'Santacruz East',
  '400056': 'Vile Parle West',
  '400057': 'Vile Parle East',
  '400058': 'Andheri West (station)',
  '400059': 'Marol',
  '400060': 'Jogeshwari East',
  '400063': 'Goregaon East',
  '400069': 'Andheri East',
  '400072': 'Saki Naka',
  '400093': 'Chakala MIDC',
  '400099': 'Sahar',
};

/** An area for a PIN code saved without a name: the shipped locality, else the code itself. */
export function areaOfPinCode(pinCode: string): ServiceArea {
  return { locality: KNOWN_LOCALITIES[pinCode] ?? pinCode, pinCode };
}

/** Around the Andheri East hub (Mumbai), until the admin says otherwise. */
export const DEFAULT_SERVICE_AREAS: readonly ServiceArea[] = Object.keys(KNOWN_LOCALITIES).map(areaOfPinCode);

/** 'Andheri West — 400053'; a PIN code named only by itself is shown once. */
export function areaLabel(area: ServiceArea): string {
  return area.locality === area.pinCode ? area.pinCode : `${area.locality} — ${area.pinCode}`;
}

/** Areas in the order a person scans them: by locality, then PIN code. */
export function sortedAreas(areas: readonly ServiceArea[]): ServiceArea[] {
  return [...areas].sort((a, b) => a.locality.localeCompare(b.locality, 'en') || a.pinCode.localeCompare(b.pinCode));
}

export function isServed(pinCode: string, areas: readonly ServiceArea[]): boolean {
  return areas.some((area) => area.pinCode === pinCode);
}

/**
 * The served area nearest a PIN code we do not visit: within the same sorting district (the
 * first three digits, which India Post gives one district), the one whose code is numerically
 * closest, the lower code on a tie; none outside the district. PIN codes are handed out by post
 * office, not by map, so this is "nearby" in the postal sense only; it never guesses across
 * districts, where the number says nothing at all.
 */
export function nearestServedArea(pinCode: string, areas: readonly ServiceArea[]): ServiceArea | null {
  if (!isPinCode(pinCode)) return null;
  const district = pinCode.slice(0, 3);
  const asked = Number(pinCode);
  let nearest: ServiceArea | null = null;
  for (const area of areas) {
    if (area.pinCode.slice(0, 3) !== district) continue;
    const distance = Math.abs(Number(area.pinCode) - asked);
    const best = nearest === null ? Infinity : Math.abs(Number(nearest.pinCode) - asked);
    if (distance < best || (distance === best && nearest !== null && area.pinCode < nearest.pinCode)) nearest = area;
  }
  return nearest;
}

/** "We don't visit 400071 yet. Nearest area we visit: Saki Naka — 400072, or come to our hub at …" */
export function notServedMessage(pinCode: string, areas: readonly ServiceArea[], hubAddress: string): string {
  const nearest = nearestServedArea(pinCode, areas);
  return nearest
    ? t('areaNotServedNearest', { pin: pinCode, area: areaLabel(nearest), address: hubAddress })
    : t('areaNotServed', { pin: pinCode, address: hubAddress });
}

/** Why a home visit or delivery cannot go to this PIN code (none, not six digits, not served), or null when it can. */
export function servedAreaProblem(pinCode: string, areas: readonly ServiceArea[], hubAddress: string): string | null {
  return pinCodeProblem(pinCode) ?? (isServed(pinCode, areas) ? null : notServedMessage(pinCode, areas, hubAddress));
}

/**
 * The admin's list as typed, one area a line: a locality and its PIN code ("Andheri West —
 * 400053", "Andheri West, 400053", "Andheri West 400053"), or a bare PIN code (named from the
 * shipped list). Returns the areas by locality, one per PIN code, and the lines it could not read.
 */
export function parseServiceAreaLines(text: string): { areas: ServiceArea[]; problems: string[] } {
  const byPin = new Map<string, ServiceArea>();
  const problems: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line) continue;
    const match = /^(.*?)[\s,;:—–-]*(\d{3} ?\d{3})$/.exec(line);
    const pinCode = match ? match[2]!.replace(' ', '') : '';
    const locality = match ? match[1]!.trim() : '';
    if (!match || !isPinCode(pinCode)) problems.push(t('areaLineNoPin', { line: line.slice(0, 80), rule: pinCodeMessages.invalid }));
    else if (locality.length > LOCALITY_MAX) problems.push(t('areaLineLocalityTooLong', { line: line.slice(0, 80), max: LOCALITY_MAX }));
    else byPin.set(pinCode, locality ? { locality, pinCode } : areaOfPinCode(pinCode));
  }
  return { areas: sortedAreas([...byPin.values()]), problems };
}

/** The areas as the admin's textarea shows them, one a line. */
export function serviceAreaLines(areas: readonly ServiceArea[]): string {
  return sortedAreas(areas)
    .map((area) => `${area.locality} — ${area.pinCode}`)
    .join('\n');
}
