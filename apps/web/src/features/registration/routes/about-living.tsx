import { ADDRESS_LIMITS, SESSION_KEYS, ZIP_CODE_LENGTH, ZIP_CODE_NOT_INCLUDED, addressErrors } from '@provee/domain';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { useApiData } from '../../../shared/hooks/use-api-data.js';
import { useStoredState } from '../../../shared/hooks/use-stored-state.js';
import { usePrefetch, type NextProps } from '../../../shared/hooks/use-prefetch.js';
import { useStepGuard, type StepView } from '../../../shared/hooks/use-step-guard.js';
import { routeAfterSave } from '../../../shared/lib/application-state.js';
import { useConfig } from '../../../shared/lib/config.js';
import { t } from '../../../shared/lib/copy.js';
import { uiState } from '../../../shared/lib/ui-state.js';
import { Button } from '../../../shared/ui/button.js';
import { Select } from '../../../shared/ui/select.js';
import { TextField } from '../../../shared/ui/text-field.js';
import {
  amendAddress,
  catalog,
  prefillFromPlace,
  saveAddress,
  type Named,
  type SavedRegistration,
} from '../api/registration.js';
import { useSavedStep } from '../components/saved-step.js';
import { StepForm } from '../components/step-form.js';
import { useStepFields } from '../lib/step-fields.js';
import { handleStepError } from '../../../shared/lib/step-errors.js';

interface Draft {
  zip_code: string;
  state_id: string;
  city_id: string;
  neighborhood_id: string;
  street_name: string;
  street_number: string;
  apartment_number: string;
  /** 'Mi sector no aparece': the sector is typed in `neighborhood_text` instead of chosen. */
  neighborhood_typed: boolean;
  neighborhood_text: string;
  /** The search result this draft was prefilled from, so a reload does not prefill twice. */
  prefilled: string;
}

const EMPTY: Draft = {
  zip_code: '',
  state_id: '',
  city_id: '',
  neighborhood_id: '',
  street_name: '',
  street_number: '',
  apartment_number: '',
  neighborhood_typed: false,
  neighborhood_text: '',
  prefilled: '',
};
const options = (items: Named[] | undefined) =>
  (items ?? []).map((item) => ({ value: String(item.id), label: item.name }));

/** The form's draft of a saved address (issue 27: going back shows what was saved). */
function draftOf(address: NonNullable<SavedRegistration['address']>, prefilled: string): Draft {
  const typed = address.neighborhood_typed || address.neighborhood_id === null;
  return {
    zip_code: address.zip_code === ZIP_CODE_NOT_INCLUDED ? '' : address.zip_code,
    state_id: address.state_id === null ? '' : String(address.state_id),
    city_id: address.city_id === null ? '' : String(address.city_id),
    neighborhood_id: typed ? '' : String(address.neighborhood_id),
    street_name: address.street_name,
    street_number: address.street_number,
    apartment_number: address.apartment_number,
    neighborhood_typed: typed,
    neighborhood_text: typed ? address.neighborhood : '',
    prefilled,
  };
}

/** Step 4: the business address (SPEC §2.3 item 4), prefilled from the search when there was one. */
export function AboutLivingRoute({ next }: NextProps) {
  usePrefetch(next);
  const view = useStepGuard('about-living');
  return view ? <AboutLivingScreen view={view} /> : null;
}

function AboutLivingScreen({ view }: { view: StepView }) {
  const { phoneNumber = '', userId = '' } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const config = useConfig();
  const { country } = config;
  const [draft, update, clearDraft, stored] = useStoredState(SESSION_KEYS.draftAddress, EMPTY);
  // Back on a saved address: what was saved, unless a new search result or typing started a draft.
  const { data: saved, readOnly, goOn } = useSavedStep(view, phoneNumber, userId);
  const fromSaved = view.saved && (readOnly || !stored.drafted);
  const { errors, setErrors, clearError, textField, selectField } = useStepFields(draft, update);
  const states = useApiData('states', () => catalog.states());
  const cities = useApiData(draft.state_id ? `cities:${draft.state_id}` : null, () =>
    catalog.cities(Number(draft.state_id)),
  );
  const neighborhoods = useApiData(draft.city_id ? `neighborhoods:${draft.city_id}` : null, () =>
    catalog.neighborhoods(Number(draft.city_id)),
  );
  const lastZip = useRef('');
  /** Focus the typed sector when the shopkeeper asks for it, not when a reload restores it. */
  const [toggled, setToggled] = useState(false);

  // Prefill once from the chosen search result: street and number, then province → municipality → sector.
  const placeId = params.get('placeId') ?? '';
  const source = `${placeId}|${params.get('direction') ?? ''}|${params.get('streetNumber') ?? ''}|${params.get('zipCode') ?? ''}`;
  useEffect(() => {
    if (fromSaved && saved?.address) stored.adopt(draftOf(saved.address, source));
    // When the saved answer is there.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fromSaved, saved]);
  useEffect(() => {
    if (fromSaved || draft.prefilled === source) return;
    update({
      prefilled: source,
      street_name: params.get('direction') || draft.street_name,
      street_number: params.get('streetNumber') || draft.street_number,
      zip_code: country.hasZipCode ? params.get('zipCode') || draft.zip_code : '',
    });
    if (!placeId) return;
    (async () => {
      // The search fetched the place (with its ids and this form's lists) when it was chosen:
      // read from memory, not the network.
      const { stateId, cityId, neighborhoodId } = await prefillFromPlace(placeId);
      if (stateId === null) return;
      update({
        state_id: String(stateId),
        city_id: cityId === null ? '' : String(cityId),
        neighborhood_id: neighborhoodId === null ? '' : String(neighborhoodId),
        neighborhood_typed: false,
      });
    })().catch((error: unknown) => uiState.showError(error));
    // Runs when the search result changes, not when the draft does.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [source]);

  const onZip = async (zip: string) => {
    const clean = zip.replace(/\D/g, '').slice(0, ZIP_CODE_LENGTH);
    update({ zip_code: clean });
    // The zip message is about the old value: a changed zip clears it.
    if (clean !== draft.zip_code) clearError('zip_code');
    if (clean.length !== ZIP_CODE_LENGTH || clean === lastZip.current) return;
    lastZip.current = clean;
    try {
      const items = await catalog.zipCode(clean);
      const [first] = items;
      if (!first) return;
      update({
        state_id: String(first.state_id),
        city_id: String(first.city_id),
        neighborhood_id: items.length === 1 ? String(first.neighborhood_id) : '',
        neighborhood_typed: false,
      });
      setErrors({});
    } catch (error) {
      handleStepError(error, navigate, setErrors);
    }
  };

  // Mexico: after a zip code, the colonias of that zip code only (the municipality has others).
  const zipComplete = country.hasZipCode && draft.zip_code.length === ZIP_CODE_LENGTH;
  const inZip = zipComplete ? neighborhoods?.filter((item) => item.zip_code === draft.zip_code) : undefined;
  const neighborhoodChoices = inZip && inZip.length > 0 ? inZip : neighborhoods;

  const names = {
    state: states?.find((item) => String(item.id) === draft.state_id)?.name ?? '',
    city: cities?.find((item) => String(item.id) === draft.city_id)?.name ?? '',
    neighborhood: draft.neighborhood_typed
      ? draft.neighborhood_text.trim()
      : (neighborhoods?.find((item) => String(item.id) === draft.neighborhood_id)?.name ?? ''),
  };

  const nextScreen = `/${phoneNumber}/${userId}/more-about`;
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (readOnly) return goOn(nextScreen);
    const address = {
      zip_code: country.hasZipCode ? draft.zip_code : ZIP_CODE_NOT_INCLUDED,
      ...names,
      street_name: draft.street_name.trim(),
      street_number: draft.street_number.trim(),
      apartment_number: draft.apartment_number.trim(),
      ...(draft.neighborhood_typed ? { neighborhood_typed: true } : {}),
    };
    const found = addressErrors(country, address);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    try {
      if (view.saved) {
        const before = saved?.address;
        const same =
          before &&
          (Object.keys(address) as (keyof typeof address)[]).every(
            (key) => key === 'neighborhood_typed' || String(address[key]) === String(before[key]),
          ) &&
          Boolean(address.neighborhood_typed) === before.neighborhood_typed;
        // Unchanged: nothing to correct.
        if (!same) await amendAddress(userId, address);
        clearDraft();
        goOn(nextScreen);
        return;
      }
      const { data } = await saveAddress(userId, address);
      clearDraft();
      // Pushed: the browser's back button comes back to this step (issue 27).
      navigate(routeAfterSave(phoneNumber, data));
    } catch (error) {
      handleStepError(error, navigate, setErrors, {
        outOfArea: true,
        user: { phone: phoneNumber, userId },
        dropDraft: clearDraft,
      });
    }
  };

  return (
    <StepForm
      title={t('address.formTitle')}
      screen="about-living"
      view={view}
      readOnly={readOnly}
      onSubmit={onSubmit}
      footer={<p className="fine-print">{t('address.consent', { appName: config.appName })}</p>}
    >
      {country.hasZipCode && (
        <TextField
          label={t('address.zip')}
          value={draft.zip_code}
          onChange={onZip}
          error={errors.zip_code}
          inputMode="numeric"
          maxLength={ZIP_CODE_LENGTH}
          autoComplete="postal-code"
        />
      )}
      <Select
        label={t('address.state')}
        placeholder={t('common.select')}
        options={options(states)}
        value={draft.state_id}
        onChange={(event) => {
          update({ state_id: event.currentTarget.value, city_id: '', neighborhood_id: '' });
          clearError('state');
        }}
        error={errors.state}
      />
      <Select
        label={t('address.city')}
        placeholder={t('common.select')}
        options={options(cities)}
        value={draft.city_id}
        disabled={!draft.state_id}
        onChange={(event) => {
          update({ city_id: event.currentTarget.value, neighborhood_id: '' });
          clearError('city');
        }}
        error={errors.city}
      />
      <div>
        {draft.neighborhood_typed ? (
          <TextField
            label={country.neighborhoodLabel}
            value={draft.neighborhood_text}
            onChange={(value) => {
              update({ neighborhood_text: value });
              clearError('neighborhood');
            }}
            error={errors.neighborhood}
            maxLength={ADDRESS_LIMITS.neighborhood}
            autoComplete="address-level3"
            autoFocus={toggled}
            tidyOnBlur
          />
        ) : (
          <Select
            label={country.neighborhoodLabel}
            placeholder={t('common.select')}
            options={options(neighborhoodChoices)}
            {...selectField('neighborhood_id')}
            disabled={!draft.city_id}
            error={errors.neighborhood}
          />
        )}
        <Button
          variant="link"
          className="field-toggle"
          onClick={() => {
            update({ neighborhood_typed: !draft.neighborhood_typed });
            setToggled(true);
            clearError('neighborhood');
          }}
        >
          {draft.neighborhood_typed ? t('address.neighborhoodPick') : t('address.neighborhoodMissing')}
        </Button>
      </div>
      <TextField
        label={t('address.street')}
        {...textField('street_name')}
        maxLength={ADDRESS_LIMITS.street}
        autoComplete="address-line1"
        tidyOnBlur
      />
      <div className="two-columns">
        <TextField
          label={t('address.streetNumber')}
          {...textField('street_number')}
          maxLength={ADDRESS_LIMITS.number}
        />
        <TextField
          label={t('address.apartment')}
          {...textField('apartment_number')}
          maxLength={ADDRESS_LIMITS.number}
        />
      </div>
    </StepForm>
  );
}
