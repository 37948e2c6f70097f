import { redeemResumeLinkRoute, type ResumeLink } from '@provee/domain';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { ApiError } from '../../../shared/lib/api-client.js';
import { apiRequest } from '../../../shared/lib/api-request.js';
import { t } from '../../../shared/lib/copy.js';
import { Button } from '../../../shared/ui/button.js';
import { Page } from '../../../shared/ui/page.js';

/**
 * A link is spent once: a render that runs its effect twice (React's strict mode), or a second
 * render of the same link, asks the server once and shares the answer.
 */
const redeemed = new Map<string, Promise<ResumeLink>>();
function redeem(token: string): Promise<ResumeLink> {
  let answer = redeemed.get(token);
  if (!answer) {
    answer = apiRequest(redeemResumeLinkRoute, { body: { token }, report: false }).then(({ data }) => data);
    redeemed.set(token, answer);
  }
  return answer;
}

/**
 * A reminder's link (/r/{token}, issue 34): it names the number it was sent to; the entry screen
 * opens with it filled in, a fresh phone proof follows, and the routing after it (SPEC §2.2) lands
 * on the step where the applicant stopped. A used or expired link says so and offers the entry.
 */
export function ResumeRoute() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const [refusal, setRefusal] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    redeem(token).then(
      (resumed) => current && navigate(resumed.path, { replace: true }),
      (error: unknown) => current && setRefusal(error instanceof ApiError ? error.readableMessage : t('resume.failed')),
    );
    return () => {
      current = false;
    };
  }, [token, navigate]);
  if (!refusal)
    return (
      <Page title={t('resume.title')} heading={t('resume.title')}>
        <p className="page-subtitle">{t('resume.opening')}</p>
      </Page>
    );
  return (
    <Page title={t('resume.title')} heading={t('resume.title')}>
      <p className="page-subtitle">{refusal}</p>
      <Button onClick={() => navigate('/home', { replace: true })}>{t('common.continue')}</Button>
    </Page>
  );
}
