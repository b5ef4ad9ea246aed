// Breaks: the edge uses a domain's public modules, not a migration inside server/db/.
import { up } from '../db/migrations/006-vehicle-filters.ts';

export const migrate = up;
