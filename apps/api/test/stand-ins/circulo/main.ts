// `npm run bureau:circulo-fake`: Círculo de Crédito's stand-in on a local port, for newcomers and
// for the end-to-end suite. Its keys live in CIRCULO_FAKE_DIR (.circulo-fake by default), made on
// the first run: the lender's key (the product signs with it) and the stand-in's (it signs its
// answers; the product verifies them with its public half).
import { createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startCirculoStandIn } from './server.js';

export const FAKE_CREDENTIALS = { apiKey: 'fake-api-key', username: 'PROVEEFAKE', password: 'fake-password' };

/** The PEM files of a key pair in `dir`, made once. */
function keyPair(dir: string, name: string) {
  const privateFile = join(dir, `${name}-key.pem`);
  const publicFile = join(dir, `${name}-public.pem`);
  if (!existsSync(privateFile)) {
    const pair = generateKeyPairSync('ec', { namedCurve: 'secp384r1' });
    writeFileSync(privateFile, pair.privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    writeFileSync(publicFile, pair.publicKey.export({ type: 'spki', format: 'pem' }));
  }
  return {
    privateFile,
    publicFile,
    privateKey: createPrivateKey(readFileSync(privateFile)),
    publicKey: createPublicKey(readFileSync(publicFile)),
  };
}

const dir = resolve(process.env.CIRCULO_FAKE_DIR ?? '.circulo-fake');
mkdirSync(dir, { recursive: true });
const lender = keyPair(dir, 'lender');
const circulo = keyPair(dir, 'circulo');
const wrong = keyPair(dir, 'wrong');
const standIn = await startCirculoStandIn(
  {
    lenderKey: lender.publicKey,
    ownKey: circulo.privateKey,
    wrongKey: wrong.privateKey,
    credentials: FAKE_CREDENTIALS,
  },
  Number(process.env.CIRCULO_FAKE_PORT ?? 4010),
);
const env = {
  COUNTRY: 'mx',
  BUREAU_PROVIDER: 'circulo',
  CIRCULO_BASE_URL: standIn.url,
  CIRCULO_API_KEY: FAKE_CREDENTIALS.apiKey,
  CIRCULO_USERNAME: FAKE_CREDENTIALS.username,
  CIRCULO_PASSWORD: FAKE_CREDENTIALS.password,
  CIRCULO_PRIVATE_KEY_FILE: lender.privateFile,
  CIRCULO_CERTIFICATE_FILE: circulo.publicFile,
};
console.log(`Círculo de Crédito (stand-in) escucha en ${standIn.url}. Arranca el producto con:\n`);
console.log(
  `${Object.entries(env)
    .map(([name, value]) => `${name}=${value}`)
    .join(' ')} npm start\n`,
);
console.log(`ENV ${JSON.stringify(env)}`);
const stop = () => void standIn.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
