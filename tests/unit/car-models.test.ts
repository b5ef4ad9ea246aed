import { describe, expect, it } from 'vitest';
import { matchName, namesOf, readCar } from '../../app/features/sell/car-models.ts';
import { foldName, nameDistance } from '../../app/lib/name-matching.ts';
import { mergeCatalogue, searchInEnglishNames } from '../../server/catalog/car-models.ts';

/** The catalogue of cars sold in India read with the search's typo tolerance (decision 098). */

const shipped = mergeCatalogue([]);
const hyundai = shipped.find((make) => make.name === 'Hyundai')!;

describe('reading a typed make and model', () => {
  it('forgives the typos search forgives: hundai is Hyundai, cretta is Creta', () => {
    expect(matchName('hundai', shipped, namesOf).found?.name).toBe('Hyundai');
    expect(matchName('cretta', hyundai.models, namesOf).found?.name).toBe('Creta');
    expect(readCar(shipped, { make: 'hundai', model: 'cretta', variant: '' })).toMatchObject({
      ok: true,
      make: { name: 'Hyundai' },
      model: { name: 'Creta', id: 'hyundai-creta' },
      variant: '',
    });
    expect(readCar(shipped, { make: 'maruti', model: 'swfit', variant: 'vxi' })).toMatchObject({
      ok: true,
      make: { name: 'Maruti Suzuki' },
      model: { name: 'Swift' },
      variant: 'VXi',
    });
    expect(readCar(shipped, { make: 'TOYOTA', model: 'inova crysta', variant: '' })).toMatchObject({ ok: true, model: { name: 'Innova Crysta' } });
  });

  it('reads Hindi names and ids too', () => {
    expect(readCar(shipped, { make: 'ह्युंडई', model: 'क्रेटा', variant: '' })).toMatchObject({ ok: true, make: { name: 'Hyundai' }, model: { name: 'Creta' } });
    // A nukta typed or not: फ़ and फ are one letter to the matcher.
    expect(readCar(shipped, { make: 'मारुति सुजुकी', model: 'स्विफ्ट', variant: '' })).toMatchObject({
      ok: true,
      make: { name: 'Maruti Suzuki' },
      model: { name: 'Swift' },
    });
    expect(readCar(shipped, { make: 'hyundai', model: 'hyundai-creta', variant: '' })).toMatchObject({ ok: true, model: { name: 'Creta' } });
  });

  it('punctuation and spaces do not matter', () => {
    expect(foldName('Scorpio-N')).toBe('scorpio n');
    expect(nameDistance('wagon r', ['WagonR'])).toBe(0);
    expect(readCar(shipped, { make: 'mahindra', model: 'scorpio n', variant: '' })).toMatchObject({ ok: true, model: { name: 'Scorpio-N' } });
  });

  it('refuses what is not there, offering the closest names', () => {
    expect(readCar(shipped, { make: 'lamborgini', model: 'urus', variant: '' })).toEqual({ ok: false, problems: { make: [] } });
    // Below five letters no typo is allowed: 'tota' is offered the makes it is near.
    const tota = readCar(shipped, { make: 'tota', model: 'city', variant: '' });
    expect(tota.ok).toBe(false);
    if (!tota.ok) expect(tota.problems.make).toEqual(expect.arrayContaining(['Tata', 'Toyota']));
    expect(readCar(shipped, { make: 'hondu', model: 'city', variant: '' })).toMatchObject({ ok: true, make: { name: 'Honda' } });
    // Several equally near: the seller chooses.
    const grand = readCar(shipped, { make: 'hyundai', model: 'grand', variant: '' });
    expect(grand).toMatchObject({ ok: false, problems: { model: ['Grand i10', 'Grand i10 Nios'] } });
    // A model of another make is not guessed into this one.
    expect(readCar(shipped, { make: 'tata', model: 'creta', variant: '' }).ok).toBe(false);
  });
});

describe('searching Hindi names', () => {
  it('puts the Hindi names of makes and models in English', () => {
    expect(searchInEnglishNames(['क्रेटा'], shipped)).toEqual(['Creta']);
    expect(searchInEnglishNames(['ह्युंडई', 'क्रेटा'], shipped)).toEqual(['Hyundai', 'Creta']);
    expect(searchInEnglishNames(['मारुति', 'सुज़ुकी', 'स्विफ़्ट'], shipped)).toEqual(['Maruti', 'Suzuki', 'Swift']);
    expect(searchInEnglishNames(['सुजुकी'], shipped)).toEqual(['Suzuki']);
    expect(searchInEnglishNames(['इनोवा', 'क्रिस्टा', 'diesel'], shipped)).toEqual(['Innova', 'Crysta', 'diesel']);
    // One typo in a word of five letters or more, as in English.
    expect(searchInEnglishNames(['क्रेता'], shipped)).toEqual(['Creta']);
  });

  it('leaves a search with no Hindi, or no known Hindi name, alone', () => {
    expect(searchInEnglishNames(['creta'], shipped)).toBeNull();
    expect(searchInEnglishNames(['नमस्ते'], shipped)).toBeNull();
  });
});

describe("the admin's additions", () => {
  it('join the shipped list: a new make, a new model of a known make, a new variant', () => {
    const row = { makeHi: '', modelHi: '', body: '', addedBy: 'a@example.com', createdAt: '' };
    const merged = mergeCatalogue([
      { ...row, id: 1, make: 'VinFast', makeHi: 'विनफ़ास्ट', model: 'VF 6', modelHi: 'वीएफ 6', variant: '' },
      { ...row, id: 2, make: 'hyundai', model: 'Creta Electric', variant: 'Excellence' },
      { ...row, id: 3, make: 'Hyundai', model: 'creta', variant: 'SX Tech' },
    ]);
    expect(merged.at(-1)).toMatchObject({ id: 'vinfast', name: 'VinFast', models: [{ id: 'vinfast-vf-6', name: 'VF 6', variants: [] }] });
    const mergedHyundai = merged.find((make) => make.id === 'hyundai')!;
    expect(mergedHyundai.models.at(-1)).toMatchObject({ name: 'Creta Electric', variants: ['Excellence'] });
    expect(mergedHyundai.models.find((model) => model.name === 'Creta')!.variants).toContain('SX Tech');
    // The shipped list itself is not changed.
    expect(hyundai.models.find((model) => model.name === 'Creta')!.variants).not.toContain('SX Tech');
    expect(readCar(merged, { make: 'vinfast', model: 'vf6', variant: '' })).toMatchObject({ ok: true, model: { name: 'VF 6' } });
  });
});
