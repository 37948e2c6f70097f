// The built-in advisor-welcome video (SPEC §2.3 item 12) and its poster, made from an HTML page:
// each frame drawn by Chromium, encoded by ffmpeg (H.264 in MP4, which every Android phone decodes
// in hardware; faststart, so it plays while it downloads). Silent: a shop is noisy, and every word
// is on screen. A lender's own video replaces it through ADVISOR_VIDEO_URL.
//
//   apt-get install ffmpeg   (only to make the files again; the build uses the files as committed)
//   node scripts/media/advisor-welcome-video.mjs
//
// Writes apps/web/public/media/advisor-welcome.mp4 and advisor-welcome.webp (the poster).
/* global document -- draw() and the page's own calls run inside Chromium. */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium } from '@playwright/test';

const require = createRequire(import.meta.url);
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const OUT = new URL('../../apps/web/public/media/', import.meta.url).pathname;
const WIDTH = 768;
const HEIGHT = 432;
const FPS = 15;
const SECONDS = 14;

const font = (weight) =>
  readFileSync(require.resolve(`@fontsource/poppins/files/poppins-latin-${weight}-normal.woff2`)).toString('base64');

// The app's colours (apps/web/src/app/styles.css).
const page = `<!doctype html><html lang="es"><head><meta charset="utf-8"><style>
@font-face { font-family: Poppins; font-weight: 400; src: url(data:font/woff2;base64,${font(400)}) format('woff2'); }
@font-face { font-family: Poppins; font-weight: 600; src: url(data:font/woff2;base64,${font(600)}) format('woff2'); }
* { box-sizing: border-box; margin: 0; }
html, body { width: ${WIDTH}px; height: ${HEIGHT}px; overflow: hidden; }
body { font-family: Poppins, sans-serif; color: #1d1d2b; background: #f4f5fa; }
.scene { position: absolute; inset: 0; display: flex; align-items: center; gap: 40px; padding: 0 64px; opacity: 0; }
.scene.center { flex-direction: column; justify-content: center; gap: 18px; text-align: center; }
.art { flex: none; width: 190px; height: 190px; }
.step { font-size: 22px; font-weight: 600; color: #3050ff; }
h1 { font-size: 40px; line-height: 1.15; font-weight: 600; }
p { font-size: 24px; line-height: 1.35; color: #4e5166; }
.bar { position: absolute; left: 0; bottom: 0; height: 8px; background: #3050ff; }
.badge { display: inline-block; padding: 6px 16px; border-radius: 999px; background: #3050ff; color: #fff; font-size: 20px; font-weight: 600; }
</style></head><body>
<section class="scene center" id="poster" style="justify-content: flex-start; padding-top: 56px">
  <h1>Mira cómo sigue tu préstamo</h1>
  <p><span class="badge">${SECONDS} segundos</span></p>
</section>
<section class="scene center" id="s1">
  <svg class="art" viewBox="0 0 190 190" aria-hidden="true" style="width:130px;height:130px">
    <circle cx="95" cy="95" r="90" fill="#1e9e4a"/><path d="M52 98 L82 128 L140 66" fill="none" stroke="#fff" stroke-width="18" stroke-linecap="round" stroke-linejoin="round"/>
  </svg>
  <h1>¡Tu préstamo fue pre aprobado!</h1>
  <p>Te contamos cómo sigue.</p>
</section>
<section class="scene" id="s2">
  <svg class="art" viewBox="0 0 190 190" aria-hidden="true">
    <rect x="55" y="20" width="80" height="150" rx="14" fill="#1d1d2b"/><rect x="63" y="36" width="64" height="110" rx="4" fill="#fff"/>
    <circle cx="95" cy="158" r="5" fill="#fff"/>
    <path id="ring" d="M148 60 q18 35 0 70 M162 48 q28 47 0 94 M42 60 q-18 35 0 70 M28 48 q-28 47 0 94" fill="none" stroke="#3050ff" stroke-width="7" stroke-linecap="round"/>
    <path d="M80 80 c6 -6 12 -6 14 0 l4 10 c1 4 -1 7 -4 9 c3 8 8 13 16 16 c2 -3 5 -5 9 -4 l10 4 c6 2 6 8 0 14 c-8 8 -30 2 -44 -12 c-14 -14 -20 -30 -5 -37 z" fill="#3050ff"/>
  </svg>
  <div><p class="step">Paso 1</p><h1>Tu asesor te llama</h1><p>En unos minutos. Contesta: te explica tu préstamo y resuelve tus dudas.</p></div>
</section>
<section class="scene" id="s3">
  <svg class="art" viewBox="0 0 190 190" aria-hidden="true">
    <rect x="55" y="20" width="80" height="150" rx="14" fill="#1d1d2b"/><rect x="63" y="36" width="64" height="110" rx="4" fill="#fff"/>
    <circle cx="95" cy="158" r="5" fill="#fff"/>
    <g id="arrow"><path d="M95 52 V108 M75 90 L95 110 L115 90" fill="none" stroke="#3050ff" stroke-width="10" stroke-linecap="round" stroke-linejoin="round"/>
    <path d="M74 124 H116" stroke="#3050ff" stroke-width="10" stroke-linecap="round"/></g>
  </svg>
  <div><p class="step">Paso 2</p><h1>Descarga la app</h1><p>Ahí sigues tu préstamo, paso a paso.</p></div>
</section>
<section class="scene center" id="s4">
  <h1>¡Gracias por confiar en nosotros!</h1>
  <p>Estamos contigo en cada paso.</p>
</section>
<div class="bar" id="bar"></div>
</body></html>`;

/** Each scene's time on screen (seconds), with a fade in and out and a small rise. */
const SCENES = [
  ['s1', 0, 3.2],
  ['s2', 3.2, 7.4],
  ['s3', 7.4, 11.2],
  ['s4', 11.2, SECONDS],
];

function draw(t, scenes, total) {
  const fade = 0.45;
  for (const [id, from, to] of scenes) {
    const element = document.getElementById(id);
    const shown = Math.max(0, Math.min(1, (t - from) / fade, (to - t) / fade));
    const isFirst = from === 0;
    const isLast = to === total;
    const opacity = t < from || t > to ? 0 : isFirst && t < fade ? 1 : isLast && t > to - fade ? 1 : shown;
    element.style.opacity = String(opacity);
    element.style.transform = `translateY(${(1 - opacity) * 16}px)`;
  }
  // The ringing and the download move a little, so the picture is never still for long.
  const ring = document.getElementById('ring');
  if (ring) ring.style.opacity = String(0.35 + 0.65 * Math.abs(Math.sin(t * 4)));
  const arrow = document.getElementById('arrow');
  if (arrow) arrow.style.transform = `translateY(${Math.sin(t * 5) * 5}px)`;
  document.getElementById('bar').style.width = `${(t / total) * 100}%`;
}

function encode(args) {
  const ffmpeg = spawn('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args], {
    stdio: ['pipe', 'inherit', 'inherit'],
  });
  const done = new Promise((resolve, reject) =>
    ffmpeg.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg exited with ${code}`)))),
  );
  return { stdin: ffmpeg.stdin, done };
}

mkdirSync(OUT, { recursive: true });
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox', '--disable-gpu'] });
const tab = await browser.newPage({ viewport: { width: WIDTH, height: HEIGHT }, deviceScaleFactor: 1 });
await tab.setContent(page);
await tab.evaluate(() => document.fonts.ready);

// The poster: what the page shows before the person taps play. Its words stay in the upper half:
// the player's own play button takes the middle, its control bar the bottom.
await tab.evaluate(() => {
  document.getElementById('poster').style.opacity = '1';
  document.getElementById('bar').style.width = '0';
});
const poster = encode(['-f', 'png_pipe', '-i', '-', '-c:v', 'libwebp', '-quality', '82', `${OUT}advisor-welcome.webp`]);
poster.stdin.end(await tab.screenshot({ type: 'png' }));
await poster.done;
await tab.evaluate(() => (document.getElementById('poster').style.opacity = '0'));

const video = encode([
  '-f',
  'image2pipe',
  '-framerate',
  String(FPS),
  '-i',
  '-',
  '-c:v',
  'libx264',
  '-profile:v',
  'main',
  '-level',
  '3.0',
  '-pix_fmt',
  'yuv420p',
  '-tune',
  'animation',
  '-crf',
  '30',
  '-g',
  String(FPS * 2),
  '-movflags',
  '+faststart',
  '-an',
  `${OUT}advisor-welcome.mp4`,
]);
for (let frame = 0; frame < SECONDS * FPS; frame++) {
  await tab.evaluate(({ t, scenes, total, source }) => new Function(`return ${source}`)()(t, scenes, total), {
    t: frame / FPS,
    scenes: SCENES,
    total: SECONDS,
    source: draw.toString(),
  });
  const png = await tab.screenshot({ type: 'png' });
  if (!video.stdin.write(png)) await new Promise((resolve) => video.stdin.once('drain', resolve));
}
video.stdin.end();
await video.done;
await browser.close();
for (const name of ['advisor-welcome.mp4', 'advisor-welcome.webp'])
  console.log(`${name}: ${(statSync(`${OUT}${name}`).size / 1024).toFixed(1)} KB`);
