// Document reader: rendered sections + TOC, highlight-to-comment ("让 AI 优化"), entity links,
// follow-up chips, version history with diffs, margin comments (orphaned ones listed apart).
import { h, clear, toast, fmtTime, openDialog } from './util.js';
import { api, streamChat } from './api.js';
import { t } from './i18n.js';
import { renderMarkdown, linkEntities, markText } from './md.js';
import { createTurn } from './turn.js';
import { openSource } from './source.js';
import { metrics } from './state.js';

const THREAD_KEY = 'kz.learnThread';

export async function renderReader(main, sidebar, params, query) {
  const docId = decodeURIComponent(params[0] || '');
  if (query.get('t')) localStorage.setItem(THREAD_KEY, query.get('t'));
  const R = { docId, doc: null, comments: [], busy: false, sectionsEl: null };
  clear(main).append(h('div', { class: 'spinner center', 'aria-label': t('loading') }));
  clear(sidebar).append(h('div', { class: 'side-head' }, h('h2', {}, t('toc'))));
  try { R.doc = await api(`/v1/learning/documents/${encodeURIComponent(docId)}`); } catch (err) {
    clear(main).append(h('div', { class: 'empty error', role: 'alert' }, h('h2', {}, err.status === 404 ? t('doc_not_found') : t('error_title')),
      h('p', { class: 'muted' }, err.status === 0 ? t('server_down_body') : err.status === 404 ? t('doc_private_body') : err.message), h('a', { class: 'btn', href: '#/learn' }, t('nav_learn'))));
    return;
  }
  const doc = R.doc;
  const versionBadge = h('span', { class: 'badge', id: 'doc-version' }, `v${doc.version}`);
  const historyBtn = h('button', { class: 'btn small', type: 'button', id: 'history-btn', onclick: () => showHistory(R) }, t('history'));
  const readBtn = h('button', { class: 'btn small', type: 'button', onclick: async (e) => {
    try { await api(`/v1/learning/documents/${encodeURIComponent(docId)}/read`, { method: 'POST' }); e.target.disabled = true; e.target.textContent = '✓ ' + t('learned'); } catch (err) { toast(err.message, 'error'); }
  } }, t('mark_learned'));
  const crumbs = (doc.category_path || '').split('/').filter(Boolean);
  const header = h('header', { class: 'doc-head' },
    h('nav', { class: 'crumbs', 'aria-label': t('breadcrumbs') }, h('a', { href: '#/learn' }, t('nav_learn')), crumbs.slice(0, -1).map((c) => [h('span', { 'aria-hidden': 'true' }, ' / '), h('span', {}, c)])),
    h('h1', { id: 'doc-title' }, doc.title), h('div', { class: 'row wrap' }, versionBadge, h('span', { class: 'muted small' }, `${t('level_' + doc.level) || doc.level} · ${fmtTime(doc.updated_at)}`), historyBtn, readBtn),
    doc.change_summary && doc.version > 1 ? h('p', { class: 'change-summary', id: 'doc-change' }, `v${doc.version}: ${doc.change_summary}`) : null);
  R.sectionsEl = h('div', { class: 'doc-sections-body' });
  const follow = h('section', { class: 'follow-ups', 'aria-labelledby': 'fu-h' }, h('h2', { id: 'fu-h' }, t('follow_ups')), h('div', { class: 'chips', id: 'follow-up-chips' }));
  const entities = h('section', { class: 'entity-index', 'aria-labelledby': 'en-h' }, h('h2', { id: 'en-h' }, t('entities')), h('div', { class: 'chips', id: 'entity-chips' }));
  const children = h('section', { class: 'children' });
  R.activity = h('section', { class: 'activity', id: 'activity', 'aria-label': t('activity') });
  const article = h('article', { class: 'doc', 'aria-labelledby': 'doc-title' }, header, R.sectionsEl, follow, entities, children, R.activity);
  R.margin = h('aside', { class: 'margin', 'aria-label': t('comments') }, h('h2', { class: 'margin-title' }, t('comments')), h('div', { class: 'notes' }), h('div', { class: 'orphans' }));
  R.article = article;
  clear(main).append(h('div', { class: 'reader view' }, article, R.margin));

  renderSections(R);
  renderFollowUps(R, follow.querySelector('.chips'));
  renderEntityChips(R, entities.querySelector('.chips'));
  if ((doc.children || []).length || doc.parent_id) {
    children.append(h('h2', {}, t('related_docs')), h('ul', {},
      doc.parent_id ? h('li', {}, '↑ ', h('a', { href: `#/doc/${doc.parent_id}` }, t('parent_doc'))) : null,
      (doc.children || []).map((c) => h('li', {}, h('a', { href: `#/doc/${c.id || c}` }, c.title || c.id || c)))));
  }
  renderToc(R, sidebar);
  loadComments(R);
  setupSelection(R);

  article.addEventListener('click', (e) => {
    const cite = e.target.closest('.cite');
    if (cite) {
      const sec = cite.closest('[data-section-id]');
      const s = sec && R.doc.sections.find((x) => x.id === sec.dataset.sectionId);
      const c = s && (s.citations || []).find((x) => +x.n === +cite.dataset.n);
      if (c) openSource(c);
      return;
    }
    const ent = e.target.closest('a.entity');
    if (ent) { e.preventDefault(); clickEntity(R, ent.dataset.entity); }
  });
  const onResize = () => placeNotes(R);
  window.addEventListener('resize', onResize);
  return () => { window.removeEventListener('resize', onResize); R.popover && R.popover.remove(); };
}

function sectionEl(R, s) {
  const body = h('div', { class: 'sec-body' });
  body.innerHTML = renderMarkdown(s.markdown, { shiftHeadings: 2, citeLabel: t('source') });
  for (const b of body.querySelectorAll('.cite')) { // a line the model worded (checked against its quote) says so
    const c = (s.citations || []).find((x) => +x.n === +b.dataset.n);
    if (c && c.wording === 'model') { b.classList.add('model-worded'); b.title = t('model_worded'); }
  }
  linkEntities(body, (R.doc.entities || []).map((e) => e.name));
  return h('section', { class: 'doc-section', id: `sec-${s.id}`, dataset: { sectionId: s.id }, 'aria-labelledby': `h-${s.id}` },
    h('h2', { id: `h-${s.id}` }, s.heading), body);
}

function renderSections(R) {
  clear(R.sectionsEl).append(...R.doc.sections.map((s) => sectionEl(R, s)));
}

function renderToc(R, sidebar) {
  const toc = h('nav', { class: 'toc', 'aria-label': t('toc') }, h('ol', {}, R.doc.sections.map((s) => h('li', {},
    h('a', { href: `#sec-${s.id}`, onclick: (e) => { e.preventDefault(); const el = document.getElementById(`sec-${s.id}`); el.scrollIntoView({ behavior: 'smooth', block: 'start' }); el.querySelector('h2').setAttribute('tabindex', '-1'); el.querySelector('h2').focus({ preventScroll: true }); } }, s.heading)))));
  clear(sidebar).append(h('div', { class: 'side-head' }, h('h2', {}, t('toc'))), toc,
    h('div', { class: 'side-foot' }, h('a', { href: '#/learn', class: 'btn small' }, '← ', t('all_documents'))));
}

function renderFollowUps(R, box) {
  box.replaceChildren(...(R.doc.follow_ups || []).map((q) => h('button', { class: 'chip', type: 'button', onclick: () => followUp(R, q) }, q)));
  if (!(R.doc.follow_ups || []).length) box.append(h('span', { class: 'muted' }, t('none')));
}
function renderEntityChips(R, box) {
  box.replaceChildren(...(R.doc.entities || []).map((e) => h('a', { class: 'chip entity-chip', href: '#', dataset: { entity: e.name }, onclick: (ev) => { ev.preventDefault(); clickEntity(R, e.name); } },
    e.name, e.document_id ? h('span', { class: 'muted small' }, ' ↗') : h('span', { class: 'muted small' }, ' +'))));
}

// --- comments in the margin -------------------------------------------------------------------
async function loadComments(R) {
  try { R.comments = (await api(`/v1/learning/documents/${encodeURIComponent(R.docId)}/comments`)).comments || []; } catch { R.comments = []; }
  renderComments(R);
}

function renderComments(R) {
  const notes = R.margin.querySelector('.notes'), orphans = R.margin.querySelector('.orphans');
  R.article.querySelectorAll('mark.anchor').forEach((m) => m.replaceWith(...m.childNodes));
  notes.replaceChildren(); orphans.replaceChildren();
  const orphaned = [];
  for (const c of R.comments) {
    const a = c.anchor || {};
    if (a.status === 'orphaned' || !a.section_id) { orphaned.push(c); continue; }
    const secEl = R.article.querySelector(`[data-section-id="${CSS.escape(a.section_id)}"] .sec-body`);
    const sec = R.doc.sections.find((s) => s.id === a.section_id);
    let needle = sec && Number.isInteger(a.start) ? sec.markdown.slice(a.start, a.end) : c.selected_text;
    needle = (needle || c.selected_text || '').replace(/\*\*|`|^[-*]\s+/g, '');
    const mark = secEl && (markText(secEl, needle, { class: 'anchor', 'data-comment': c.id }) || markText(secEl, c.selected_text, { class: 'anchor', 'data-comment': c.id }));
    if (!mark) { orphaned.push(c); continue; }
    const note = h('div', { class: 'note', dataset: { comment: c.id, status: a.status }, tabindex: '0', role: 'note' },
      h('div', { class: 'note-quote' }, '“', c.selected_text.length > 40 ? c.selected_text.slice(0, 39) + '…' : c.selected_text, '”'),
      h('div', {}, c.comment), c.reply ? h('div', { class: 'note-reply muted small' }, '↳ ', c.reply.length > 90 ? c.reply.slice(0, 89) + '…' : c.reply) : null,
      h('div', { class: 'muted small' }, `${t('status_' + c.status) || c.status} · ${t('anchor_' + a.status) || a.status}`));
    note._mark = mark;
    const hi = (on) => { R.article.querySelectorAll(`mark[data-comment="${c.id}"]`).forEach((m) => m.classList.toggle('hot', on)); note.classList.toggle('hot', on); };
    note.addEventListener('mouseenter', () => hi(true)); note.addEventListener('mouseleave', () => hi(false));
    note.addEventListener('focus', () => hi(true)); note.addEventListener('blur', () => hi(false));
    notes.append(note);
  }
  if (!R.comments.length) notes.append(h('p', { class: 'muted small empty-notes' }, t('no_comments')));
  if (orphaned.length) {
    orphans.append(h('h3', {}, t('orphaned_comments'), ` (${orphaned.length})`), h('ul', {}, orphaned.map((c) => h('li', { class: 'orphan', dataset: { comment: c.id } },
      h('div', { class: 'note-quote' }, '“', c.selected_text, '”'), h('div', {}, c.comment)))));
  }
  R.margin.querySelector('.margin-title').textContent = `${t('comments')} (${R.comments.length})`;
  requestAnimationFrame(() => placeNotes(R));
}

function placeNotes(R) {
  const notes = [...R.margin.querySelectorAll('.note')];
  const wide = getComputedStyle(R.margin).position !== 'static' && window.innerWidth > 1100;
  const box = R.margin.querySelector('.notes');
  if (!wide) { notes.forEach((n) => (n.style.top = '')); box.style.height = ''; return; }
  const top0 = box.getBoundingClientRect().top;
  let floor = 0;
  for (const n of notes) {
    const y = Math.max(floor, n._mark.getBoundingClientRect().top - top0 - 4);
    n.style.top = y + 'px';
    floor = y + n.offsetHeight + 8;
  }
  box.style.height = floor + 'px';
}

// --- selection → popover → comment ------------------------------------------------------------
function setupSelection(R) {
  const pop = h('div', { class: 'popover', role: 'dialog', 'aria-label': t('comment_on_selection'), hidden: true });
  R.popover = pop;
  document.body.append(pop);
  let sel = null;
  const hide = () => { pop.hidden = true; sel = null; };
  const show = () => {
    const s = window.getSelection();
    if (!s || s.isCollapsed || !s.rangeCount) return;
    const range = s.getRangeAt(0);
    // The document's own words: citation numbers ([n] buttons) are not part of what was quoted.
    const frag = range.cloneContents();
    const cites = frag.querySelectorAll('.cite');
    cites.forEach((b) => b.remove());
    const text = cites.length ? frag.textContent.trim() : s.toString().trim();
    // The section the selection starts in. A triple-click selects a whole paragraph and Chromium ends the
    // range at the start of the next block (often the next section): that is still one section's text.
    const sectionOf = (node) => (node.nodeType === 1 ? node : node.parentElement)?.closest('[data-section-id]');
    const secEl = sectionOf(range.startContainer);
    if (!text || !secEl || !R.sectionsEl.contains(secEl) || R.busy) return;
    if (sectionOf(range.endContainer) !== secEl && !secEl.textContent.includes(text)) return; // spans two sections
    sel = { text: text.slice(0, 5000), sectionId: secEl.dataset.sectionId };
    const rect = range.getBoundingClientRect();
    const ta = h('textarea', { id: 'comment-text', rows: 3, placeholder: t('comment_placeholder'), 'aria-label': t('your_comment'), maxlength: 2000 });
    const go = h('button', { class: 'btn primary small', type: 'submit', id: 'improve-btn' }, t('improve_with_ai'));
    const form = h('form', { class: 'stack' }, h('div', { class: 'muted small pop-quote' }, '“', sel.text.length > 60 ? sel.text.slice(0, 59) + '…' : sel.text, '”'), ta,
      h('div', { class: 'row' }, go, h('button', { class: 'btn small', type: 'button', onclick: hide }, t('cancel'))));
    const opener = h('button', { class: 'btn small primary', type: 'button', id: 'comment-btn' }, t('comment'));
    opener.onclick = () => { pop.replaceChildren(form); ta.focus(); };
    form.addEventListener('submit', (e) => { e.preventDefault(); const c = ta.value.trim(); if (!c) { ta.focus(); return; } const s2 = sel; hide(); submitComment(R, s2, c); });
    form.addEventListener('keydown', (e) => { if (e.key === 'Escape') { hide(); } if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) form.requestSubmit(); });
    pop.replaceChildren(opener);
    pop.hidden = false;
    const x = Math.min(window.innerWidth - 320, Math.max(8, rect.left + rect.width / 2 - 60));
    const y = rect.bottom + 8 + 180 > window.innerHeight ? Math.max(8, rect.top - 48) : rect.bottom + 8;
    pop.style.left = x + 'px'; pop.style.top = y + 'px';
  };
  R.sectionsEl.addEventListener('mouseup', () => setTimeout(show, 0));
  R.sectionsEl.addEventListener('keyup', (e) => { if (e.shiftKey) setTimeout(show, 0); if (e.key === 'Escape') hide(); });
  // Keyboard: with text selected, Ctrl+Shift+M (or the popover's button via Tab) opens the comment form.
  document.addEventListener('keydown', (e) => { if (e.key === 'Escape' && !pop.hidden) hide(); if (e.key.toLowerCase() === 'm' && e.ctrlKey && e.shiftKey) { show(); pop.querySelector('button')?.click(); } });
  document.addEventListener('mousedown', (e) => { if (!pop.hidden && !pop.contains(e.target)) setTimeout(() => { if (window.getSelection().isCollapsed) hide(); }, 0); });
  window.addEventListener('scroll', () => { if (!pop.hidden && !pop.querySelector('textarea')) hide(); }, { passive: true });
}

// --- turns in the reader (comment, entity, follow-up) ---------------------------------------
async function runInReader(R, body, { label, onDocument } = {}) {
  if (R.busy) { toast(t('busy'), 'warn'); return null; }
  R.busy = true;
  const thread = localStorage.getItem(THREAD_KEY);
  if (thread) body.thread_id = thread;
  body.current_document_id = R.docId;
  const turn = createTurn({ onCite: openSource, traceOpen: false, onQuick: (q) => followUp(R, q) });
  const head = h('div', { class: 'activity-head' }, h('span', { class: 'muted small' }, t('activity')), ' ', h('strong', {}, label));
  R.activity.replaceChildren(head, turn.el);
  const t0 = performance.now();
  let first = true;
  let final = null;
  try {
    const res = await streamChat(body, {
      onOpen: (tid) => { if (tid) localStorage.setItem(THREAD_KEY, tid); },
      onEvent: (ev) => {
        if (first) { first = false; metrics.sendToFirstEvent.push(performance.now() - t0); }
        turn.push(ev);
        if (ev.type === 'document' && (ev.data.status === 'ready' || ev.data.final)) final = ev.data;
        if (ev.type === 'document' && onDocument) onDocument(ev.data);
      },
    });
    turn.end(res.ended);
  } catch (err) {
    turn.fail({ code: err.code, message: err.status === 409 ? t('busy') : err.message });
  } finally { R.busy = false; }
  return final;
}

async function submitComment(R, sel, comment) {
  const secEl = R.article.querySelector(`[data-section-id="${CSS.escape(sel.sectionId)}"]`);
  secEl.classList.add('updating'); secEl.setAttribute('aria-busy', 'true');
  const before = new Map(R.doc.sections.map((s) => [s.id, s.markdown]));
  const oldVersion = R.doc.version;
  const final = await runInReader(R, { source: 'comment', comment: { selected_text: sel.text, comment, document_id: R.docId, section_id: sel.sectionId } }, { label: t('comment') + ': ' + comment });
  secEl.classList.remove('updating'); secEl.removeAttribute('aria-busy');
  if (final && final.id && final.id !== R.docId) { location.hash = `#/doc/${final.id}`; return; }
  await refresh(R, before, oldVersion);
}

async function refresh(R, before, oldVersion) {
  let doc;
  try { doc = await api(`/v1/learning/documents/${encodeURIComponent(R.docId)}`); } catch (err) { toast(err.message, 'error'); return; }
  R.doc = doc;
  document.getElementById('doc-version').textContent = `v${doc.version}`;
  const changed = [];
  for (const s of doc.sections) {
    const old = R.article.querySelector(`[data-section-id="${CSS.escape(s.id)}"]`);
    if (!old) { R.sectionsEl.append(sectionEl(R, s)); changed.push(s.id); continue; }
    if (before.get(s.id) !== s.markdown) {
      const nu = sectionEl(R, s);
      const strip = (m) => String(m || '').replace(/\[\d+\]/g, '');
      const really = strip(before.get(s.id)) !== strip(s.markdown); // not just renumbered citations
      if (!really) { old.replaceWith(nu); continue; }
      nu.classList.add('changed');
      if (doc.version !== oldVersion) nu.querySelector('h2').after(h('p', { class: 'change-summary', role: 'status' }, `✎ v${doc.version}: ${doc.change_summary || ''}`));
      old.replaceWith(nu);
      changed.push(s.id);
    }
  }
  if (doc.version !== oldVersion) {
    let note = document.getElementById('doc-change');
    if (!note) { note = h('p', { class: 'change-summary', id: 'doc-change' }); document.querySelector('.doc-head').append(note); }
    note.textContent = `v${doc.version}: ${doc.change_summary || ''}`;
    toast(`${t('updated_to')} v${doc.version}`);
  }
  renderFollowUps(R, document.getElementById('follow-up-chips'));
  renderEntityChips(R, document.getElementById('entity-chips'));
  renderToc(R, document.getElementById('sidebar'));
  await loadComments(R);
  if (changed.length) document.getElementById(`sec-${changed[0]}`)?.scrollIntoView({ block: 'nearest' });
}

async function clickEntity(R, name) {
  const final = await runInReader(R, { source: 'entity', entity: name, source_document_id: R.docId }, { label: name });
  if (final && final.id && final.id !== R.docId) location.hash = `#/doc/${encodeURIComponent(final.id)}`;
}

async function followUp(R, q) {
  const final = await runInReader(R, { source: 'follow_up', message: q }, { label: q });
  if (final && final.id && final.id !== R.docId) location.hash = `#/doc/${encodeURIComponent(final.id)}`;
  else if (final && final.id === R.docId) await refresh(R, new Map(R.doc.sections.map((s) => [s.id, s.markdown])), R.doc.version);
}

// --- history + diff ---------------------------------------------------------------------------
async function showHistory(R) {
  const body = h('div', { class: 'history' }, h('div', { class: 'spinner' }));
  openDialog({ title: `${t('history')} — ${R.doc.title}`, body, wide: true, label: t('close') });
  let versions = [];
  try { versions = (await api(`/v1/learning/documents/${encodeURIComponent(R.docId)}/versions`)).versions || []; } catch (err) { body.replaceChildren(h('p', { class: 'bad' }, err.message)); return; }
  const diffBox = h('div', { class: 'diff-box', 'aria-live': 'polite' });
  const mk = (id, sel) => h('select', { id }, versions.map((v) => h('option', { value: v.version, selected: v.version === sel }, `v${v.version}`)));
  const last = versions.length ? versions[versions.length - 1].version : 1;
  const from = mk('diff-from', Math.max(1, last - 1)), to = mk('diff-to', last);
  const show = async () => {
    diffBox.replaceChildren(h('div', { class: 'spinner' }));
    try {
      const d = await api(`/v1/learning/documents/${encodeURIComponent(R.docId)}/diff?from_version=${from.value}&to_version=${to.value}`);
      diffBox.replaceChildren(renderDiff(d.diff));
    } catch (err) { diffBox.replaceChildren(h('p', { class: 'bad' }, err.message)); }
  };
  from.onchange = show; to.onchange = show;
  body.replaceChildren(
    h('ol', { class: 'versions', reversed: true }, [...versions].reverse().map((v) => h('li', { class: 'version', dataset: { version: v.version } },
      h('strong', {}, `v${v.version}`), ' ', h('span', { class: 'muted small' }, `${fmtTime(v.created_at)} · ${v.author || ''}`), h('div', {}, v.change_summary || ''),
      v.version > 1 ? h('button', { class: 'btn small', type: 'button', onclick: () => { from.value = v.version - 1; to.value = v.version; show(); } }, t('show_diff')) : null))),
    h('div', { class: 'row diff-pick' }, h('label', { for: 'diff-from' }, t('from')), from, h('label', { for: 'diff-to' }, t('to')), to), diffBox);
  if (versions.length > 1) show(); else diffBox.append(h('p', { class: 'muted' }, t('single_version')));
}

function renderDiff(text) {
  const pre = h('div', { class: 'diff', role: 'table', 'aria-label': t('diff') });
  for (const line of String(text || '').split('\n')) {
    const cls = line.startsWith('+++') || line.startsWith('---') ? 'meta' : line.startsWith('@@') ? 'hunk' : line.startsWith('+') ? 'add' : line.startsWith('-') ? 'del' : 'ctx';
    pre.append(h('div', { class: 'dl ' + cls, role: 'row' }, h('span', { 'aria-hidden': 'true', class: 'sign' }, cls === 'add' ? '+' : cls === 'del' ? '−' : ' '),
      h('span', { class: 'sr-only' }, cls === 'add' ? t('added') + ': ' : cls === 'del' ? t('removed') + ': ' : ''), cls === 'add' || cls === 'del' ? line.slice(1) : line));
  }
  if (!text) pre.append(h('p', { class: 'muted' }, t('no_changes')));
  return pre;
}
