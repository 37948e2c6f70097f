import type { WebhookEndpointView } from '@provee/domain';
import { useOutletContext } from 'react-router';

/** What the layout gives its screens (React Router's outlet context). */
export interface LayoutOutletContext {
  /** The webhook endpoints as a screen just read them: the nav's alert follows them. */
  reportEndpoints: (endpoints: readonly Pick<WebhookEndpointView, 'enabled'>[]) => void;
}

/** The layout's report of the endpoints read (nothing outside the layout). */
export const useReportEndpoints = () => useOutletContext<LayoutOutletContext | undefined>()?.reportEndpoints;
