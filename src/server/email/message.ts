/** One mail, ready to send. `kind` names the flow (verification, reset-password, ...). */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  kind: string;
}
