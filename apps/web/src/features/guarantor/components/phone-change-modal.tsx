import {
  GUARANTOR_PHONE_LENGTH,
  PHONE_INVALID_MESSAGE,
  PHONE_TYPING_MAX_LENGTH,
  isValidNationalNumber,
  normalizePhone,
} from '@provee/domain';
import { useState, type FormEvent } from 'react';
import { useConfig } from '../../../shared/lib/config.js';
import { t } from '../../../shared/lib/copy.js';
import { Button } from '../../../shared/ui/button.js';
import { Modal } from '../../../shared/ui/modal.js';
import { Select } from '../../../shared/ui/select.js';
import { TextField } from '../../../shared/ui/text-field.js';
import { g } from '../lib/copy.js';

interface PhoneChangeModalProps {
  onClose: () => void;
  /**
   * Sends the new 10-digit number (the screen adds the country's prefix); resolves with the message
   * to show under the field when the server refused it, with nothing when the screen took over.
   */
  onConfirm: (digits: string) => Promise<string | undefined>;
}

/** 'Cambiar número' (SPEC §2.5): the country's prefix and the guarantor's new 10-digit mobile. */
export function PhoneChangeModal({ onClose, onConfirm }: PhoneChangeModalProps) {
  const { country } = useConfig();
  const [digits, setDigits] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (digits.length !== GUARANTOR_PHONE_LENGTH || busy) return;
    if (!isValidNationalNumber(country.code, digits)) {
      setError(PHONE_INVALID_MESSAGE);
      return;
    }
    setBusy(true);
    try {
      const refused = await onConfirm(digits);
      if (refused) setError(refused);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal open title={g('phone.title')} onClose={onClose}>
      <form className="stack" onSubmit={onSubmit} noValidate>
        <p className="modal-text">{g('phone.text')}</p>
        <div className="phone-row">
          <Select
            label={t('home.prefix')}
            options={[{ value: country.phonePrefix, label: country.phonePrefix }]}
            defaultValue={country.phonePrefix}
          />
          <TextField
            label={t('home.phone')}
            type="tel"
            inputMode="numeric"
            autoComplete="tel-national"
            maxLength={PHONE_TYPING_MAX_LENGTH}
            value={digits}
            error={error || undefined}
            onChange={(value) => {
              setDigits(normalizePhone(country.code, value));
              setError('');
            }}
          />
        </div>
        <Button type="submit" disabled={digits.length !== GUARANTOR_PHONE_LENGTH || busy}>
          {g('phone.confirm')}
        </Button>
        <Button variant="link" onClick={onClose}>
          {g('phone.cancel')}
        </Button>
      </form>
    </Modal>
  );
}
