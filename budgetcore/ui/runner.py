"""The shell's runner of the DOM operations (:data:`budgetcore.ui.paint.Op`), in
JavaScript, as text: ``web/main.py`` compiles it once (``new Function(RUNNER)()``, which
gives ``run`` and ``diff``) and calls ``run`` once per paint with every operation in one
array. The loop was Python's, and crossed into JavaScript for each selector, node, read
and write. Each kind does what ``ui.paint`` documents, in order; a value an element
already holds is never written again (a box keeps its caret). The catalogue stays in
Python: an "i18n" operation asks it through ``translate``.

A "patch" writes a region's new markup as the few attribute and text changes from the
markup it was last written with (``diff``), where the two have the same elements in the
same order. A replay redraw rewrote some 40 kB of markup into four regions for each
input, of which a few dozen attribute values and texts had changed (the trigger line's
points, the marks' paths, the summary's numbers): the browser parsed it all again,
built every node anew and laid the panel out from scratch in the next frame. The diff
is JavaScript's, not Python's: in CPython it cost 0.4-0.7 ms of a 5 ms redraw, three to
four times that in Pyodide, and a few hundredths of a millisecond here.

``diff(old, new)`` gives ``[elements, texts, changes]`` (the region's element and text
node counts after the new markup, then flat quadruples: kind 0 an element's attribute,
by the element's index among the region's elements in document order, a null value
removing it; kind 1 a text node's text, by its index among the region's text nodes),
or null when the two differ in structure or either is markup it does not read. It
reads only this package's markup (:mod:`budgetcore.ui.markup`): every ``<`` opens a
tag, every attribute value is quoted with ``"`` and escaped, and no text holds a
character the HTML parser would change (a carriage return, an entity other than
:func:`budgetcore.ui.markup.escape`'s five). Anything else (an unknown entity, a ``>``
in a value, a form control or a ``<details>`` whose state the user holds) is written
whole, keeping each fold open or closed as the user left it where the view did not
change it, as is a region that does not hold as many elements (and, when a text changes,
text nodes) as its last markup made. ``tests/test_ui_patch.py`` runs ``diff`` in Node
and holds its changes to the standard library's HTML parser.
"""

from __future__ import annotations

__all__ = ["RUNNER"]

RUNNER = r"""
"use strict";
const NAME = /^[a-zA-Z][^\s/>]*/;
const ATTR = /\s([^\s="/>]+)(?:="([^"]*)")?/g;
// Written whole: elements whose state the user holds or whose text the parser changes,
// declarations, a "<" that opens no tag.
const WHOLE = new RegExp(
  "<(?:(?:details|input|select|option|textarea|pre|script|style|template)\\b|!|(?![a-zA-Z/]))"
);
const ENTITIES = { amp: "&", lt: "<", gt: ">", quot: '"', "#x27": "'" };

// The text the HTML parser makes of a value or text run of budgetcore.ui.markup, or
// null when it holds anything else than the five entities its escape writes.
const unescape = (text) => {
  if (!text.includes("&")) return text;
  let plain = true;
  const out = text.replace(/&([^;&\s]*)(;?)/g, (all, name, semi) => {
    if (semi && Object.hasOwn(ENTITIES, name)) return ENTITIES[name];
    plain = false;
    return all;
  });
  return plain ? out : null;
};

const attrChanges = (element, was, now) => {
  const name = NAME.exec(now), before = NAME.exec(was);
  if (name === null || before === null || name[0] !== before[0]) return null;
  const olds = [...was.matchAll(ATTR)].map((m) => [m[1], m[2] ?? ""]);
  const news = [...now.matchAll(ATTR)].map((m) => [m[1], m[2] ?? ""]);
  const names = news.map(([key]) => key);
  if (new Set(names).size !== names.length) return null;  // the parser keeps the first
  const changes = [];
  if (names.length === olds.length && olds.every(([key], i) => key === names[i])) {
    for (let i = 0; i < news.length; i++) {
      if (olds[i][1] === news[i][1]) continue;
      const plain = unescape(news[i][1]);
      if (plain === null) return null;
      changes.push(0, element, names[i], plain);
    }
    return changes;
  }
  const kept = new Map(olds);
  if (kept.size !== olds.length) return null;
  for (const [key, value] of news) {
    const plain = unescape(value);
    if (plain === null) return null;
    if (kept.get(key) !== value) changes.push(0, element, key, plain);
  }
  for (const key of kept.keys()) if (!names.includes(key)) changes.push(0, element, key, null);
  return changes;
};

const diff = (old, markup) => {
  // Pieces at each "<": a tag's body, its ">", then the text up to the next tag (the
  // first piece: the text before any tag). The old markup is not searched: its pieces
  // that equal the new ones are the new ones, and every other names the same element.
  const was = old.split("<"), now = markup.split("<");
  if (was.length !== now.length) return null;
  if (WHOLE.test(markup) || /\/>|\r|\0/.test(markup)) return null;
  const n = now.length;
  // Before piece i (i >= 1): its elements, the i - 1 tags less the end tags; its text
  // runs, the first piece's and every piece's not ending at its ">" (piece 0 is text).
  const ends = new Int32Array(n + 1), tagged = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) {
    ends[i + 1] = ends[i] + (i > 0 && now[i][0] === "/" ? 1 : 0);
    tagged[i + 1] = tagged[i] + (i > 0 && now[i].endsWith(">") ? 1 : 0);
  }
  const lead = now[0] ? 1 : 0;
  const changes = [];
  for (let i = 0; i < n; i++) {
    const a = was[i], b = now[i];
    if (a === b) continue;
    if (i === 0) {
      const plain = unescape(b);
      if (!a || !b || plain === null) return null;
      changes.push(1, 0, "", plain);
      continue;
    }
    const [tagA, textA, ...moreA] = a.split(">"), [tagB, textB, ...moreB] = b.split(">");
    if (textA === undefined || textB === undefined || moreA.length || moreB.length) {
      return null;  // a ">" in a value or a text: not this package's markup
    }
    if (tagA !== tagB) {
      if (tagA[0] === "/" || tagB[0] === "/" || tagA.endsWith("/")) return null;
      const found = attrChanges(i - 1 - ends[i], tagA, tagB);
      if (found === null) return null;
      changes.push(...found);
    }
    if (textA !== textB) {
      const plain = unescape(textB);
      if (!textA || !textB || plain === null) return null;  // a run where there was none
      changes.push(1, lead + (i - 1) - tagged[i], "", plain);
    }
  }
  return [n - 1 - ends[n], lead + (n - 1) - tagged[n], changes];
};

const held = new WeakMap();  // a region -> the markup it was last written with

// Whether each <details> of the markup is written open, in document order.
const FOLD = /<details\b([^>]*)>/g;
const opens = (markup) => [...markup.matchAll(FOLD)].map((m) => /\sopen(?:[\s=]|$)/.test(m[1]));

// A region written whole keeps each fold as the user left it: the user's toggle of a
// <details> is state the markup does not hold, and a redraw (a new F changes the
// samples' tables) closed the fold being read. Where the view itself opens or closes a
// fold (a replay fold opened on a wide screen), or the folds are not the same ones,
// the markup's wins.
const whole = (root, was, markup) => {
  const folds = was === undefined ? [] : [...root.getElementsByTagName("details")];
  const shown = folds.map((d) => d.open);
  root.innerHTML = markup;
  if (!shown.length) return;
  const before = opens(was), after = opens(markup);
  const now = root.getElementsByTagName("details");
  if (before.length !== shown.length || after.length !== shown.length) return;
  if (now.length !== shown.length) return;
  for (let i = 0; i < shown.length; i++) if (after[i] === before[i]) now[i].open = shown[i];
};

const patch = (root, markup) => {
  const was = held.get(root);
  held.set(root, markup);
  const found = was === undefined ? null : diff(was, markup);
  if (found === null) {
    whole(root, was, markup);
    return;
  }
  const [elements, texts, changes] = found;
  const all = root.getElementsByTagName("*");
  let runs = null;
  for (let i = 0; i < changes.length && runs === null; i += 4) {
    if (changes[i] === 1) {
      runs = [];
      const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      while (walk.nextNode()) runs.push(walk.currentNode);
    }
  }
  if (all.length !== elements || (runs !== null && runs.length !== texts)) {
    whole(root, was, markup);  // not what the last markup made
    return;
  }
  for (let i = 0; i < changes.length; i += 4) {
    const [kind, at, name, value] = changes.slice(i, i + 4);
    if (kind === 1) runs[at].data = value;
    else if (value === null) all[at].removeAttribute(name);
    else all[at].setAttribute(name, value);
  }
};

const run = (ops, translate) => {
  for (const [selector, how, name, value] of ops) {
    if (how === "url") {  // the fragment holds the scenario: replaced, never pushed
      const url = value ? `#${value}` : "";
      if (location.hash !== url) history.replaceState(null, "", url || location.pathname);
      continue;
    }
    for (const node of document.querySelectorAll(selector)) {
      if (how === "patch") {
        patch(node, value);
        continue;
      }
      if (how === "text" || how === "html") held.delete(node);  // written otherwise
      if (how === "text") {
        if (node.textContent !== value) node.textContent = value;  // text, never HTML
      } else if (how === "html") {
        node.innerHTML = value;  // markup of budgetcore.ui.markup, escaped
      } else if (how === "input" && node.type === "checkbox") {
        node.checked = value === "true";
      } else if (how === "value" || how === "input") {
        if (node.value !== value) node.value = value;
      } else if (how === "prop") {
        if (node[name] !== value) node[name] = value;
      } else if (how === "attr") {
        // A held value is not written again: the main screen's paint repeats a dozen
        // properties and attributes on every input (the stale mark, the buttons'
        // states, the import box emptied), and a write of the same value is not free
        // (emptying the empty file box: 0.25 ms a paint at the median, up to 20 ms).
        if (value == null) {
          if (node.hasAttribute(name)) node.removeAttribute(name);
        } else if (node.getAttribute(name) !== String(value)) node.setAttribute(name, value);
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
};
return { run, diff };
"""
