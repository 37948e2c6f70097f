import type { FactorEnrolledResponse, TotpEnrolmentResponse } from '@provee/domain';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { BackofficeError } from '../../api.js';
import { asBackofficeError } from '../../lib/use-resource.js';
import { useSubmit } from '../../lib/use-submit.js';
import { myFactors } from '../../security-api.js';
import { ErrorMessage, Loading } from '../messages.js';
import { TotpQr } from './totp-qr.js';

type Enrolled = FactorEnrolledResponse['data'];

/** The base32 key in groups of four, the way authenticator apps ask for it. */
export const groupKey = (secret: string) => secret.replace(/(.{4})/g, '$1 ').trim();

/**
 * An authenticator app: a new secret (QR and the key to type), then its first code confirms it.
 * The secret is asked for once per screen (React's second effect run in development reuses it).
 */
export function TotpEnrolment({ onEnrolled }: { onEnrolled: (result: Enrolled) => void }) {
  const id = useId();
  const started = useRef<Promise<TotpEnrolmentResponse['data']> | null>(null);
  const [enrolment, setEnrolment] = useState<TotpEnrolmentResponse['data'] | null>(null);
  const [failure, setFailure] = useState<BackofficeError | null>(null);
  const [code, setCode] = useState('');
  const { pending, error, setError, submit } = useSubmit();

  useEffect(() => {
    let current = true;
    started.current ??= myFactors.startTotp();
    started.current.then(
      (data) => current && setEnrolment(data),
      (caught: unknown) => current && setFailure(asBackofficeError(caught)),
    );
    return () => {
      current = false;
    };
  }, []);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!/^\d{6}$/.test(code.replace(/\s/g, ''))) return setError('Escribe los 6 dígitos que muestra la aplicación.');
    let result: Enrolled | undefined;
    if (await submit(async () => (result = await myFactors.confirmTotp(code.replace(/\s/g, ''))))) onEnrolled(result!);
    else setCode('');
  };

  if (failure) return <ErrorMessage error={failure} />;
  if (!enrolment) return <Loading what="Preparando tu clave…" />;
  return (
    <ol className="bo-steps">
      <li>
        <p>
          Abre tu aplicación de autenticación (Google Authenticator, Microsoft Authenticator, 1Password u otra) y agrega
          una cuenta.
        </p>
      </li>
      <li>
        <p>Escanea este código con la aplicación:</p>
        <div className="bo-totp-key">
          <TotpQr uri={enrolment.otpauth_uri} />
          <div className="bo-totp-key__manual">
            <p className="bo-muted">¿No puedes escanearlo? Elige «Ingresar clave» en la aplicación y escribe:</p>
            <label>
              Clave para escribir a mano
              <input
                className="bo-key-field"
                readOnly
                value={groupKey(enrolment.secret)}
                onFocus={(e) => e.currentTarget.select()}
              />
            </label>
          </div>
        </div>
      </li>
      <li>
        <form className="bo-form" onSubmit={onSubmit} noValidate>
          <label className="bo-step-label" htmlFor={`${id}-code`}>
            Escribe el código de 6 dígitos que muestra la aplicación
          </label>
          <div className="bo-form--row">
            <input
              id={`${id}-code`}
              className="bo-code-field"
              value={code}
              onChange={(e) => setCode(e.target.value)}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={7}
              aria-invalid={error ? true : undefined}
            />
            <button type="submit" className="bo-button" disabled={pending}>
              Confirmar
            </button>
          </div>
          <ErrorMessage error={error} />
        </form>
      </li>
    </ol>
  );
}
