// Breaks: app/context.ts hands the server's services to loaders; a component must not reach them.
import { appContext } from '../context.ts';

export const key = appContext;
