import type { StaffSessionView } from '@provee/domain';
import { lazy, Suspense, useState } from 'react';
import { Route, Routes } from 'react-router';
import './backoffice.css';
import { Permitted, StaffLayout } from './components/layout.js';
import { Loading } from './components/messages.js';
import { ApplicationsRoute } from './routes/applications.js';
import { ExportsRoute } from './routes/exports.js';
import { LoginFactorRoute } from './routes/login-factor.js';
import { LoginRoute } from './routes/login.js';
import { NotFoundRoute } from './routes/not-found.js';
import { QueueRoute } from './routes/queue.js';

// The heaviest screens load when opened: an advisor working the queue never downloads the chart.
const ApplicationDetailRoute = lazy(() =>
  import('./routes/application-detail.js').then((m) => ({ default: m.ApplicationDetailRoute })),
);
const FunnelRoute = lazy(() => import('./routes/funnel.js').then((m) => ({ default: m.FunnelRoute })));
const JobsRoute = lazy(() => import('./routes/jobs.js').then((m) => ({ default: m.JobsRoute })));
// Screens of a few visits a year (the QR code generator with them).
const LoginEnrolRoute = lazy(() => import('./routes/login-enrol.js').then((m) => ({ default: m.LoginEnrolRoute })));
const PasswordRoute = lazy(() => import('./routes/password.js').then((m) => ({ default: m.PasswordRoute })));
const SecurityRoute = lazy(() => import('./routes/security.js').then((m) => ({ default: m.SecurityRoute })));
const StaffRoute = lazy(() => import('./routes/staff.js').then((m) => ({ default: m.StaffRoute })));

/**
 * The lender's back office under /backoffice: its own layout and session (an HttpOnly cookie),
 * loaded on demand so none of it reaches the shopkeeper's first load.
 */
export function BackofficeApp() {
  // Known after the login or the layout's GET /session; null until then (and after a 401).
  const [session, setSession] = useState<StaffSessionView | null>(null);
  return (
    <div className="bo">
      <Suspense fallback={<Loading />}>
        <Routes>
          <Route path="login" element={<LoginRoute onLogin={setSession} />} />
          <Route path="login/factor" element={<LoginFactorRoute session={session} onLogin={setSession} />} />
          <Route path="login/enrol" element={<LoginEnrolRoute session={session} onLogin={setSession} />} />
          <Route path="password" element={<PasswordRoute />} />
          <Route element={<StaffLayout session={session} onSession={setSession} />}>
            <Route index element={<ApplicationsRoute />} />
            <Route path="applications/:applicationId" element={<ApplicationDetailRoute />} />
            <Route
              path="queue"
              element={
                <Permitted permission="workAdvisorQueue">
                  <QueueRoute />
                </Permitted>
              }
            />
            <Route
              path="funnel"
              element={
                <Permitted permission="readReports">
                  <FunnelRoute />
                </Permitted>
              }
            />
            <Route
              path="exports"
              element={
                <Permitted permission="readReports">
                  <ExportsRoute />
                </Permitted>
              }
            />
            <Route
              path="staff"
              element={
                <Permitted permission="manageStaff">
                  <StaffRoute />
                </Permitted>
              }
            />
            <Route
              path="jobs"
              element={
                <Permitted permission="readJobs">
                  <JobsRoute />
                </Permitted>
              }
            />
            <Route path="security" element={<SecurityRoute />} />
            <Route path="*" element={<NotFoundRoute />} />
          </Route>
        </Routes>
      </Suspense>
    </div>
  );
}
