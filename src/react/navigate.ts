/** How a component follows a link: the app's router when it passes one, else a full page load. */
export type Navigate = (href: string) => void;

export const browserNavigate: Navigate = (href) => window.location.assign(href);
