import { eventTypeName } from '../../lib/integration-labels.js';

/** The event types an endpoint receives, as checkboxes; none checked means every type. */
export function EventTypeChoices({
  all,
  chosen,
  onChange,
}: {
  /** Every type the API sends (its list answer's `event_types`). */
  all: readonly string[];
  chosen: readonly string[];
  onChange: (chosen: string[]) => void;
}) {
  const toggle = (type: string, on: boolean) =>
    onChange(on ? all.filter((t) => t === type || chosen.includes(t)) : chosen.filter((t) => t !== type));
  return (
    <fieldset className="bo-choices">
      <legend>Eventos que recibe</legend>
      <p className="bo-muted">Sin ninguno marcado recibe todos, también los que se agreguen más adelante.</p>
      <div className="bo-choices__list">
        {all.map((type) => (
          <label key={type} className="bo-check">
            <input type="checkbox" checked={chosen.includes(type)} onChange={(e) => toggle(type, e.target.checked)} />
            <span>
              {eventTypeName(type)} <code className="bo-muted">{type}</code>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
