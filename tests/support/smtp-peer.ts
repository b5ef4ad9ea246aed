import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server on 127.0.0.1 that keeps what it receives, so the mailer is tested over
 * SMTP the way it talks to the dealer's mail provider. No TLS (STARTTLS is not offered, so
 * nodemailer sends in plain text on loopback), authentication optional and any password taken.
 *
 * The messages are parsed just enough for assertions: headers, Subject (RFC 2047 words
 * decoded), and the text/plain and text/html parts (quoted-printable or base64, any charset
 * TextDecoder knows). Attachments are not decoded.
 */

export type ReceivedMail = {
  /** The SMTP envelope: MAIL FROM and RCPT TO. */
  envelopeFrom: string;
  envelopeTo: string[];
  /** The user name given with AUTH, if the client authenticated. */
  authUser: string | null;
  /** Header names in lower case; repeated headers keep the last value. */
  headers: Record<string, string>;
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  raw: string;
};

/**
 * How the peer answers MAIL FROM: accept; refuse with 451 (a temporary failure, as a mail
 * server that is down or busy answers); or hold, answering only when the mode changes (a send
 * in flight for as long as the test likes).
 */
export type SmtpPeerMode = 'accept' | 'refuse' | 'hold';

export type SmtpPeer = {
  url: string;
  messages: ReceivedMail[];
  /** Settable at any time; applies to the next MAIL FROM. */
  mode: SmtpPeerMode;
  /** MAIL FROM commands seen, whatever the answer: the sends attempted. */
  readonly attempts: number;
  waitForMessage: (predicate?: (mail: ReceivedMail) => boolean, timeoutMs?: number) => Promise<ReceivedMail>;
  close: () => Promise<void>;
};

type Part = { headers: Record<string, string>; body: string };

/** Splits header block and body; `raw` holds one character per byte (latin1), so no bytes are lost. */
function splitPart(raw: string): Part {
  const match = /\r?\n\r?\n/.exec(raw);
  const head = match ? raw.slice(0, match.index) : raw;
  const body = match ? raw.slice(match.index + match[0].length) : '';
  const headers: Record<string, string> = {};
  // Folded header lines continue with whitespace.
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body };
}

function decodeBytes(bytes: Buffer, charset: string): string {
  try {
    return new TextDecoder(charset || 'utf-8').decode(bytes);
  } catch {
    return bytes.toString('utf8');
  }
}

function quotedPrintableBytes(value: string): Buffer {
  const unfolded = value.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let index = 0; index < unfolded.length; index++) {
    const hex = unfolded.slice(index + 1, index + 3);
    if (unfolded[index] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      index += 2;
    } else {
      bytes.push(unfolded.charCodeAt(index) & 0xff);
    }
  }
  return Buffer.from(bytes);
}

/** =?UTF-8?Q?...?= and =?UTF-8?B?...?= words in headers; whitespace between two words is dropped. */
function decodeWords(value: string): string {
  return value
    .replace(/(=\?[^?]+\?[BbQq]\?[^?]*\?=)\s+(?==\?)/g, '$1')
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_all, charset: string, encoding: string, text: string) => {
      const bytes = encoding.toUpperCase() === 'B' ? Buffer.from(text, 'base64') : quotedPrintableBytes(text.replaceAll('_', ' '));
      return decodeBytes(bytes, charset);
    });
}

function parameter(header: string, name: string): string {
  const match = new RegExp(`;\\s*${name}\\s*=\\s*(?:"([^"]*)"|([^;\\s]*))`, 'i').exec(header);
  return match ? (match[1] ?? match[2] ?? '') : '';
}

function decodeBody(part: Part): string {
  const encoding = (part.headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  const charset = parameter(part.headers['content-type'] ?? '', 'charset') || 'utf-8';
  const bytes =
    encoding === 'base64'
      ? Buffer.from(part.body.replace(/\s+/g, ''), 'base64')
      : encoding === 'quoted-printable'
        ? quotedPrintableBytes(part.body)
        : Buffer.from(part.body, 'latin1');
  return decodeBytes(bytes, charset);
}

/** Depth-first over multipart trees, keeping the first text/plain and text/html that are not attachments. */
function collectTexts(part: Part, found: { text?: string; html?: string }) {
  const type = part.headers['content-type'] ?? 'text/plain';
  const mime = type.split(';')[0]!.trim().toLowerCase();
  if (mime.startsWith('multipart/')) {
    const boundary = parameter(type, 'boundary');
    if (!boundary) return;
    const delimiter = `--${boundary}`;
    const sections = part.body.split(delimiter).slice(1);
    for (const section of sections) {
      if (section.startsWith('--')) break; // closing delimiter
      collectTexts(splitPart(section.replace(/^\r?\n/, '')), found);
    }
    return;
  }
  if ((part.headers['content-disposition'] ?? '').toLowerCase().startsWith('attachment')) return;
  if (mime === 'text/plain' && found.text === undefined) found.text = decodeBody(part).replace(/\r\n/g, '\n').replace(/\n$/, '');
  if (mime === 'text/html' && found.html === undefined) found.html = decodeBody(part).replace(/\r\n/g, '\n');
}

export function parseMail(raw: string): Pick<ReceivedMail, 'headers' | 'from' | 'to' | 'subject' | 'text' | 'html'> {
  const top = splitPart(raw);
  const found: { text?: string; html?: string } = {};
  collectTexts(top, found);
  return {
    headers: top.headers,
    from: decodeWords(top.headers.from ?? ''),
    to: decodeWords(top.headers.to ?? ''),
    subject: decodeWords(top.headers.subject ?? ''),
    text: found.text ?? '',
    html: found.html ?? '',
  };
}

/**
 * `refusesRecipient`: recipients the peer rejects at RCPT TO with a 550 that names the address,
 * as real mail servers word it (the log must not repeat it, decision 111).
 */
export async function startSmtpPeer(options: { refusesRecipient?: (address: string) => boolean } = {}): Promise<SmtpPeer> {
  const messages: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  const state = { mode: 'accept' as SmtpPeerMode, attempts: 0 };
  const refusal = () => Object.assign(new Error('Mail service busy, try again later'), { responseCode: 451 });
  let held: Array<(error?: Error) => void> = [];

  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    closeTimeout: 1000,
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username ?? 'anonymous' });
    },
    onMailFrom(_address, _session, callback) {
      state.attempts += 1;
      if (state.mode === 'refuse') return callback(refusal());
      if (state.mode === 'hold') return void held.push(callback);
      callback();
    },
    onRcptTo(address, _session, callback) {
      if (options.refusesRecipient?.(address.address))
        return callback(Object.assign(new Error(`5.1.1 <${address.address}>: Recipient address rejected: User unknown`), { responseCode: 550 }));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', (error: Error) => callback(error));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('latin1');
        messages.push({
          envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          envelopeTo: session.envelope.rcptTo.map((recipient) => recipient.address),
          authUser: typeof session.user === 'string' ? session.user : null,
          raw,
          ...parseMail(raw),
        });
        for (const wake of waiters) wake();
        callback(null, 'Queued');
      });
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  const waitForMessage = (predicate: (mail: ReceivedMail) => boolean = () => true, timeoutMs = 5000) =>
    new Promise<ReceivedMail>((resolve, reject) => {
      const check = () => {
        const mail = messages.find(predicate);
        if (!mail) return false;
        clearTimeout(timer);
        waiters.delete(wake);
        resolve(mail);
        return true;
      };
      const wake = () => void check();
      const timer = setTimeout(() => {
        waiters.delete(wake);
        const seen = messages.map((mail) => `"${mail.subject}" to ${mail.envelopeTo.join(', ')}`).join('; ') || 'none';
        reject(new Error(`No matching mail arrived within ${timeoutMs} ms (received: ${seen})`));
      }, timeoutMs);
      waiters.add(wake);
      check();
    });

  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    get mode() {
      return state.mode;
    },
    set mode(mode: SmtpPeerMode) {
      state.mode = mode;
      if (mode === 'hold') return;
      const waiting = held;
      held = [];
      for (const answer of waiting) answer(mode === 'refuse' ? refusal() : undefined);
    },
    get attempts() {
      return state.attempts;
    },
    waitForMessage,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
