// The page's boot script, hand-written on purpose: before Pyodide has loaded, Python
// cannot report boot stages, a failed download, or a page opened from disk. (The other
// JavaScript is the paint's op runner, held as text in budgetcore/ui/runner.py.)
(() => {
  "use strict";
  const root = document.documentElement;
  const put = (id, text) => {
    const el = document.getElementById(id);
    if (el) el.textContent = text;
  };
  // The texts below, in the page's language: the build wrote them from the message
  // catalogue (budgetcore/messages, "boot." keys) into html[data-boot-texts]. Read when
  // said: the one-file page sets the Chinese ones after this script has run.
  const texts = () => {
    try { return JSON.parse(root.dataset.bootTexts || "{}"); } catch { return {}; }  // the template
  };
  const say = (key, what = "") => (texts()[key] || "{what}").replace("{what}", what);
  const fail = (text) => {
    if (root.dataset.state !== "loading") return;
    root.dataset.state = "error";
    put("boot-error", text);
  };
  // The build pre-rendered the first view in English (index.html) and in Chinese
  // (index.zh.html, ui.prerender.PAGES). Open the one in the language the shell will
  // choose, before anything is painted: else a Chinese reader's page changes language,
  // and moves, when Python is ready. The rule is the shell's (ui.update._link): the
  // fragment's first lang pair if it is en or zh, else the browser's language. The
  // browser tests hold this copy to it.
  const pairs = location.hash.slice(1).split("&").filter(Boolean).map((part) => {
    const at = part.indexOf("=");
    const key = at < 0 ? part : part.slice(0, at);
    const value = at < 0 ? "" : part.slice(at + 1);
    try { return [decodeURIComponent(key), decodeURIComponent(value)]; }
    catch { return [key, value]; }  // not lang either way (Python keeps it as written)
  });
  const asked = (pairs.find(([key]) => key === "lang") || [])[1];
  const lang = asked === "en" || asked === "zh" ? asked
    : String(navigator.language).toLowerCase().startsWith("zh") ? "zh" : "en";
  // The self-contained file (html[data-offline], scripts/offline.py) is one page that
  // holds both first views: its script after them keeps the one named here.
  const offline = root.hasAttribute("data-offline");
  if (offline) root.dataset.firstView = lang;
  if (lang !== (root.lang === "zh-CN" ? "zh" : "en") && location.protocol !== "file:"
      && !offline) {
    location.replace((lang === "zh" ? "index.zh.html" : "./") + location.search + location.hash);
    return;
  }
  // A fragment (other than the language) is another scenario than the pre-rendered
  // one: CSS shows it as pending.
  if (pairs.some(([key]) => key !== "lang")) root.dataset.link = "";
  // Wide screens open the folded groups as the shell does, here as soon as they are
  // parsed, so the first paint already has the shell's layout.
  if (matchMedia("(min-width: 1000px)").matches) {
    const unfold = new MutationObserver(() => {
      for (const d of document.querySelectorAll("details[data-fold]:not([open])")) d.open = true;
    });
    unfold.observe(root, { childList: true, subtree: true });
    addEventListener("DOMContentLoaded", () => unfold.disconnect());
  }
  // The build's preload hints (link[data-later]) start once the first view is painted:
  // before, they only compete with it (measured: first paint about 180 ms later).
  requestAnimationFrame(() => setTimeout(() => {
    for (const link of document.querySelectorAll("link[data-later]")) link.rel = link.dataset.later;
  }));
  // Builds before this one kept a memory snapshot of Python (~31 MB) in Cache Storage;
  // the precompiled stdlib made it save too little to keep. Free that space.
  globalThis.caches?.delete("budgetcore-snapshot").catch(() => {});
  // Opened from disk, only the self-contained file can run: say where it is.
  if (location.protocol === "file:" && !offline) {
    addEventListener("DOMContentLoaded", () =>
      fail(say("boot.file")));
    return;
  }
  addEventListener("py:progress", (e) => {
    const stage = String(e.detail);
    put("boot-stage", say(`boot.stage.${stage.toLowerCase().replaceAll(" ", "-")}`, stage));
    performance.mark(`pyscript:${e.detail}`);  // boot phases for scripts/bench
  });
  addEventListener("error", (e) => {
    const t = e.target;
    const what = e.message || (t && (t.src || t.href)) || say("boot.resource");
    fail(say("boot.failed", what));
  }, true);
  addEventListener("unhandledrejection",
    (e) => fail(say("boot.failed", String((e.reason && e.reason.message) || e.reason))));
  setTimeout(() => fail(say("boot.slow")), 120000);
})();
