import type { StaffView } from '@provee/domain';
import { useState } from 'react';
import { useSubmit } from '../../lib/use-submit.js';
import { Dialog } from '../dialog.js';
import { ErrorMessage } from '../messages.js';

/** A lost phone or key: every second factor of the account goes (after a confirmation), and its next login enrols one. */
export function ResetFactors({ member, run }: { member: StaffView; run: () => Promise<void> }) {
  const [open, setOpen] = useState(false);
  const { pending, error, submit } = useSubmit();
  const reset = async () => {
    if (await submit(run)) setOpen(false);
  };
  return (
    <>
      <button
        type="button"
        className="bo-button bo-button--small bo-button--quiet"
        aria-label={`Restablecer segundo factor de ${member.name}`}
        onClick={() => setOpen(true)}
      >
        Restablecer segundo factor
      </button>
      {open && (
        <Dialog title={`¿Restablecer el segundo factor de ${member.name}?`} onClose={() => setOpen(false)}>
          <p>
            Se borran su aplicación de autenticación, sus llaves de acceso y sus códigos de recuperación, y se cierran
            sus sesiones. En su próximo inicio de sesión tendrá que configurar un segundo factor nuevo.
          </p>
          <p className="bo-muted">Hazlo solo si confirmaste con la persona que perdió su teléfono o su llave.</p>
          <ErrorMessage error={error} />
          <div className="bo-actions">
            <button
              type="button"
              className="bo-button bo-button--danger"
              disabled={pending}
              onClick={() => void reset()}
            >
              Restablecer
            </button>
            <button type="button" className="bo-button bo-button--quiet" onClick={() => setOpen(false)}>
              Cancelar
            </button>
          </div>
        </Dialog>
      )}
    </>
  );
}
