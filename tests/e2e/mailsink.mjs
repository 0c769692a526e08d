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

/** Headers and decoded text of a single-part message. */
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
  let text = body;
  if (encoding === 'base64') text = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  else if (encoding === 'quoted-printable') text = decodeQuotedPrintable(body);
  return { subject: decodeHeader(headers.subject || ''), text };
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
            const { subject, text } = parseMessage(data.join('\r\n'));
            for (const to of envelope.to) {
              fs.appendFileSync(mailbox, `${JSON.stringify({ to, from: envelope.from, subject, text, at: Date.now() })}\n`);
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
