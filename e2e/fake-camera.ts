import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import sharp from 'sharp';

/**
 * What a phone's camera shows when the identity widget asks for the ID, for Chromium's fake
 * capture device (`--use-file-for-fake-video-capture`): an ID card on a table at 1920×1080, with a
 * sensor's noise that changes from frame to frame, as Y4M. Chromium's own test pattern (the e2e
 * default) is flat colour that any encoder squeezes to a few KB, so the photos' bytes and the 3G
 * figures (scripts/perf/flow.mjs, e2e/signing-phone.spec.ts) are measured on this instead.
 * Made once per content version; the file is ~19 MB.
 */
export const FAKE_CAMERA_FILE = join(import.meta.dirname, '../test-results/fake-camera/id-card-v2.y4m');

const WIDTH = 1920;
const HEIGHT = 1080;
const FRAMES = 4;
/** Luma noise (standard deviation, of 255): a phone's video in indoor light after its own denoising. */
const NOISE = 3;
/** The grain of things (wood, card stock, print), which a drawing lacks and a photo has: ± this much luma. */
const TEXTURE = 14;

const guilloche = Array.from({ length: 26 }, (_, i) => {
  const y = 40 + i * 26;
  let d = `M 0 ${y}`;
  for (let x = 0; x <= 1240; x += 20) d += ` L ${x} ${(y + 9 * Math.sin(x / 37 + i)).toFixed(1)}`;
  return `<path d="${d}" stroke="#8fb6d8" stroke-width="1.2" fill="none" opacity="0.7"/>`;
}).join('');

const field = (x: number, y: number, label: string, value: string) =>
  `<text x="${x}" y="${y}" font-family="DejaVu Sans" font-size="19" fill="#3b4a66">${label}</text>` +
  `<text x="${x}" y="${y + 36}" font-family="DejaVu Sans" font-weight="bold" font-size="31" fill="#111">${value}</text>`;

/** The scene: a wooden table, the card slightly turned, its printed fields, photo and security pattern. */
const SCENE = `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}">
  <defs>
    <linearGradient id="table" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#7a5230"/><stop offset="0.5" stop-color="#9b6a3f"/><stop offset="1" stop-color="#6b4527"/>
    </linearGradient>
    <linearGradient id="card" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#eef5fb"/><stop offset="1" stop-color="#d9e7f3"/>
    </linearGradient>
    <radialGradient id="light" cx="0.35" cy="0.3" r="0.9">
      <stop offset="0" stop-color="#fff" stop-opacity="0.25"/><stop offset="1" stop-color="#000" stop-opacity="0.25"/>
    </radialGradient>
  </defs>
  <rect width="${WIDTH}" height="${HEIGHT}" fill="url(#table)"/>
  ${Array.from({ length: 40 }, (_, i) => `<path d="M 0 ${i * 28 + 5} C 600 ${i * 28 - 20}, 1300 ${i * 28 + 30}, ${WIDTH} ${i * 28}" stroke="#5a3a20" stroke-width="${1 + (i % 3)}" opacity="0.35" fill="none"/>`).join('')}
  <g transform="translate(330 150) rotate(-2.5)">
    <rect x="8" y="12" width="1240" height="780" rx="40" fill="#000" opacity="0.35"/>
    <rect width="1240" height="780" rx="40" fill="url(#card)"/>
    ${guilloche}
    <rect y="0" width="1240" height="110" rx="40" fill="#1f4e8c"/>
    <rect y="70" width="1240" height="40" fill="#1f4e8c"/>
    <text x="620" y="52" text-anchor="middle" font-family="DejaVu Sans" font-weight="bold" font-size="40" fill="#fff">REPÚBLICA DOMINICANA</text>
    <text x="620" y="94" text-anchor="middle" font-family="DejaVu Sans" font-size="26" fill="#fff">CÉDULA DE IDENTIDAD Y ELECTORAL</text>
    <rect x="60" y="160" width="330" height="420" rx="12" fill="#b9c4cf"/>
    <ellipse cx="225" cy="330" rx="105" ry="135" fill="#a0745a"/>
    <ellipse cx="225" cy="250" rx="115" ry="70" fill="#2b1d16"/>
    <ellipse cx="185" cy="335" rx="14" ry="9" fill="#2b1d16"/><ellipse cx="265" cy="335" rx="14" ry="9" fill="#2b1d16"/>
    <path d="M 190 410 Q 225 430 260 410" stroke="#5e2f2a" stroke-width="7" fill="none"/>
    <path d="M 80 580 Q 225 470 370 580 Z" fill="#2f3f5f"/>
    ${field(440, 190, 'Nombres', 'MARÍA JOSÉ')}
    ${field(440, 280, 'Apellidos', 'PEÑA NÚÑEZ')}
    ${field(440, 370, 'Fecha de nacimiento', '28 FEBRERO 1985')}
    ${field(440, 460, 'Lugar de nacimiento', 'SANTO DOMINGO, D.N.')}
    ${field(880, 370, 'Sexo', 'F')}
    ${field(880, 460, 'Estado civil', 'CASADA')}
    <text x="60" y="660" font-family="DejaVu Sans Mono" font-weight="bold" font-size="54" fill="#111">402-2345678-9</text>
    <text x="60" y="720" font-family="DejaVu Sans" font-size="20" fill="#3b4a66">Expira 28/02/2031 · Junta Central Electoral · Serie 012 · Ocupación COMERCIANTE</text>
    <path d="M 820 600 C 880 540, 940 680, 1010 590 S 1120 640, 1160 590" stroke="#13295b" stroke-width="4" fill="none"/>
  </g>
  <rect width="${WIDTH}" height="${HEIGHT}" fill="url(#light)"/>
</svg>`;

/** A standard normal deviate (Box–Muller) from a small seeded generator, so every run makes the same file. */
function gaussian(seed: number): () => number {
  let state = seed >>> 0;
  const next = () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return (state + 1) / 4294967297;
  };
  return () => Math.sqrt(-2 * Math.log(next())) * Math.cos(2 * Math.PI * next());
}

/** Fractal value noise (octaves of 3 to 24 px), in about [-1, 1]: the scene's grain, the same in every frame. */
function grain(): Float32Array {
  const out = new Float32Array(WIDTH * HEIGHT);
  const random = gaussian(5);
  for (const [cell, weight] of [
    [3, 0.45],
    [6, 0.3],
    [12, 0.15],
    [24, 0.1],
  ] as const) {
    const columns = Math.ceil(WIDTH / cell) + 2;
    const lattice = Float32Array.from({ length: columns * (Math.ceil(HEIGHT / cell) + 2) }, () => random() * 0.5);
    for (let y = 0; y < HEIGHT; y++) {
      const gy = y / cell;
      const y0 = Math.floor(gy);
      const fy = gy - y0;
      for (let x = 0; x < WIDTH; x++) {
        const gx = x / cell;
        const x0 = Math.floor(gx);
        const fx = gx - x0;
        const at = (cx: number, cy: number) => lattice[cy * columns + cx]!;
        const top = at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx;
        const bottom = at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx;
        out[y * WIDTH + x]! += weight * (top * (1 - fy) + bottom * fy);
      }
    }
  }
  return out;
}

/** One I420 frame (full-range BT.601, as Y4M's C420jpeg says) of the scene with its own noise. */
function frame(rgb: Buffer, texture: Float32Array, seed: number): Buffer {
  const noise = gaussian(seed);
  const luma = Buffer.alloc(WIDTH * HEIGHT);
  const chroma = Buffer.alloc((WIDTH / 2) * (HEIGHT / 2) * 2);
  const u = chroma.subarray(0, chroma.length / 2);
  const v = chroma.subarray(chroma.length / 2);
  for (let i = 0; i < WIDTH * HEIGHT; i++) {
    const r = rgb[i * 3]!;
    const g = rgb[i * 3 + 1]!;
    const b = rgb[i * 3 + 2]!;
    const y = 0.299 * r + 0.587 * g + 0.114 * b + texture[i]! * TEXTURE + noise() * NOISE;
    luma[i] = Math.max(0, Math.min(255, Math.round(y)));
  }
  for (let y = 0; y < HEIGHT / 2; y++)
    for (let x = 0; x < WIDTH / 2; x++) {
      const i = (y * 2 * WIDTH + x * 2) * 3;
      const r = rgb[i]!;
      const g = rgb[i + 1]!;
      const b = rgb[i + 2]!;
      u[y * (WIDTH / 2) + x] = Math.round(128 - 0.168736 * r - 0.331264 * g + 0.5 * b);
      v[y * (WIDTH / 2) + x] = Math.round(128 + 0.5 * r - 0.418688 * g - 0.081312 * b);
    }
  return Buffer.concat([Buffer.from('FRAME\n'), luma, chroma]);
}

/** Writes FAKE_CAMERA_FILE unless it is there; answers its path. */
export async function fakeCamera(): Promise<string> {
  if (existsSync(FAKE_CAMERA_FILE)) return FAKE_CAMERA_FILE;
  // The scene slightly soft, as a phone's lens and focus leave it.
  const rgb = await sharp(Buffer.from(SCENE)).removeAlpha().blur(0.7).raw().toBuffer();
  const header = Buffer.from(`YUV4MPEG2 W${WIDTH} H${HEIGHT} F${FRAMES}:1 Ip A1:1 C420jpeg\n`);
  const texture = grain();
  const frames = Array.from({ length: FRAMES }, (_, i) => frame(rgb, texture, 27 + i));
  mkdirSync(dirname(FAKE_CAMERA_FILE), { recursive: true });
  // Written aside, then renamed: a worker starting meanwhile never reads half a file.
  const partial = `${FAKE_CAMERA_FILE}.${process.pid}.partial`;
  writeFileSync(partial, Buffer.concat([header, ...frames]));
  renameSync(partial, FAKE_CAMERA_FILE);
  return FAKE_CAMERA_FILE;
}
