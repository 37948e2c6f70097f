import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('config', () => {
  it('has working defaults for a fresh clone', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ PORT: 3000, DATA_DIR: './data', COUNTRY: 'do', APP_NAME: 'Provee', CORS_ORIGINS: [] });
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
  ])('a wrong %s stops start-up naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^Configuración inválida:\\n  ${name}`));
  });

  it('production needs a real operations API key', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/OPS_API_KEY/);
    expect(loadConfig({ NODE_ENV: 'production', OPS_API_KEY: 'k'.repeat(32) }).OPS_API_KEY).toBe('k'.repeat(32));
  });

  it('parses lists and booleans', () => {
    const config = loadConfig({ CORS_ORIGINS: 'https://a.example, https://b.example', TRUST_PROXY: 'true' });
    expect(config.CORS_ORIGINS).toEqual(['https://a.example', 'https://b.example']);
    expect(config.TRUST_PROXY).toBe(true);
  });
});
