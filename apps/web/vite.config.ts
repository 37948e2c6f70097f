import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type UserConfig } from 'vite';

/**
 * The modules /home loads: the entry's static imports, transitively (known at the end of the build
 * phase, before chunks are made). Everything else is loaded on demand by later screens.
 */
function firstLoadModules(): { plugin: Plugin; has: (id: string) => boolean } {
  const ids = new Set<string>();
  const plugin: Plugin = {
    name: 'provee:first-load-modules',
    apply: 'build',
    buildEnd() {
      ids.clear();
      const entries = [...this.getModuleIds()].filter((id) => this.getModuleInfo(id)?.isEntry);
      const stack = [...entries];
      for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
        if (ids.has(id)) continue;
        ids.add(id);
        stack.push(...(this.getModuleInfo(id)?.importedIds ?? []));
      }
      // The entry (index.html and the main.tsx it names) stays in its own small file, index-*.js.
      for (const entry of entries) {
        ids.delete(entry);
        for (const id of this.getModuleInfo(entry)?.importedIds ?? []) ids.delete(id);
      }
    },
  };
  return { plugin, has: (id) => ids.has(id) };
}
const firstLoad = firstLoadModules();
// The domain is reached through its index.ts, which re-exports all of it: as a whole it would look
// like first-load code. Left to tree-shaking (the package has no side effects), what /home uses of
// it joins the first load and the rest goes with the later screens that use it.
const DOMAIN = /[\\/]packages[\\/]domain[\\/]/;
// Not the domain's contract/: its zod schemas are the server's business (the browser ships no zod).
const SHARED_LATER = /[\\/]src[\\/]shared[\\/]|[\\/]packages[\\/]domain[\\/]src[\\/](?!contract[\\/])/;

const SIGNING = /[\\/]src[\\/]features[\\/]signing[\\/]/;

/** The landing's two weights (styles.css imports them and uses no other), latin subset. */
const LANDING_FONTS = /^assets\/poppins-latin-(400|600)-normal-[\w-]+\.woff2$/;

/**
 * `<link rel="preload" as="font">` for the landing's fonts in the built index.html: without it the
 * browser finds them only after the CSS is parsed, one more round trip before the text settles.
 */
function preloadLandingFonts(): Plugin {
  return {
    name: 'provee:preload-landing-fonts',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        const fonts = Object.keys(bundle ?? {})
          .filter((file) => LANDING_FONTS.test(file))
          .sort();
        if (fonts.length !== 2) throw new Error(`expected the 400 and 600 landing fonts, found: ${fonts.join(', ')}`);
        return fonts.map((file) => ({
          tag: 'link',
          attrs: { rel: 'preload', as: 'font', type: 'font/woff2', href: `/${file}`, crossorigin: '' },
          injectTo: 'head' as const,
        }));
      },
    },
  };
}

/**
 * The stylesheet (styles.css, linked from index.html) goes inside the built page as a `<style>`:
 * no render-blocking request, so the prerendered landing paints from the HTML alone, one round trip
 * (docs/decisions/016). It is ~11 KB, 3.6 KB compressed. The server allows exactly this text in its
 * CSP by hash (apps/api spa.ts). No chunk depends on the file, so no screen fetches it again.
 */
function inlineStylesheet(): Plugin {
  const LINK = /<link rel="stylesheet"[^>]* href="\/(assets\/[^"]+\.css)"[^>]*>/g;
  return {
    name: 'provee:inline-stylesheet',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        const links = [...html.matchAll(LINK)];
        if (links.length !== 1) throw new Error(`expected index.html to link one stylesheet, found ${links.length}`);
        const [link, file] = links[0]!;
        const asset = bundle?.[file!];
        if (asset?.type !== 'asset') throw new Error(`${file} is not in the bundle`);
        const css = String(asset.source).trim();
        if (/<\/style/i.test(css)) throw new Error(`${file} cannot go inside <style>: it contains "</style"`);
        // The entry's own chunk carries the page's stylesheet; any other chunk with it would make a
        // lazy screen fetch it again (Vite preloads a chunk's stylesheets with its code).
        for (const chunk of Object.values(bundle!)) {
          if (chunk.type === 'chunk' && !chunk.isEntry && chunk.viteMetadata?.importedCss.has(file!))
            throw new Error(`${chunk.fileName} imports ${file}: it would load the inlined stylesheet again`);
        }
        delete bundle![file!];
        return html.replace(link, `<style>${css}</style>`);
      },
    },
  };
}

const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? 3001}`;

const browser: UserConfig = {
  plugins: [react(), firstLoad.plugin, preloadLandingFonts(), inlineStylesheet()],
  build: {
    target: 'es2022',
    // The bundle budget test reads the manifest to add up what /home loads.
    manifest: true,
    assetsInlineLimit: 0,
    // Browsers without <link rel="modulepreload"> load the few imports when the entry runs: no polyfill in the first load.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // What /home needs travels in one file (React, the router, the shell, the landing): on 3G
        // one more file costs a round trip. Exactly that: a module only later screens import stays
        // out of it (even shared/ or the domain's), so the first load carries no code it does not run.
        codeSplitting: {
          groups: [
            { name: 'app', test: (id: string) => firstLoad.has(id) && !DOMAIN.test(id) },
            // What the later screens share (shared/, the domain's rules, the screens' texts) travels
            // in one file too, loaded with the first of them: a few files per screen, not a dozen.
            { name: 'screens', test: (id: string) => SHARED_LATER.test(id) && !firstLoad.has(id) },
            // What two or more signing screens share, in one file rather than six of a few hundred
            // bytes: the signing link's screen adds one <link rel="modulepreload"> per file while
            // the app starts (issue 27: part of that screen's blocking time on a slow phone).
            { name: 'signing', test: SIGNING, minShareCount: 2 },
          ],
        },
      },
    },
  },
  server: {
    proxy: { '/api': apiTarget, '/ops': apiTarget, '/dev': apiTarget },
  },
};

/**
 * `vite build --ssr src/app/prerender.tsx`: the landing's server renderer, one self-contained file
 * (React included) in dist/server/ that the API imports at start (docs/decisions/016).
 */
const server: UserConfig = {
  plugins: [react()],
  ssr: { noExternal: true },
  // React's production build whatever NODE_ENV the server runs with.
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  build: {
    target: 'node20',
    outDir: 'dist/server',
    copyPublicDir: false,
    // Minified, in one file: the server imports it in ~70 ms at start.
    minify: true,
    rolldownOptions: { output: { codeSplitting: false } },
  },
};

export default defineConfig(({ isSsrBuild }) => (isSsrBuild ? server : browser));
