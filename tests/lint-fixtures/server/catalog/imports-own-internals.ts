// Allowed: a domain uses its own subfolders.
import { sqliteListing } from './listing/sqlite.ts';

export const strategy = sqliteListing;
