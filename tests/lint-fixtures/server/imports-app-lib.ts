// Allowed: app/lib is the code both sides share.
import { formatRupees } from '../app/lib/format.ts';

export const price = formatRupees(1234567);
