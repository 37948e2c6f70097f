import { lazy, Suspense, useEffect, useState, type ComponentType } from 'react';
import { BrowserRouter, matchPath, Outlet, Route, Routes, useLocation, useNavigate } from 'react-router';
import { HomeRoute } from '../features/entry/routes/home.js';
import { loadScreenCopy } from '../shared/lib/copy.js';
import { prefetch } from './prefetch.js';
import { AppShell } from './shell.js';

// The landing is in the entry bundle (first paint on 3G); every other screen loads on demand,
// with the texts of those screens (shared/lib/copy-screens.ts) the first time. A screen whose
// module was loaded beforehand (`preload`, see previewedScreen) renders at once, without the
// Suspense fallback that React.lazy shows for a first render even of a module already there.
function lazyRoute<K extends string, P extends object>(load: () => Promise<Record<K, ComponentType<P>>>, name: K) {
  let loaded: ComponentType<P> | undefined;
  const preload = () =>
    Promise.all([load(), loadScreenCopy()]).then(([m]) => {
      loaded = m[name];
      return { default: loaded };
    });
  const Lazy = lazy(preload);
  // Chosen once per mount: switching from Lazy to the module would remount the screen (and lose its state).
  const Screen = (props: P) => {
    const [Component] = useState<ComponentType<P>>(() => loaded ?? Lazy);
    return <Component {...props} />;
  };
  return Object.assign(Screen, { preload });
}
const NotFoundRoute = lazyRoute(() => import('../features/errors/routes/not-found.js'), 'NotFoundRoute');
const ResumeRoute = lazyRoute(() => import('../features/entry/routes/resume.js'), 'ResumeRoute');
// The step screens' chunks, named so a screen can warm the next one (app/prefetch.ts).
const load = {
  code: () => import('../features/entry/routes/code.js'),
  aboutYou: () => import('../features/registration/routes/about-you.js'),
  additionalData: () => import('../features/registration/routes/additional-data.js'),
  searchAddress: () => import('../features/registration/routes/search-address.js'),
  aboutLiving: () => import('../features/registration/routes/about-living.js'),
  moreAbout: () => import('../features/registration/routes/more-about.js'),
  sendNip: () => import('../features/credit/routes/send-nip.js'),
  waiting: () => import('../features/credit/routes/waiting.js'),
  congratulations: () => import('../features/credit/routes/congratulations.js'),
  createPassword: () => import('../features/credit/routes/create-password.js'),
  advisorContact: () => import('../features/advisor/routes/advisor-contact.js'),
};
const registrationApi = () => import('../features/registration/api/registration.js');
const creditApi = () => import('../features/credit/api/credit.js');
/** What each step screen warms for the screen its save usually leads to. */
const next = {
  // The landing warms the code screen and the later screens' texts (its own JS stays as it is).
  home: prefetch(load.code, loadScreenCopy),
  // A new number goes to about-you; the lookup that decides it needs the code's token.
  code: prefetch(load.aboutYou),
  aboutYou: prefetch(load.additionalData),
  additionalData: prefetch(load.searchAddress),
  searchAddress: prefetch(load.aboutLiving, () =>
    registrationApi().then((api) => api.catalog.states({ spinner: false })),
  ),
  aboutLiving: prefetch(load.moreAbout, () =>
    registrationApi().then((api) =>
      Promise.all([api.catalog.businessTypes({ spinner: false }), api.catalog.salesRanges({ spinner: false })]),
    ),
  ),
  moreAbout: prefetch(load.sendNip, () => creditApi().then((api) => api.consentText({ spinner: false }))),
  sendNip: prefetch(load.congratulations, load.waiting),
  congratulations: prefetch(load.createPassword),
  createPassword: prefetch(load.advisorContact),
};
const CodeRoute = lazyRoute(load.code, 'CodeRoute');
const VerifyRoute = lazyRoute(() => import('../features/entry/routes/verify.js'), 'VerifyRoute');
const AboutYouRoute = lazyRoute(load.aboutYou, 'AboutYouRoute');
const AdditionalDataRoute = lazyRoute(load.additionalData, 'AdditionalDataRoute');
const SearchAddressRoute = lazyRoute(load.searchAddress, 'SearchAddressRoute');
const AboutLivingRoute = lazyRoute(load.aboutLiving, 'AboutLivingRoute');
const MoreAboutRoute = lazyRoute(load.moreAbout, 'MoreAboutRoute');
// How an application ended up (refused, out of the area, the lender's decision…): small screens, one file.
const loadOutcomes = () => import('../features/outcomes/routes/outcomes.js');
const RejectedRoute = lazyRoute(loadOutcomes, 'RejectedRoute');
const RejectedLocationRoute = lazyRoute(loadOutcomes, 'RejectedLocationRoute');
const SendNipRoute = lazyRoute(load.sendNip, 'SendNipRoute');
const WaitingRoute = lazyRoute(load.waiting, 'WaitingRoute');
const CongratulationsRoute = lazyRoute(load.congratulations, 'CongratulationsRoute');
const CreatePasswordRoute = lazyRoute(load.createPassword, 'CreatePasswordRoute');
const AdvisorContactRoute = lazyRoute(load.advisorContact, 'AdvisorContactRoute');
const DownloadRoute = lazyRoute(() => import('../features/advisor/routes/download.js'), 'DownloadRoute');
const AdvisorWelcomeRoute = lazyRoute(
  () => import('../features/advisor/routes/advisor-welcome.js'),
  'AdvisorWelcomeRoute',
);
const SomethingHappenedRoute = lazyRoute(loadOutcomes, 'SomethingHappenedRoute');
// The lender's decision after PENDING_APPROVAL (issue 30).
const ApprovedRoute = lazyRoute(loadOutcomes, 'ApprovedRoute');
const DeclinedRoute = lazyRoute(loadOutcomes, 'DeclinedRoute');
const DisbursedRoute = lazyRoute(loadOutcomes, 'DisbursedRoute');
// The guarantor (aval) screens of SPEC §2.5.
const loadSendNipPartner = () => import('../features/guarantor/routes/send-nip-partner.js');
const loadCongratulationsPartner = () => import('../features/guarantor/routes/congratulations-partner.js');
const SendNipPartnerRoute = lazyRoute(loadSendNipPartner, 'SendNipPartnerRoute');
const CongratulationsPartnerRoute = lazyRoute(loadCongratulationsPartner, 'CongratulationsPartnerRoute');
const VerifyAvalPhoneRoute = lazyRoute(
  () => import('../features/guarantor/routes/verify-aval-phone.js'),
  'VerifyAvalPhoneRoute',
);
const nextAfterPartnerNip = prefetch(loadCongratulationsPartner);
// The contract-signing and identity-verification screens of SPEC §2.4: all on demand (the
// signature pad and the camera code stay out of the /home bundle).
const loadSigning = {
  sendContractSign: () => import('../features/signing/routes/send-contract-sign.js'),
  reviewDocuments: () => import('../features/signing/routes/review-documents.js'),
  approvedDocuments: () => import('../features/signing/routes/approved-documents.js'),
  errorDocuments: () => import('../features/signing/routes/error-documents.js'),
  manualVerification: () => import('../features/signing/routes/manual-verification.js'),
  signContract: () => import('../features/signing/routes/sign-contract.js'),
  signingSuccess: () => import('../features/signing/routes/signing-success.js'),
};
const nextInSigning = {
  sendContractSign: prefetch(loadSigning.reviewDocuments),
  reviewDocuments: prefetch(loadSigning.approvedDocuments, loadSigning.errorDocuments, loadSigning.manualVerification),
  approvedDocuments: prefetch(loadSigning.signContract),
  signContract: prefetch(loadSigning.signingSuccess),
};
const SendContractSignRoute = lazyRoute(loadSigning.sendContractSign, 'SendContractSignRoute');
const ReviewDocumentsRoute = lazyRoute(loadSigning.reviewDocuments, 'ReviewDocumentsRoute');
const ApprovedDocumentsRoute = lazyRoute(loadSigning.approvedDocuments, 'ApprovedDocumentsRoute');
const ErrorDocumentsRoute = lazyRoute(loadSigning.errorDocuments, 'ErrorDocumentsRoute');
const ManualVerificationRoute = lazyRoute(loadSigning.manualVerification, 'ManualVerificationRoute');
const SignContractRoute = lazyRoute(loadSigning.signContract, 'SignContractRoute');
const SigningSuccessRoute = lazyRoute(loadSigning.signingSuccess, 'SigningSuccessRoute');
/** The review screens' prefix (SPEC §2.4). */
const SIGNER = '/:userTypeId/:userId/:titularFullName/:personType/:collateralFullName';
// "Mis datos" (issue 31): what we keep about the applicant, and their requests over it.
const MyDataRoute = lazyRoute(() => import('../features/privacy/routes/my-data.js'), 'MyDataRoute');
const FallbackRoute = lazyRoute(() => import('../features/errors/routes/fallback.js'), 'FallbackRoute');
// The lender's back office: its own layout and session, all of it in chunks /home never loads.
const BackofficeApp = lazyRoute(() => import('../features/backoffice/app.js'), 'BackofficeApp');

/**
 * The screens the server sends as a preview (their HTML rendered at start by app/prerender.tsx,
 * shown before the JS arrives, then replaced by the app: docs/decisions/019): the path patterns, and
 * what the browser loads before it renders one so the preview is replaced by the same screen in one
 * frame, never by the loading spinner.
 */
export const PREVIEWED_SCREENS = [
  { path: '/:phoneNumber/about-you', preload: AboutYouRoute.preload },
  { path: '/send-contract-sign', preload: SendContractSignRoute.preload },
] as const;

/** The preview screen of `pathname`, if it has one. */
export function previewedScreen(pathname: string) {
  return PREVIEWED_SCREENS.find((screen) => matchPath(screen.path, pathname));
}

/**
 * `/` shows the landing as `/home` does (the server sends both the same prerendered HTML, which
 * hydrates without a mismatch), then takes the address `/home`, query kept. One layout for the
 * landing's paths: React keeps the screen (and what was typed) when the address changes.
 */
function Landing() {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    if (pathname === '/') navigate({ pathname: '/home', search }, { replace: true });
  }, [pathname, search, navigate]);
  return <Outlet />;
}

export function AppRouter() {
  return (
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
  );
}

/** Every screen; app/prerender.tsx renders the landing's with a static router on the server. */
export function AppRoutes() {
  return (
    <Routes>
      <Route
        path="/backoffice/*"
        element={
          <Suspense fallback={<p role="status">Cargando…</p>}>
            <BackofficeApp />
          </Suspense>
        }
      />
      <Route element={<AppShell />}>
        <Route element={<Landing />}>
          <Route path="/" element={<HomeRoute next={next.home} />} />
          <Route path="/home" element={<HomeRoute next={next.home} />} />
          <Route path="/home/:phoneNumber" element={<HomeRoute next={next.home} />} />
        </Route>
        <Route path="/r/:token" element={<ResumeRoute />} />
        <Route path="/home/:phoneNumber/code" element={<CodeRoute next={next.code} />} />
        <Route path="/home/:phoneNumber/verify" element={<VerifyRoute />} />
        <Route path="/:phoneNumber/about-you" element={<AboutYouRoute next={next.aboutYou} />} />
        <Route
          path="/:phoneNumber/:userId/additional-data"
          element={<AdditionalDataRoute next={next.additionalData} />}
        />
        <Route path="/:phoneNumber/:userId/search-address" element={<SearchAddressRoute next={next.searchAddress} />} />
        <Route path="/:phoneNumber/:userId/about-living" element={<AboutLivingRoute next={next.aboutLiving} />} />
        <Route path="/:phoneNumber/:userId/more-about" element={<MoreAboutRoute next={next.moreAbout} />} />
        <Route path="/:phoneNumber/:userId/send-nip" element={<SendNipRoute next={next.sendNip} />} />
        <Route path="/:userId/waiting" element={<WaitingRoute />} />
        <Route
          path="/:phoneNumber/:userId/congratulations"
          element={<CongratulationsRoute next={next.congratulations} />}
        />
        <Route
          path="/:phoneNumber/:userId/create-password"
          element={<CreatePasswordRoute next={next.createPassword} />}
        />
        <Route path="/:phoneNumber/:userId/advisor-contact" element={<AdvisorContactRoute />} />
        <Route path="/:phoneNumber/:userId/download" element={<DownloadRoute />} />
        <Route path="/:phoneNumber/:userId/advisor-welcome" element={<AdvisorWelcomeRoute />} />
        <Route path="/:phoneNumber/:userId/approved" element={<ApprovedRoute />} />
        <Route path="/:phoneNumber/:userId/declined" element={<DeclinedRoute />} />
        <Route path="/:phoneNumber/:userId/disbursed" element={<DisbursedRoute />} />
        <Route path="/:phoneNumber/:userId/mis-datos" element={<MyDataRoute />} />
        <Route path="/send-nip-partner" element={<SendNipPartnerRoute next={nextAfterPartnerNip} />} />
        <Route
          path="/:to/:userTypeId/:userId/:phoneNumber/send-nip-partner"
          element={<SendNipPartnerRoute next={nextAfterPartnerNip} />}
        />
        <Route
          path="/partner/:userTypeId/:userId/:phoneNumber/send-nip-partner"
          element={<SendNipPartnerRoute to="partner" next={nextAfterPartnerNip} />}
        />
        <Route
          path="/collateral/:userTypeId/:userId/:phoneNumber/send-nip-partner"
          element={<SendNipPartnerRoute to="collateral" next={nextAfterPartnerNip} />}
        />
        <Route path="/congratulations-partner" element={<CongratulationsPartnerRoute />} />
        <Route path="/verify-aval-phone" element={<VerifyAvalPhoneRoute />} />
        <Route path="/send-contract-sign" element={<SendContractSignRoute next={nextInSigning.sendContractSign} />} />
        <Route
          path={`${SIGNER}/review-documents`}
          element={<ReviewDocumentsRoute next={nextInSigning.reviewDocuments} />}
        />
        <Route
          path={`${SIGNER}/approved-documents`}
          element={<ApprovedDocumentsRoute next={nextInSigning.approvedDocuments} />}
        />
        <Route path={`${SIGNER}/error-documents`} element={<ErrorDocumentsRoute />} />
        <Route path={`${SIGNER}/manual-verification`} element={<ManualVerificationRoute />} />
        {/* Spelled so (SPEC §2.4). */}
        <Route
          path="/:userTypeId/:userId/:personType/singning"
          element={<SignContractRoute next={nextInSigning.signContract} />}
        />
        <Route path="/singning-success" element={<SigningSuccessRoute />} />
        <Route path="/something-happened" element={<SomethingHappenedRoute />} />
        <Route path="/rejected" element={<RejectedRoute />} />
        <Route path="/rejected-location" element={<RejectedLocationRoute />} />
        <Route path="/not-found" element={<NotFoundRoute />} />
        <Route path="*" element={<FallbackRoute />} />
      </Route>
    </Routes>
  );
}
