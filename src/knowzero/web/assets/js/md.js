// A small, safe Markdown renderer (escape first, then a fixed set of constructs):
// headings, paragraphs, lists (nested by indent), tables, code blocks, quotes, rules, bold,
// italic, inline code, links (http/https, #anchors and /paths only: see safeHref) and citation markers [n] → buttons.
import { esc } from './util.js';

// A link target the UI follows: an absolute http(s) URL, an in-app anchor (#…) or an in-app path
// (/…). Never a protocol-relative URL ("//evil.example", or "/\\evil.example", which browsers
// read the same way) nor any other scheme (javascript:, data:, …): those stay plain text.
export function safeHref(u) {
  return /^https?:\/\/[^/\\]/.test(u) || /^#/.test(u) || /^\/(?![/\\])/.test(u);
}

function inline(src, opts = {}) {
  let s = esc(src);
  const codes = [];
  s = s.replace(/`([^`]+)`/g, (_, c) => { codes.push(c); return `\u0000${codes.length - 1}\u0000`; });
  s = s.replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');
  s = s.replace(/(^|[^*])\*([^*\s][^*]*)\*/g, '$1<em>$2</em>');
  s = s.replace(/\[([^\]]+)\]\(([^)\s]*)\)/g, (m, t, u) => (safeHref(u) ? `<a href="${u}"${u.startsWith('http') ? ' target="_blank" rel="noopener"' : ''}>${t}</a>` : m));
  if (opts.cites !== false) {
    s = s.replace(/\[(\d{1,3})\]/g, (_, n) => `<button type="button" class="cite" data-n="${n}" aria-label="${opts.citeLabel || 'source'} ${n}">${n}</button>`);
  }
  s = s.replace(/\u0000(\d+)\u0000/g, (_, i) => `<code>${codes[+i]}</code>`);
  return s;
}

function isTableSep(line) { return /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/.test(line); }
function cells(line) {
  let l = line.trim();
  if (l.startsWith('|')) l = l.slice(1);
  if (l.endsWith('|')) l = l.slice(0, -1);
  return l.split('|').map((c) => c.trim());
}

export function renderMarkdown(md, opts = {}) {
  const lines = String(md ?? '').replace(/\r\n/g, '\n').split('\n');
  const out = [];
  let i = 0;
  const listStack = []; // {type, indent}
  const closeLists = (toIndent = -1) => {
    while (listStack.length && listStack[listStack.length - 1].indent > toIndent) out.push(`</li></${listStack.pop().type}>`);
  };
  let para = [];
  const flushPara = () => { if (para.length) { out.push(`<p>${inline(para.join('\n'), opts).replace(/\n/g, '<br>')}</p>`); para = []; } };

  while (i < lines.length) {
    const line = lines[i];
    if (/^```/.test(line)) {
      flushPara(); closeLists();
      const buf = []; i++;
      while (i < lines.length && !/^```/.test(lines[i])) buf.push(lines[i++]);
      i++;
      out.push(`<pre><code>${esc(buf.join('\n'))}</code></pre>`);
      continue;
    }
    if (!line.trim()) { flushPara(); i++; if (listStack.length && !(lines[i] || '').match(/^\s*([-*+]|\d+[.)])\s+/)) closeLists(); continue; }
    const hm = line.match(/^(#{1,6})\s+(.*)$/);
    if (hm) {
      flushPara(); closeLists();
      const lvl = Math.min(6, hm[1].length + (opts.shiftHeadings || 0));
      out.push(`<h${lvl}>${inline(hm[2], opts)}</h${lvl}>`); i++; continue;
    }
    if (/^\s*([-*_])\s*\1\s*\1[\s\-*_]*$/.test(line)) { flushPara(); closeLists(); out.push('<hr>'); i++; continue; }
    if (line.includes('|') && i + 1 < lines.length && isTableSep(lines[i + 1])) {
      flushPara(); closeLists();
      const head = cells(line); i += 2;
      const rows = [];
      while (i < lines.length && lines[i].includes('|') && lines[i].trim()) rows.push(cells(lines[i++]));
      out.push('<div class="table-wrap"><table><thead><tr>' + head.map((c) => `<th>${inline(c, opts)}</th>`).join('') + '</tr></thead><tbody>' +
        rows.map((r) => '<tr>' + r.map((c) => `<td>${inline(c, opts)}</td>`).join('') + '</tr>').join('') + '</tbody></table></div>');
      continue;
    }
    if (/^\s*>/.test(line)) {
      flushPara(); closeLists();
      const buf = [];
      while (i < lines.length && /^\s*>/.test(lines[i])) buf.push(lines[i++].replace(/^\s*>\s?/, ''));
      out.push(`<blockquote>${renderMarkdown(buf.join('\n'), opts)}</blockquote>`);
      continue;
    }
    const lm = line.match(/^(\s*)([-*+]|\d+[.)])\s+(.*)$/);
    if (lm) {
      flushPara();
      const indent = lm[1].replace(/\t/g, '    ').length;
      const type = /\d/.test(lm[2]) ? 'ol' : 'ul';
      const top = listStack[listStack.length - 1];
      if (!top || indent > top.indent) {
        listStack.push({ type, indent });
        out.push(`<${type}><li>`);
      } else {
        closeLists(indent);
        const cur = listStack[listStack.length - 1];
        if (cur && cur.type !== type && cur.indent === indent) { out.push(`</li></${listStack.pop().type}>`); listStack.push({ type, indent }); out.push(`<${type}><li>`); }
        else if (cur) out.push('</li><li>');
        else { listStack.push({ type, indent }); out.push(`<${type}><li>`); }
      }
      out.push(inline(lm[3], opts));
      i++; continue;
    }
    if (listStack.length && /^\s{2,}\S/.test(line)) { out.push('<br>' + inline(line.trim(), opts)); i++; continue; }
    closeLists();
    para.push(line); i++;
  }
  flushPara(); closeLists();
  return out.join('');
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
