// Writes .br and .gz beside every text asset so the server sends them pre-compressed (3G users).
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = new URL('../dist/', import.meta.url).pathname;
const compressible = /\.(js|css|html|svg|json|txt|webmanifest)$/;

// dist/server/ is the prerender's code, read by the API process only: never sent to a browser.
const serverOnly = join(dist, 'server');

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (path === serverOnly) return [];
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

let count = 0;
for (const file of walk(dist).filter((path) => compressible.test(path))) {
  const content = readFileSync(file);
  writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
  writeFileSync(`${file}.br`, brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
  count++;
}
console.log(`web compressed: ${count} files (.br and .gz)`);
