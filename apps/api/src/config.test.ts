import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';
import { productionSealEnv } from './test/production-seal.js';

describe('config', () => {
  it('has working defaults for a fresh clone', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 3000,
      DATA_DIR: './data',
      COUNTRY: 'do',
      APP_NAME: 'Provee',
      CORS_ORIGINS: [],
    });
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['COUNTRY', 'us'],
    ['DATABASE_URL', 'mysql://x'],
    ['PUBLIC_SITE_URL', 'not a url'],
    ['CORS_ORIGINS', 'https://ok.example, nope'],
    ['TRUST_PROXY', 'yes'],
    ['TRUST_PROXY', 'true'],
    ['TRUST_PROXY', '0.0.0.0/0'],
    ['TRUST_PROXY', '10.0.0.0/8, ::/0'],
    ['PASSWORD_HASH_CONCURRENCY', '0'],
  ])('a wrong %s stops start-up naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^Configuración inválida:\\n  ${name}`));
  });

  it('test mode (the /dev tools, the fixed ops key) is on outside production only', () => {
    expect(loadConfig({}).TEST_MODE).toBe(true);
    expect(
      loadConfig({
        NODE_ENV: 'production',
        OPS_API_KEY: 'k'.repeat(32),
        APP_SECRET: 's'.repeat(32),
        ...productionSealEnv(),
      }).TEST_MODE,
    ).toBe(false);
  });

  it('the replaced PROOF_STARTS_PER_IP_PER_HOUR stops start-up naming its successor', () => {
    expect(() => loadConfig({ PROOF_STARTS_PER_IP_PER_HOUR: '20' })).toThrow(/SMS_NUMBERS_PER_IP_PER_HOUR/);
    expect(loadConfig({ SMS_NUMBERS_PER_IP_PER_HOUR: '7' }).SMS_NUMBERS_PER_IP_PER_HOUR).toBe(7);
  });

  it('the background timers’ variables stop start-up naming the job queue’s; JOB_KINDS_OFF lists kinds', () => {
    expect(() => loadConfig({ BUREAU_WORKER_INTERVAL_MS: '0' })).toThrow(
      /BUREAU_WORKER_INTERVAL_MS: ya no existe.*JOB_KINDS_OFF=bureau-query,bureau-consent-audit,remote-consent/,
    );
    expect(() => loadConfig({ IDENTITY_WORKER_INTERVAL_MS: '1000' })).toThrow(
      /IDENTITY_WORKER_INTERVAL_MS: ya no existe.*JOB_KINDS_OFF=identity-simulated-answer/,
    );
    expect(loadConfig({}).JOB_KINDS_OFF).toEqual([]);
    expect(loadConfig({ JOB_KINDS_OFF: ' bureau-query, sms-send ,' }).JOB_KINDS_OFF).toEqual([
      'bureau-query',
      'sms-send',
    ]);
  });

  it('webhooks: the networks an endpoint may be in are CIDRs (this machine in test mode), the retries a list of seconds', () => {
    expect(loadConfig({}).WEBHOOK_ALLOWED_NETWORKS).toEqual(['127.0.0.0/8', '::1/128']);
    expect(loadConfig({ WEBHOOK_ALLOWED_NETWORKS: '10.0.0.0/8, fd00::/8' }).WEBHOOK_ALLOWED_NETWORKS).toEqual([
      '10.0.0.0/8',
      'fd00::/8',
    ]);
    expect(() => loadConfig({ WEBHOOK_ALLOWED_NETWORKS: '10.0.0.5' })).toThrow(/WEBHOOK_ALLOWED_NETWORKS.*CIDR/);
    expect(loadConfig({}).WEBHOOK_RETRY_SECONDS).toEqual([5, 300, 1_800, 7_200, 18_000, 36_000, 36_000]);
    expect(() => loadConfig({ WEBHOOK_RETRY_SECONDS: '5,x' })).toThrow(/WEBHOOK_RETRY_SECONDS/);
  });

  it('production needs real secrets and no test factories', () => {
    const secrets = { OPS_API_KEY: 'k'.repeat(32), APP_SECRET: 's'.repeat(32), ...productionSealEnv() };
    expect(() => loadConfig({ NODE_ENV: 'production', APP_SECRET: secrets.APP_SECRET })).toThrow(
      /OPS_API_KEY: es obligatoria/,
    );
    expect(() => loadConfig({ NODE_ENV: 'production', OPS_API_KEY: secrets.OPS_API_KEY })).toThrow(
      /APP_SECRET: es obligatoria/,
    );
    expect(() => loadConfig({ NODE_ENV: 'production', ...secrets, ENABLE_TEST_FACTORIES: 'true' })).toThrow(
      /ENABLE_TEST_FACTORIES/,
    );
    expect(loadConfig({ NODE_ENV: 'production', ...secrets }).OPS_API_KEY).toBe(secrets.OPS_API_KEY);
  });

  it('production seals contracts with the lender’s certificate, dated by a real authority, and keeps them under NOM-151 in Mexico', () => {
    const base = { NODE_ENV: 'production', OPS_API_KEY: 'k'.repeat(32), APP_SECRET: 's'.repeat(32) };
    const seal = productionSealEnv();
    expect(() => loadConfig(base)).toThrow(
      /CONTRACT_SEAL_P12_FILE: es obligatoria[\s\S]*CONTRACT_TSA_URL: es obligatoria/,
    );
    expect(() => loadConfig({ ...base, ...seal, CONTRACT_SEAL_P12_PASSWORD: 'otra' })).toThrow(
      /CONTRACT_SEAL_P12_FILE: no se pudo abrir el archivo PKCS#12/,
    );
    expect(() => loadConfig({ ...base, ...seal, CONTRACT_SEAL_P12_FILE: '/nonexistent.p12' })).toThrow(
      /CONTRACT_SEAL_P12_FILE: no se pudo leer/,
    );
    expect(() => loadConfig({ ...base, ...seal, COUNTRY: 'mx' })).toThrow(/NOM151_PROVIDER: en producción en México/);
    expect(loadConfig({ ...base, ...seal }).CONTRACT_TSA_URL).toBe(seal.CONTRACT_TSA_URL);
  });

  it('twilio needs its account, token and sender', () => {
    expect(() => loadConfig({ SMS_PROVIDER: 'twilio' })).toThrow(
      /TWILIO_ACCOUNT_SID[\s\S]*TWILIO_AUTH_TOKEN[\s\S]*TWILIO_FROM/,
    );
    expect(
      loadConfig({
        SMS_PROVIDER: 'twilio',
        TWILIO_ACCOUNT_SID: 'AC1',
        TWILIO_AUTH_TOKEN: 't',
        TWILIO_FROM: '+18095550000',
      }).SMS_PROVIDER,
    ).toBe('twilio');
  });

  it('Círculo de Crédito: Mexico only, every value named when missing, the keys read and checked at start', () => {
    expect(() => loadConfig({ BUREAU_PROVIDER: 'circulo' })).toThrow(
      /circulo solo está disponible con COUNTRY=mx[\s\S]*CIRCULO_BASE_URL[\s\S]*CIRCULO_API_KEY[\s\S]*CIRCULO_USERNAME[\s\S]*CIRCULO_PASSWORD[\s\S]*CIRCULO_PRIVATE_KEY_FILE[\s\S]*CIRCULO_CERTIFICATE_FILE/,
    );
    const dir = mkdtempSync(join(tmpdir(), 'config-circulo-'));
    const file = (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    };
    const p384 = generateKeyPairSync('ec', { namedCurve: 'secp384r1' });
    const p256 = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const env = {
      COUNTRY: 'mx',
      BUREAU_PROVIDER: 'circulo',
      CIRCULO_BASE_URL: 'https://services.circulodecredito.com.mx/sandbox',
      CIRCULO_API_KEY: 'k',
      CIRCULO_USERNAME: 'NGA9915CC5',
      CIRCULO_PASSWORD: 'p',
      CIRCULO_PRIVATE_KEY_FILE: file('key.pem', p384.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()),
      CIRCULO_CERTIFICATE_FILE: file('cert.pem', p384.publicKey.export({ type: 'spki', format: 'pem' }).toString()),
    };
    expect(loadConfig(env)).toMatchObject({ BUREAU_PROVIDER: 'circulo', CIRCULO_PRODUCT_PATH: '/v2/rccficoscore' });
    expect(() => loadConfig({ ...env, CIRCULO_USERNAME: 'short' })).toThrow(/CIRCULO_USERNAME: debe tener de 10 a 13/);
    expect(() => loadConfig({ ...env, CIRCULO_PRIVATE_KEY_FILE: join(dir, 'missing.pem') })).toThrow(
      /CIRCULO_PRIVATE_KEY_FILE: no se pudo leer .*missing\.pem: ENOENT/,
    );
    const wrongCurve = file('p256.pem', p256.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
    expect(() => loadConfig({ ...env, CIRCULO_PRIVATE_KEY_FILE: wrongCurve })).toThrow(
      /CIRCULO_PRIVATE_KEY_FILE: .* no es una llave EC secp384r1/,
    );
    expect(() => loadConfig({ ...env, CIRCULO_CERTIFICATE_FILE: file('junk.pem', 'not a certificate') })).toThrow(
      /CIRCULO_CERTIFICATE_FILE: .*junk\.pem no es válida/,
    );
  });

  it('tokens live at most 12 hours', () => {
    expect(() => loadConfig({ TOKEN_TTL_SECONDS: '43201' })).toThrow(/TOKEN_TTL_SECONDS/);
    expect(loadConfig({}).TOKEN_TTL_SECONDS).toBe(43200);
  });

  it('parses lists, booleans and the proxy hops', () => {
    const config = loadConfig({
      CORS_ORIGINS: 'https://a.example, https://b.example',
      TRUST_PROXY: '1',
      NIP_PREFILL: '1',
    });
    expect(config.CORS_ORIGINS).toEqual(['https://a.example', 'https://b.example']);
    expect(config.TRUST_PROXY).toBe(1);
    expect(config.NIP_PREFILL).toBe(true);
  });
});
