import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { uiState } from '../../../shared/lib/ui-state.js';
import { routeForPhone } from '../../../shared/lib/users-api.js';

/**
 * A proof screen opened again (back button, reload) for the number this tab already proved:
 * no new code, straight to where the application stands.
 */
export function GoWhereItStands({ phone }: { phone: string }) {
  const navigate = useNavigate();
  useEffect(() => {
    let live = true;
    routeForPhone(phone).then(
      (target) => live && navigate(target, { replace: true }),
      (error: unknown) => live && uiState.showError(error, { goTo: '/home' }),
    );
    return () => {
      live = false;
    };
  }, [phone, navigate]);
  return null;
}
