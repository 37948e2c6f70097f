import type { StaffSessionView } from '@provee/domain';
import { lazy, Suspense, useState } from 'react';
import { Route, Routes } from 'react-router';
import './backoffice.css';
import { Permitted, StaffLayout } from './components/layout.js';
import { Loading } from './components/messages.js';
import { ApplicationsRoute } from './routes/applications.js';
import { LoginRoute } from './routes/login.js';
import { NotFoundRoute } from './routes/not-found.js';

// The first chunk holds the login and the list of applications; every other screen loads when
// opened (an advisor working the queue never downloads the chart).
const ApplicationDetailRoute = lazy(() =>
  import('./routes/application-detail.js').then((m) => ({ default: m.ApplicationDetailRoute })),
);
const QueueRoute = lazy(() => import('./routes/queue.js').then((m) => ({ default: m.QueueRoute })));
const ExportsRoute = lazy(() => import('./routes/exports.js').then((m) => ({ default: m.ExportsRoute })));
const FunnelRoute = lazy(() => import('./routes/funnel.js').then((m) => ({ default: m.FunnelRoute })));
const JobsRoute = lazy(() => import('./routes/jobs.js').then((m) => ({ default: m.JobsRoute })));
const RetentionRoute = lazy(() => import('./routes/retention.js').then((m) => ({ default: m.RetentionRoute })));
const PrivacyRequestsRoute = lazy(() =>
  import('./routes/privacy-requests.js').then((m) => ({ default: m.PrivacyRequestsRoute })),
);
const PrivacyRequestRoute = lazy(() =>
  import('./routes/privacy-request.js').then((m) => ({ default: m.PrivacyRequestRoute })),
);
const IntegrationsRoute = lazy(() =>
  import('./routes/integrations.js').then((m) => ({ default: m.IntegrationsRoute })),
);
const PoliciesRoute = lazy(() => import('./routes/policies.js').then((m) => ({ default: m.PoliciesRoute })));
const PolicyVersionRoute = lazy(() =>
  import('./routes/policies-version.js').then((m) => ({ default: m.PolicyVersionRoute })),
);
const WebhookEndpointRoute = lazy(() =>
  import('./routes/webhook-endpoint.js').then((m) => ({ default: m.WebhookEndpointRoute })),
);
// Screens of a few visits a year (the QR code generator with them).
const LoginFactorRoute = lazy(() => import('./routes/login-factor.js').then((m) => ({ default: m.LoginFactorRoute })));
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
              path="policies"
              element={
                <Permitted permission="policy">
                  <PoliciesRoute />
                </Permitted>
              }
            />
            <Route
              path="policies/:policyId"
              element={
                <Permitted permission="policy">
                  <PolicyVersionRoute />
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
            <Route
              path="retention"
              element={
                <Permitted permission="readRetention">
                  <RetentionRoute />
                </Permitted>
              }
            />
            <Route
              path="privacy-requests"
              element={
                <Permitted permission="privacy">
                  <PrivacyRequestsRoute />
                </Permitted>
              }
            />
            <Route
              path="privacy-requests/:requestId"
              element={
                <Permitted permission="privacy">
                  <PrivacyRequestRoute />
                </Permitted>
              }
            />
            <Route
              path="integrations"
              element={
                <Permitted permission="manageIntegrations">
                  <IntegrationsRoute />
                </Permitted>
              }
            />
            <Route
              path="integrations/endpoints/:endpointId"
              element={
                <Permitted permission="manageIntegrations">
                  <WebhookEndpointRoute />
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
