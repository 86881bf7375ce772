// What the page's first screen says: every visible text (and every visible field's
// value) that lies at least partly inside the viewport, in document order, whitespace
// collapsed. scripts/screenshot.py records it beside the README's screenshot
// (docs/img/page-1440-en.json), and a browser test compares the live page with it, so
// the screenshot cannot silently go stale.
() => {
  const inView = (r) => r.width > 0 && r.height > 0 && r.bottom > 0 && r.right > 0 &&
    r.top < innerHeight && r.left < innerWidth;
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.nodeType === Node.ELEMENT_NODE) {
      const field = node.matches('input[type="text"], select');
      if (field && node.checkVisibility() && inView(node.getBoundingClientRect())) {
        const value = node.tagName === 'SELECT' ? node.selectedOptions[0]?.textContent ?? '' : node.value;
        out.push(`[${value.replace(/\s+/g, ' ').trim()}]`);
      }
      continue;
    }
    const text = node.textContent.replace(/\s+/g, ' ').trim();
    const parent = node.parentElement;
    if (!text || !parent || parent.closest('option, script, style, title') || !parent.checkVisibility({visibilityProperty: true})) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    if ([...range.getClientRects()].some(inView)) out.push(text);
  }
  return out;
}
