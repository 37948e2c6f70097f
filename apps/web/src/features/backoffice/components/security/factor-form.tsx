import type { StaffFactorMethod, StaffSessionView } from '@provee/domain';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { passkeysOffered, signWithPasskey } from '../../lib/passkey.js';
import { useSubmit } from '../../lib/use-submit.js';
import { session } from '../../security-api.js';
import { ErrorMessage } from '../messages.js';

interface Props {
  /** What this person can give (the session view's `factors`). */
  factors: StaffFactorMethod[];
  /** The session once the factor was accepted (stage 'active', step_up_until renewed). */
  onDone: (view: StaffSessionView) => void;
  /** A secondary button beside 'Confirmar' (e.g. 'Cancelar' in the step-up dialog). */
  extra?: ReactNode;
}

/**
 * The second factor, to finish a login or to confirm it is still you: the authenticator app's
 * 6-digit code, one of the recovery codes, or a passkey.
 */
export function FactorForm({ factors, onDone, extra }: Props) {
  const id = useId();
  const [method, setMethod] = useState<'totp' | 'recovery_code'>(factors.includes('totp') ? 'totp' : 'recovery_code');
  const [code, setCode] = useState('');
  const { pending, error, setError, submit } = useSubmit();
  const typed = factors.includes(method);
  const passkey = factors.includes('passkey') && passkeysOffered();

  const switchTo = (next: 'totp' | 'recovery_code') => {
    setMethod(next);
    setCode('');
    setError(null);
  };
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim()) return setError(method === 'totp' ? 'Escribe el código de tu aplicación.' : 'Escribe un código.');
    let view: StaffSessionView | undefined;
    if (await submit(async () => (view = await session.factor({ method, code: code.trim() })))) onDone(view!);
    else setCode('');
  };
  const withPasskey = async () => {
    let view: StaffSessionView | undefined;
    const ok = await submit(async () => {
      const credential = await signWithPasskey(await session.passkeyOptions());
      view = await session.passkey(credential);
    });
    if (ok) onDone(view!);
  };

  return (
    <form className="bo-form" onSubmit={onSubmit} noValidate>
      {typed && (
        <>
          {method === 'totp' ? (
            <label htmlFor={`${id}-code`}>Código de 6 dígitos de tu aplicación</label>
          ) : (
            <label htmlFor={`${id}-code`}>Código de recuperación</label>
          )}
          <p className="bo-muted" id={`${id}-hint`}>
            {method === 'totp'
              ? 'Ábrela en tu teléfono: el código cambia cada 30 segundos.'
              : 'Uno de los 10 códigos que guardaste (por ejemplo, ABCDE-12345). Cada uno sirve una sola vez.'}
          </p>
          <div className="bo-form--row bo-form--nowrap">
            <input
              id={`${id}-code`}
              className={method === 'totp' ? 'bo-code-field' : 'bo-code-field bo-code-field--wide'}
              value={code}
              onChange={(e) => setCode(e.target.value)}
              inputMode={method === 'totp' ? 'numeric' : 'text'}
              autoComplete={method === 'totp' ? 'one-time-code' : 'off'}
              autoCapitalize="characters"
              spellCheck={false}
              maxLength={method === 'totp' ? 7 : 12}
              aria-describedby={`${id}-hint`}
              aria-invalid={error ? true : undefined}
            />
            <button type="submit" className="bo-button" disabled={pending}>
              Confirmar
            </button>
            {extra}
          </div>
        </>
      )}
      <ErrorMessage error={error} />
      <div className="bo-factor-others">
        {method === 'totp' && factors.includes('recovery_code') && (
          <button type="button" className="bo-link-button" onClick={() => switchTo('recovery_code')}>
            Usar un código de recuperación
          </button>
        )}
        {method === 'recovery_code' && factors.includes('totp') && (
          <button type="button" className="bo-link-button" onClick={() => switchTo('totp')}>
            Usar el código de la aplicación
          </button>
        )}
        {passkey && (
          <button
            type="button"
            className="bo-button bo-button--quiet"
            disabled={pending}
            onClick={() => void withPasskey()}
          >
            Usar una llave de acceso
          </button>
        )}
        {!typed && extra}
      </div>
    </form>
  );
}
