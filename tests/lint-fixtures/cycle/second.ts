// Breaks: second.ts and first.ts import each other.
import { first } from './first.ts';

export const second = () => 1;
export const viaFirst = () => first();
