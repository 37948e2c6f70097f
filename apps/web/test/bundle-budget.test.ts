import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

// 90 KB until issue 31: the route and link of "Mis datos" (the applicant's data rights, a legal
// requirement on every screen past the landing) cost 0.3 KB of the first load.
const BUDGET_KB = 91;
/**
 * What a shopkeeper's screen past the landing may download beyond what /home already did (on 3G).
 * 26 KB until the back office got its own budget: the largest screen is the signature, 19.7 KB.
 */
const LATER_STEP_BUDGET_KB = 22;
/**
 * The back office's shell (login and the list), loaded once per working day by staff on an office
 * connection. It loads the screens' shared file too (the domain's rules live there), and sat at
 * 26.0 KB of the old common budget, so one line of any shared screen code tipped it over.
 */
const BACK_OFFICE_SHELL_BUDGET_KB = 28;
const BACK_OFFICE_SHELL = 'backoffice/app.tsx';
const budgetOf = (route: string) => (route === BACK_OFFICE_SHELL ? BACK_OFFICE_SHELL_BUDGET_KB : LATER_STEP_BUDGET_KB);
const dist = new URL('../dist/', import.meta.url).pathname;
const routerSource = new URL('../src/app/router.tsx', import.meta.url).pathname;

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

function readManifest(): Manifest {
  const manifestPath = join(dist, '.vite/manifest.json');
  expect(existsSync(manifestPath), 'run npm run build first').toBe(true);
  return JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
}

/** A chunk and everything it imports statically (JS and CSS files), but what `loaded` already has. */
function filesOf(manifest: Manifest, key: string, loaded: ReadonlySet<string> = new Set()): string[] {
  const files = new Set<string>();
  const visit = (at: string) => {
    const chunk = manifest[at];
    if (!chunk || files.has(chunk.file) || loaded.has(chunk.file)) return;
    files.add(chunk.file);
    for (const css of chunk.css ?? []) if (!loaded.has(css)) files.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(key);
  return [...files];
}

/** What the browser must load before /home paints: the entry chunk and everything it imports statically. */
const jsForHome = (manifest: Manifest) => filesOf(manifest, 'index.html').filter((file) => file.endsWith('.js'));

const gzipKb = (files: string[]) =>
  files.reduce((sum, file) => sum + gzipSync(readFileSync(join(dist, file))).length, 0) / 1024;

/** What router.tsx loads on demand (its screens and the API modules it warms), as manifest keys. */
function lazyRouterModules(manifest: Manifest): string[] {
  const source = readFileSync(routerSource, 'utf8');
  const paths = [...source.matchAll(/import\('\.\.\/([^']+)\.js'\)/g)].map((match) => `src/${match[1]!}`);
  return [...new Set(paths)].map((path) => (manifest[`${path}.tsx`] ? `${path}.tsx` : `${path}.ts`));
}

describe('bundle budget', () => {
  it(`the JS loaded for /home is at most ${BUDGET_KB} KB gzip`, () => {
    const manifest = readManifest();
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

    const kb = gzipKb(files);
    console.log(
      `bundle budget: /home loads ${files.length} JS file(s), ${kb.toFixed(1)} KB gzip (budget ${BUDGET_KB} KB)`,
    );
    expect(kb).toBeLessThanOrEqual(BUDGET_KB);
  });

  it(`each shopkeeper's screen past the landing loads at most ${LATER_STEP_BUDGET_KB} KB gzip of its own, the back office's shell ${BACK_OFFICE_SHELL_BUDGET_KB} KB`, () => {
    const manifest = readManifest();
    const home = new Set(filesOf(manifest, 'index.html'));
    // The router loads the screens' texts (shared/lib/copy-screens.ts) with each of them: the first
    // time only, but counted in each. Its chunk is found by one of its texts.
    const copyChunks = Object.keys(manifest).filter((key) => {
      const { file } = manifest[key]!;
      return file.endsWith('.js') && readFileSync(join(dist, file), 'utf8').includes('Paso {step}/{total}');
    });
    expect(copyChunks, 'one chunk has the screens texts').toHaveLength(1);
    const screenCopy = filesOf(manifest, copyChunks[0]!, home);
    const routes = lazyRouterModules(manifest);
    expect(routes.length, 'the lazy screens of router.tsx').toBeGreaterThan(20);
    const sizes = routes.map((route) => {
      expect(manifest[route]?.isDynamicEntry, `${route} is a chunk loaded on demand`).toBe(true);
      // Its chunk and their static imports (JS and CSS) that /home did not load already.
      const files = [...new Set([...filesOf(manifest, route, home), ...screenCopy])];
      return { route: route.replace(/^src\/features\//, ''), files: files.length, kb: gzipKb(files) };
    });
    console.log(
      `bundle budget: screens past the landing (budget ${LATER_STEP_BUDGET_KB} KB each, the back office's shell ${BACK_OFFICE_SHELL_BUDGET_KB} KB)\n` +
        sizes
          .map(({ route, files, kb }) => `  ${kb.toFixed(1).padStart(5)} KB in ${files} file(s)  ${route}`)
          .join('\n'),
    );
    expect(
      sizes.map(({ route }) => route),
      'the back office is one of them',
    ).toContain(BACK_OFFICE_SHELL);
    const over = sizes.filter(({ route, kb }) => kb > budgetOf(route));
    expect(over, 'over the budget').toEqual([]);
  });
});
