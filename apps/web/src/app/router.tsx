import { lazy } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { HomeRoute } from '../features/entry/routes/home.js';
import { AppShell } from './shell.js';

// The landing is in the entry bundle (first paint on 3G); every other screen loads on demand.
const NotFoundRoute = lazy(() => import('../features/errors/routes/not-found.js').then((m) => ({ default: m.NotFoundRoute })));
const CodeRoute = lazy(() => import('../features/entry/routes/code.js').then((m) => ({ default: m.CodeRoute })));
const FallbackRoute = lazy(() => import('../features/errors/routes/fallback.js').then((m) => ({ default: m.FallbackRoute })));

export function AppRouter() {
  return (
    <BrowserRouter>
      <Routes>
        <Route element={<AppShell />}>
          <Route path="/" element={<Navigate to="/home" replace />} />
          <Route path="/home" element={<HomeRoute />} />
          <Route path="/home/:phoneNumber" element={<HomeRoute />} />
          <Route path="/home/:phoneNumber/code" element={<CodeRoute />} />
          <Route path="/not-found" element={<NotFoundRoute />} />
          <Route path="*" element={<FallbackRoute />} />
        </Route>
      </Routes>
    </BrowserRouter>
  );
}
