import nodemailer from 'nodemailer';
import type { Config } from '../config.ts';
import type { Database } from '../db/connection.ts';
import { escapeHtml } from '../html.ts';
import type { Logger } from '../logger.ts';
import { recordOutboxMessage } from './outbox.ts';
import type { Clock } from '../clock.ts';
import type { MessageCounts } from '../observability/metrics.ts';
import { authText as t } from '../../app/features/auth/auth-texts.ts';
import { currentLanguage } from '../../app/lib/i18n/current.ts';
import { LANGUAGE_TAGS } from '../../app/lib/i18n/language.ts';

/**
 * Outgoing mail. Production sends through SMTP (nodemailer); demo and test also keep every
 * message in the outbox, so a demo without a mail server still shows the verification link
 * and tests can follow it.
 */

export type MailMessage = { to: string; subject: string; text: string; html?: string };

export interface Mailer {
  /** Outbox (demo, test) and SMTP now, for mail the person waits for on screen (verification, password reset). */
  send(message: MailMessage): Promise<void>;
  /** Whether an SMTP server is configured: without one, queued mail has only the outbox to go to. */
  readonly delivers: boolean;
  /**
   * SMTP only, for the queued mail job (server/notify/outgoing.ts): throws on any failure, so the
   * job is tried again. The Message-ID is the job's, the same on every attempt, so a copy that a
   * lost reply made us send twice is recognisable as one message (decision 069).
   */
  deliver(message: MailMessage & { messageId: string }): Promise<void>;
}

/** A message could not be handed to the mail server. Callers decide whether that fails a request. */
export class MailError extends Error {
  override name = 'MailError';
}

type MailerConfig = Pick<Config, 'mode' | 'outboxEnabled' | 'mail'>;

/** Hides the local part of an address in logs: enough to tell messages apart, not to harvest addresses. */
function maskAddress(address: string): string {
  const at = address.lastIndexOf('@');
  return at > 0 ? `${address[0]}***${address.slice(at)}` : '***';
}

/** The server an SMTP URL points at, without the user name and password it may carry. */
function smtpServerName(smtpUrl: string): string {
  try {
    const url = new URL(smtpUrl);
    return `${url.hostname}:${url.port || (url.protocol === 'smtps:' ? '465' : '587')}`;
  } catch {
    return 'the configured SMTP server';
  }
}

/** `counts` hears of every message SMTP took or refused (/metrics); the outbox alone is not a send. */
export function createMailer({
  config,
  database,
  logger,
  clock,
  counts,
}: {
  config: MailerConfig;
  database: Database;
  logger: Logger;
  clock: Clock;
  counts?: MessageCounts;
}): Mailer {
  const smtpUrl = config.mail.smtpUrl;
  // One transport for the life of the process: it holds the parsed settings (and, for pooled
  // URLs, the connections). The timeouts keep a dead mail server from holding a request for
  // nodemailer's default two minutes.
  const transport = smtpUrl ? nodemailer.createTransport({ url: smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 }) : null;
  const server = smtpUrl ? smtpServerName(smtpUrl) : '';

  return {
    delivers: transport !== null,
    async deliver(message) {
      if (!transport) throw new MailError('No SMTP server is configured (SMTP_URL), so mail cannot be sent.');
      try {
        await transport.sendMail({
          from: config.mail.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          messageId: message.messageId,
          ...(message.html ? { html: message.html } : {}),
        });
        counts?.count('email', 'sent');
        logger.info({ to: maskAddress(message.to), messageId: message.messageId }, 'mail sent');
      } catch (error) {
        counts?.count('email', 'failed');
        const reason = error instanceof Error ? error.message : String(error);
        throw new MailError(`Mail to ${maskAddress(message.to)} could not be sent through SMTP (${server}): ${reason}`, { cause: error });
      }
    },
    async send(message) {
      // Outbox first: if SMTP then fails in a demo, the message can still be read there.
      if (config.outboxEnabled) {
        await recordOutboxMessage(database, { channel: 'email', recipient: message.to, subject: message.subject, body: message.text }, clock.now());
      }
      if (!transport) {
        // Production refuses to start without SMTP_URL, so only a demo or test gets here.
        if (!config.outboxEnabled) throw new MailError('No SMTP server is configured (SMTP_URL), so mail cannot be sent.');
        logger.debug({ to: maskAddress(message.to) }, 'mail kept in the outbox (no SMTP_URL)');
        return;
      }
      try {
        const info = await transport.sendMail({
          from: config.mail.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          ...(message.html ? { html: message.html } : {}),
        });
        counts?.count('email', 'sent');
        logger.info({ to: maskAddress(message.to), messageId: info.messageId }, 'mail sent');
      } catch (error) {
        counts?.count('email', 'failed');
        const reason = error instanceof Error ? error.message : String(error);
        const failure = new MailError(`Mail to ${maskAddress(message.to)} could not be sent through SMTP (${server}): ${reason}`, { cause: error });
        // In demo and test the outbox already holds it: a missing mail server must not break
        // the demo. In production nothing else has it, so the caller has to know.
        if (config.outboxEnabled) {
          logger.warn({ err: failure }, 'SMTP failed; the mail is in the outbox');
          return;
        }
        throw failure;
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Templates: plain functions returning subject, text and HTML. The text part is what most
// clients preview and what the outbox shows; the HTML part is the same words with a button.

export type MailContent = { subject: string; text: string; html: string };

/** A link in a mail must be a web address: a javascript: or data: URL would be an attack, not a link. */
function assertWebUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError(`Not an absolute URL: ${url}`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new TypeError(`Not a web URL: ${url}`);
  return url;
}

function hours(count: number): string {
  return t('mailHours', { count });
}

function greeting(name: string | null | undefined): string {
  const trimmed = name?.trim();
  return trimmed ? t('mailGreetingName', { name: trimmed }) : t('mailGreeting');
}

/** One layout for every mail: a heading, paragraphs, one button, and the link written out for clients that block buttons. */
function buildMail(options: {
  siteName: string;
  subject: string;
  name: string | null | undefined;
  intro: string;
  action: string;
  url: string;
  outro: string;
}): MailContent {
  const url = assertWebUrl(options.url);
  const hello = greeting(options.name);
  const text = [
    hello,
    '',
    options.intro,
    '',
    `${options.action}: ${url}`,
    '',
    options.outro,
    '',
    t('mailRegards'),
    t('mailTeam', { site: options.siteName }),
  ].join('\n');
  const site = escapeHtml(options.siteName);
  const href = escapeHtml(url);
  const html = `<!doctype html>
<html lang="${LANGUAGE_TAGS[currentLanguage()].html}">
<body style="margin:0;padding:24px;background:#f5f5f5;font-family:Arial,Helvetica,sans-serif;color:#222;">
<div style="max-width:560px;margin:0 auto;background:#fff;border-radius:8px;padding:24px;">
<h1 style="font-size:20px;margin:0 0 16px;">${site}</h1>
<p>${escapeHtml(hello)}</p>
<p>${escapeHtml(options.intro)}</p>
<p style="margin:24px 0;"><a href="${href}" style="background:#c62828;color:#fff;padding:12px 20px;border-radius:6px;text-decoration:none;display:inline-block;">${escapeHtml(options.action)}</a></p>
<p style="font-size:13px;color:#555;">${escapeHtml(t('mailCopyLink'))}<br><a href="${href}" style="color:#c62828;word-break:break-all;">${href}</a></p>
<p>${escapeHtml(options.outro)}</p>
<p>${escapeHtml(t('mailRegards'))}<br>${escapeHtml(t('mailTeam', { site: options.siteName }))}</p>
</div>
</body>
</html>`;
  return { subject: options.subject, text, html };
}

/** What an email that carries a link needs: whom it greets, the link and how many hours it works. */
type LinkEmailInput = { siteName: string; name?: string | null; url: string; validHours?: number };

/** Sent after sign-up (and on request) so the person can confirm the address is theirs; the link works 24 hours by default (the auth setting). */
export function verificationEmail({ siteName, name, url, validHours = 24 }: LinkEmailInput): MailContent {
  return buildMail({
    siteName,
    subject: t('verifySubject', { site: siteName }),
    name,
    intro: t('verifyIntro', { site: siteName, hours: hours(validHours) }),
    action: t('verifyAction'),
    url,
    outro: t('verifyOutro', { site: siteName }),
  });
}

/** Sent when someone asks to reset a forgotten password; the link works one hour by default (better-auth's). */
export function passwordResetEmail({ siteName, name, url, validHours = 1 }: LinkEmailInput): MailContent {
  return buildMail({
    siteName,
    subject: t('resetSubject', { site: siteName }),
    name,
    intro: t('resetIntro', { site: siteName, hours: hours(validHours) }),
    action: t('resetAction'),
    url,
    outro: t('resetOutro'),
  });
}
