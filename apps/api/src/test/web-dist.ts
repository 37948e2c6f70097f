import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A built web app for a test server (WEB_DIST_DIR): the SPA's HTML and one hashed asset. */
export function webDist(): string {
  const dist = mkdtempSync(join(tmpdir(), 'provee-dist-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), '<html><head><!--app-config--></head><body>spa</body></html>');
  writeFileSync(join(dist, 'assets', 'app-abc123.js'), 'console.log("app");');
  return dist;
}
