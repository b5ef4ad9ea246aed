import type { AppServices } from '../services.ts';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { teamNumbers, type Settings } from '../admin/settings.ts';
import { queueTeamAlert, teamEvent } from '../notify/team-alert.ts';
import { queueMail } from '../notify/outgoing.ts';
import { escapeHtml } from '../html.ts';
import { adminPaths } from '../../app/lib/paths.ts';

/**
 * Tells the dealer's desk about a new lead: on the team's WhatsApp numbers, and at the admin
 * email when Email Notifications are on in the admin settings. Queued with the lead's save: a slow or failing mail server never slows or
 * fails a submission, and a crash after the answer loses no mail.
 */

export type NewLead =
  | { kind: 'request'; id: number; name: string; phone: string; model: string; year: string; budget: string; description: string }
  | {
      kind: 'sell';
      id: number;
      name: string;
      phone: string;
      vehicle: string;
      year: string;
      price: string;
      description: string;
      imageUrls: string[];
      estimate?: string | null;
    };

type NotifyServices = Pick<AppServices, 'config' | 'mailer' | 'logger' | 'clock'>;

/** One line for a subject: no line breaks (header injection) and not too long. */
function subjectPart(text: string, max = 60): string {
  const single = text.replace(/\s+/g, ' ').trim();
  return single.length > max ? `${single.slice(0, max - 1)}…` : single;
}

export function newLeadMail(lead: NewLead, options: { siteName: string; siteOrigin: string }): { subject: string; text: string; html: string } {
  const isRequest = lead.kind === 'request';
  const adminUrl = new URL(isRequest ? adminPaths.requestedVehicles : adminPaths.sellingVehicles, options.siteOrigin).href;
  const rows: Array<[string, string]> = isRequest
    ? [
        ['Name', lead.name],
        ['Phone', lead.phone],
        ['Model', lead.model],
        ['Year', lead.year || '-'],
        ['Budget', lead.budget],
        ['Description', lead.description || '-'],
      ]
    : [
        ['Name', lead.name],
        ['Phone', lead.phone],
        ['Vehicle', lead.vehicle],
        ['Year', lead.year],
        ['Expected Price', lead.price],
        ['Description', lead.description || '-'],
        ['Photos', String(lead.imageUrls.length)],
        // What the seller was shown (decision 081): the desk calls back knowing the figure they have in mind.
        ...(lead.estimate ? [['Our estimate', lead.estimate] as [string, string]] : []),
      ];
  const subject = isRequest
    ? `New vehicle request #${lead.id}: ${subjectPart(lead.model)}`
    : `New car offered for sale #${lead.id}: ${subjectPart(lead.vehicle)}`;
  const intro = isRequest ? 'A visitor asked for a vehicle on the Request a Vehicle page.' : 'A visitor offered their vehicle on the Sell Your Vehicle page.';
  const photos = lead.kind === 'sell' ? lead.imageUrls : [];
  const text = [
    intro,
    '',
    ...rows.map(([label, value]) => `${label}: ${value}`),
    ...(photos.length ? ['', 'Photos:', ...photos] : []),
    '',
    `Open it in the admin panel: ${adminUrl}`,
    '',
    `${options.siteName}`,
  ].join('\n');
  const html = `<!doctype html>
<html lang="en-IN">
<body style="margin:0;padding:24px;background:#f5f5f5;font-family:Arial,Helvetica,sans-serif;color:#222;">
<div style="max-width:560px;margin:0 auto;background:#fff;border-radius:8px;padding:24px;">
<h1 style="font-size:20px;margin:0 0 16px;">${escapeHtml(subject)}</h1>
<p>${escapeHtml(intro)}</p>
<table style="border-collapse:collapse;width:100%;">
${rows.map(([label, value]) => `<tr><th style="text-align:left;vertical-align:top;padding:4px 12px 4px 0;white-space:nowrap;">${escapeHtml(label)}</th><td style="padding:4px 0;white-space:pre-wrap;word-break:break-word;">${escapeHtml(value)}</td></tr>`).join('\n')}
</table>
${photos.length ? `<p>${photos.map((url) => `<a href="${escapeHtml(url)}">${escapeHtml(url)}</a>`).join('<br>')}</p>` : ''}
<p style="margin:24px 0;"><a href="${escapeHtml(adminUrl)}" style="background:#1e40af;color:#fff;padding:12px 20px;border-radius:6px;text-decoration:none;display:inline-block;">Open in the admin panel</a></p>
<p style="font-size:13px;color:#555;">${escapeHtml(options.siteName)}</p>
</div>
</body>
</html>`;
  return { subject, text, html };
}

/**
 * Tells the desk of a new lead in the transaction that saves it (`db`): on WhatsApp to the team's
 * numbers (decision 123), and by mail when notifications are on and an admin email is set;
 * resolves whether the mail was queued. The worker sends them (decision 069).
 */
export async function queueNewLeadAlerts(db: Kysely<DB>, services: NotifyServices, settings: Settings, lead: NewLead): Promise<boolean> {
  const isRequest = lead.kind === 'request';
  await queueTeamAlert(db, services, teamNumbers(settings), {
    event: teamEvent(isRequest ? 'teamNewRequest' : 'teamNewSell', lead.id),
    customerName: lead.name,
    customerPhone: lead.phone,
    detail: isRequest ? [lead.model, lead.year, lead.budget].filter(Boolean).join(', ') : [lead.vehicle, lead.year, lead.price].filter(Boolean).join(', '),
    deskUrl: new URL(isRequest ? adminPaths.requestedVehicles : adminPaths.sellingVehicles, services.config.siteOrigin).href,
  });
  if (!settings.emailNotifications || !settings.adminEmail) {
    services.logger.info({ lead: `${lead.kind}#${lead.id}` }, 'leads: no new-lead email (notifications are off or no admin email is set)');
    return false;
  }
  const mail = newLeadMail(lead, { siteName: settings.siteName, siteOrigin: services.config.siteOrigin });
  await queueMail(db, services, { to: settings.adminEmail, ...mail });
  return true;
}
