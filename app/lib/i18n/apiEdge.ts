import en from './en/apiEdge.json';
import hi from './hi/apiEdge.json';
import { defineTexts } from './texts.ts';

/** The server's own answers before any page or API route takes a request (server/http/app.ts). */
export const apiEdgeText = defineTexts('apiEdge', en, hi);
