import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { onStepUpRequired } from '../api.js';
import { useSession } from '../lib/staff-context.js';
import { stepUpFresh, StepUpContext } from '../lib/step-up.js';
import { Dialog } from './dialog.js';
import { FactorForm } from './security/factor-form.js';

/**
 * 'Confirma que eres tú': exports, identity images, contract downloads and staff changes need a
 * second factor given in the last minutes (step_up_until). Asked before such a step when the last
 * one is too old, and whenever a call answers 403 STEP_UP_REQUIRED (the call is then made again).
 */
export function StepUpProvider({ children }: { children: ReactNode }) {
  const { session, setSession } = useSession();
  const [open, setOpen] = useState(false);
  // One question at a time: calls that need it meanwhile wait for the same answer.
  const answer = useRef<{ promise: Promise<boolean>; resolve: (given: boolean) => void } | null>(null);

  const ask = useCallback(() => {
    if (!answer.current) {
      let resolve!: (given: boolean) => void;
      const promise = new Promise<boolean>((done) => (resolve = done));
      answer.current = { promise, resolve };
      setOpen(true);
    }
    return answer.current.promise;
  }, []);
  const close = (given: boolean) => {
    answer.current?.resolve(given);
    answer.current = null;
    setOpen(false);
  };

  useEffect(() => onStepUpRequired(ask), [ask]);
  // Cancelled if the layout goes (a logout, a 401): whoever waits learns it was not given.
  useEffect(() => () => answer.current?.resolve(false), []);

  const ensure = useCallback(() => (stepUpFresh(session) ? Promise.resolve(true) : ask()), [session, ask]);

  return (
    <StepUpContext value={ensure}>
      {children}
      {open && (
        <Dialog title="Confirma que eres tú" onClose={() => close(false)}>
          <p>Por seguridad, esta acción necesita tu segundo factor otra vez.</p>
          <FactorForm
            factors={session.factors}
            onDone={(view) => {
              setSession(view);
              close(true);
            }}
            extra={
              <button type="button" className="bo-button bo-button--quiet" onClick={() => close(false)}>
                Cancelar
              </button>
            }
          />
        </Dialog>
      )}
    </StepUpContext>
  );
}
