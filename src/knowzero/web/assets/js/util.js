// Small DOM helpers: h() builds elements, no framework.
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === false || v === null || v === undefined) continue;
    if (k === 'class') el.className = v;
    else if (k === 'text') el.textContent = v;
    else if (k === 'html') el.innerHTML = v;
    else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k === 'style' && typeof v === 'object') Object.assign(el.style, v);
    else el.setAttribute(k, v === true ? '' : v);
  }
  append(el, children);
  return el;
}

export function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

export function clear(el) { while (el.firstChild) el.removeChild(el.firstChild); return el; }

export function esc(s) {
  return String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
}

export function fmtMs(ms) {
  if (ms === undefined || ms === null || Number.isNaN(+ms)) return '';
  ms = +ms;
  if (ms < 1) return ms.toFixed(2) + ' ms';
  if (ms < 1000) return Math.round(ms) + ' ms';
  return (ms / 1000).toFixed(2) + ' s';
}

export function fmtTime(ts) {
  if (!ts) return '';
  const d = typeof ts === 'number' ? new Date(ts * 1000) : new Date(ts);
  if (Number.isNaN(d.getTime())) return String(ts);
  return d.toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}

export function short(s, n = 120) { s = String(s ?? ''); return s.length > n ? s.slice(0, n - 1) + '…' : s; }

export function json(v) { try { return JSON.stringify(v, null, 2); } catch { return String(v); } }

let toastTimer = 0;
export function toast(msg, kind = 'info') {
  const el = document.getElementById('toast');
  el.textContent = msg;
  el.dataset.kind = kind;
  el.classList.add('show');
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => el.classList.remove('show'), 3500);
}

export function sleep(ms) { return new Promise((r) => setTimeout(r, ms)); }

// A modal dialog with focus trapping and Escape to close. Returns {el, close}.
export function openDialog({ title, body, wide = false, onClose, label }) {
  const root = document.getElementById('overlay-root');
  const prev = document.activeElement;
  const closeBtn = h('button', { class: 'icon-btn', 'aria-label': label || '×', 'data-close': '' }, '×');
  const heading = h('h2', { id: 'dlg-title-' + Date.now() }, title);
  const panel = h('div', { class: 'dialog' + (wide ? ' wide' : ''), role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': heading.id },
    h('div', { class: 'dialog-head' }, heading, closeBtn), h('div', { class: 'dialog-body' }, body));
  const backdrop = h('div', { class: 'backdrop' }, panel);
  function close() {
    backdrop.remove();
    document.removeEventListener('keydown', onKey, true);
    if (onClose) onClose();
    if (prev && prev.focus) prev.focus();
  }
  function onKey(e) {
    if (e.key === 'Escape') { e.preventDefault(); close(); }
    if (e.key === 'Tab') {
      const f = [...panel.querySelectorAll('button, a[href], input, textarea, select, [tabindex]:not([tabindex="-1"])')].filter((x) => !x.disabled && x.offsetParent !== null);
      if (!f.length) return;
      const first = f[0], last = f[f.length - 1];
      if (e.shiftKey && document.activeElement === first) { e.preventDefault(); last.focus(); }
      else if (!e.shiftKey && document.activeElement === last) { e.preventDefault(); first.focus(); }
    }
  }
  closeBtn.addEventListener('click', close);
  backdrop.addEventListener('mousedown', (e) => { if (e.target === backdrop) close(); });
  document.addEventListener('keydown', onKey, true);
  root.append(backdrop);
  setTimeout(() => (panel.querySelector('[autofocus]') || closeBtn).focus(), 0);
  return { el: panel, close };
}
