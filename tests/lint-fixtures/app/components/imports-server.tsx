// Breaks: a component runs in the browser and imports nothing from server/.
import { settingsFor } from '../../server/admin/settings.ts';

export const loadSettings = settingsFor;
