import { useRef, type AnchorHTMLAttributes, type MouseEvent } from 'react';
import { useSession } from '../lib/staff-context.js';
import { stepUpFresh, useStepUp } from '../lib/step-up.js';

/**
 * A link the browser opens itself (a download, a file in a new tab) whose answer needs a recent
 * second factor: when the last one is too old, 'Confirma que eres tú' comes first, then the link.
 */
export function StepUpLink({ onClick, ...props }: AnchorHTMLAttributes<HTMLAnchorElement>) {
  const { session } = useSession();
  const ensure = useStepUp();
  const ref = useRef<HTMLAnchorElement>(null);
  // The click made after the factor was given goes through as it is.
  const confirmed = useRef(false);
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (confirmed.current || stepUpFresh(session)) {
      confirmed.current = false;
      return;
    }
    event.preventDefault();
    void ensure().then((given) => {
      if (!given) return;
      confirmed.current = true;
      ref.current?.click();
    });
  };
  return <a ref={ref} {...props} onClick={follow} />;
}
