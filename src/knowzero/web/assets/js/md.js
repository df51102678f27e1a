// Markdown → safe HTML for answers and document sections. markdown-it parses (CommonMark, raw HTML
// off, no images, no reference definitions, links through safeHref), DOMPurify sanitizes the result
// against a fixed allowlist, and only then do citation markers [n] become buttons — in text nodes
// only, never inside a URL, a title attribute, a link or code. The libraries are vendored
// (web/vendor/): markdown-it and DOMPurify loaded by index.html before the app as the globals
// `markdownit` and `DOMPurify`; markdown-it-cjk-friendly (an ES module) lets **粗体：**后文 be bold
// next to full-width punctuation, as the hand-written renderer did.
import cjkFriendly from '/vendor/markdown-it-cjk-friendly/index.js';
import { esc } from './util.js';

// A link target the UI follows: an absolute http(s) URL, an in-app anchor (#…) or an in-app path
// (/…). Never a protocol-relative URL ("//evil.example", or "/\\evil.example", which browsers read
// the same way; markdown-it hands it over as "/%5Cevil.example") nor any other scheme (javascript:,
// data:, file:, mailto:, …): those stay text.
const LINK_RE = /^(?:https?:\/\/[^/\\%]|#|\/(?![/\\]|%5c))/i;
export function safeHref(u) {
  return LINK_RE.test(String(u ?? ''));
}

const TAGS = ['p', 'br', 'strong', 'em', 's', 'code', 'pre', 'a', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li',
  'blockquote', 'hr', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'div'];
const PURIFY = {
  ALLOWED_TAGS: TAGS, ALLOWED_ATTR: ['href', 'title', 'start', 'class'], ADD_URI_SAFE_ATTR: ['start'],
  ALLOWED_URI_REGEXP: LINK_RE, ALLOW_DATA_ATTR: false, ALLOW_ARIA_ATTR: false, RETURN_DOM_FRAGMENT: true,
};
const CITE_RE = /\[(\d{1,3})\]/g;
const HAS_CITE = /\[\d{1,3}\]/;

let parser = null;
function markdownParser() {
  if (parser || !globalThis.markdownit) return parser;
  const md = globalThis.markdownit({ html: false, linkify: false, breaks: true, typographer: false });
  // No images (a remote one would load by itself), no "[1]: url" definitions (a citation marker
  // never turns into a link).
  md.disable(['image', 'reference']);
  md.use(cjkFriendly);
  const builtIn = md.validateLink; // markdown-it's own check (javascript:, vbscript:, file:, data:), then ours
  md.validateLink = (url) => builtIn.call(md, url) && safeHref(url);
  md.renderer.rules.table_open = () => '<div class="table-wrap"><table>\n';
  md.renderer.rules.table_close = () => '</table></div>\n';
  parser = md;
  return parser;
}

function toHtml(src, opts) {
  const md = markdownParser();
  if (!md) return `<p>${esc(src).replace(/\n/g, '<br>')}</p>`; // the vendored parser did not load: plain text
  const tokens = md.parse(src, {});
  const shift = opts.shiftHeadings || 0;
  if (shift) {
    for (const tk of tokens) {
      if (tk.type === 'heading_open' || tk.type === 'heading_close') tk.tag = `h${Math.min(6, +tk.tag.slice(1) + shift)}`;
    }
  }
  return md.renderer.render(tokens, md.options, {});
}

function sanitize(html) {
  if (globalThis.DOMPurify && globalThis.DOMPurify.isSupported) return globalThis.DOMPurify.sanitize(html, PURIFY);
  const tpl = document.createElement('template'); // no sanitizer: keep the text only
  tpl.innerHTML = `<p>${esc(new DOMParser().parseFromString(html, 'text/html').body.textContent)}</p>`;
  return tpl.content;
}

// [n] in text → <button class="cite">; text inside links, code and buttons is left alone.
function citeButtons(root, label) {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: (n) => (n.parentElement && n.parentElement.closest('a, code, pre, button') ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  });
  const nodes = [];
  while (walker.nextNode()) if (HAS_CITE.test(walker.currentNode.nodeValue)) nodes.push(walker.currentNode);
  for (const node of nodes) {
    const text = node.nodeValue;
    const frag = document.createDocumentFragment();
    let last = 0;
    for (const m of text.matchAll(CITE_RE)) {
      frag.append(text.slice(last, m.index));
      const b = document.createElement('button');
      b.type = 'button'; b.className = 'cite'; b.dataset.n = m[1]; b.textContent = m[1];
      b.setAttribute('aria-label', `${label} ${m[1]}`);
      frag.append(b);
      last = m.index + m[0].length;
    }
    frag.append(text.slice(last));
    node.replaceWith(frag);
  }
}

// Markdown → an HTML string (sanitized; set it with innerHTML). opts: cites (default true),
// citeLabel (the buttons' accessible name), shiftHeadings (# → h1+shift).
export function renderMarkdown(src, opts = {}) {
  const root = sanitize(toHtml(String(src ?? '').replace(/\r\n/g, '\n'), opts));
  if (opts.cites !== false) citeButtons(root, opts.citeLabel || 'source');
  for (const a of root.querySelectorAll('a[href]')) {
    if (/^https?:/i.test(a.getAttribute('href'))) { a.target = '_blank'; a.rel = 'noopener noreferrer'; }
  }
  const box = document.createElement('div');
  box.append(root);
  return box.innerHTML;
}

// Wrap the first few occurrences of each entity name in text nodes with a link button.
export function linkEntities(root, names, { max = 2, cls = 'entity' } = {}) {
  const list = [...new Set(names.filter((n) => n && n.length >= 2))].sort((a, b) => b.length - a.length);
  if (!list.length) return;
  const counts = new Map();
  const re = new RegExp(list.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: (n) => (n.parentElement.closest('a, button, code, pre, .entity, mark') ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  });
  const nodes = [];
  while (walker.nextNode()) nodes.push(walker.currentNode);
  for (const node of nodes) {
    const text = node.nodeValue;
    re.lastIndex = 0;
    let m, last = 0; const frag = document.createDocumentFragment(); let changed = false;
    while ((m = re.exec(text))) {
      const c = counts.get(m[0]) || 0;
      if (c >= max) continue;
      counts.set(m[0], c + 1);
      frag.append(text.slice(last, m.index));
      const a = document.createElement('a');
      a.className = cls; a.href = '#'; a.dataset.entity = m[0]; a.textContent = m[0];
      frag.append(a);
      last = m.index + m[0].length; changed = true;
    }
    if (!changed) continue;
    frag.append(text.slice(last));
    node.replaceWith(frag);
  }
}

// Find `needle` in root's text and wrap it in <mark>; returns the mark or null.
export function markText(root, needle, attrs = {}) {
  if (!needle) return null;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const nodes = []; let full = '';
  while (walker.nextNode()) { nodes.push([walker.currentNode, full.length]); full += walker.currentNode.nodeValue; }
  let idx = full.indexOf(needle);
  if (idx < 0) {
    const n2 = needle.trim().slice(0, 24);
    idx = n2 ? full.indexOf(n2) : -1;
    if (idx < 0) return null;
    needle = n2;
  }
  const end = idx + needle.length;
  let first = null;
  for (const [node, off] of nodes) {
    const ns = off, ne = off + node.nodeValue.length;
    if (ne <= idx || ns >= end) continue;
    const a = Math.max(idx, ns) - ns, b = Math.min(end, ne) - ns;
    const r = document.createRange();
    r.setStart(node, a); r.setEnd(node, b);
    const mark = document.createElement('mark');
    for (const [k, v] of Object.entries(attrs)) mark.setAttribute(k, v);
    try { r.surroundContents(mark); } catch { continue; }
    if (!first) first = mark;
  }
  return first;
}
