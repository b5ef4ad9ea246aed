import { detailTitle, type Vehicle } from './vehicle.ts';
import { infoText as t } from './i18n/info.ts';

/** tel: link for the seller's number (spaces and dashes dropped). */
export function telLink(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}

/** wa.me chat with the dealer, prefilled with `text`. */
export function whatsappLink(number: string, text: string): string {
  return `https://wa.me/${number.replace(/\D/g, '')}?text=${encodeURIComponent(text)}`;
}

/** wa.me chat with a person's number (E.164), nothing prefilled: the desk answering a customer. */
export function whatsappChatLink(number: string): string {
  return `https://wa.me/${number.replace(/\D/g, '')}`;
}

/** What a visitor says when they tap 'Chat on WhatsApp' on a vehicle. */
export function vehicleEnquiryText(vehicle: Pick<Vehicle, 'name' | 'make' | 'model'>, pageUrl: string): string {
  return t('enquiry', { car: detailTitle(vehicle), url: pageUrl });
}
