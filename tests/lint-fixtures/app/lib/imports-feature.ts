// Breaks: app/lib is shared by every feature and imports none (decision 110).
import { emiFrom } from '../features/emi/emi.ts';

export const from = emiFrom;
