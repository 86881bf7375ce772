"""The shell's runner of the DOM operations (:data:`budgetcore.ui.paint.Op`), in
JavaScript, as text: ``web/main.py`` compiles it once and calls it once per paint with
every operation in one array. The loop was Python's, and crossed into JavaScript for
each selector, node, read and write (a replay redraw's patches alone set some sixty
attributes and texts). Each kind does what ``ui.paint`` documents, in order; a value an
element already holds is never written again (a box keeps its caret). The catalogue
stays in Python: an "i18n" operation asks it through ``translate``.

A "patch" applies :func:`budgetcore.ui.patch.patch_of`'s changes where the region holds
as many elements (and, when a text run changes, text nodes) as its last markup made,
and writes the markup whole where it does not.
"""

from __future__ import annotations

__all__ = ["RUN_OPS"]

RUN_OPS = """
"use strict";
const patch = (root, [elements, texts, changes, markup]) => {
  // The region must hold what its last markup made (budgetcore.ui.patch): else whole.
  const all = root.getElementsByTagName("*");
  let runs = null;
  if (changes.some((kind, i) => i % 4 === 0 && kind === 1)) {
    runs = [];
    const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    while (walk.nextNode()) runs.push(walk.currentNode);
  }
  if (all.length !== elements || (runs !== null && runs.length !== texts)) {
    root.innerHTML = markup;
    return;
  }
  for (let i = 0; i < changes.length; i += 4) {
    const [kind, at, name, value] = changes.slice(i, i + 4);
    if (kind === 1) runs[at].data = value;
    else if (value == null) all[at].removeAttribute(name);
    else all[at].setAttribute(name, value);
  }
};
for (const [selector, how, name, value] of ops) {
  if (how === "url") {  // the fragment holds the scenario: replaced, never pushed
    const url = value ? `#${value}` : "";
    if (location.hash !== url) history.replaceState(null, "", url || location.pathname);
    continue;
  }
  for (const node of document.querySelectorAll(selector)) {
    if (how === "text") {
      if (node.textContent !== value) node.textContent = value;  // text, never HTML
    } else if (how === "html") {
      node.innerHTML = value;  // markup of budgetcore.ui.markup, escaped
    } else if (how === "patch") {
      patch(node, value);
    } else if (how === "input" && node.type === "checkbox") {
      node.checked = value === "true";
    } else if (how === "value" || how === "input") {
      if (node.value !== value) node.value = value;
    } else if (how === "prop") {
      node[name] = value;
    } else if (how === "attr") {
      if (value == null) node.removeAttribute(name);
      else node.setAttribute(name, value);
    } else if (how === "i18n") {
      const text = translate(node.getAttribute(name), String(value));
      if (name === "data-i18n") node.textContent = text;
      else node.setAttribute("aria-label", text);
    } else if (how === "scroll") {
      node.scrollIntoView({ block: value });
    } else if (how === "focus") {
      node.focus();
    }
  }
}
"""
