import { APPLICATION_STATUSES, NEXT_STEPS, staffMay } from '@provee/domain';
import { useState, type FormEvent } from 'react';
import type { ApplicationFilters } from '../api.js';
import { COUNTRY_NAMES, statusName, stepName } from '../lib/labels.js';
import { useStaff } from '../lib/staff-context.js';
import { SelectField } from './select-field.js';

export const FILTER_KEYS = [
  'q',
  'next_step',
  'status',
  'country',
  'utm_source',
  'utm_campaign',
  'from',
  'to',
] as const satisfies readonly (keyof ApplicationFilters)[];
const STEP_CHOICES = NEXT_STEPS.map((step) => [step, stepName(step)] as const);
const STATUS_CHOICES = APPLICATION_STATUSES.map((status) => [status, statusName(status)] as const);

type FilterKey = (typeof FILTER_KEYS)[number];
type Draft = Record<FilterKey, string>;

const draftOf = (filters: ApplicationFilters): Draft =>
  Object.fromEntries(FILTER_KEYS.map((key) => [key, filters[key] ?? ''])) as Draft;

interface Props {
  filters: ApplicationFilters;
  onSearch: (filters: ApplicationFilters) => void;
}

/** The search box and the filters; nothing is asked until 'Buscar'. */
export function ApplicationFiltersForm({ filters, onSearch }: Props) {
  const applied = JSON.stringify(draftOf(filters));
  const staff = useStaff();
  const [draft, setDraft] = useState(() => draftOf(filters));
  const [seen, setSeen] = useState(applied);
  // The address changed under the form (Back, a link): show what is applied now.
  if (seen !== applied) {
    setSeen(applied);
    setDraft(draftOf(filters));
  }
  const field = (key: FilterKey) => ({
    name: key,
    value: draft[key],
    onChange: (e: { target: { value: string } }) => setDraft({ ...draft, [key]: e.target.value }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(Object.fromEntries(Object.entries(draft).filter(([, value]) => value.trim() !== '')));
  };

  return (
    <form role="search" className="bo-filters" onSubmit={submit} aria-label="Buscar solicitudes">
      <label className="bo-filters__search">
        {staffMay(staff.role, 'readSensitive')
          ? 'Buscar por teléfono, nombre o identificación fiscal'
          : 'Buscar por teléfono o nombre'}
        <input type="search" maxLength={100} {...field('q')} />
      </label>
      <SelectField label="Paso" any="Todos" options={STEP_CHOICES} {...field('next_step')} />
      <SelectField label="Estado" any="Todos" options={STATUS_CHOICES} {...field('status')} />
      <SelectField label="País" any="Todos" options={Object.entries(COUNTRY_NAMES)} {...field('country')} />
      <label>
        Fuente (utm_source)
        <input maxLength={100} {...field('utm_source')} />
      </label>
      <label>
        Campaña (utm_campaign)
        <input maxLength={100} {...field('utm_campaign')} />
      </label>
      <label>
        Creada desde
        <input type="date" {...field('from')} />
      </label>
      <label>
        Creada hasta
        <input type="date" {...field('to')} />
      </label>
      <div className="bo-actions">
        <button type="submit" className="bo-button">
          Buscar
        </button>
        <button type="button" className="bo-button bo-button--quiet" onClick={() => onSearch({})}>
          Limpiar filtros
        </button>
      </div>
    </form>
  );
}
