import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/** Staff's back office and the lender's API: every request of theirs keeps its line (decision 044). */
const STAFF_PATHS = /^\/(?:api\/backoffice|partner)\//;

export interface RequestLineRule {
  /** The share of successful, quick reads that get a line: 1 all, 0 none. */
  readSample: number;
  /** A request answered in this many milliseconds or more always gets a line. */
  slowMs: number;
  /** Uniform in [0, 1): which sampled read gets its line. */
  random?: () => number;
}

/**
 * Whether an answered request gets its line (decision 044). Every write, every refusal or error
 * (status 400 and up), every slow answer and every request of staff or the lender's API is logged;
 * of the rest, an applicant's successful quick reads (GET and HEAD: config, catalogues, their own
 * detail, the pages and assets, the probes), a `readSample` share picked at random. The metrics
 * count every request whether or not it has a line.
 */
export function needsLine({ readSample, slowMs, random = Math.random }: RequestLineRule) {
  return (method: string, url: string, status: number, elapsedMs: number): boolean =>
    readSample >= 1 ||
    status >= 400 ||
    elapsedMs >= slowMs ||
    (method !== 'GET' && method !== 'HEAD') ||
    STAFF_PATHS.test(url) ||
    random() < readSample;
}

/**
 * One log line per request, written when it is answered (method, masked URL, status, time), instead
 * of Fastify's two (one on arrival, one on answer); an error's always, the others by `needsLine`.
 */
export class OneLinePerRequest extends LogController {
  private readonly logged: ReturnType<typeof needsLine>;

  constructor(rule: RequestLineRule) {
    super();
    this.logged = needsLine(rule);
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const responseTime = reply.elapsedTime;
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime }, 'request errored');
    else if (this.logged(request.method, request.url, reply.statusCode, responseTime))
      reply.log.info({ req: request, res: reply, responseTime }, 'request completed');
  }
}
