// Allowed: a feature uses another's public modules (the modules directly in its folder).
import { emiFrom } from '../emi/emi.ts';

export const from = emiFrom;
