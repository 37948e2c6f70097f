import { useEffect, useId, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { usePrefetch, type NextProps } from '../../../shared/hooks/use-prefetch.js';
import { useStepGuard } from '../../../shared/hooks/use-step-guard.js';
import { t } from '../../../shared/lib/copy.js';
import { uiState } from '../../../shared/lib/ui-state.js';
import { Button } from '../../../shared/ui/button.js';
import { Page } from '../../../shared/ui/page.js';
import { prefillFromPlace, searchAddresses } from '../api/registration.js';
import { RegistrationStepper } from '../components/registration-stepper.js';

type Suggestion = { place_id: string; description: string };

/** Step 3: address autocomplete (restricted to the country) → the address form, prefilled. */
export function SearchAddressRoute({ next }: NextProps) {
  usePrefetch(next);
  return useStepGuard('search-address') ? <SearchAddressScreen /> : null;
}

function SearchAddressScreen() {
  const { phoneNumber = '', userId = '' } = useParams();
  const navigate = useNavigate();
  const listId = useId();
  const [query, setQuery] = useState('');
  const [results, setResults] = useState<{ query: string; items: Suggestion[] }>({ query: '', items: [] });
  const [chosen, setChosen] = useState<Suggestion | null>(null);
  const [active, setActive] = useState(-1);
  const base = `/${phoneNumber}/${userId}/about-living`;

  useEffect(() => {
    const typed = query.trim();
    if (chosen || typed.length < 3) return;
    // Wait for a pause in typing: one request per word, not per key, on 3G.
    const timer = setTimeout(() => {
      searchAddresses(typed)
        .then((items) => setResults({ query: typed, items }))
        .catch((error: unknown) => uiState.showError(error));
    }, 300);
    return () => clearTimeout(timer);
  }, [query, chosen]);

  const items = !chosen && query.trim().length >= 3 && results.query === query.trim() ? results.items : [];
  const choose = (item: Suggestion) => {
    // Warm the address form's prefill now (one call: the place with its catalogue lists): Continuar only navigates.
    prefillFromPlace(item.place_id, { spinner: false }).catch(() => undefined);
    setChosen(item);
    setQuery(item.description);
    setActive(-1);
  };

  const onContinue = async () => {
    if (!chosen) return;
    // Usually answered already (warmed on choosing); otherwise the spinner shows while it comes.
    uiState.startLoading();
    try {
      const { place } = await prefillFromPlace(chosen.place_id);
      const params = new URLSearchParams({
        zipCode: place.zip_code,
        direction: place.street_name,
        streetNumber: place.street_number,
        placeId: chosen.place_id,
      });
      navigate(`${base}?${params}`);
    } catch (error) {
      uiState.showError(error);
    } finally {
      uiState.stopLoading();
    }
  };

  return (
    <Page title={t('address.searchTitle')} heading={t('address.searchTitle')}>
      <RegistrationStepper filled={3} />
      <p className="page-subtitle">{t('address.searchSubtitle')}</p>
      <div className="field combobox">
        <label htmlFor={`${listId}-input`}>{t('address.searchLabel')}</label>
        <input
          id={`${listId}-input`}
          role="combobox"
          aria-expanded={items.length > 0}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={active >= 0 ? `${listId}-${active}` : undefined}
          autoComplete="off"
          value={query}
          onChange={(event) => {
            setQuery(event.currentTarget.value);
            setChosen(null);
            setActive(-1);
          }}
          onKeyDown={(event) => {
            if (event.key === 'ArrowDown') setActive((index) => Math.min(items.length - 1, index + 1));
            else if (event.key === 'ArrowUp') setActive((index) => Math.max(0, index - 1));
            else if (event.key === 'Enter' && items[active]) {
              event.preventDefault();
              choose(items[active]);
            }
          }}
        />
        {items.length > 0 && (
          <ul id={listId} role="listbox" className="suggestions" aria-label={t('address.searchLabel')}>
            {items.map((item, index) => (
              <li
                key={item.place_id}
                id={`${listId}-${index}`}
                role="option"
                aria-selected={index === active}
                className={index === active ? 'is-active' : undefined}
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => choose(item)}
              >
                {item.description}
              </li>
            ))}
          </ul>
        )}
        {!chosen && query.trim().length >= 3 && results.query === query.trim() && results.items.length === 0 && (
          <p className="field-hint" role="status">
            {t('address.searchEmpty')}
          </p>
        )}
      </div>
      <Button disabled={!chosen} onClick={onContinue}>
        {t('common.continue')}
      </Button>
      <Button
        variant="secondary"
        onClick={() => navigate(`${base}?${new URLSearchParams({ zipCode: '', direction: '', streetNumber: '' })}`)}
      >
        {t('address.notFound')}
      </Button>
    </Page>
  );
}
