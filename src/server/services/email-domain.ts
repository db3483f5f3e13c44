/** The domain of an address, lower-cased: what verified domains, routing and enforced SSO compare. */
export function emailDomain(email: string): string {
  return email.slice(email.lastIndexOf("@") + 1).toLowerCase();
}
