import { data } from 'react-router';
import { adminStatus } from '../../server/auth/admins.ts';
import { currentUser } from '../../server/auth/session.ts';
import { listOutboxMessages, type OutboxChannel } from '../../server/notify/outbox.ts';
import { appContext } from '../context.ts';
import { formatDateTime } from '../lib/format.ts';
import { seo, siteFromMatches } from '../lib/seo.ts';
import type { Route } from './+types/dev-outbox';
import { paths } from '../lib/paths.ts';
/** How each way a message leaves is named on the page (WhatsApp: the template's name shows under it). */
const CHANNEL_NAMES: Record<OutboxChannel, string> = { email: 'Email', sms: 'SMS', whatsapp: 'WhatsApp', push: 'Push notification' };

export function meta({ matches }: Route.MetaArgs) {
  return seo({ site: siteFromMatches(matches), path: paths.devOutbox, title: 'Outbox', noIndex: true });
}

/** Headers a reverse proxy adds to what it passes on (nginx, Caddy, Apache, load balancers). */
const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-real-ip', 'via'];

/**
 * A request made on this machine itself and passed on by no proxy. The TCP peer alone is not
 * enough: a reverse proxy on the same host connects from 127.0.0.1 for every public visitor,
 * so a request carrying any forwarding header is never local (decision 061).
 */
function isFromThisMachine(address: string, headers: Headers): boolean {
  const loopback = address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
  return loopback && !FORWARDING_HEADERS.some((name) => headers.has(name));
}

/**
 * Demo and test only: every mail, SMS and WhatsApp message the app sent, newest first. It holds everyone's
 * verification links and OTPs, so a public demo shows it only to signed-in admins and to
 * requests made on the machine itself that no proxy forwarded; the test suite reads it
 * freely. Production answers 404.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const services = context.get(appContext);
  const { config, database } = services;
  if (!config.outboxEnabled) throw data(null, { status: 404 });
  if (config.mode === 'demo' && !isFromThisMachine(services.socketAddress, request.headers)) {
    const user = await currentUser(services.auth, request);
    if (!user || (await adminStatus(config, database, user)) !== 'admin') throw data(null, { status: 404 });
  }
  return { messages: await listOutboxMessages(database, { limit: 50 }) };
}

const URL_PATTERN = /(https?:\/\/[^\s<>"]+)/g;

/** The text with its links clickable (React escapes everything else). */
function Linked({ text }: { text: string }) {
  return (
    <>
      {text.split(URL_PATTERN).map((part, index) =>
        index % 2 === 1 ? (
          <a key={index} href={part} className="break-all font-semibold text-brand-700 underline">
            {part}
          </a>
        ) : (
          <span key={index}>{part}</span>
        ),
      )}
    </>
  );
}

export default function DevOutbox({ loaderData }: Route.ComponentProps) {
  const { messages } = loaderData;
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-4">
      <h1 className="text-2xl font-extrabold tracking-tight">Outbox</h1>
      <p className="text-slate-600">
        Mail, SMS, WhatsApp messages and push notifications sent in demo and test mode, newest first. This page does not exist in production.
      </p>
      {messages.length === 0 ? <p className="text-slate-600">Nothing has been sent yet.</p> : null}
      <ol className="flex flex-col gap-3">
        {messages.map((message) => (
          <li key={message.id} className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200" data-channel={message.channel}>
            <p className="text-sm text-slate-500">
              {CHANNEL_NAMES[message.channel]} to <strong className="text-slate-800">{message.recipient}</strong> · {formatDateTime(message.createdAt)}
            </p>
            {/* A WhatsApp message's subject is its approved template's name, as Meta knows it. */}
            {message.subject && message.channel === 'whatsapp' ? (
              <p className="mt-1 text-sm text-slate-600">
                Template <code className="font-mono text-slate-800">{message.subject}</code>
              </p>
            ) : message.subject ? (
              <h2 className="mt-1 font-bold">{message.subject}</h2>
            ) : null}
            <p className="mt-2 whitespace-pre-wrap text-slate-800">
              <Linked text={message.body} />
            </p>
          </li>
        ))}
      </ol>
    </div>
  );
}
