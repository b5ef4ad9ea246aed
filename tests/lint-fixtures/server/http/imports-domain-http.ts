// Breaks: only the app's assembly (server/http/app.ts) mounts a domain's http/ adapters; the rest of the edge serves every domain alike.
import { mediaHandler } from '../media/http/media.ts';

export const media = mediaHandler;
