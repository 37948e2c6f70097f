import type { CreateWebhookEndpointBody } from '@provee/domain';
import { useState, type FormEvent } from 'react';
import { useSubmit } from '../../lib/use-submit.js';
import { ErrorMessage } from '../messages.js';
import { EventTypeChoices } from './event-type-choices.js';

const EMPTY = { url: '', description: '', event_types: [] as string[] };

/** A new endpoint: where the lender's systems listen, and what they want to hear. */
export function CreateEndpoint({
  eventTypes,
  run,
}: {
  eventTypes: readonly string[];
  run: (body: CreateWebhookEndpointBody) => Promise<void>;
}) {
  const [fields, setFields] = useState(EMPTY);
  const { pending, error, submit } = useSubmit();
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const body = { ...fields, event_types: fields.event_types as CreateWebhookEndpointBody['event_types'] };
    if (await submit(() => run(body))) setFields(EMPTY);
  };
  return (
    <form className="bo-subsection bo-form" onSubmit={onSubmit} aria-labelledby="bo-new-endpoint" noValidate>
      <h3 id="bo-new-endpoint">Agregar destino</h3>
      <div className="bo-form--row">
        <label className="bo-grow">
          Dirección (URL)
          <input
            type="url"
            inputMode="url"
            placeholder="https://sistemas.prestamista.example/webhooks"
            value={fields.url}
            maxLength={2000}
            onChange={(e) => setFields({ ...fields, url: e.target.value })}
            autoComplete="off"
          />
        </label>
        <label className="bo-grow">
          Descripción
          <input
            value={fields.description}
            maxLength={200}
            onChange={(e) => setFields({ ...fields, description: e.target.value })}
            autoComplete="off"
          />
        </label>
      </div>
      <EventTypeChoices
        all={eventTypes}
        chosen={fields.event_types}
        onChange={(chosen) => setFields({ ...fields, event_types: chosen })}
      />
      <p className="bo-muted">
        Al agregarlo verás el secreto con que firmamos cada envío, una sola vez: el sistema receptor lo usa para
        comprobar que el mensaje viene de nosotros.
      </p>
      <ErrorMessage error={error} />
      <div className="bo-actions">
        <button type="submit" className="bo-button" disabled={pending}>
          Agregar destino
        </button>
      </div>
    </form>
  );
}
