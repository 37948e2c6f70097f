import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { linesPerTurn, loggerOptions, maskUrl, scrub } from './logger.js';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { lines, log: pino(loggerOptions('info'), stream) };
}

describe('log scrubbing', () => {
  it('masks a reminder’s resume token in the path, and what it masked before', () => {
    const token = 'lPz0a9Qw3Xk7-_bY2mN4vC8rT6uE1sD5fG0hJ3kL9pO';
    expect(maskUrl(`/r/${token}`)).toBe('/r/[…]');
    expect(maskUrl(`/r/${token}?utm_source=x`)).toBe('/r/[…]?utm_source=[…]');
    expect(maskUrl('/rules/abc')).toBe('/rules/abc');
    expect(maskUrl('/home/8095551234')).toBe('/home/[…]');
    expect(maskUrl('/send-contract-sign?token=abc&user_id=1')).toBe('/send-contract-sign?token=[…]&user_id=1');
  });

  it('censors secret keys and headers down to three levels, and leaves the rest as it was', () => {
    const input = {
      phone_number: '8095551234',
      body: { user: { nip: '1234', name: 'Ana' }, dob: '1990-01-01' },
      headers: { Authorization: 'Bearer x', 'x-api-key': 'k', accept: '*/*' },
      list: [{ password: 'p' }],
      kept: { a: 1 },
    };
    const out = scrub(input);
    expect(out).toEqual({
      phone_number: '[redactado]',
      body: { user: { nip: '[redactado]', name: 'Ana' }, dob: '[redactado]' },
      headers: { Authorization: '[redactado]', 'x-api-key': '[redactado]', accept: '*/*' },
      list: [{ password: '[redactado]' }],
      kept: { a: 1 },
    });
    // Nothing the caller holds is changed; untouched branches are not copied.
    expect(input.phone_number).toBe('8095551234');
    expect(input.body.user.nip).toBe('1234');
    expect(out.kept).toBe(input.kept);
    const clean = { req: { method: 'GET' }, responseTime: 1 };
    expect(scrub(clean)).toBe(clean);
  });

  it('through the logger: secrets never reach the line, errors and messages are kept', () => {
    const { lines, log } = capture();
    log.info({ token: 'abc', to: '+18095551234', nested: { code: '123456' } }, 'sms sent');
    log.error({ err: new Error('boom 8095551234') }, 'failed');
    expect(lines[0]).toMatchObject({
      msg: 'sms sent',
      token: '[redactado]',
      to: '[redactado]',
      nested: { code: '[redactado]' },
    });
    expect(JSON.stringify(lines)).not.toMatch(/8095551234|abc|123456/);
    expect(lines[1]).toMatchObject({ msg: 'failed', err: { type: 'Error', message: 'boom […]' } });
  });
});

describe('log lines written once per turn of the event loop', () => {
  it('writes the lines of one turn in one write, after the turn, and nothing twice', async () => {
    const writes: string[] = [];
    const destination = linesPerTurn({ write: (text) => writes.push(text) });
    const log = pino(loggerOptions('info'), destination);
    log.info('one');
    log.info('two');
    expect(writes).toHaveLength(0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toHaveLength(1);
    expect(
      writes[0]!
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { msg: string }).msg),
    ).toEqual(['one', 'two']);
    log.info('three');
    destination.flush();
    destination.flush();
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes.map((text) => text.split('\n').length - 1)).toEqual([2, 1]);
  });

  it('a process that exits at once (a graceful stop, a fatal error) still writes what its last turn logged', () => {
    const dir = mkdtempSync(join(tmpdir(), 'provee-log-exit-'));
    const script = join(dir, 'exit.mts');
    writeFileSync(
      script,
      `import { writeSync } from 'node:fs';
      import { linesPerTurn } from ${JSON.stringify(new URL('./logger.ts', import.meta.url).pathname)};
      const destination = linesPerTurn({ write: (text) => writeSync(1, text) });
      destination.write('{"msg":"before"}\\n');
      await new Promise((resolve) => setImmediate(resolve));
      destination.write('{"msg":"last words"}\\n');
      process.exit(3);`,
    );
    try {
      const run = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8', timeout: 30_000 });
      expect(run.status, run.stderr).toBe(3);
      const messages = run.stdout
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { msg: string }).msg);
      expect(messages).toEqual(['before', 'last words']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
