// A back-office login as the login screens make it (issue 26): the password, then the authenticator
// app's code, or, at an account's first login, the app's enrolment (its secret kept here, as the
// person's phone keeps it). A code is good once: a second login inside one 30-second step uses the
// next step's code, and past that one of the recovery codes. Used by the scripts that drive the built
// server (crash test, perf); the API tests and the e2e suite have their own (apps/api/src/test/staff.ts,
// e2e/staff-login.ts).
import { Secret, TOTP } from 'otpauth';

const STEP_MS = 30_000;

/**
 * One person's logins. Answers `login(request)`, which gives the Cookie header of a session past its
 * second factor; `request(method, path, { json, cookie })` → `{ ok, status, data, headers }` is the
 * script's own fetch wrapper (for the server as it is now: a restarted one has another address).
 */
export function staffLogin(account) {
  let secret;
  let lastStep = -1;
  let recoveryCodes = [];
  const cookieOf = (response, previous) => {
    const match = /provee_staff=[^;]+/.exec(response.headers.get('set-cookie') ?? '');
    return match ? match[0] : previous;
  };
  const expectOk = (response, what) => {
    if (!response.ok) throw new Error(`${what} → ${response.status} ${JSON.stringify(response.data)}`);
  };
  /** The app's code for a step no code was used for yet, or null when this step and the next are used. */
  const appCode = () => {
    const totp = new TOTP({ secret: Secret.fromBase32(secret), period: 30, digits: 6, algorithm: 'SHA1' });
    const now = Math.floor(Date.now() / STEP_MS);
    const step = Math.max(now, lastStep + 1);
    if (step > now + 1) return null;
    lastStep = step;
    return totp.generate({ timestamp: step * STEP_MS });
  };

  return async function login(request) {
    const password = await request('POST', '/api/backoffice/session', {
      json: { email: account.email, password: account.password },
    });
    expectOk(password, `${account.email}: password`);
    let cookie = cookieOf(password);
    const { stage } = password.data.data;
    if (stage === 'enrol') {
      const started = await request('POST', '/api/backoffice/me/totp', { cookie });
      expectOk(started, `${account.email}: enrolment`);
      secret = started.data.data.secret;
      const confirmed = await request('POST', '/api/backoffice/me/totp/confirm', { cookie, json: { code: appCode() } });
      expectOk(confirmed, `${account.email}: enrolment code`);
      recoveryCodes = confirmed.data.data.recovery_codes;
      cookie = cookieOf(confirmed, cookie);
    } else if (stage === 'factor') {
      if (!secret) throw new Error(`${account.email} has a second factor this script did not enrol`);
      const code = appCode();
      const json = code ? { method: 'totp', code } : { method: 'recovery_code', code: recoveryCodes.pop() };
      const given = await request('POST', '/api/backoffice/session/factor', { cookie, json });
      expectOk(given, `${account.email}: second factor`);
      cookie = cookieOf(given, cookie);
    }
    return cookie;
  };
}
