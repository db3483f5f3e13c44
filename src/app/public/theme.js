// Runs before the first paint (a plain script in <head>; the CSP allows same-origin scripts, not inline
// ones): applies the theme the visitor chose, so a dark page never flashes light. Without a choice the
// stylesheet follows prefers-color-scheme. src/app/lib/theme.tsx owns the same key.
(() => {
  try {
    const theme = localStorage.getItem("gatehouse.theme");
    if (theme === "light" || theme === "dark") document.documentElement.dataset.theme = theme;
  } catch {
    // Storage refused (privacy mode): the system setting applies.
  }
})();
