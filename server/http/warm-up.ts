import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../logger.ts';

/** Each warm-up request gives up after this long: a slow start must not hold readiness back for ever. */
const WARM_UP_TIMEOUT_MS = 10_000;

/**
 * The pages a new instance asks itself for before it says it is ready (decision 088). A new
 * process answers its first requests slowly whatever the inventory: V8 has compiled nothing yet,
 * and the first listing page took 100–140 ms and the first API listing 37–50 ms where the
 * same answers took 30 and 4–8 ms a moment later (1,000 cars). A load balancer sends visitors
 * only once /readyz says 200, so after a deploy or a scale-out they no longer pay for it.
 * The listing page and the API listing go the whole way (routing, loaders, React's render,
 * compression) as a phone asks for them; then one car's page, the other page visitors land on
 * from a shared link or a search engine. Nothing here writes: these pages only read.
 */
export async function warmUp(server: Server, logger: Logger): Promise<void> {
  const origin = originOf(server.address() as AddressInfo | null);
  if (!origin) return;
  const started = performance.now();
  const asked: Array<{ path: string; status: number | string; ms: number }> = [];
  // The whole answer is read (a body cut off by the timeout counts as that page failing).
  const ask = async (path: string, accept: string, read: (response: Response) => Promise<unknown> = (response) => response.arrayBuffer()): Promise<unknown> => {
    const t0 = performance.now();
    try {
      const response = await fetch(`${origin}${path}`, {
        headers: { Accept: accept, 'Accept-Encoding': 'gzip, br', 'User-Agent': 'warm-up' },
        signal: AbortSignal.timeout(WARM_UP_TIMEOUT_MS),
      });
      const body = await (response.ok ? read(response) : response.arrayBuffer().then(() => null));
      asked.push({ path, status: response.status, ms: Math.round(performance.now() - t0) });
      return body;
    } catch (error) {
      asked.push({ path, status: error instanceof Error ? error.name : 'failed', ms: Math.round(performance.now() - t0) });
      return null;
    }
  };
  await ask('/', 'text/html');
  const firstCar = firstVehicleId(await ask('/api/v1/vehicles', 'application/json', (response) => response.json()));
  if (firstCar !== null) await ask(`/vehicle/${firstCar}`, 'text/html');
  logger.info({ pages: asked, ms: Math.round(performance.now() - started) }, 'warmed up: the first pages were rendered before this instance said it was ready');
}

/** Where this server can be asked from this machine: its own port on loopback when it listens on every address. */
function originOf(address: AddressInfo | null): string | null {
  if (!address || typeof address !== 'object') return null;
  if (address.address === '0.0.0.0' || address.address === '::') return `http://127.0.0.1:${address.port}`;
  return address.family === 'IPv6' ? `http://[${address.address}]:${address.port}` : `http://${address.address}:${address.port}`;
}

function firstVehicleId(body: unknown): number | null {
  const items = (body as { items?: Array<{ id?: unknown }> } | null)?.items;
  const id = Array.isArray(items) ? items[0]?.id : undefined;
  return typeof id === 'number' && Number.isSafeInteger(id) ? id : null;
}
