import en from './en/apiEdge.json' with { type: 'json' };
import hi from './hi/apiEdge.json' with { type: 'json' };
import { defineTexts } from './texts.ts';

/** The server's own answers before any page or API route takes a request (server/http/app.ts). */
export const apiEdgeText = defineTexts('apiEdge', en, hi);
