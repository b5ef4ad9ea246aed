// Refused: @better-auth/utils is in node_modules only as better-auth's own dependency; package.json does not declare it.
import { base64 } from '@better-auth/utils/base64';

export const encoded = base64.encode('gaadi');
