import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Clock } from '../clock.ts';
import type { Database } from '../db/connection.ts';
import { lastBackupAgeSeconds } from './backup-age.ts';

/**
 * What an operator's Prometheus reads from each instance at /metrics (decision 111,
 * docs/operations.md). Counters and histograms count what this instance did since it started;
 * the job queue and the backup age are read from the shared database at each scrape, so every
 * instance reports the same, true figure for the whole site (aggregate them with max, not sum).
 *
 * One registry per server, never prom-client's global one: the integration tests open several
 * servers in one process, and each must count only its own requests.
 */

/** The channels a message leaves by; `whatsapp` is ready for the WhatsApp sender when it comes. */
export type MessageChannel = 'email' | 'sms' | 'whatsapp' | 'push';
export type MessageOutcome = 'sent' | 'failed';

/** What the senders (server/notify) report, without knowing of Prometheus. */
export type MessageCounts = { count: (channel: MessageChannel, outcome: MessageOutcome) => void };

/** Latency buckets (seconds): a cached page answers in a millisecond, an upload may take seconds. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** A job name as a label: the code's names are short kebab-case words; anything else (a hand-edited row) is `other`. */
function jobLabel(name: string): string {
  return /^[a-z][a-z0-9-]{0,39}$/.test(name) ? name : 'other';
}

type QueueReading = {
  waiting: number;
  scheduled: number;
  running: number;
  oldestWaitingMs: number | null;
  failedByName: Map<string, number>;
  retryingByName: Map<string, number>;
};

/**
 * The queue as the database holds it now, from the rows not done (the index on status and
 * run_at_ms serves each query), or null when the database does not answer: then the queue's
 * figures are left out of that scrape rather than reported as zero, and the rest is still served.
 */
async function readQueue(database: Database, nowMs: number): Promise<QueueReading | null> {
  const { db } = database;
  try {
    const [byStatus, waiting, scheduled, retrying] = await Promise.all([
      db
        .selectFrom('jobs')
        .where('status', 'in', ['running', 'failed'])
        .select(['status', 'name', (eb) => eb.fn.countAll<number>().as('count')])
        .groupBy(['status', 'name'])
        .execute(),
      db
        .selectFrom('jobs')
        .where('status', '=', 'queued')
        .where('run_at_ms', '<=', nowMs)
        .select([(eb) => eb.fn.countAll<number>().as('count'), (eb) => eb.fn.min<number>('run_at_ms').as('oldest')])
        .executeTakeFirstOrThrow(),
      db
        .selectFrom('jobs')
        .where('status', '=', 'queued')
        .where('run_at_ms', '>', nowMs)
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow(),
      db
        .selectFrom('jobs')
        .where('status', '=', 'queued')
        .where('last_error', 'is not', null)
        .select(['name', (eb) => eb.fn.countAll<number>().as('count')])
        .groupBy('name')
        .execute(),
    ]);
    const byName = (rows: ReadonlyArray<{ name: string; count: number }>) => {
      const counts = new Map<string, number>();
      for (const row of rows) counts.set(jobLabel(row.name), (counts.get(jobLabel(row.name)) ?? 0) + Number(row.count));
      return counts;
    };
    return {
      waiting: Number(waiting.count),
      scheduled: Number(scheduled.count),
      running: byStatus.filter((row) => row.status === 'running').reduce((sum, row) => sum + Number(row.count), 0),
      oldestWaitingMs: waiting.oldest === null ? null : Number(waiting.oldest),
      failedByName: byName(byStatus.filter((row) => row.status === 'failed')),
      retryingByName: byName(retrying),
    };
  } catch {
    return null;
  }
}

export type Metrics = ReturnType<typeof createMetrics>;

export function createMetrics(options: { database: Database; clock: Clock }) {
  const { database, clock } = options;
  const registry = new Registry();
  // Node's own: CPU, memory, event-loop lag, garbage collection, open handles.
  collectDefaultMetrics({ register: registry });

  const httpRequests = new Counter({
    name: 'gaadi_http_requests_total',
    help: 'Requests answered by this instance, by method, route pattern (never the raw URL: `other` for paths no route names) and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const httpDuration = new Histogram({
    name: 'gaadi_http_request_duration_seconds',
    help: 'Seconds from a request reaching this instance to the last byte of its answer, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const pageCache = new Counter({
    name: 'gaadi_page_cache_lookups_total',
    help: "Lookups of this instance's page cache by anonymous visitors' catalogue pages: hit (sent from memory) or miss (rendered and stored).",
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  for (const outcome of ['hit', 'miss']) pageCache.inc({ outcome }, 0);
  const messages = new Counter({
    name: 'gaadi_messages_total',
    help: 'Messages this instance handed to the mail server, the SMS provider, WhatsApp or a push service (sent) or could not (failed), by channel. Outbox-only messages (demo, test) are not counted.',
    labelNames: ['channel', 'outcome'] as const,
    registers: [registry],
  });
  for (const channel of ['email', 'sms', 'whatsapp', 'push']) for (const outcome of ['sent', 'failed']) messages.inc({ channel, outcome }, 0);
  const payments = new Counter({
    name: 'gaadi_payments_total',
    help: 'Calls of this instance to the payment provider for payments: order_created, order_failed, verified (a paid Checkout or webhook signature checked), signature_refused, fetch_failed.',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const refunds = new Counter({
    name: 'gaadi_refunds_total',
    help: 'Refunds this instance asked the payment provider for: refunded or failed (a failed refund stays owed and is asked again).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });

  // The shared queue, read once per scrape (its four gauges ask at once): every instance reports the whole site's queue.
  let reading: Promise<QueueReading | null> | null = null;
  const queue = () => (reading ??= readQueue(database, clock.now()));
  new Gauge({
    name: 'gaadi_job_queue_depth',
    help: 'Jobs in the shared queue (read from the database at scrape time, so every instance reports the whole site; aggregate with max): waiting (due, not yet taken), scheduled (a later run or a retry backoff), running.',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      const read = await queue();
      this.reset();
      if (!read) return;
      this.set({ state: 'waiting' }, read.waiting);
      this.set({ state: 'scheduled' }, read.scheduled);
      this.set({ state: 'running' }, read.running);
    },
  });
  new Gauge({
    name: 'gaadi_job_oldest_waiting_age_seconds',
    help: 'Seconds the oldest due job of the shared queue has waited for a worker (0 when none waits; NaN when the database did not answer). Read from the database at scrape time; the same on every instance.',
    registers: [registry],
    async collect() {
      const read = await queue();
      if (!read) this.set(Number.NaN);
      else this.set(read.oldestWaitingMs === null ? 0 : Math.max(0, (clock.now() - read.oldestWaitingMs) / 1000));
    },
  });
  new Gauge({
    name: 'gaadi_jobs_failed',
    help: 'Jobs of the shared queue that gave up after their last attempt, by kind, until an admin retries them or they are purged. Read from the database at scrape time; the same on every instance.',
    labelNames: ['name'] as const,
    registers: [registry],
    async collect() {
      const read = await queue();
      this.reset();
      for (const [name, count] of read?.failedByName ?? []) this.set({ name }, count);
    },
  });
  new Gauge({
    name: 'gaadi_jobs_retrying',
    help: 'Jobs of the shared queue whose last attempt failed and that wait to be tried again, by kind. Read from the database at scrape time; the same on every instance.',
    labelNames: ['name'] as const,
    registers: [registry],
    async collect() {
      const read = await queue();
      this.reset();
      for (const [name, count] of read?.retryingByName ?? []) this.set({ name }, count);
    },
  });
  new Gauge({
    name: 'gaadi_backup_age_seconds',
    help: 'Seconds since the last good backup finished, read from the database at scrape time (the same on every instance); NaN while none is recorded or the database did not answer.',
    registers: [registry],
    async collect() {
      const age = await lastBackupAgeSeconds({ database, nowMs: clock.now() }).catch(() => null);
      this.set(age ?? Number.NaN);
    },
  });

  // The PostgreSQL driver's pool (SQLite has none: one file, no connections to run out of).
  const pool = database.pool;
  if (pool) {
    new Gauge({
      name: 'gaadi_db_pool_connections',
      help: "Connections of this instance's database pool: in_use, idle, and max (the pool's size).",
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        this.set({ state: 'in_use' }, pool.totalCount() - pool.idleCount());
        this.set({ state: 'idle' }, pool.idleCount());
        this.set({ state: 'max' }, pool.max);
      },
    });
    new Gauge({
      name: 'gaadi_db_pool_waiting_queries',
      help: 'Queries of this instance waiting for a free connection of the pool (above 0 for long: the pool is too small or the database slow).',
      registers: [registry],
      collect() {
        this.set(pool.waitingCount());
      },
    });
    new Counter({
      name: 'gaadi_db_connection_errors_total',
      help: 'Database connections of this instance lost while idle, or that could not be opened (refused, timed out).',
      registers: [registry],
      collect() {
        this.reset();
        this.inc(pool.errorCount());
      },
    });
  }

  return {
    registry,
    /** A request answered: `route` is a pattern (server/http/route-label.ts), never the raw path. */
    observeRequest(labels: { method: string; route: string; status: number }, seconds: number) {
      const values = { method: labels.method, route: labels.route, status: String(labels.status) };
      httpRequests.inc(values);
      httpDuration.observe(values, seconds);
    },
    pageCacheLookup(outcome: 'hit' | 'miss') {
      pageCache.inc({ outcome });
    },
    messages: { count: (channel, outcome) => messages.inc({ channel, outcome }) } satisfies MessageCounts,
    payment(outcome: 'order_created' | 'order_failed' | 'verified' | 'signature_refused' | 'fetch_failed') {
      payments.inc({ outcome });
    },
    refund(outcome: 'refunded' | 'failed') {
      refunds.inc({ outcome });
    },
    /** The text Prometheus reads, and its content type. */
    async scrape(): Promise<{ contentType: string; body: string }> {
      reading = null;
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}
