import type { StaffView } from '@provee/domain';
import { lazy, Suspense, useState } from 'react';
import { Route, Routes } from 'react-router';
import './backoffice.css';
import { Permitted, StaffLayout } from './components/layout.js';
import { Loading } from './components/messages.js';
import { ApplicationsRoute } from './routes/applications.js';
import { ExportsRoute } from './routes/exports.js';
import { LoginRoute } from './routes/login.js';
import { NotFoundRoute } from './routes/not-found.js';
import { QueueRoute } from './routes/queue.js';
import { StaffRoute } from './routes/staff.js';

// The heaviest screens load when opened: an advisor working the queue never downloads the chart.
const ApplicationDetailRoute = lazy(() =>
  import('./routes/application-detail.js').then((m) => ({ default: m.ApplicationDetailRoute })),
);
const FunnelRoute = lazy(() => import('./routes/funnel.js').then((m) => ({ default: m.FunnelRoute })));

/**
 * The lender's back office under /backoffice: its own layout and session (an HttpOnly cookie),
 * loaded on demand so none of it reaches the shopkeeper's first load.
 */
export function BackofficeApp() {
  // Known after the login or the layout's GET /session; null until then (and after a 401).
  const [staff, setStaff] = useState<StaffView | null>(null);
  return (
    <div className="bo">
      <Suspense fallback={<Loading />}>
        <Routes>
          <Route path="login" element={<LoginRoute onLogin={setStaff} />} />
          <Route element={<StaffLayout staff={staff} onStaff={setStaff} />}>
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
            <Route path="*" element={<NotFoundRoute />} />
          </Route>
        </Routes>
      </Suspense>
    </div>
  );
}
