// Chat: threads list, streaming turns with live trace, citations, quick replies, refunds, handoffs.
import { h, clear, toast, fmtTime, sleep, openDialog } from './util.js';
import { api, streamChat, healthy, ApiError, publicSettings } from './api.js';
import { t } from './i18n.js';
import { createTurn, userBubble } from './turn.js';
import { openSource } from './source.js';
import { app, setBanner, metrics } from './state.js';

let cur = null; // {threadId, log, busy, poll}
let maxChars = 4000; // replaced by the server's limit once /v1/settings answers

const EXAMPLES = ['零件A的公差是多少？', '我想学习CNC维护', '差旅报销标准是什么？', '我的订单124到哪了？'];

export async function renderChat(main, sidebar, params) {
  if (cur && cur.poll) clearInterval(cur.poll);
  const threadId = params[0] ? decodeURIComponent(params[0]) : null;
  cur = { threadId, busy: false, poll: 0, count: 0, scope: scopeOf(threadId), collections: {} };
  const log = h('div', { class: 'chat-log', id: 'chat-log', role: 'log', 'aria-label': t('conversation') });
  // The server's limit (GET /v1/settings limits.max_message_chars), so the box never holds more than it accepts.
  const input = h('textarea', { id: 'composer', rows: 1, placeholder: t('ask_placeholder'), 'aria-label': t('message'), maxlength: maxChars, 'aria-describedby': 'composer-count' });
  const count = h('span', { id: 'composer-count', class: 'composer-count muted small', 'aria-live': 'polite', hidden: true });
  const send = h('button', { class: 'btn primary', type: 'submit', id: 'send-btn' }, t('send'));
  const picker = h('select', { id: 'kb-picker', 'aria-label': t('kb_scope_label'), title: t('kb_scope_label') }, h('option', { value: '' }, t('kb_scope_all')));
  picker.addEventListener('change', () => setScope(picker.value));
  const scopeBar = h('div', { class: 'composer-scope' }, h('label', { for: 'kb-picker', class: 'muted small' }, t('kb_scope')), picker);
  const form = h('form', { class: 'composer', onsubmit: (e) => { e.preventDefault(); submit(); } }, scopeBar, input, count, send);
  const paintCount = (cut) => {
    const n = input.value.length;
    count.hidden = !cut && n < maxChars * 0.9;
    count.classList.toggle('over', !!cut || n >= maxChars);
    count.textContent = cut || n >= maxChars ? t('message_too_long').replace('{n}', maxChars) : `${n} / ${maxChars}`;
  };
  publicSettings().then((st) => {
    const n = st.limits && st.limits.max_message_chars;
    if (n > 0) { maxChars = n; input.maxLength = n; paintCount(); }
  });
  input.addEventListener('paste', (e) => {
    const pasted = (e.clipboardData && e.clipboardData.getData('text')) || '';
    const room = maxChars - input.value.length + (input.selectionEnd - input.selectionStart);
    if (pasted.length > room) setTimeout(() => paintCount(true)); // the browser keeps only what fits: say so
  });
  input.addEventListener('keydown', (e) => { if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) { e.preventDefault(); if (cur.busy) cur.queued = true; else submit(); } });
  input.addEventListener('input', () => { input.style.height = 'auto'; input.style.height = Math.min(180, input.scrollHeight) + 'px'; paintCount(); });
  clear(main).append(h('section', { class: 'chat view' }, h('h1', { class: 'sr-only' }, t('nav_chat')), log, form));
  cur.log = log; cur.input = input; cur.send = send; cur.picker = picker; cur.submit = submit;
  fillPicker(picker);

  renderThreads(sidebar);
  if (threadId) await loadThread(threadId);
  else emptyState(log);
  input.focus();

  function submit() {
    if (cur.busy) { cur.queued = false; if (cur.abort) cur.abort.abort(); return; }
    const text = input.value.trim();
    if (!text) return;
    input.value = ''; input.style.height = 'auto'; count.hidden = true;
    runTurn({ source: 'chat', message: text }, text);
  }
}

function emptyState(log) {
  clear(log).append(h('div', { class: 'empty hero' },
    h('div', { class: 'logo big', 'aria-hidden': 'true' }, 'K0'),
    h('h2', {}, t('empty_chat_title')), h('p', { class: 'muted' }, t('empty_chat_body')),
    h('div', { class: 'chips', role: 'group', 'aria-label': t('examples') }, EXAMPLES.map((q) => h('button', { class: 'chip', type: 'button', onclick: () => runTurn({ source: 'chat', message: q }, q) }, q)))));
}

export async function renderThreads(sidebar) {
  const list = h('ul', { class: 'thread-list', 'aria-label': t('threads') });
  clear(sidebar).append(
    h('div', { class: 'side-head' }, h('h2', {}, t('threads')), h('a', { class: 'btn small primary', href: '#/chat', id: 'new-chat', onclick: () => { if (location.hash === '#/chat') app.route(); } }, '+ ', t('new_chat'))),
    list);
  let threads = [];
  try { threads = (await api('/v1/threads')).threads || []; } catch (err) {
    list.append(h('li', { class: 'muted pad' }, t('threads_unavailable'))); return;
  }
  if (!threads.length) list.append(h('li', { class: 'muted pad' }, t('no_threads')));
  for (const th of threads) {
    const active = cur && cur.threadId === th.id;
    const a = h('a', { href: `#/chat/${encodeURIComponent(th.id)}`, class: 'thread-link', 'aria-current': active ? 'page' : false },
      h('span', { class: 'thread-title' }, th.title || t('untitled')), h('span', { class: 'muted small' }, fmtTime(th.updated_at)));
    const ren = h('button', { class: 'icon-btn small', type: 'button', 'data-action': 'rename-thread', 'aria-label': `${t('rename')}: ${th.title || ''}`, title: t('rename') }, '✎');
    const del = h('button', { class: 'icon-btn small', type: 'button', 'data-action': 'delete-thread', 'aria-label': `${t('delete')}: ${th.title || ''}`, title: t('delete') }, '✕');
    del.onclick = () => confirmDelete(th.title || t('untitled'), async () => {
      try { await api(`/v1/threads/${encodeURIComponent(th.id)}`, { method: 'DELETE' }); } catch (err) {
        const why = err.code === 'conflict' && t('delete_blocked_' + ((err.details || [])[0] || {}).rule);
        throw why ? new Error(why) : err; // a refund awaiting approval / an open handoff: say which
      }
      toast(t('deleted'));
      if (cur && cur.threadId === th.id) { location.hash = '#/chat'; } else renderThreads(sidebar);
    });
    const li = h('li', { class: 'thread' + (active ? ' active' : ''), dataset: { thread: th.id } }, a, ren, del);
    ren.onclick = () => {
      const inp = h('input', { value: th.title || '', 'aria-label': t('rename'), maxlength: 200, class: 'rename-input' });
      let saved = false;
      const save = async () => {
        if (saved) return;
        saved = true;
        const title = inp.value.trim();
        if (title && title !== th.title) {
          try { await api(`/v1/threads/${encodeURIComponent(th.id)}`, { method: 'PATCH', body: { title } }); th.title = title; toast(t('renamed')); }
          catch (err) { toast(err.message, 'error'); }
        }
        renderThreads(sidebar);
      };
      inp.addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); save(); } if (e.key === 'Escape') { saved = true; renderThreads(sidebar); } });
      inp.addEventListener('blur', save);
      li.replaceChildren(inp); inp.focus(); inp.select();
    };
    list.append(li);
  }
}

// A small confirm dialog (no window.confirm: it blocks the page and cannot be styled or translated).
export function confirmDelete(name, action) {
  const err = h('p', { class: 'form-error', role: 'alert' });
  const yes = h('button', { class: 'btn danger', type: 'button', id: 'confirm-delete', autofocus: true }, t('delete'));
  const no = h('button', { class: 'btn', type: 'button' }, t('cancel'));
  const dlg = openDialog({ title: `${t('delete')}：${name}`, body: h('div', { class: 'stack' }, h('p', {}, t('delete_confirm')), err, h('div', { class: 'row' }, yes, no)), label: t('close') });
  no.onclick = () => dlg.close();
  yes.onclick = async () => { yes.disabled = true; try { await action(); dlg.close(); } catch (ex) { err.textContent = ex.message; yes.disabled = false; } };
}

async function loadThread(id, { quiet = false } = {}) {
  const log = cur.log;
  if (!quiet) clear(log).append(h('div', { class: 'spinner center', 'aria-label': t('loading') }));
  let th;
  try { th = await api(`/v1/threads/${encodeURIComponent(id)}`); } catch (err) {
    if (err.status === 404) { clear(log).append(h('div', { class: 'empty' }, h('h2', {}, t('thread_not_found')), h('a', { href: '#/chat', class: 'btn' }, t('new_chat')))); return null; }
    if (!quiet) clear(log).append(errorState(err, () => loadThread(id)));
    return null;
  }
  cur.count = th.messages.length;
  clear(log);
  if (!th.messages.length) log.append(h('div', { class: 'empty' }, h('p', { class: 'muted' }, t(th.answering ? 'thread_answering' : 'thread_empty'))));
  for (const m of th.messages) {
    if (m.role === 'user') log.append(userBubble(m.content));
    else { const turn = createTurn({ onCite: openSource, live: false }); turn.setRef({ threadId: id, id: m.id }); turn.fromStored(m); log.append(turn.el); }
  }
  const pend = th.pending || [];
  if (th.interrupted && pend.length) {
    const turn = createTurn({ onCite: openSource, onResume: (v) => resume(v), live: false });
    turn.el.querySelector('.turn-trace')?.remove();
    turn.el.querySelector('.assistant-bubble').remove();
    for (const p of pend) turn.push({ type: 'human_review_request', data: p });
    log.append(turn.el);
  }
  watch(th);
  log.scrollTop = log.scrollHeight;
  return th;
}

// While a thread waits for a person (refund approval, handoff), poll for new messages.
function watch(th) {
  if (cur.poll) { clearInterval(cur.poll); cur.poll = 0; }
  const svc = (th.state && th.state.service) || {};
  const waiting = (th.pending || []).some((p) => p.kind === 'refund_approval' || p.kind === 'handoff') ||
    (svc.handoff && ['open', 'answered'].includes(svc.handoff.status)) || th.answering;
  if (!waiting) return;
  const id = th.thread_id;
  cur.poll = setInterval(async () => {
    if (cur.busy || cur.threadId !== id || document.hidden) return;
    try {
      const next = await api(`/v1/threads/${encodeURIComponent(id)}`);
      if (cur.busy || cur.threadId !== id) return; // a turn started while this fetch was in flight
      if (next.messages.length !== cur.count || next.interrupted !== th.interrupted) { await loadThread(id, { quiet: true }); }
    } catch { /* the banner shows connection trouble */ }
  }, 2500);
}

function errorState(err, retry) {
  return h('div', { class: 'empty error', role: 'alert' }, h('h2', {}, err.status === 0 ? t('server_down') : t('error_title')),
    h('p', { class: 'muted' }, err.status === 0 ? t('server_down_body') : err.message), h('button', { class: 'btn', onclick: retry }, t('retry')));
}

function resume(value) {
  runTurn({ thread_id: cur.threadId, resume: value }, null);
}

export async function runTurn(body, userText) {
  if (cur.busy) return;
  const ctrl = new AbortController();
  cur.busy = true; cur.abort = ctrl;
  const seq = cur.seq = (cur.seq || 0) + 1;
  let after = null;
  cur.send.textContent = t('stop'); cur.send.classList.remove('primary'); cur.send.dataset.action = 'stop';
  const log = cur.log;
  log.querySelector('.empty')?.remove();
  if (cur.threadId && !body.thread_id) body.thread_id = cur.threadId;
  const scoped = body.resume === undefined ? scopeCollections() : null;
  if (scoped) body.collections = scoped;
  const scopeText = scopeLabel();
  log.querySelectorAll('.quick-replies').forEach((q) => q.remove()); // they answered the previous turn only
  if (userText) log.append(userBubble(userText));
  const turn = createTurn({
    onCite: openSource,
    onQuick: (q) => runTurn({ source: 'chat', message: q }, q),
    onResume: (v) => resume(v),
    onRetry: () => runTurn({ ...body }, userText),
  });
  log.append(turn.el);
  turn.el.scrollIntoView({ block: 'end' });
  const t0 = performance.now();
  let first = true;
  let doneData = null;
  try {
    const res = await streamChat(body, {
      signal: ctrl.signal,
      onOpen: (tid) => {
        metrics.sendToHeaders.push(performance.now() - t0);
        if (!cur.threadId) { cur.threadId = tid; history.replaceState(null, '', `#/chat/${encodeURIComponent(tid)}`); }
        if (scoped) saveScope(tid, { ...cur.scope, narrowed: cur.scope.narrowed || !!cur.scope.pick });
      },
      onEvent: (ev) => {
        if (first) {
          first = false;
          const dt = performance.now() - t0;
          metrics.sendToFirstEvent.push(dt);
          turn.push(ev);
          requestAnimationFrame(() => metrics.sendToFirstPaint.push(performance.now() - t0));
        } else turn.push(ev);
        if (ev.type === 'path_decision') turn.trace.scope(scopeText);
        if (ev.type === 'done') doneData = ev.data;
        if (ev.type === 'llm_token' || ev.type === 'done') { const nearBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 160; if (nearBottom) log.scrollTop = log.scrollHeight; }
      },
    });
    turn.end(res.ended);
    if (res.ended === 'broken') await reconnect(res.threadId, userText);
    else if (doneData) after = () => attachStored(turn, res.threadId, doneData, seq);
  } catch (err) {
    if (err.name === 'AbortError') turn.stopped();
    else if (err instanceof ApiError && err.status === 0) { await reconnect(cur.threadId, userText); }
    // refused before the turn started (422, 409, 429): only the error card stays, no empty answer or trace
    else turn.fail({ code: err.code, message: err.status === 409 ? t('busy') : err.message, details: err.details }, { early: true });
  } finally {
    cur.busy = false; cur.abort = null;
    cur.send.textContent = t('send'); cur.send.classList.add('primary'); delete cur.send.dataset.action;
    renderThreads(document.getElementById('sidebar'));
  }
  // Enter pressed while the turn was ending sends now (the text waited in the composer); the
  // composer is free again before the stored message is fetched.
  if (cur.queued) { cur.queued = false; if (cur.input.value.trim()) cur.submit(); }
  if (after) await after();
}

// Citations and thread state live on the stored message: fetch them once, after the turn ended.
// A turn started meanwhile owns the thread's count and polling; this one only fills its own card.
async function attachStored(turn, threadId, doneData, seq) {
  const th = await api(`/v1/threads/${encodeURIComponent(threadId)}`).catch(() => null);
  if (!th) return;
  const last = [...th.messages].reverse().find((m) => m.role === 'assistant');
  if (last && !doneData.interrupted) turn.setRef({ threadId, id: last.id });
  if (last && last.meta && last.meta.citations && !doneData.interrupted) turn.setCitations(last.meta.citations);
  if (th.interrupted && !turn.extras.querySelector('.review-card')) for (const p of th.pending || []) turn.push({ type: 'human_review_request', data: p });
  if (seq !== cur.seq || cur.busy || cur.threadId !== threadId) return;
  cur.count = th.messages.length;
  watch(th);
}

// The stream broke (server restarted, network dropped): wait for the server, then reload the
// thread from its checkpoint so the conversation continues where it stopped.
async function reconnect(threadId, sent) {
  setBanner(t('stream_broken'), 'warn');
  for (let i = 0; i < 60; i++) {
    if (await healthy()) break;
    await sleep(Math.min(5000, 500 * (i + 1)));
  }
  setBanner(null);
  if (!threadId) return;
  cur.threadId = threadId;
  history.replaceState(null, '', `#/chat/${encodeURIComponent(threadId)}`);
  const th = await loadThread(threadId, { quiet: true });
  const msgs = (th && th.messages) || [];
  const last = msgs[msgs.length - 1];
  const lastUser = [...msgs].reverse().find((m) => m.role === 'user');
  // Finished on the server while we were away → the reloaded thread shows it. Otherwise offer a retry.
  const finished = last && last.role === 'assistant' && (!sent || (lastUser && lastUser.content === sent));
  if (finished || (th && th.interrupted)) { toast(t('stream_resumed')); return; }
  const text = sent || (lastUser && lastUser.content);
  cur.log.append(h('div', { class: 'card error-card', role: 'alert' }, t('stream_resumed_incomplete'), ' ',
    text ? h('button', { class: 'btn small', type: 'button', onclick: (e) => { e.target.closest('.card').remove(); runTurn({ source: 'chat', message: text }, text); } }, t('retry')) : null));
  cur.log.scrollTop = cur.log.scrollHeight;
}

// ----- the knowledge-base picker: which collections a thread answers from ----------------------
// Kept per thread in this browser (localStorage kz.kbscope: thread id → {pick, narrowed}) and sent
// as `collections` with every message of the thread; the server remembers it too (State.collections).
// "All my documents" sends none — or [] when the thread was limited before, which clears the choice the
// server remembers (the server then searches the team's own documents, the demo alone while it is all).
const SCOPE_KEY = 'kz.kbscope';
function scopes() { try { return JSON.parse(localStorage.getItem(SCOPE_KEY) || '{}') || {}; } catch { return {}; } }
function scopeOf(threadId) {
  const s = (threadId && scopes()[threadId]) || {};
  return { pick: typeof s.pick === 'string' ? s.pick : '', narrowed: !!s.narrowed };
}
function saveScope(threadId, scope) {
  cur.scope = scope;
  if (!threadId) return;
  const all = scopes();
  if (!scope.pick && !scope.narrowed) delete all[threadId]; else all[threadId] = { pick: scope.pick, narrowed: scope.narrowed };
  const keys = Object.keys(all);
  for (const k of keys.slice(0, Math.max(0, keys.length - 500))) delete all[k]; // bounded: the oldest go first
  try { localStorage.setItem(SCOPE_KEY, JSON.stringify(all)); } catch { /* private mode: this page only */ }
}
function setScope(pick) {
  saveScope(cur.threadId, { pick, narrowed: cur.scope.narrowed });
}
function scopeCollections() {
  const names = Object.keys(cur.collections || {});
  if (cur.scope.pick && names.includes(cur.scope.pick)) return [cur.scope.pick];
  return cur.scope.narrowed ? [] : null; // [] clears the thread's earlier choice on the server
}
function scopeLabel() { return cur.scope.pick && (cur.collections || {})[cur.scope.pick] !== undefined ? cur.scope.pick : t('kb_scope_all'); }
async function fillPicker(picker) {
  let res;
  try { res = await api('/v1/kb/files'); } catch { picker.disabled = true; return; }
  if (!picker.isConnected) return;
  cur.collections = res.collections || {};
  const names = Object.keys(cur.collections).sort((a, b) => (a === 'demo') - (b === 'demo') || a.localeCompare(b));
  picker.replaceChildren(h('option', { value: '' }, t('kb_scope_all')),
    ...names.map((c) => h('option', { value: c }, c === 'demo' ? `${c} · ${t('kb_scope_demo')}` : `${c} (${cur.collections[c]})`)));
  picker.value = names.includes(cur.scope.pick) ? cur.scope.pick : '';
}
