import { z } from 'zod';
import { MAX_NAME_LENGTH } from '../phone.ts';

/**
 * What the app sends to sign up, verify its email, sign in and sign in with Google
 * (`/api/v1/auth/*`). Only the shape is checked here; whether an address is plausible, a
 * password strong enough or the credentials right is server/auth/flows.ts's to say, in the
 * same words the sign-up and login pages use.
 */

const text = (message: string) => z.string({ error: message });

export const signUpSchema = z.object({
  name: text('Please enter your name.').trim().max(MAX_NAME_LENGTH, `Please keep the name under ${MAX_NAME_LENGTH} characters.`).default(''),
  email: text('Please enter a valid email address.'),
  password: text('Please choose a stronger password (at least 6 characters).'),
});

export const signInSchema = z.object({
  email: text('Please enter a valid email address.'),
  password: text('Invalid email or password'),
  botCheck: z.string().default('').meta({ description: 'The solved bot check for action LOGIN (GET /api/bot-check/challenge?action=LOGIN).' }),
});

export const verifyEmailSchema = z.object({
  token: text('The verification link is incomplete.').min(1, 'The verification link is incomplete.').max(4096, 'The verification link is invalid.'),
});

export const googleIdTokenSchema = z.object({
  idToken: text('Google did not send an ID token.').min(1, 'Google did not send an ID token.').max(8192, 'The Google ID token is too long.'),
  nonce: z.string().max(512).optional().meta({ description: 'The nonce the app asked Google to put in the ID token, if any.' }),
});
