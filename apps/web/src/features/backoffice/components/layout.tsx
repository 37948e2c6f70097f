import { staffMay, type StaffPermission, type StaffView } from '@provee/domain';
import { Suspense, useEffect, useState, type ReactNode } from 'react';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { onUnauthorized, session, type BackofficeError } from '../api.js';
import { roleName } from '../lib/labels.js';
import { StaffContext, useCan } from '../lib/staff-context.js';
import { asBackofficeError } from '../lib/use-resource.js';
import { ErrorMessage, Loading } from './messages.js';

export const LOGIN = '/backoffice/login';
export const loginPath = (here: { pathname: string; search: string }) =>
  `${LOGIN}?next=${encodeURIComponent(here.pathname + here.search)}`;

const NAV: { to: string; label: string; permission: StaffPermission; end?: boolean }[] = [
  { to: '/backoffice', label: 'Solicitudes', permission: 'readApplications', end: true },
  { to: '/backoffice/queue', label: 'Cola de asesores', permission: 'workAdvisorQueue' },
  { to: '/backoffice/funnel', label: 'Embudo', permission: 'readReports' },
  { to: '/backoffice/exports', label: 'Exportaciones', permission: 'readReports' },
  { to: '/backoffice/staff', label: 'Personal', permission: 'manageStaff' },
];

interface Props {
  staff: StaffView | null;
  onStaff: (staff: StaffView | null) => void;
}

/** Every screen but the login: who is signed in (asked once), the header and the navigation. */
export function StaffLayout({ staff, onStaff }: Props) {
  const location = useLocation();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<BackofficeError | null>(null);
  const [attempt, setAttempt] = useState(0);

  // Any 401 (session expired or never began): to the login, coming back here afterwards.
  useEffect(
    () =>
      onUnauthorized(() => {
        onStaff(null);
        navigate(loginPath(location), { replace: true });
      }),
    [location, navigate, onStaff],
  );

  useEffect(() => {
    if (staff) return;
    let current = true;
    session.current().then(
      (member) => current && onStaff(member),
      (error: unknown) => {
        if (current && asBackofficeError(error).status !== 401) setFailure(asBackofficeError(error));
      },
    );
    return () => {
      current = false;
    };
  }, [staff, onStaff, attempt]);

  const logout = () => {
    session
      .logout()
      .catch(() => {
        // Gone or not, the user asked to leave: the login screen is the answer either way.
      })
      .finally(() => {
        onStaff(null);
        navigate(LOGIN, { replace: true });
      });
  };

  if (!staff)
    return (
      <main className="bo-main">
        {failure ? (
          <>
            <ErrorMessage error={failure} />
            <button
              type="button"
              className="bo-button"
              onClick={() => {
                setFailure(null);
                setAttempt((n) => n + 1);
              }}
            >
              Reintentar
            </button>
          </>
        ) : (
          <Loading />
        )}
      </main>
    );

  return (
    <StaffContext value={staff}>
      <header className="bo-header">
        <p className="bo-brand">Provee · Back office</p>
        <nav aria-label="Secciones del back office">
          <ul>
            {NAV.filter((item) => staffMay(staff.role, item.permission)).map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} end={item.end}>
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="bo-user">
          <span>
            <strong>{staff.name}</strong> <span className="bo-muted">· {roleName(staff.role)}</span>
          </span>
          <button type="button" className="bo-button bo-button--quiet" onClick={logout}>
            Cerrar sesión
          </button>
        </div>
      </header>
      <main className="bo-main">
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </main>
    </StaffContext>
  );
}

/** A screen the role may not use (the nav hides it; an address typed by hand lands here). */
export function Permitted({ permission, children }: { permission: StaffPermission; children: ReactNode }) {
  const can = useCan();
  if (can(permission)) return children;
  return (
    <section aria-labelledby="bo-forbidden">
      <h1 id="bo-forbidden">Sin acceso</h1>
      <p>Tu rol no permite ver esta sección.</p>
    </section>
  );
}
