import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

const BUDGET_KB = 100;
const dist = new URL('../dist/', import.meta.url).pathname;

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}

/** The entry chunk and everything it imports statically: what the browser must load before /home paints. */
function jsForHome(manifest: Record<string, ManifestChunk>): string[] {
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit('index.html');
  return [...files].filter((file) => file.endsWith('.js'));
}

describe('bundle budget', () => {
  it(`the JS loaded for /home is at most ${BUDGET_KB} KB gzip`, () => {
    const manifestPath = join(dist, '.vite/manifest.json');
    expect(existsSync(manifestPath), 'run npm run build first').toBe(true);
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, ManifestChunk>;
    const files = jsForHome(manifest);
    expect(files.length).toBeGreaterThan(0);
    // Request count matters as much as bytes on 3G: the entry, the runtime and one app file.
    expect(files.length).toBeLessThanOrEqual(3);

    // The landing screen must be in that set, not behind a lazy import.
    const html = readFileSync(join(dist, 'index.html'), 'utf8');
    const entry = manifest['index.html']!.file;
    expect(html).toContain(`/${entry}`);

    // What must stay out of the first load: zod (the server validates) and the QR code generator.
    const text = files.map((file) => readFileSync(join(dist, file), 'utf8')).join('\n');
    expect(text).toContain('Surte tu negocio con');
    expect(text).not.toContain('ZodError');
    const qrChunk = manifest['src/features/entry/components/qr-code.tsx']?.file;
    expect(qrChunk, 'the QR code is a chunk of its own').toBeDefined();
    expect(files).not.toContain(qrChunk);

    const bytes = files.reduce((sum, file) => sum + gzipSync(readFileSync(join(dist, file))).length, 0);
    const kb = bytes / 1024;
    console.log(
      `bundle budget: /home loads ${files.length} JS file(s), ${kb.toFixed(1)} KB gzip (budget ${BUDGET_KB} KB)`,
    );
    expect(kb).toBeLessThanOrEqual(BUDGET_KB);
  });
});
