import { describe, expect, it } from 'vitest';
import {
  areaLabel,
  areaOfPinCode,
  DEFAULT_SERVICE_AREAS,
  nearestServedArea,
  parseServiceAreaLines,
  servedAreaProblem,
  serviceAreaLines,
} from '../../app/lib/service-areas.ts';
import { homeAddressLine } from '../../app/features/appointments/home-address.ts';
import { pinCodeMessages } from '../../app/lib/pin-code.ts';

/** The areas we visit (decision 097): how the admin types them, which one is "nearest", what a refused PIN code is told. */

const areas = [
  { locality: 'Chembur', pinCode: '400074' },
  { locality: 'Andheri East', pinCode: '400069' },
  { locality: 'Saki Naka', pinCode: '400072' },
  { locality: 'Thane West', pinCode: '400601' },
];
const HUB = 'Andheri East hub';

describe('the nearest area we visit', () => {
  it('is the closest code in the same sorting district, the lower one on a tie', () => {
    expect(nearestServedArea('400071', areas)).toEqual({ locality: 'Saki Naka', pinCode: '400072' });
    expect(nearestServedArea('400075', areas)).toEqual({ locality: 'Chembur', pinCode: '400074' });
    // 400070 is 1 from 400069 and 2 from 400072; 400073 is 1 from both 400072 and 400074: the lower.
    expect(nearestServedArea('400070', areas)?.pinCode).toBe('400069');
    expect(nearestServedArea('400073', areas)?.pinCode).toBe('400072');
    expect(nearestServedArea('400610', areas)?.pinCode).toBe('400601');
  });

  it('is none outside the district: the number says nothing there', () => {
    expect(nearestServedArea('110001', areas)).toBeNull();
    expect(nearestServedArea('401107', areas)).toBeNull();
    expect(nearestServedArea('4000', areas)).toBeNull();
  });

  it('is named with the hub in the refusal', () => {
    expect(servedAreaProblem('400071', areas, HUB)).toBe(`We don't visit 400071 yet. Nearest area we visit: Saki Naka — 400072, or come to our hub at ${HUB}.`);
    expect(servedAreaProblem('110001', areas, HUB)).toBe(`We don't visit 110001 yet. Please come to our hub at ${HUB}.`);
    expect(servedAreaProblem('400069', areas, HUB)).toBeNull();
    expect(servedAreaProblem('', areas, HUB)).toBe(pinCodeMessages.required);
    expect(servedAreaProblem('012345', areas, HUB)).toBe(pinCodeMessages.invalid);
  });
});

describe('the admin’s list of areas', () => {
  it('reads a locality and its PIN code a line, however they are joined', () => {
    const typed = 'Andheri West — 400053\nChembur, 400074\n\n  Marol 400 059 \nSector 7 400070\n400049\n400777';
    expect(parseServiceAreaLines(typed)).toEqual({
      areas: [
        { locality: '400777', pinCode: '400777' },
        { locality: 'Andheri West', pinCode: '400053' },
        { locality: 'Chembur', pinCode: '400074' },
        { locality: 'Juhu', pinCode: '400049' },
        { locality: 'Marol', pinCode: '400059' },
        { locality: 'Sector 7', pinCode: '400070' },
      ],
      problems: [],
    });
  });

  it('names each line it cannot read', () => {
    const { problems } = parseServiceAreaLines(`Andheri West\nNowhere — 012345\n${'x'.repeat(61)} 400053`);
    expect(problems).toHaveLength(3);
    expect(problems[0]).toBe(`“Andheri West” needs a PIN code at the end. ${pinCodeMessages.invalid}`);
    expect(problems[2]).toContain('keep the locality to 60 characters');
  });

  it('shows the areas as it reads them, and names bare PIN codes from the shipped list', () => {
    expect(parseServiceAreaLines(serviceAreaLines(DEFAULT_SERVICE_AREAS)).areas).toHaveLength(DEFAULT_SERVICE_AREAS.length);
    expect(areaOfPinCode('400053')).toEqual({ locality: 'Andheri West', pinCode: '400053' });
    expect(areaOfPinCode('560001')).toEqual({ locality: '560001', pinCode: '560001' });
    expect(areaLabel({ locality: 'Andheri West', pinCode: '400053' })).toBe('Andheri West — 400053');
    expect(areaLabel({ locality: '560001', pinCode: '560001' })).toBe('560001');
  });
});

describe('a home visit’s address', () => {
  it('reads as the desk and the mails write it', () => {
    expect(homeAddressLine({ street: '12 Sea View, Juhu Tara Rd', landmark: 'Juhu Circle', pinCode: '400049' })).toBe(
      '12 Sea View, Juhu Tara Rd (near Juhu Circle), 400049',
    );
    expect(homeAddressLine({ street: '12 Sea View', landmark: '', pinCode: '400049' })).toBe('12 Sea View, 400049');
    // Booked before addresses were asked for: the PIN code alone.
    expect(homeAddressLine({ street: '', landmark: '', pinCode: '400049' })).toBe('400049');
  });
});
