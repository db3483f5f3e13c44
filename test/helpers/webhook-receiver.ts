import { randomBytes } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export interface ReceivedWebhook {
  id: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The payload as the standardwebhooks library verified it; null when verification failed. */
  payload: { type: string; timestamp: string; data: any } | null;
  /** What the receiver answered. */
  status: number;
}

/** A fresh `whsec_` secret. */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString("base64")}`;

/**
 * A webhook receiver on loopback (node:http) that verifies every request with the standardwebhooks
 * library, as a real consumer would. `answer` sets the status it replies with (500 for an outage);
 * `down()`/`up()` close and reopen the same port; `delayMs` holds each answer back.
 */
export class WebhookReceiver {
  /** The secret it verifies with; a test may set the one the service handed out. */
  secret: string;
  readonly received: ReceivedWebhook[] = [];
  answer = 204;
  delayMs = 0;
  #server: Server | null = null;
  #port = 0;

  private constructor(secret: string) {
    this.secret = secret;
  }

  static async start(secret = newWebhookSecret()): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver(secret);
    await receiver.up();
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${this.#port}/hooks`;
  }

  /** Delivered (2xx-answered) and verified payloads, optionally of one event type. */
  delivered(type?: string) {
    return this.received
      .filter((r) => r.status < 300 && r.payload && (!type || r.payload.type === type))
      .map((r) => ({ id: r.id, ...(r.payload as NonNullable<ReceivedWebhook["payload"]>) }));
  }

  async up(): Promise<void> {
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const body = Buffer.concat(chunks).toString("utf8");
        let payload: ReceivedWebhook["payload"] = null;
        try {
          payload = new Webhook(this.secret).verify(body, request.headers as Record<string, string>) as any;
        } catch {
          payload = null;
        }
        const status = payload ? this.answer : 401;
        this.received.push({
          id: String(request.headers["webhook-id"]),
          headers: request.headers,
          body,
          payload,
          status,
        });
        setTimeout(() => {
          response.statusCode = status;
          response.end();
        }, this.delayMs);
      });
    });
    await new Promise<void>((resolve) => server.listen(this.#port, "127.0.0.1", resolve));
    this.#port = (server.address() as AddressInfo).port;
    this.#server = server;
  }

  /** Stops listening: connections are refused until up(). */
  async down(): Promise<void> {
    const server = this.#server;
    this.#server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  close(): Promise<void> {
    return this.down();
  }
}
