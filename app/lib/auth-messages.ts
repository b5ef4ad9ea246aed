/** Texts the browser needs too (the network message is produced in the browser). */
export const messages = {
  networkError: 'Network error. Please check your internet connection.',
} as const;
