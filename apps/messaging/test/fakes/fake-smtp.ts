import type { AddressInfo } from 'node:net';

import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The message as submitted (headers and body). */
  raw: string;
}

/** A reply the server gives instead of accepting a recipient. */
export interface SmtpRefusal {
  code: number;
  message: string;
}

function refusal({ code, message }: SmtpRefusal): Error & { responseCode: number } {
  return Object.assign(new Error(message), { responseCode: code });
}

/**
 * A real SMTP server (the `smtp-server` package) on 127.0.0.1: a customer's mail submission host.
 * Login is optional unless users are added; recipients can be refused per address.
 */
export class FakeSmtp {
  readonly mails: ReceivedMail[] = [];
  private readonly users = new Map<string, string>();
  private readonly recipientRefusals: { matches: (address: string) => boolean; reply: SmtpRefusal }[] = [];
  private readonly temporaryFailures: SmtpRefusal[] = [];
  private server!: SMTPServer;
  port = 0;

  addUser(username: string, password: string): void {
    this.users.set(username, password);
  }

  /** Recipients for which `matches` holds are refused with `reply` (550 by default). */
  refuseRecipients(
    matches: (address: string) => boolean,
    reply: SmtpRefusal = { code: 550, message: '5.1.1 Recipient address rejected: User unknown' },
  ): void {
    this.recipientRefusals.push({ matches, reply });
  }

  /** The next `times` recipients are deferred with `reply` (a 4xx). */
  deferNext(times: number, reply: SmtpRefusal = { code: 451, message: '4.3.0 Try again later' }): void {
    for (let i = 0; i < times; i += 1) this.temporaryFailures.push(reply);
  }

  async start(): Promise<this> {
    this.server = new SMTPServer({
      authOptional: true,
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onAuth: (auth, _session, callback) => {
        if (auth.username !== undefined && this.users.get(auth.username) === auth.password) {
          callback(null, { user: auth.username });
        } else {
          callback(refusal({ code: 535, message: '5.7.8 Authentication credentials invalid' }));
        }
      },
      onMailFrom: (_address, session, callback) => {
        if (this.users.size > 0 && session.user === undefined) {
          callback(refusal({ code: 530, message: '5.7.0 Authentication required' }));
        } else {
          callback();
        }
      },
      onRcptTo: (address, _session, callback) => {
        const deferred = this.temporaryFailures.shift();
        if (deferred !== undefined) return callback(refusal(deferred));
        const refused = this.recipientRefusals.find((rule) => rule.matches(address.address));
        return callback(refused !== undefined ? refusal(refused.reply) : undefined);
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const from = session.envelope.mailFrom;
          this.mails.push({
            from: from === false ? '' : from.address,
            to: session.envelope.rcptTo.map((address) => address.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.server.address() as AddressInfo).port;
    return this;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
