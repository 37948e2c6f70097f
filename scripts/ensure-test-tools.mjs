// The Debian tools the tests drive: Chromium (Playwright) and pdfsig from poppler-utils (it reads
// the sealed contracts, issue 36). Installs what is missing (root on Debian) or says how.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const tools = [
  { path: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', pkg: 'chromium', env: 'CHROMIUM_PATH' },
  { path: '/usr/bin/pdfsig', pkg: 'poppler-utils' },
];

const missing = () => tools.filter((tool) => !existsSync(tool.path));
if (missing().length > 0 && process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')) {
  const packages = missing().map((tool) => tool.pkg);
  console.log(`Not found: installing Debian packages ${packages.join(', ')}…`);
  execSync(`apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${packages.join(' ')}`, {
    stdio: 'inherit',
  });
}
for (const tool of missing()) {
  console.error(
    `${tool.path} not found. Install it (Debian: sudo apt-get install -y ${tool.pkg})` +
      (tool.env ? ` or set ${tool.env} to its binary.` : '.'),
  );
}
if (missing().length > 0) process.exit(1);
