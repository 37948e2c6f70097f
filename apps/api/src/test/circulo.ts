import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCirculoStandIn, type CirculoStandIn } from '../../test/stand-ins/circulo/server.js';
import { afterAll, beforeAll } from 'vitest';
import type { App } from '../types.js';
import { createApplication, lastSmsPin, shopkeeperCall } from './factories.js';
import { createTestApp, type TestApp } from './test-app.js';

const pem = (
  key: { export(options: { type: 'pkcs8' | 'spki'; format: 'pem' }): string | Buffer },
  type: 'pkcs8' | 'spki',
) => key.export({ type, format: 'pem' }).toString();

/**
 * A stand-in for Círculo de Crédito on a local port, with a fresh lender key and stand-in key in
 * PEM files, and the environment that points the product at it (BUREAU_PROVIDER=circulo).
 */
export async function circuloForTests(): Promise<{ standIn: CirculoStandIn; env: Record<string, string> }> {
  const lender = generateKeyPairSync('ec', { namedCurve: 'secp384r1' });
  const circulo = generateKeyPairSync('ec', { namedCurve: 'secp384r1' });
  const stranger = generateKeyPairSync('ec', { namedCurve: 'secp384r1' });
  const credentials = { apiKey: 'test-api-key', username: 'NGA9915CC5', password: 'test-password' };
  const standIn = await startCirculoStandIn({
    lenderKey: lender.publicKey,
    ownKey: circulo.privateKey,
    wrongKey: stranger.privateKey,
    credentials,
  });
  const dir = mkdtempSync(join(tmpdir(), 'circulo-'));
  writeFileSync(join(dir, 'lender-key.pem'), pem(lender.privateKey, 'pkcs8'));
  writeFileSync(join(dir, 'circulo-cert.pem'), pem(circulo.publicKey, 'spki'));
  return {
    standIn,
    env: {
      COUNTRY: 'mx',
      BUREAU_PROVIDER: 'circulo',
      CIRCULO_BASE_URL: standIn.url,
      CIRCULO_API_KEY: credentials.apiKey,
      CIRCULO_USERNAME: credentials.username,
      CIRCULO_PASSWORD: credentials.password,
      CIRCULO_PRIVATE_KEY_FILE: join(dir, 'lender-key.pem'),
      CIRCULO_CERTIFICATE_FILE: join(dir, 'circulo-cert.pem'),
    },
  };
}

/**
 * The app of a `describe` block in Mexico with Círculo's stand-in as its bureau (`env` added to the
 * configuration), both started before its first test and closed after its last. Read `app`, `logs`
 * and `standIn` inside hooks and tests only.
 */
export function useCirculoTestApp(env: Record<string, string>, options: Parameters<typeof createTestApp>[2]) {
  let started: { t: TestApp; standIn: CirculoStandIn } | undefined;
  beforeAll(async () => {
    const circulo = await circuloForTests();
    started = { standIn: circulo.standIn, t: await createTestApp({ ...circulo.env, ...env }, undefined, options) };
  });
  afterAll(async () => {
    await started?.t.close();
    await started?.standIn.close();
  });
  const current = () => {
    if (!started) throw new Error('the app is created in beforeAll: use it inside a hook or a test');
    return started;
  };
  return {
    get app() {
      return current().t.app;
    },
    get logs() {
      return current().t.logs;
    },
    get standIn() {
      return current().standIn;
    },
  };
}

let made = 0;
/** An RFC of one of the stand-in's persons (by its birth-date part, persons.ts there), new letters on every call. */
export function circuloRfc(datePart: string): string {
  made += 1;
  const letters = String.fromCharCode(65 + (made % 26), 65 + (Math.floor(made / 26) % 26));
  return `${letters}PM${datePart}${String(made % 1000).padStart(3, '0')}`;
}

/**
 * A Mexican shopkeeper of the stand-in's person `datePart` (its RFC and birth date) through the
 * consent PIN: sent, read from the outbox, typed. The PIN's answer is the caller's to check.
 */
export async function consentAsCirculoPerson(app: App, datePart: string) {
  const rfc = circuloRfc(datePart);
  const user = await createApplication(app, {
    taxId: rfc,
    dob: `19${datePart.slice(0, 2)}-${datePart.slice(2, 4)}-${datePart.slice(4, 6)}`,
  });
  const sent = await shopkeeperCall(app, user, 'POST', '/nip');
  if (sent.statusCode !== 200) throw new Error(`the PIN was not sent: ${sent.body}`);
  const pin = await lastSmsPin(app, user.phone);
  const res = await shopkeeperCall(app, user, 'PUT', '/nip', { nip: pin });
  return { user, rfc, pin, res };
}
