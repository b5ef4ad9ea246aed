// Allowed: the app's assembly (linted as server/http/app.ts) mounts each domain's http/ adapters.
import { rentalApi } from '../rentals/http/api-rentals.ts';

export const rentals = rentalApi;
