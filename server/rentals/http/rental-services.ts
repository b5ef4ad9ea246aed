import type { AppServices } from '../../services.ts';
import type { PaymentGateway } from '../../payments/gateway.ts';
import type { RentalDeskServices } from '../lifecycle.ts';

/**
 * The services the rental lifecycle needs, from the app's: the payment adapter when the server
 * has one (Razorpay keys set), else none (every booking is paid at pickup).
 */
export function rentalDeskServices(services: AppServices): RentalDeskServices {
  const payments = (services as AppServices & { payments?: PaymentGateway | null }).payments ?? null;
  return { ...services, payments };
}
