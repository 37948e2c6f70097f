import { describe, expect, it } from 'vitest';
import { watchEventLoop } from '../../test/health-probe.js';
import { MANY_UPLOADS_ENV, sendSignature, verifiedSigner } from '../../test/signer.js';
import { createPng } from '../../test/test-images.js';
import { useTestApp } from '../../test/test-app.js';

/**
 * Issue 35: signatures at once. Each builds its signed PDF (pdf-lib: the signature's image, an
 * evidence page, the whole document written again) on the worker threads, so the event loop only
 * reads and writes the database meanwhile: every other request is still answered.
 */
const AT_ONCE = 10;
/**
 * The longest stretch of CPU the event loop may spend without a turn (10 ms ticks of /proc): one
 * tick with the PDFs on the worker threads, 50 ms with them built on the event loop.
 */
const MAX_BUSY_MS = 30;

describe('signatures at once', () => {
  const t = useTestApp(MANY_UPLOADS_ENV);

  it(`${AT_ONCE} signatures at once all sign, and the event loop is never held for long`, async () => {
    const signers = [];
    for (let i = 0; i < AT_ONCE; i++) signers.push(await verifiedSigner(t.app));
    const watch = watchEventLoop();
    const answers = await Promise.all(
      signers.map((signer, i) => sendSignature(t.app, signer, createPng({ width: 280 + i, height: 120 }))),
    );
    const { worstBusyMs, measuredCpu } = watch.stop();
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(AT_ONCE).fill(200));
    expect(measuredCpu).toBe(true);
    expect(worstBusyMs).toBeLessThanOrEqual(MAX_BUSY_MS);
  });
});
