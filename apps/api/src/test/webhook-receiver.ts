import { createServer, type IncomingHttpHeaders } from 'node:http';
import { Webhook } from 'standardwebhooks';

/** One delivery the receiver accepted: verified with the endpoint's secret, its event as sent. */
export interface Delivery {
  id: string;
  /** The path and query it was posted to (which endpoint it was for). */
  url: string;
  headers: IncomingHttpHeaders;
  event: {
    id: string;
    type: string;
    application_id: string;
    sequence: number;
    data: Record<string, unknown>;
  } & Record<string, unknown>;
  /** Which of the receiver's secrets verified it (their index). */
  verifiedWith: number[];
}

/**
 * A lender's webhook receiver over real HTTP, as its documentation tells one to write it: every
 * request verified with the Standard Webhooks reference library (`standardwebhooks`), never the
 * product's code; a delivery it cannot verify is answered 400 and counted. It answers `status`
 * while it is "down" (a 503, a hang…) and 204 once up again.
 */
export async function startWebhookReceiver(secrets: string[] = []) {
  const deliveries: Delivery[] = [];
  const unverified: string[] = [];
  let down: number | null = null;
  let requests = 0;
  const server = createServer(async (request, response) => {
    let body = '';
    for await (const chunk of request) body += chunk;
    requests++;
    if (down !== null) {
      response.writeHead(down, { connection: 'close' }).end('not now');
      return;
    }
    const headers = {
      'webhook-id': String(request.headers['webhook-id'] ?? ''),
      'webhook-timestamp': String(request.headers['webhook-timestamp'] ?? ''),
      'webhook-signature': String(request.headers['webhook-signature'] ?? ''),
    };
    const verifiedWith = receiver.secrets.flatMap((secret, index) => {
      try {
        new Webhook(secret).verify(body, headers);
        return [index];
      } catch {
        return [];
      }
    });
    if (verifiedWith.length === 0) {
      unverified.push(headers['webhook-id']);
      response.writeHead(400, { connection: 'close' }).end('bad signature');
      return;
    }
    deliveries.push({
      id: headers['webhook-id'],
      url: request.url ?? '',
      headers: request.headers,
      event: JSON.parse(body),
      verifiedWith,
    });
    response.writeHead(204, { connection: 'close' }).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const receiver = {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/webhooks`,
    /** The secrets it verifies with (the endpoint's, as an admin pasted it). */
    secrets: [...secrets],
    deliveries,
    unverified,
    /** How many requests reached it, verified or not, up or down. */
    requests: () => requests,
    /** Answers `status` to everything until `up()`. */
    down(status = 503) {
      down = status;
    },
    up() {
      down = null;
    },
    /** The deliveries of one application, in the order they arrived. */
    of(applicationId: string) {
      return deliveries.filter((delivery) => delivery.event.application_id === applicationId);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return receiver;
}
export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;
