// A tiny SMTP server for the browser tests: the api's worker sends verification codes to it over
// real SMTP (no TLS, no auth); every message is appended to a JSON-lines mailbox file the specs
// read ({to, subject, text}). Just enough of RFC 5321 for Python's smtplib.
import fs from 'node:fs';
import net from 'node:net';

function decodeQuotedPrintable(body) {
  const bytes = [];
  const text = body.replace(/=\r?\n/g, '');
  for (let i = 0; i < text.length; i += 1) {
    if (text[i] === '=' && /^[0-9A-F]{2}$/i.test(text.slice(i + 1, i + 3))) {
      bytes.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(text[i], 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function decodeHeader(value) {
  // =?utf-8?b?...?= and =?utf-8?q?...?= encoded words
  return value.replace(/=\?([^?]+)\?([bq])\?([^?]*)\?=/gi, (_, _charset, kind, data) =>
    kind.toLowerCase() === 'b' ? Buffer.from(data, 'base64').toString('utf8') : decodeQuotedPrintable(data.replace(/_/g, ' ')),
  );
}

function decodeBody(body, encoding) {
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64');
  if (encoding === 'quoted-printable') return Buffer.from(decodeQuotedPrintable(body), 'utf8');
  return Buffer.from(body, 'utf8');
}

/**
 * Headers and decoded text of a message; a multipart message (a scheduled report with its file
 * attached) gives the text of its first text part and, per attachment, its file name, type, size
 * and first bytes (so a spec can tell a PDF from anything else).
 */
export function parseMessage(raw) {
  const split = raw.search(/\r?\n\r?\n/);
  const head = split < 0 ? raw : raw.slice(0, split);
  const body = split < 0 ? '' : raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const headers = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const encoding = (headers['content-transfer-encoding'] || '').toLowerCase();
  const type = headers['content-type'] || 'text/plain';
  const boundary = /multipart\/[^;]+;.*boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (boundary) {
    const parts = body
      .split(`--${boundary}`)
      .slice(1)
      .filter((part) => !part.startsWith('--'))
      .map((part) => parseMessage(part.replace(/^\r?\n/, '')));
    const text = parts.find((part) => part.type.startsWith('text/plain') && !part.filename)?.text ?? '';
    const attachments = parts.flatMap((part) => (part.filename ? [{ filename: part.filename, type: part.type.split(';')[0], size: part.size, head: part.head }] : part.attachments));
    return { subject: decodeHeader(headers.subject || ''), text, attachments, type };
  }
  const bytes = decodeBody(body, encoding);
  const filename = /filename="?([^";]+)"?/i.exec(headers['content-disposition'] || '')?.[1];
  return {
    subject: decodeHeader(headers.subject || ''),
    text: bytes.toString('utf8'),
    attachments: [],
    type,
    filename,
    size: bytes.length,
    head: bytes.subarray(0, 8).toString('latin1'),
  };
}

export function startMailSink(mailbox) {
  fs.writeFileSync(mailbox, '');
  const server = net.createServer((socket) => {
    let buffer = '';
    let data = null;
    let envelope = { from: '', to: [] };
    const reply = (line) => socket.write(`${line}\r\n`);
    reply('220 e2e-mail-sink ESMTP');
    socket.setEncoding('utf8');
    socket.on('error', () => undefined);
    socket.on('data', (chunk) => {
      buffer += chunk;
      let end;
      while ((end = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (data !== null) {
          if (line === '.') {
            const { subject, text, attachments } = parseMessage(data.join('\r\n'));
            for (const to of envelope.to) {
              fs.appendFileSync(mailbox, `${JSON.stringify({ to, from: envelope.from, subject, text, attachments, at: Date.now() })}\n`);
            }
            data = null;
            envelope = { from: '', to: [] };
            reply('250 2.0.0 queued');
          } else {
            data.push(line.startsWith('..') ? line.slice(1) : line);
          }
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO') {
          reply('250-e2e-mail-sink');
          reply('250-8BITMIME');
          reply('250-SMTPUTF8');
          reply('250 SIZE 10485760');
        } else if (verb === 'HELO' || verb === 'NOOP') reply('250 OK');
        else if (verb === 'MAIL') {
          envelope.from = (line.match(/<([^>]*)>/) || [])[1] || '';
          reply('250 2.1.0 OK');
        } else if (verb === 'RCPT') {
          envelope.to.push(((line.match(/<([^>]*)>/) || [])[1] || '').toLowerCase());
          reply('250 2.1.5 OK');
        } else if (verb === 'DATA') {
          data = [];
          reply('354 End data with <CR><LF>.<CR><LF>');
        } else if (verb === 'RSET') {
          envelope = { from: '', to: [] };
          reply('250 OK');
        } else if (verb === 'QUIT') {
          reply('221 Bye');
          socket.end();
        } else reply('502 5.5.2 Command not recognized');
      }
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve({ server, port: server.address().port }));
  });
}
