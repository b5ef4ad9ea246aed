// Allowed: a feature's pure modules (its rules, schemas and texts) are shared with the server.
import { emiFrom } from '../app/features/emi/emi.ts';

export const from = emiFrom;
