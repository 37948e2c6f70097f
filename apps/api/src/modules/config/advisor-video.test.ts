import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILTIN_ADVISOR_VIDEO } from '@provee/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { publicConfig } from './public-config.js';

const MEDIA = new URL('../../../../web/public/media/', import.meta.url).pathname;

describe('the advisor-welcome video (SPEC §2.3 item 12, issue 27)', () => {
  it('a fresh install shows the built-in one; a lender sets its own or none', () => {
    expect(publicConfig(loadConfig({})).advisorVideoUrl).toBe(BUILTIN_ADVISOR_VIDEO.url);
    expect(
      publicConfig(loadConfig({ ADVISOR_VIDEO_URL: 'https://media.lender.example/hola.mp4' })).advisorVideoUrl,
    ).toBe('https://media.lender.example/hola.mp4');
    expect(publicConfig(loadConfig({ ADVISOR_VIDEO_URL: 'none' })).advisorVideoUrl).toBeNull();
    expect(() => loadConfig({ ADVISOR_VIDEO_URL: 'hola.mp4' })).toThrow(ConfigError);
    // Only a video served over https: no other scheme reaches the page or its Content-Security-Policy.
    for (const url of ['javascript:alert(1)', 'data:video/mp4;base64,AAAA', 'http://media.lender.example/hola.mp4'])
      expect(() => loadConfig({ ADVISOR_VIDEO_URL: url }), url).toThrow(ConfigError);
  });

  describe('served by the app itself', () => {
    let builtIn: TestApp;
    let lender: TestApp;
    beforeAll(async () => {
      const dist = mkdtempSync(join(tmpdir(), 'provee-dist-'));
      mkdirSync(join(dist, 'assets'));
      mkdirSync(join(dist, 'media'));
      writeFileSync(
        join(dist, 'index.html'),
        '<html><head><!--app-config--></head><body><div id="root"></div></body></html>',
      );
      for (const name of ['advisor-welcome.mp4', 'advisor-welcome.webp'])
        copyFileSync(join(MEDIA, name), join(dist, 'media', name));
      builtIn = await createTestApp({ WEB_DIST_DIR: dist });
      lender = await createTestApp({ WEB_DIST_DIR: dist, ADVISOR_VIDEO_URL: 'https://media.lender.example/hola.mp4' });
    });
    afterAll(async () => {
      await builtIn.close();
      await lender.close();
    });

    const mediaSrc = async (t: TestApp) => {
      const res = await t.app.inject({ method: 'GET', url: '/123/abc/advisor-welcome' });
      return String(res.headers['content-security-policy'])
        .split('; ')
        .find((directive) => directive.startsWith('media-src'));
    };

    it("the page's CSP allows the built-in video from 'self' only, and a lender's from its host", async () => {
      expect(await mediaSrc(builtIn)).toBe("media-src 'self'");
      expect(await mediaSrc(lender)).toBe("media-src 'self' https://media.lender.example");
    });

    it('the video is served in ranges (the player seeks and streams it), the poster as an image', async () => {
      const whole = await builtIn.app.inject({ method: 'GET', url: BUILTIN_ADVISOR_VIDEO.url });
      expect(whole.statusCode).toBe(200);
      expect(whole.headers['content-type']).toBe('video/mp4');
      expect(whole.rawPayload.length).toBeLessThan(150 * 1024);
      const part = await builtIn.app.inject({
        method: 'GET',
        url: BUILTIN_ADVISOR_VIDEO.url,
        headers: { range: 'bytes=0-1023' },
      });
      expect(part.statusCode).toBe(206);
      expect(part.rawPayload.length).toBe(1024);
      const poster = await builtIn.app.inject({ method: 'GET', url: BUILTIN_ADVISOR_VIDEO.poster });
      expect(poster.statusCode).toBe(200);
      expect(poster.headers['content-type']).toBe('image/webp');
      expect(poster.rawPayload.length).toBeLessThan(16 * 1024);
    });
  });
});
