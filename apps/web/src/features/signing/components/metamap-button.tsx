import type { IdentityWidget } from '@provee/domain';
import { useEffect, useRef, type DetailedHTMLProps, type HTMLAttributes } from 'react';

/** MetaMap's web button: a custom element defined by its script. */
declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace JSX {
    interface IntrinsicElements {
      'metamap-button': DetailedHTMLProps<HTMLAttributes<HTMLElement>, HTMLElement> & {
        clientid: string;
        flowId: string;
        metadata: string;
      };
    }
  }
}

export const METAMAP_SCRIPT = 'https://web-button.metamap.com/button.js';
const FINISHED = 'metamap:userFinishedSdk';

type MetamapSettings = Extract<IdentityWidget, { provider: 'metamap' }>;

/** Loads the button's script once per page (several mounts share it). */
function loadScript(): void {
  if (document.querySelector(`script[src="${METAMAP_SCRIPT}"]`)) return;
  const script = document.createElement('script');
  script.src = METAMAP_SCRIPT;
  script.async = true;
  document.head.appendChild(script);
}

/** The MetaMap verification flow (SPEC §2.4 widget): the server chose the flow (re-verification when an identity exists). */
export function MetamapButton({ settings, onFinished }: { settings: MetamapSettings; onFinished: () => void }) {
  const ref = useRef<HTMLElement>(null);
  const finished = useRef(onFinished);
  useEffect(() => {
    finished.current = onFinished;
  });

  useEffect(loadScript, []);

  useEffect(() => {
    const button = ref.current;
    if (!button) return;
    const done = () => finished.current();
    button.addEventListener(FINISHED, done);
    return () => button.removeEventListener(FINISHED, done);
  }, []);

  return (
    <div className="metamap">
      <metamap-button
        ref={ref}
        clientid={settings.client_id}
        flowId={settings.flow_id}
        metadata={JSON.stringify(settings.metadata)}
      />
    </div>
  );
}
