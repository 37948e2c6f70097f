import { randomBytes } from 'node:crypto';
import type { StaffRole } from '@provee/domain';
import { createStaff } from '../modules/staff/index.js';
import type { App } from '../types.js';

export const STAFF_PASSWORD = 'una-clave-larga-de-prueba';

/** A staff account (created as the CLI would). */
export async function createStaffMember(app: App, role: StaffRole, overrides: { email?: string; name?: string } = {}) {
  const email = overrides.email ?? `${role}-${randomBytes(4).toString('hex')}@prestamista.test`;
  const row = await createStaff(
    app,
    { email, name: overrides.name ?? `Persona ${role}`, role, password: STAFF_PASSWORD },
    'cli',
  );
  return row;
}

/** Logs in and answers the Cookie header the next calls carry. */
export async function staffLogin(app: App, email: string, password = STAFF_PASSWORD): Promise<{ cookie: string }> {
  const response = await app.inject({ method: 'POST', url: '/api/backoffice/session', payload: { email, password } });
  if (response.statusCode !== 200) throw new Error(`staff login failed: ${response.statusCode} ${response.body}`);
  const cookie = response.cookies.find((c) => c.name === 'provee_staff');
  if (!cookie) throw new Error('no staff cookie');
  return { cookie: `provee_staff=${cookie.value}` };
}

/** A staff member of this role, logged in: the headers of their calls. */
export async function staffSession(app: App, role: StaffRole) {
  const member = await createStaffMember(app, role);
  return { member, headers: await staffLogin(app, member.email) };
}
