import { afterEach, describe, expect, it } from 'vitest';
import { setCopyCountry, t } from './copy.js';

afterEach(() => setCopyCountry('do'));

describe('copy: the tax id with its article and gender per country', () => {
  it.each([
    {
      name: "do: 'la cédula', feminine",
      country: 'do',
      label: 'Cédula / RNC',
      title: 'Confirma que tu cédula sea correcta',
      subtitle: 'La usamos para revisar tu historial de crédito. Revísala con calma.',
      lookup: '¿No conoces tu cédula? Consúltala aquí',
      confirm: 'Mi cédula es correcta',
    },
    {
      name: "mx: 'el RFC', masculine",
      country: 'mx',
      label: 'RFC',
      title: 'Confirma que tu RFC sea correcto',
      subtitle: 'Lo usamos para revisar tu historial de crédito. Revísalo con calma.',
      lookup: '¿No conoces tu RFC? Consúltalo aquí',
      confirm: 'Mi RFC es correcto',
    },
  ] as const)('$name', ({ country, label, title, subtitle, lookup, confirm }) => {
    setCopyCountry(country);
    expect(t('taxId.title', { label })).toBe(title);
    expect(t('taxId.subtitle')).toBe(subtitle);
    expect(t('taxId.lookup', { label })).toBe(lookup);
    expect(t('taxId.confirm', { label })).toBe(confirm);
  });

  it('the address labels match the messages: Provincia (do), Estado (mx)', () => {
    expect(t('address.state')).toBe('Provincia');
    setCopyCountry('mx');
    expect(t('address.state')).toBe('Estado');
  });
});
