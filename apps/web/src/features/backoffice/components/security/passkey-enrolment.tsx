import type { FactorEnrolledResponse } from '@provee/domain';
import { useId, useState } from 'react';
import { createPasskey } from '../../lib/passkey.js';
import { useSubmit } from '../../lib/use-submit.js';
import { myFactors } from '../../security-api.js';
import { ErrorMessage } from '../messages.js';

type Enrolled = FactorEnrolledResponse['data'];

interface Props {
  label: string;
  onEnrolled: (result: Enrolled) => void;
  /** A name field ('Laptop de la oficina'), to tell one's passkeys apart later. */
  named?: boolean;
  /** Runs first (and may stop it): the step-up a later passkey needs. */
  before?: () => Promise<boolean>;
}

/** A new passkey: the server's challenge, the browser's prompt (fingerprint, face, PIN, a key), the server's check. */
export function PasskeyEnrolment({ label, onEnrolled, named = false, before }: Props) {
  const id = useId();
  const [name, setName] = useState('');
  const { pending, error, submit } = useSubmit();
  const add = async () => {
    if (before && !(await before())) return;
    let result: Enrolled | undefined;
    const ok = await submit(async () => {
      const credential = await createPasskey(await myFactors.passkeyOptions());
      result = await myFactors.addPasskey(credential, name.trim() || undefined);
    });
    if (ok) {
      setName('');
      onEnrolled(result!);
    }
  };
  return (
    <div className="bo-form">
      <div className="bo-form--row">
        {named && (
          <label htmlFor={`${id}-name`}>
            Nombre de la llave (opcional)
            <input
              id={`${id}-name`}
              value={name}
              maxLength={60}
              placeholder="Laptop de la oficina"
              onChange={(e) => setName(e.target.value)}
            />
          </label>
        )}
        <button type="button" className="bo-button bo-button--quiet" disabled={pending} onClick={() => void add()}>
          {label}
        </button>
      </div>
      <ErrorMessage error={error} />
    </div>
  );
}
