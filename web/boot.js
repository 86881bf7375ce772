// The page's only hand-written JavaScript, kept on purpose: before Pyodide has loaded,
// Python cannot report boot stages, a failed download, or a page opened from disk.
(() => {
  "use strict";
  const root = document.documentElement;
  const put = (id, text) => {
    const el = document.getElementById(id);
    if (el) el.textContent = text;
  };
  const fail = (text) => {
    if (root.dataset.state !== "loading") return;
    root.dataset.state = "error";
    put("boot-error", text);
  };
  if (location.protocol === "file:") {
    addEventListener("DOMContentLoaded", () =>
      fail("This page cannot run from a file: start it with scripts/serve and open the URL it prints."));
    return;
  }
  addEventListener("py:progress", (e) => put("boot-stage", String(e.detail)));
  addEventListener("error", (e) => {
    const t = e.target;
    const what = e.message || (t && (t.src || t.href)) || "a resource";
    fail(`Loading failed: ${what}`);
  }, true);
  addEventListener("unhandledrejection", (e) => fail(`Loading failed: ${(e.reason && e.reason.message) || e.reason}`));
  setTimeout(() => fail("Still loading after 120 s: is scripts/serve running? See its log."), 120000);
})();
