import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { request as httpsRequest } from 'node:https';
import { connect } from 'node:net';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './server.ts';

/**
 * The documented production deployment's front (docs/deployment.md): Debian's nginx terminating
 * TLS with a self-signed certificate for `hostname`, passing requests to one or more app
 * instances over plain http with the headers the guide's configuration sets (Host,
 * X-Forwarded-For, X-Forwarded-Proto). The site's configuration is docs/nginx-site.conf itself,
 * with the test's port, certificate and instances filled in. `.ci/run` installs nginx.
 */
export type TlsProxy = {
  /** The site's public origin through the proxy, e.g. https://www.example.test:41234 */
  origin: string;
  port: number;
  /**
   * `fetch` through the proxy as a client on the internet would call it: TLS to the proxy's name
   * (trusting its certificate), redirects not followed. `path` is relative to `origin`.
   */
  fetch: (path: string, init?: RequestInit) => Promise<Response>;
  close: () => Promise<void>;
};

export const NGINX_PATH = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
const run = promisify(execFile);

/** The deployment guide's site configuration (docs/nginx-site.conf) with its names filled in. */
export async function siteConfiguration(names: { listen: string; hostname: string; upstreams: string[]; certificate: string; key: string }): Promise<string> {
  const template = await readFile(path.resolve(import.meta.dirname, '../../docs/nginx-site.conf'), 'utf8');
  const values: Record<string, string> = { ...names, upstreams: names.upstreams.map((upstream) => `server ${upstream};`).join('\n  ') };
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`docs/nginx-site.conf names {{${name}}}, which the test does not fill in`);
    return value;
  });
}

/**
 * Starts nginx in front of `upstreams` (host:port of each app instance) for `hostname`, on a free
 * loopback port (or `port`), as a foreground process of its own with its files in a temporary folder.
 */
export async function startTlsProxy(options: { hostname: string; upstreams: string[]; port?: number }): Promise<TlsProxy> {
  const folder = await mkdtemp(path.join(tmpdir(), 'gaadi-nginx-'));
  const certificate = path.join(folder, 'site.crt');
  const key = path.join(folder, 'site.key');
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-days',
    '2',
    '-subj',
    `/CN=${options.hostname}`,
    '-addext',
    `subjectAltName=DNS:${options.hostname}`,
    '-keyout',
    key,
    '-out',
    certificate,
  ]);
  const port = options.port ?? (await freePort());
  const temp = path.join(folder, 'temp');
  await mkdir(temp);
  // As root nginx would switch its workers to nobody, who cannot read this folder.
  const user = process.getuid?.() === 0 ? 'user root;' : '';
  const configuration = `
${user}
daemon off;
worker_processes 1;
pid ${path.join(folder, 'nginx.pid')};
error_log ${path.join(folder, 'error.log')} warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${temp}/body;
  proxy_temp_path ${temp}/proxy;
  fastcgi_temp_path ${temp}/fastcgi;
  uwsgi_temp_path ${temp}/uwsgi;
  scgi_temp_path ${temp}/scgi;
${await siteConfiguration({ listen: `127.0.0.1:${port}`, hostname: options.hostname, upstreams: options.upstreams, certificate, key })}
}
`;
  const configFile = path.join(folder, 'nginx.conf');
  await writeFile(configFile, configuration);
  const child: ChildProcess = spawn(NGINX_PATH, ['-c', configFile, '-p', folder, '-e', path.join(folder, 'error.log')], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const origin = `https://${options.hostname}:${port}`;
  // Ready once the port takes a connection.
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx did not start:\n${output}`);
    const listening = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (listening) break;
    if (Date.now() > deadline) throw new Error(`nginx did not listen on ${port}:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const trusted = await readFile(certificate);
  return {
    origin,
    port,
    fetch: (target, init) => fetchOverTls({ hostname: options.hostname, port, ca: trusted }, new Request(new URL(target, origin), init)),
    close: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      await rm(folder, { recursive: true, force: true });
    },
  };
}

/** One request over TLS to the proxy on loopback, under the site's name, answered as a fetch Response. */
async function fetchOverTls(to: { hostname: string; port: number; ca: Buffer }, request: Request): Promise<Response> {
  const body = request.body ? Buffer.from(await request.arrayBuffer()) : null;
  const headers: Record<string, string> = Object.fromEntries(request.headers);
  if (body) headers['content-length'] = String(body.length);
  const url = new URL(request.url);
  return new Promise((resolve, reject) => {
    const outgoing = httpsRequest(
      {
        host: '127.0.0.1',
        port: to.port,
        servername: to.hostname,
        ca: to.ca,
        method: request.method,
        path: `${url.pathname}${url.search}`,
        headers: { ...headers, host: url.host },
      },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('error', reject);
        incoming.on('end', () => {
          const answerHeaders = new Headers();
          for (const [name, value] of Object.entries(incoming.headers)) for (const one of [value ?? []].flat()) answerHeaders.append(name, one);
          const status = incoming.statusCode ?? 0;
          resolve(new Response(status === 204 || status === 304 ? null : Buffer.concat(chunks), { status, headers: answerHeaders }));
        });
      },
    );
    outgoing.once('error', reject);
    outgoing.end(body ?? undefined);
  });
}
