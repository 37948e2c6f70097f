import {
  RECTIFIABLE_FIELDS,
  type FilePrivacyRequestBody,
  type PrivacyRequestKind,
  type PrivacyRequestView,
  type RectifiableField,
} from '@provee/domain';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../../shared/lib/api-client.js';
import { t } from '../../../shared/lib/copy.js';
import { uiState } from '../../../shared/lib/ui-state.js';
import { Button } from '../../../shared/ui/button.js';
import { Select } from '../../../shared/ui/select.js';

/** What a person may ask here; access is the page itself (see and download). */
const KINDS: PrivacyRequestKind[] = ['rectification', 'cancellation', 'opposition'];

interface Props {
  send: (body: FilePrivacyRequestBody) => Promise<PrivacyRequestView>;
  onSent: (request: PrivacyRequestView) => void;
}

/** Rectification, cancellation or opposition, with a reason; the server's Spanish refusals show beside the fields. */
export function RequestForm({ send, onSent }: Props) {
  const [kind, setKind] = useState<PrivacyRequestKind | ''>('');
  const [field, setField] = useState<RectifiableField | ''>('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [pending, setPending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!kind) return setErrors({ kind: t('myData.kindPlaceholder') });
    setPending(true);
    setErrors({});
    try {
      const body = { kind, reason, ...(kind === 'rectification' && field ? { field } : {}) };
      onSent(await send(body));
      setKind('');
      setField('');
      setReason('');
    } catch (error) {
      if (error instanceof ApiError && error.status === 400 && error.issues.length > 0)
        setErrors(Object.fromEntries(error.issues.map((issue) => [issue.field.replace(/^body\./, ''), issue.message])));
      else if (error instanceof ApiError && error.status === 409) setErrors({ form: error.readableMessage });
      else uiState.showError(error);
    } finally {
      setPending(false);
    }
  };

  return (
    <form className="my-data-form" onSubmit={submit} noValidate>
      <Select
        label={t('myData.kind')}
        placeholder={t('myData.kindPlaceholder')}
        options={KINDS.map((value) => ({ value, label: t(`myData.kind.${value}`) }))}
        value={kind}
        error={errors.kind}
        onChange={(e) => setKind(e.currentTarget.value as PrivacyRequestKind | '')}
      />
      {kind === 'rectification' && (
        <Select
          label={t('myData.field')}
          placeholder={t('myData.kindPlaceholder')}
          options={RECTIFIABLE_FIELDS.map((value) => ({ value, label: t(`myData.field.${value}`) }))}
          value={field}
          error={errors.field}
          onChange={(e) => setField(e.currentTarget.value as RectifiableField | '')}
        />
      )}
      <div className="field">
        <label htmlFor="my-data-reason">{t('myData.reason')}</label>
        <textarea
          id="my-data-reason"
          rows={4}
          maxLength={1000}
          value={reason}
          aria-invalid={errors.reason ? true : undefined}
          aria-describedby={errors.reason ? 'my-data-reason-error' : undefined}
          onChange={(e) => setReason(e.currentTarget.value)}
        />
        {errors.reason && (
          <p id="my-data-reason-error" className="field-error" role="alert">
            {errors.reason}
          </p>
        )}
      </div>
      {errors.form && (
        <p className="field-error" role="alert">
          {errors.form}
        </p>
      )}
      <Button type="submit" disabled={pending}>
        {t('myData.send')}
      </Button>
    </form>
  );
}
