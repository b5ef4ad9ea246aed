import type { Config } from '@react-router/dev/config';

// Every page is rendered on the server: search engines and WhatsApp/Facebook link previews
// do not run JavaScript, and phones on 4G get HTML before any script.
export default {
  ssr: true,
} satisfies Config;
