// Breaks: server/leads/http/ holds the leads' HTTP adapters, mounted by the app's assembly; another domain uses the leads' public modules.
import { leadListLoader } from '../leads/http/lead-admin.ts';

export const loader = leadListLoader;
