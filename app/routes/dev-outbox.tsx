import { data } from 'react-router';
import { adminStatus } from '../../server/admin/admins.ts';
import { currentUser } from '../../server/auth/session.ts';
import { listOutboxMessages } from '../../server/notify/outbox.ts';
import { appContext } from '../context.ts';
import { formatDateTime } from '../lib/format.ts';
import { seo, siteFromMatches } from '../lib/seo.ts';
import type { Route } from './+types/dev-outbox';
import { paths } from '../lib/paths.ts';

export function meta({ matches }: Route.MetaArgs) {
  return seo({ site: siteFromMatches(matches), path: paths.devOutbox, title: 'Outbox', noIndex: true });
}

/** A request from this machine itself, judged by the TCP peer (a header could be forged). */
function isLoopback(address: string): boolean {
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

/**
 * Demo and test only: every mail and SMS the app sent, newest first. It holds everyone's
 * verification links and OTPs, so a public demo shows it only to the machine it runs on and
 * to signed-in admins; the test suite reads it freely. Production answers 404.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const services = context.get(appContext);
  const { config, database } = services;
  if (!config.outboxEnabled) throw data(null, { status: 404 });
  if (config.mode === 'demo' && !isLoopback(services.socketAddress)) {
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
      <p className="text-slate-600">Mail and SMS sent in demo and test mode, newest first. This page does not exist in production.</p>
      {messages.length === 0 ? <p className="text-slate-600">Nothing has been sent yet.</p> : null}
      <ol className="flex flex-col gap-3">
        {messages.map((message) => (
          <li key={message.id} className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200" data-channel={message.channel}>
            <p className="text-sm text-slate-500">
              {message.channel === 'email' ? 'Email' : 'SMS'} to <strong className="text-slate-800">{message.recipient}</strong> · {formatDateTime(message.createdAt)}
            </p>
            {message.subject ? <h2 className="mt-1 font-bold">{message.subject}</h2> : null}
            <p className="mt-2 whitespace-pre-wrap text-slate-800">
              <Linked text={message.body} />
            </p>
          </li>
        ))}
      </ol>
    </div>
  );
}
