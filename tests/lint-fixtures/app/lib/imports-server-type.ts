// Breaks: app/lib runs in the browser and imports nothing from server/, not even a type.
import type { Config } from '../../server/config.ts';

export type SiteName = Config['siteName'];
