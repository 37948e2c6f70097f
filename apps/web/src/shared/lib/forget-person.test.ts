import { ENTRY_SESSION_KEYS, SESSION_KEYS } from '@provee/domain';
import { beforeEach, describe, expect, it } from 'vitest';
import { applicationState } from './application-state.js';
import { forgetPerson } from './forget-person.js';

describe('forgetPerson', () => {
  beforeEach(() => sessionStorage.clear());

  it('removes every key of the previous person and keeps only the entry link’s', () => {
    for (const key of Object.values(SESSION_KEYS)) sessionStorage.setItem(key, `value of ${key}`);
    applicationState.set({ user_id: 'u1', next_step: 'TAX_ACCOUNT', status: 'IN_PROGRESS' });
    forgetPerson();
    expect(Object.keys(sessionStorage).sort()).toEqual([...ENTRY_SESSION_KEYS].sort());
    expect(applicationState.get('u1')).toBeNull();
  });

  it('the entry keys are the campaign, version and proof vendor only', () => {
    expect([...ENTRY_SESSION_KEYS].sort()).toEqual([
      'otp_vendor',
      'utm_campaign',
      'utm_medium',
      'utm_source',
      'version',
    ]);
  });
});
