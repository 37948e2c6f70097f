import {
  BUSINESS_LIMITS,
  OTHER_BUSINESS_TYPE,
  SESSION_KEYS,
  YEAR_CHOICES,
  businessErrors,
  type BusinessValues,
} from '@provee/domain';
import { useEffect, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useApiData } from '../../../shared/hooks/use-api-data.js';
import { useStoredState } from '../../../shared/hooks/use-stored-state.js';
import { usePrefetch, type NextProps } from '../../../shared/hooks/use-prefetch.js';
import { useStepGuard, type StepView } from '../../../shared/hooks/use-step-guard.js';
import { routeAfterSave } from '../../../shared/lib/application-state.js';
import { useConfig } from '../../../shared/lib/config.js';
import { t } from '../../../shared/lib/copy.js';
import { Select } from '../../../shared/ui/select.js';
import { TextField } from '../../../shared/ui/text-field.js';
import { catalog, saveBusiness } from '../api/registration.js';
import { useSavedStep } from '../components/saved-step.js';
import { StepForm } from '../components/step-form.js';
import { useStepFields } from '../lib/step-fields.js';
import { handleStepError } from '../../../shared/lib/step-errors.js';

const EMPTY: BusinessValues = {
  name: '',
  business_age: '',
  business_type: '',
  business_type_other: '',
  sales_average_range_id: '',
};

/** Step 5 'Negocio': name, age, type ('Otros' asks what it is) and weekly sales. */
export function MoreAboutRoute({ next }: NextProps) {
  usePrefetch(next);
  const view = useStepGuard('more-about');
  return view ? <MoreAboutScreen view={view} /> : null;
}

function MoreAboutScreen({ view }: { view: StepView }) {
  const { phoneNumber = '', userId = '' } = useParams();
  const navigate = useNavigate();
  const { country } = useConfig();
  const [values, update, clearDraft, stored] = useStoredState(SESSION_KEYS.draftBusiness, EMPTY);
  const { setErrors, textField, selectField } = useStepFields(values, update);
  const types = useApiData('business-types', () => catalog.businessTypes());
  const ranges = useApiData('sales-ranges', () => catalog.salesRanges());
  // Back on the saved business (issue 27): the credit policy judged it, so it shows as it was sent.
  const { data: saved, goOn } = useSavedStep(view, phoneNumber, userId);
  const business = saved?.business;
  useEffect(() => {
    if (!business) return;
    stored.adopt({
      name: business.name,
      business_age: String(business.business_age),
      business_type: business.business_type,
      business_type_other: business.business_type_other,
      sales_average_range_id: String(business.sales_average_range_id),
    });
    // When the saved answer is there.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [business]);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    // Never corrected (docs/decisions/025): on to where the application stands.
    if (view.saved) return goOn(`/${phoneNumber}/${userId}/send-nip`);
    const found = businessErrors(values, types ?? []);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    try {
      const { data } = await saveBusiness(userId, {
        name: values.name.trim(),
        business_type: values.business_type,
        business_type_other: values.business_type === OTHER_BUSINESS_TYPE ? values.business_type_other.trim() : '',
        sales_average_range_id: Number(values.sales_average_range_id),
        business_age: Number(values.business_age),
      });
      clearDraft();
      // Pushed: the browser's back button comes back to this step (issue 27).
      navigate(routeAfterSave(phoneNumber, data));
    } catch (error) {
      handleStepError(error, navigate, setErrors, { user: { phone: phoneNumber, userId }, dropDraft: clearDraft });
    }
  };

  return (
    <StepForm
      title={t('business.title')}
      screen="more-about"
      subtitle={t('business.subtitle', { storeType: country.storeType.toLowerCase() })}
      view={view}
      readOnly={view.saved}
      onSubmit={onSubmit}
    >
      <TextField
        label={t('business.name')}
        {...textField('name')}
        maxLength={BUSINESS_LIMITS.name}
        autoCapitalize="words"
        tidyOnBlur
      />
      <Select
        label={t('business.age')}
        placeholder={t('common.select')}
        options={YEAR_CHOICES}
        {...selectField('business_age')}
      />
      <Select
        label={t('business.type')}
        placeholder={t('common.select')}
        options={(types ?? []).map((type) => ({ value: type, label: type }))}
        {...selectField('business_type')}
      />
      {values.business_type === OTHER_BUSINESS_TYPE && (
        <TextField
          label={t('business.typeOther')}
          {...textField('business_type_other')}
          maxLength={BUSINESS_LIMITS.typeOther}
          tidyOnBlur
        />
      )}
      <Select
        label={t('business.sales')}
        placeholder={t('common.select')}
        options={(ranges ?? []).map((range) => ({ value: String(range.id), label: range.range_description }))}
        {...selectField('sales_average_range_id')}
      />
    </StepForm>
  );
}
