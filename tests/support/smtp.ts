/**
 * A real SMTP server for tests that send mail: smtp-server on 127.0.0.1 (STARTTLS off, AUTH optional),
 * every message parsed by mailparser into `received`. (A test that starts it only after the sender has
 * found nothing listening takes a port from free-port.ts.)
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface TestSmtpServer {
  port: number;
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL or the e-mail settings. */
  url: string;
  /** The messages received so far, in order. */
  received: ParsedMail[];
  close: () => Promise<void>;
}

/** Starts the server on `port` (default: one the system picks); the caller closes it. */
export async function startSmtpServer(port = 0): Promise<TestSmtpServer> {
  const received: ParsedMail[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          received.push(mail);
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  server.listen(port, '127.0.0.1');
  await once(server.server, 'listening');
  const listening = (server.server.address() as AddressInfo).port;
  return {
    port: listening,
    url: `smtp://127.0.0.1:${listening}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

