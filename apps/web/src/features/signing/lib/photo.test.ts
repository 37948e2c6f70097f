import { describe, expect, it } from 'vitest';
import { photoSize } from './photo.js';

describe('photoSize: a short side of 720 px (MetaMap asks 600), a long side of 1280 at most', () => {
  it('shrinks a phone camera frame or photo, keeping its proportions', () => {
    expect(photoSize(1920, 1080)).toEqual({ width: 1280, height: 720 });
    expect(photoSize(4032, 3024)).toEqual({ width: 960, height: 720 });
    expect(photoSize(3024, 4032)).toEqual({ width: 720, height: 960 });
    expect(photoSize(1080, 1920)).toEqual({ width: 720, height: 1280 });
  });

  it('keeps a wide frame within 1280 px, and never enlarges a small one', () => {
    expect(photoSize(3000, 1000)).toEqual({ width: 1280, height: 427 });
    expect(photoSize(1280, 720)).toEqual({ width: 1280, height: 720 });
    expect(photoSize(640, 480)).toEqual({ width: 640, height: 480 });
  });
});
