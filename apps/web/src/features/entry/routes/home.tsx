import { PHONE_MAX_LENGTH, SESSION_KEYS, isValidHomePhone, sanitizePhoneInput } from '@provee/domain';
import { useEffect, useState, type FormEvent } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { useConfig } from '../../../shared/lib/config.js';
import { t } from '../../../shared/lib/copy.js';
import { session } from '../../../shared/lib/session.js';
import { Button } from '../../../shared/ui/button.js';
import { Page } from '../../../shared/ui/page.js';

/** Campaign parameters kept for the whole flow (SPEC §2.1, §3). */
const TRACKED_PARAMS = [
  ['version', SESSION_KEYS.version],
  ['utm_source', SESSION_KEYS.utmSource],
  ['utm_medium', SESSION_KEYS.utmMedium],
  ['utm_campaign', SESSION_KEYS.utmCampaign],
] as const;

export function HomeRoute() {
  const config = useConfig();
  const { phoneNumber } = useParams();
  const [searchParams] = useSearchParams();
  const [phone, setPhone] = useState(() => sanitizePhoneInput(phoneNumber ?? session.get(SESSION_KEYS.phoneNumber) ?? ''));
  const valid = isValidHomePhone(phone);

  useEffect(() => {
    for (const [param, key] of TRACKED_PARAMS) {
      const value = searchParams.get(param);
      if (value) session.set(key, value);
    }
  }, [searchParams]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!valid) return;
    session.set(SESSION_KEYS.phoneNumber, phone);
  };

  return (
    <Page title="Inicio" heading={t('home.title', { appName: config.appName })}>
      <p className="page-subtitle">{t('home.subtitle')}</p>
      <form className="stack" onSubmit={onSubmit} noValidate>
        <div className="phone-row">
          <div className="field phone-prefix">
            <label htmlFor="phone-prefix">{t('home.prefix')}</label>
            <select id="phone-prefix" defaultValue={config.country.phonePrefix}>
              <option value={config.country.phonePrefix}>{config.country.phonePrefix}</option>
            </select>
          </div>
          <div className="field phone-number">
            <label htmlFor="phone-number">{t('home.phone')}</label>
            <div className="input-with-icon">
              <input
                id="phone-number"
                type="tel"
                inputMode="numeric"
                autoComplete="tel-national"
                maxLength={PHONE_MAX_LENGTH}
                value={phone}
                onChange={(event) => setPhone(sanitizePhoneInput(event.currentTarget.value))}
              />
              {valid && (
                <svg className="valid-check" viewBox="0 0 24 24" width="22" height="22" role="img" aria-label={t('home.phoneValid')}>
                  <circle cx="12" cy="12" r="11" fill="#1e9e4a" />
                  <path d="M7 12.5l3.2 3.2L17 9" fill="none" stroke="#fff" strokeWidth="2.4" strokeLinecap="round" strokeLinejoin="round" />
                </svg>
              )}
            </div>
          </div>
        </div>
        <Button type="submit" disabled={!valid}>
          {t('common.continue')}
        </Button>
      </form>
      <p className="fine-print">
        {t('home.privacyIntro')}{' '}
        <a href={config.privacyNoticeUrl} target="_blank" rel="noopener noreferrer">
          {t('home.privacy')}
        </a>
      </p>
    </Page>
  );
}
