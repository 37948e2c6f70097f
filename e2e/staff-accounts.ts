/** The back-office accounts the e2e global setup creates with `npm run staff:create` (the CLI a lender uses). */
export const STAFF_ACCOUNTS = {
  analyst: { email: 'analista@prestamista.test', name: 'Ana Analista', password: 'clave-de-analista-e2e' },
  advisor: { email: 'asesor@prestamista.test', name: 'Andrés Asesor', password: 'clave-de-asesor-e2e' },
  admin: { email: 'admin@prestamista.test', name: 'Adela Admin', password: 'clave-de-admin-e2e' },
} as const;

/** The first admin of the 'staff' server (e2e/staff-security.spec.ts), made with the same CLI. */
export const SECURITY_ADMIN = {
  email: 'seguridad@prestamista.test',
  name: 'Selena Seguridad',
  password: 'faro-nocturno-de-la-bahia',
} as const;
