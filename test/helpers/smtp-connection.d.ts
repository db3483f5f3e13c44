// smtp-server's connection class ships no declarations; test/helpers/mail.ts uses its greeting only.
declare module "smtp-server/lib/smtp-connection.js" {
  export class SMTPConnection {
    init(): void;
    connectionReady(): void;
    _setListeners(ready: () => void): void;
  }
}
