import { SESSION_KEYS } from '@provee/domain';
import { useEffect, useId, useState, type ReactNode } from 'react';
import { useNavigate, useParams } from 'react-router';
import { usePrefetch, type NextProps } from '../../../shared/hooks/use-prefetch.js';
import { useStepGuard, type StepView } from '../../../shared/hooks/use-step-guard.js';
import { t } from '../../../shared/lib/copy.js';
import { session } from '../../../shared/lib/session.js';
import { uiState } from '../../../shared/lib/ui-state.js';
import { Button } from '../../../shared/ui/button.js';
import { Page } from '../../../shared/ui/page.js';
import { prefillFromPlace, searchAddresses, type SavedRegistration } from '../api/registration.js';
import { RegistrationStepper } from '../components/registration-stepper.js';
import { SavedNote, useSavedStep } from '../components/saved-step.js';

type Suggestion = { place_id: string; description: string };

/** Step 3: address autocomplete (restricted to the country) → the address form, prefilled. */
export function SearchAddressRoute({ next }: NextProps) {
  usePrefetch(next);
  const view = useStepGuard('search-address');
  if (!view) return null;
  return view.saved ? <SavedAddress view={view} /> : <SearchAddressScreen view={view} />;
}

/** One line of a saved address: street and number, sector, municipality, province. */
function addressLine(address: NonNullable<SavedRegistration['address']>): string {
  const street = [address.street_name, address.street_number].filter(Boolean).join(' ');
  const apartment = address.apartment_number ? `, ${address.apartment_number}` : '';
  return `${street}${apartment}, ${address.neighborhood}, ${address.city}, ${address.state}`;
}

/**
 * Back on the search with the address saved (issue 27): the saved address; while it may still be
 * corrected, the search to choose another (and Continuar to the form with the saved one).
 */
function SavedAddress({ view }: { view: StepView }) {
  const { phoneNumber = '', userId = '' } = useParams();
  const { data, readOnly, goOn } = useSavedStep(view, phoneNumber, userId);
  return (
    <SearchAddressScreen view={view} onKeep={() => goOn(`/${phoneNumber}/${userId}/about-living`)}>
      {data?.address && (
        <div className="saved-value">
          <p className="saved-label">{t('saved.address')}</p>
          <p>{addressLine(data.address)}</p>
        </div>
      )}
      {readOnly && (
        <Button onClick={() => goOn(`/${phoneNumber}/${userId}/about-living`)}>{t('common.continue')}</Button>
      )}
    </SearchAddressScreen>
  );
}

function SearchAddressScreen({
  view,
  onKeep,
  children,
}: {
  view: StepView;
  /** Saved: Continuar without a new choice goes on with the saved address. */
  onKeep?: () => void;
  children?: ReactNode;
}) {
  const readOnly = view.saved && !view.editable;
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
    if (!chosen) return onKeep?.();
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
      // A new choice over a saved address: the form starts from it, not from what was saved.
      if (view.saved) session.set(SESSION_KEYS.draftAddress, JSON.stringify({ prefilled: '' }));
      navigate(`${base}?${params}`);
    } catch (error) {
      uiState.showError(error);
    } finally {
      uiState.stopLoading();
    }
  };

  if (readOnly)
    return (
      <Page title={t('address.searchTitle')} heading={t('address.searchTitle')}>
        <RegistrationStepper screen="search-address" />
        <SavedNote view={view} />
        {children}
      </Page>
    );

  return (
    <Page title={t('address.searchTitle')} heading={t('address.searchTitle')}>
      <RegistrationStepper screen="search-address" />
      <p className="page-subtitle">{t('address.searchSubtitle')}</p>
      <SavedNote view={view} />
      {children}
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
      <Button disabled={!chosen && !onKeep} onClick={onContinue}>
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
