/** A WhatsApp message's delivery statuses in the order they come (decision 125): the desk's filter and the server's list share them. */
export const WHATSAPP_STATUSES = ['queued', 'sent', 'delivered', 'read', 'failed'] as const;

export type WhatsAppDeliveryStatus = (typeof WHATSAPP_STATUSES)[number];

export function isWhatsAppStatus(value: unknown): value is WhatsAppDeliveryStatus {
  return typeof value === 'string' && (WHATSAPP_STATUSES as readonly string[]).includes(value);
}
