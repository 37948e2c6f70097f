import { SESSION_KEYS } from '@provee/domain';
import type { NavigateFunction } from 'react-router';
import { session } from '../../../shared/lib/session.js';

/** 'Cambiar número télefonico': forget the number (and its pending proof) and go back. */
export function changePhone(navigate: NavigateFunction): void {
  session.remove(SESSION_KEYS.phoneNumber);
  session.remove(SESSION_KEYS.anonymousId);
  session.remove(SESSION_KEYS.sessionUuid);
  navigate('/home', { replace: true });
}
