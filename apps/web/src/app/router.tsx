import { lazy, type ComponentType } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { HomeRoute } from '../features/entry/routes/home.js';
import { AppShell } from './shell.js';

// The landing is in the entry bundle (first paint on 3G); every other screen loads on demand.
const NotFoundRoute = lazy(() => import('../features/errors/routes/not-found.js').then((m) => ({ default: m.NotFoundRoute })));
const CodeRoute = lazy(() => import('../features/entry/routes/code.js').then((m) => ({ default: m.CodeRoute })));
const lazyRoute = <K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) => lazy(() => load().then((m) => ({ default: m[name] })));
const AboutYouRoute = lazyRoute(() => import('../features/registration/routes/about-you.js'), 'AboutYouRoute');
const AdditionalDataRoute = lazyRoute(() => import('../features/registration/routes/additional-data.js'), 'AdditionalDataRoute');
const SearchAddressRoute = lazyRoute(() => import('../features/registration/routes/search-address.js'), 'SearchAddressRoute');
const AboutLivingRoute = lazyRoute(() => import('../features/registration/routes/about-living.js'), 'AboutLivingRoute');
const MoreAboutRoute = lazyRoute(() => import('../features/registration/routes/more-about.js'), 'MoreAboutRoute');
const RejectedRoute = lazyRoute(() => import('../features/outcomes/routes/rejected.js'), 'RejectedRoute');
const RejectedLocationRoute = lazyRoute(() => import('../features/outcomes/routes/rejected-location.js'), 'RejectedLocationRoute');
const SendNipRoute = lazyRoute(() => import('../features/credit/routes/send-nip.js'), 'SendNipRoute');
const WaitingRoute = lazyRoute(() => import('../features/credit/routes/waiting.js'), 'WaitingRoute');
const CongratulationsRoute = lazyRoute(() => import('../features/credit/routes/congratulations.js'), 'CongratulationsRoute');
const CreatePasswordRoute = lazyRoute(() => import('../features/credit/routes/create-password.js'), 'CreatePasswordRoute');
const AdvisorContactRoute = lazyRoute(() => import('../features/advisor/routes/advisor-contact.js'), 'AdvisorContactRoute');
const DownloadRoute = lazyRoute(() => import('../features/advisor/routes/download.js'), 'DownloadRoute');
const AdvisorWelcomeRoute = lazyRoute(() => import('../features/advisor/routes/advisor-welcome.js'), 'AdvisorWelcomeRoute');
const SomethingHappenedRoute = lazyRoute(() => import('../features/outcomes/routes/something-happened.js'), 'SomethingHappenedRoute');
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
          <Route path="/:phoneNumber/about-you" element={<AboutYouRoute />} />
          <Route path="/:phoneNumber/:userId/additional-data" element={<AdditionalDataRoute />} />
          <Route path="/:phoneNumber/:userId/search-address" element={<SearchAddressRoute />} />
          <Route path="/:phoneNumber/:userId/about-living" element={<AboutLivingRoute />} />
          <Route path="/:phoneNumber/:userId/more-about" element={<MoreAboutRoute />} />
          <Route path="/:phoneNumber/:userId/send-nip" element={<SendNipRoute />} />
          <Route path="/:userId/waiting" element={<WaitingRoute />} />
          <Route path="/:phoneNumber/:userId/congratulations" element={<CongratulationsRoute />} />
          <Route path="/:phoneNumber/:userId/create-password" element={<CreatePasswordRoute />} />
          <Route path="/:phoneNumber/:userId/advisor-contact" element={<AdvisorContactRoute />} />
          <Route path="/:phoneNumber/:userId/download" element={<DownloadRoute />} />
          <Route path="/:phoneNumber/:userId/advisor-welcome" element={<AdvisorWelcomeRoute />} />
          <Route path="/something-happened" element={<SomethingHappenedRoute />} />
          <Route path="/rejected" element={<RejectedRoute />} />
          <Route path="/rejected-location" element={<RejectedLocationRoute />} />
          <Route path="/not-found" element={<NotFoundRoute />} />
          <Route path="*" element={<FallbackRoute />} />
        </Route>
      </Routes>
    </BrowserRouter>
  );
}
