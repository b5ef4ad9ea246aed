// Breaks: server code imports from app/ only app/lib, types included (the services type lives in server/services.ts).
import type { RequestContext } from '../app/context.ts';

export type Services = RequestContext;
