import { describe, expect, it } from 'vitest';
import { fitWithin } from './photo.js';

describe('fitWithin: photos at most 1600 px on the long side', () => {
  it('shrinks a phone photo, keeping its proportions', () => {
    expect(fitWithin(4032, 3024)).toEqual({ width: 1600, height: 1200 });
    expect(fitWithin(3024, 4032)).toEqual({ width: 1200, height: 1600 });
  });

  it('never enlarges a small one', () => {
    expect(fitWithin(1280, 720)).toEqual({ width: 1280, height: 720 });
  });
});
