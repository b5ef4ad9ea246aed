// Breaks: a feature's store is React code of the browser; the server imports its pure modules only.
import { compareStore } from '../app/features/compare/compare-store.ts';

export const store = compareStore;
