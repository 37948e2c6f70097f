import { heldValueText, type PersonalDataExport, type ReaderPlace } from '@provee/domain';
import { t } from '../../../shared/lib/copy.js';
import { formatDay } from '../../../shared/lib/format.js';

/** What we keep, category by category, each field with its label and value; once erased, that nothing is. */
export function HeldData({ data, place }: { data: PersonalDataExport; place: ReaderPlace }) {
  const erasedAt = data.application.erased_at;
  if (erasedAt)
    return (
      <p className="page-subtitle" role="status">
        {t('myData.erased', { day: formatDay(erasedAt.slice(0, 10), place.locale) })}
      </p>
    );
  if (data.categories.length === 0) return <p className="page-subtitle">{t('myData.empty')}</p>;
  return (
    <div className="my-data">
      {data.categories.map((category) => (
        <section key={category.category} aria-label={category.label}>
          <h2 className="my-data-heading">{category.label}</h2>
          <dl className="terms">
            {category.fields.map((field) => (
              <div key={field.source}>
                <dt>{field.label}</dt>
                <dd>{heldValueText(field.value, place)}</dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
    </div>
  );
}
