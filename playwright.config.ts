import { defineConfig } from '@playwright/test';

/** Debian's Chromium (Playwright's own browser download is not reachable here). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Desktop-only specs of the lender's back office (the phone projects skip them). */
const BACKOFFICE_SPECS = [
  'backoffice.spec.ts',
  'lender-webhooks.spec.ts',
  'staff-security.spec.ts',
  'policy-lab.spec.ts',
];
/** Specs of servers of their own (the Mexican market; Mexico with Círculo de Crédito's stand-in). */
const COUNTRY_SPECS = ['mexico.spec.ts', 'circulo.spec.ts'];

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './e2e/global-setup.ts',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: true,
  // A test's own bound: its journeys take 10–35 s on a two-core machine that also runs five servers
  // and two browsers (2026-11-30's machine: the whole suite in 30 min, against 10–12 on earlier ones).
  timeout: 60_000,
  // An assertion's own wait: on that machine a screen that follows an API answer took 5–8 s at
  // times (load average 15–17; nothing shed, no error in the servers' logs), past the default 5 s.
  expect: { timeout: 15_000 },
  reporter: [['list']],
  outputDir: 'test-results/e2e',
  // The whole suite at both phone sizes (the help-button check runs on every screen); the
  // Mexican journey against the second server of the global setup (COUNTRY=mx).
  projects: [
    { name: 'do-412x823', testIgnore: [...COUNTRY_SPECS, ...BACKOFFICE_SPECS], metadata: { server: 'do' } },
    {
      name: 'do-360x640',
      testIgnore: [...COUNTRY_SPECS, ...BACKOFFICE_SPECS],
      metadata: { server: 'do-small' },
      use: { viewport: { width: 360, height: 640 } },
    },
    { name: 'mx-412x823', testMatch: 'mexico.spec.ts', metadata: { server: 'mx' }, use: { locale: 'es-MX' } },
    {
      name: 'mx-360x640',
      testMatch: 'mexico.spec.ts',
      metadata: { server: 'mx' },
      use: { locale: 'es-MX', viewport: { width: 360, height: 640 } },
    },
    // Mexico with Círculo de Crédito's stand-in as the bureau: the shopkeeper on a phone, the analyst at a desk.
    {
      name: 'mx-circulo-412x823',
      testMatch: 'circulo.spec.ts',
      metadata: { server: 'mx-circulo' },
      use: { locale: 'es-MX' },
    },
    // The lender's back office: desktop-first, on the Dominican server (staff made by the CLI).
    {
      name: 'backoffice-1280x800',
      testMatch: ['backoffice.spec.ts', 'lender-webhooks.spec.ts'],
      metadata: { server: 'do' },
      use: { viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false },
    },
    // Staff accounts a security review accepts (issue 26): its own server with single sign-on,
    // passkeys (a localhost address) and a 20-second step-up. The policy lab (issue 33) there too:
    // the versions it publishes decide only that server's applicants.
    {
      name: 'staff-1280x800',
      testMatch: ['staff-security.spec.ts', 'policy-lab.spec.ts'],
      metadata: { server: 'staff' },
      use: { viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false },
    },
  ],
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 412, height: 823 },
    deviceScaleFactor: 1,
    isMobile: true,
    hasTouch: true,
    locale: 'es-DO',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--disable-sync',
        '--disable-quic',
        // A fake camera (a moving test pattern) that needs no permission prompt: the identity widget.
        '--use-fake-device-for-media-stream',
        '--use-fake-ui-for-media-stream',
      ],
    },
  },
});
