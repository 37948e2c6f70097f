import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/test-app.js';
import { webDist } from '../../test/web-dist.js';

/** A Permissions-Policy header as a map: feature → its allowlist. */
function policy(header: unknown): Record<string, string> {
  expect(typeof header, 'a Permissions-Policy header').toBe('string');
  return Object.fromEntries(
    String(header)
      .split(',')
      .map((part) => part.trim().split('=') as [string, string]),
  );
}

/**
 * Issue 26 §3: the camera only where the identity photos are taken, the position only where the
 * signature is sent, nothing powerful anywhere else. The policy belongs to the document a page
 * loads, and the app moves between the signing screens without loading another: a screen from
 * which the app goes on (client-side) to the photos or the signature carries what those need.
 */
describe('Permissions-Policy per page', () => {
  const t = useTestApp({ WEB_DIST_DIR: webDist() });

  const headerAt = async (url: string) => {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode, url).toBeLessThan(400);
    return policy(res.headers['permissions-policy']);
  };
  const id = '9b2f7c1e-3d4a-4f5b-8c6d-7e8f9a0b1c2d';
  const prefix = `/SK/${id}/Mar%C3%ADa%20P%C3%A9rez/titular/-`;

  it('the signing link’s page and the identity screens it leads to: camera and position, for this origin only', async () => {
    for (const url of [
      '/send-contract-sign?user_type_id=SK&user_id=1&token=x',
      `${prefix}/review-documents?verification_type=VERIFICATION`,
      `${prefix}/error-documents?verification_type=VERIFICATION`,
    ]) {
      const features = await headerAt(url);
      expect(features.camera, url).toBe('(self)');
      expect(features.geolocation, url).toBe('(self)');
      expect(features.microphone, url).toBe('()');
    }
  });

  it('the approved screen and the signature: the position only', async () => {
    for (const url of [
      `${prefix}/approved-documents`,
      `/SK/${id}/titular/singning`,
      `/SK/${id}/collateral/singning/`,
    ]) {
      const features = await headerAt(url);
      expect(features.geolocation, url).toBe('(self)');
      expect(features.camera, url).toBe('()');
    }
  });

  it('every other page, and every API answer, allows none of them', async () => {
    for (const url of [
      '/',
      '/home',
      '/8095551234/about-you',
      `/8095551234/${id}/send-nip`,
      `${prefix}/manual-verification`,
      '/singning-success',
      '/something-happened',
      '/backoffice/applications',
      '/send-contract-sign/extra',
      '/x/send-contract-sign',
      '/api/v1/config',
      '/api/v1/ip',
    ]) {
      const features = await headerAt(url);
      for (const feature of ['camera', 'geolocation', 'microphone', 'payment', 'usb'])
        expect(features[feature], `${url} ${feature}`).toBe('()');
    }
    const missing = await t.app.inject({ method: 'GET', url: '/api/v1/nothing-here' });
    expect(policy(missing.headers['permissions-policy']).camera).toBe('()');
  });
});
