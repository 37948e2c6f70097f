import { listWebhookEndpointsRoute, staffMay, type StaffPermission, type StaffSessionView } from '@provee/domain';
import { Suspense, useCallback, useEffect, useState, type ReactNode } from 'react';
import { Navigate, NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { backofficeRequest, onUnauthorized, type BackofficeError } from '../api.js';
import type { LayoutOutletContext } from '../lib/endpoints-alert.js';
import { roleName } from '../lib/labels.js';
import { LOGIN, loginPath, stagePath } from '../lib/login-steps.js';
import { StaffContext, useCan } from '../lib/staff-context.js';
import { asBackofficeError } from '../lib/use-resource.js';
import { session as sessionApi } from '../security-api.js';
import { ErrorMessage, Loading } from './messages.js';
import { StepUpProvider } from './step-up-dialog.js';

const INTEGRATIONS = '/backoffice/integrations';
const NAV: { to: string; label: string; permission: StaffPermission; end?: boolean }[] = [
  { to: '/backoffice', label: 'Solicitudes', permission: 'readApplications', end: true },
  { to: '/backoffice/queue', label: 'Cola de asesores', permission: 'workAdvisorQueue' },
  { to: '/backoffice/funnel', label: 'Embudo', permission: 'readReports' },
  { to: '/backoffice/exports', label: 'Exportaciones', permission: 'readReports' },
  { to: '/backoffice/policies', label: 'Política de crédito', permission: 'policy' },
  { to: '/backoffice/staff', label: 'Personal', permission: 'manageStaff' },
  { to: '/backoffice/jobs', label: 'Trabajos', permission: 'readJobs' },
  { to: '/backoffice/retention', label: 'Conservación', permission: 'readRetention' },
  { to: '/backoffice/privacy-requests', label: 'Privacidad', permission: 'privacy' },
  { to: INTEGRATIONS, label: 'Integraciones', permission: 'manageIntegrations' },
];

interface Props {
  session: StaffSessionView | null;
  onSession: (view: StaffSessionView | null) => void;
}

/**
 * Every screen but the login's: who is signed in (asked once; a login still waiting for its second
 * factor goes to that step), the header, the navigation and the step-up dialog.
 */
export function StaffLayout({ session, onSession }: Props) {
  const location = useLocation();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<BackofficeError | null>(null);
  const [attempt, setAttempt] = useState(0);
  const disabledEndpoints = useDisabledEndpoints(session);

  // Any 401 (session expired or never began): to the login, coming back here afterwards.
  useEffect(
    () =>
      onUnauthorized(() => {
        onSession(null);
        navigate(loginPath(location), { replace: true });
      }),
    [location, navigate, onSession],
  );

  useEffect(() => {
    if (session) return;
    let current = true;
    sessionApi.current().then(
      (view) => current && onSession(view),
      (error: unknown) => {
        if (current && asBackofficeError(error).status !== 401) setFailure(asBackofficeError(error));
      },
    );
    return () => {
      current = false;
    };
  }, [session, onSession, attempt]);

  const logout = () => {
    sessionApi
      .logout()
      .catch(() => {
        // Gone or not, the user asked to leave: the login screen is the answer either way.
      })
      .finally(() => {
        onSession(null);
        navigate(LOGIN, { replace: true });
      });
  };

  // After single sign-on (or a reload mid-login): the second factor, or its enrolment, first.
  if (session && session.stage !== 'active')
    return <Navigate to={stagePath(session.stage, location.pathname + location.search)} replace />;

  if (!session)
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

  const { staff } = session;
  return (
    <StaffContext value={{ session, setSession: onSession }}>
      <StepUpProvider>
        <header className="bo-header">
          <p className="bo-brand">Provee · Back office</p>
          {/* Who is signed in beside the brand; the sections below, a row of their own whatever their number. */}
          <div className="bo-user">
            <span>
              <strong>{staff.name}</strong> <span className="bo-muted">· {roleName(staff.role)}</span>
            </span>
            <NavLink to="/backoffice/security" className="bo-user__link">
              Mi seguridad
            </NavLink>
            <button type="button" className="bo-button bo-button--quiet" onClick={logout}>
              Cerrar sesión
            </button>
          </div>
          <nav aria-label="Secciones del back office">
            <ul>
              {NAV.filter((item) => staffMay(staff.role, item.permission)).map((item) => (
                <li key={item.to}>
                  <NavLink to={item.to} end={item.end}>
                    {item.label}
                    {item.to === INTEGRATIONS && <DisabledBadge count={disabledEndpoints.count} />}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
        </header>
        <main className="bo-main">
          <Suspense fallback={<Loading />}>
            <Outlet context={disabledEndpoints.outlet} />
          </Suspense>
        </main>
      </StepUpProvider>
    </StaffContext>
  );
}

/**
 * How many webhook endpoints are disabled, for admins only: read once per session (the list is
 * short), then as the integrations screens read it (they report it through the outlet's context).
 */
function useDisabledEndpoints(session: StaffSessionView | null) {
  const [count, setCount] = useState(0);
  const admin = session?.stage === 'active' && staffMay(session.staff.role, 'manageIntegrations');
  useEffect(() => {
    if (!admin) return;
    let current = true;
    // Quietly: an ended session is for the screen's own call to report.
    backofficeRequest(listWebhookEndpointsRoute, { redirectOn401: false }).then(
      ({ data }) => current && setCount(data.endpoints.filter((endpoint) => !endpoint.enabled).length),
      () => {
        // The alert is a courtesy: the integrations screen says what failed.
      },
    );
    return () => {
      current = false;
    };
  }, [admin]);
  const reportEndpoints = useCallback<LayoutOutletContext['reportEndpoints']>(
    (endpoints) => setCount(endpoints.filter((endpoint) => !endpoint.enabled).length),
    [],
  );
  return { count, outlet: { reportEndpoints } satisfies LayoutOutletContext };
}

function DisabledBadge({ count }: { count: number }) {
  if (count === 0) return null;
  return (
    <span className="bo-badge bo-badge--rejected" title="Destinos de webhooks desactivados">
      {count}
      <span className="visually-hidden">{count === 1 ? ' destino desactivado' : ' destinos desactivados'}</span>
    </span>
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
