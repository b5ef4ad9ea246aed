import { describe, expect, it } from 'vitest';
import { cardTitle, detailTitle, imageSrc, imageSrcSet, imageUrl, type ImageRef } from '../../app/lib/vehicle.ts';

const creta = { make: 'Hyundai', model: 'Creta', name: 'Hyundai Creta SX 1.5 CRDi' };

describe('card title: make + model, then name, then "Unnamed Vehicle"', () => {
  it('uses make and model when both exist', () => {
    expect(cardTitle(creta)).toBe('Hyundai Creta');
  });

  it('uses whichever of make and model exists', () => {
    expect(cardTitle({ make: 'Hyundai', model: '', name: 'Something else' })).toBe('Hyundai');
    expect(cardTitle({ make: '', model: 'Creta', name: 'Something else' })).toBe('Creta');
  });

  it('falls back to the name', () => {
    expect(cardTitle({ make: '', model: '', name: 'Innova Crysta 7-Seater (with driver)' })).toBe('Innova Crysta 7-Seater (with driver)');
  });

  it('falls back to "Unnamed Vehicle"', () => {
    expect(cardTitle({ make: '', model: '', name: '' })).toBe('Unnamed Vehicle');
  });

  it('treats blank text as missing and trims what it shows', () => {
    expect(cardTitle({ make: '  ', model: ' ', name: '  Tata Nexon  ' })).toBe('Tata Nexon');
    expect(cardTitle({ make: ' Tata ', model: ' Nexon ', name: '' })).toBe('Tata Nexon');
    expect(cardTitle({ make: ' ', model: '\t', name: '  ' })).toBe('Unnamed Vehicle');
  });
});

describe('detail title: name, then make + model, then "Unnamed Vehicle"', () => {
  it('uses the name when it exists', () => {
    expect(detailTitle(creta)).toBe('Hyundai Creta SX 1.5 CRDi');
  });

  it('falls back to make and model', () => {
    expect(detailTitle({ make: 'Maruti Suzuki', model: 'WagonR', name: '' })).toBe('Maruti Suzuki WagonR');
    expect(detailTitle({ make: 'Mahindra', model: '', name: '' })).toBe('Mahindra');
    expect(detailTitle({ make: '', model: 'Bolero', name: '' })).toBe('Bolero');
  });

  it('falls back to "Unnamed Vehicle"', () => {
    expect(detailTitle({ make: '', model: '', name: '' })).toBe('Unnamed Vehicle');
  });

  it('treats blank text as missing and trims what it shows', () => {
    expect(detailTitle({ make: ' Maruti Suzuki ', model: ' WagonR ', name: '   ' })).toBe('Maruti Suzuki WagonR');
    expect(detailTitle({ make: 'Tata', model: 'Nexon', name: '  Tata Nexon XZ+  ' })).toBe('Tata Nexon XZ+');
    expect(detailTitle({ make: ' ', model: ' ', name: ' ' })).toBe('Unnamed Vehicle');
  });

  it('differs from the card title only in which comes first', () => {
    const rental = { make: 'Toyota', model: 'Innova Crysta', name: 'Innova Crysta 7-Seater (with driver)' };
    expect(cardTitle(rental)).toBe('Toyota Innova Crysta');
    expect(detailTitle(rental)).toBe('Innova Crysta 7-Seater (with driver)');
  });
});

describe('image URLs', () => {
  const photo: ImageRef = { key: 'vehicles/suvs/1_creta-0', width: 1200, height: 900, widths: [400, 800, 1200] };

  it('points at the WebP variant of a width under /media/', () => {
    expect(imageUrl(photo, 400)).toBe('/media/vehicles/suvs/1_creta-0-400.webp');
  });

  it('picks the largest variant not wider than the limit', () => {
    expect(imageSrc(photo)).toBe('/media/vehicles/suvs/1_creta-0-800.webp');
    expect(imageSrc(photo, 400)).toBe('/media/vehicles/suvs/1_creta-0-400.webp');
    expect(imageSrc(photo, 799)).toBe('/media/vehicles/suvs/1_creta-0-400.webp');
    expect(imageSrc(photo, 5000)).toBe('/media/vehicles/suvs/1_creta-0-1200.webp');
  });

  it('picks the smallest variant when every one is wider than the limit', () => {
    expect(imageSrc(photo, 100)).toBe('/media/vehicles/suvs/1_creta-0-400.webp');
    expect(imageSrc({ key: 'k', width: 1600, height: 1200, widths: [1600] })).toBe('/media/k-1600.webp');
  });

  it('lists every variant with its width in srcset', () => {
    expect(imageSrcSet(photo)).toBe(
      '/media/vehicles/suvs/1_creta-0-400.webp 400w, /media/vehicles/suvs/1_creta-0-800.webp 800w, /media/vehicles/suvs/1_creta-0-1200.webp 1200w',
    );
  });
});
