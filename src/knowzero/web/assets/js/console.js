// Support console (agents): review queue, refund approvals, handoffs. Polls for updates.
import { h, clear, toast, fmtTime, json } from './util.js';
import { api, auth } from './api.js';
import { t } from './i18n.js';
import { verdictBadge } from './trace.js';
import { renderMarkdown } from './md.js';

const POLL_MS = 2500;

export async function renderConsole(main, sidebar, params) {
  const tab = params[0] || 'handoffs';
  const u = auth.user;
  if (!u || u.role !== 'agent') {
    clear(sidebar);
    clear(main).append(h('div', { class: 'empty hero' }, h('h1', {}, t('nav_console')), h('p', { class: 'muted' }, t('console_needs_agent')),
      h('button', { class: 'btn primary', type: 'button', id: 'console-sign-in', onclick: () => document.getElementById('user-btn').click() }, t('sign_in'))));
    return;
  }
  const counts = { handoffs: h('span', { class: 'count' }), approvals: h('span', { class: 'count' }), reviews: h('span', { class: 'count' }) };
  const tabs = ['handoffs', 'approvals', 'reviews'].map((k) => h('a', { href: `#/console/${k}`, role: 'tab', class: 'tab', 'aria-selected': String(k === tab), id: `tab-${k}` }, t('tab_' + k), ' ', counts[k]));
  const panel = h('div', { class: 'console-panel', role: 'tabpanel', 'aria-labelledby': `tab-${tab}` });
  clear(main).append(h('div', { class: 'console view' }, h('div', { class: 'row between' }, h('h1', {}, t('nav_console')), h('span', { class: 'muted small live-dot' }, t('live_updates'))),
    h('div', { class: 'tabs', role: 'tablist' }, tabs), panel));
  const side = { handoffs: h('span', { class: 'badge' }, '0'), approvals: h('span', { class: 'badge' }, '0'), reviews: h('span', { class: 'badge' }, '0') };
  clear(sidebar).append(h('div', { class: 'side-head' }, h('h2', {}, t('queue'))), h('ul', { class: 'plain queue-nav', id: 'queue-list' },
    ['handoffs', 'approvals', 'reviews'].map((k) => h('li', {}, h('a', { href: `#/console/${k}`, 'aria-current': k === tab ? 'page' : false }, t('tab_' + k)), ' ', side[k]))));

  const S = { selected: params[1] ? decodeURIComponent(params[1]) : null, sig: '' };
  let timer = 0, stopped = false;
  async function tick() {
    if (stopped) return;
    try {
      const [ho, ap, rv] = await Promise.all([api('/v1/service/handoffs'), api('/v1/service/approvals'), api('/v1/service/reviews')]);
      side.handoffs.textContent = ho.handoffs.length; side.approvals.textContent = ap.refunds.length; side.reviews.textContent = rv.reviews.length;
      counts.handoffs.textContent = ho.handoffs.length || ''; counts.approvals.textContent = ap.refunds.length || ''; counts.reviews.textContent = rv.reviews.length || '';
      const data = { handoffs: ho.handoffs, approvals: ap.refunds, reviews: rv.reviews }[tab];
      const sig = JSON.stringify(data);
      if (sig !== S.sig) { S.sig = sig; await renderTab(tab, data, panel, S); }
      else if (tab === 'handoffs' && S.selected) await refreshThread(S);
    } catch (err) {
      if (err.status === 401 || err.status === 403) { panel.replaceChildren(h('p', { class: 'bad' }, t('console_needs_agent'))); return; }
    }
    timer = setTimeout(tick, POLL_MS);
  }
  await tick();
  return () => { stopped = true; clearTimeout(timer); };
}

async function renderTab(tab, items, panel, S) {
  const focusId = document.activeElement && document.activeElement.id;
  if (tab === 'reviews') renderReviews(items, panel);
  else if (tab === 'approvals') renderApprovals(items, panel);
  else await renderHandoffs(items, panel, S);
  if (focusId && document.getElementById(focusId)) document.getElementById(focusId).focus();
}

function emptyQueue(msg) { return h('div', { class: 'empty' }, h('div', { class: 'drop-icon', 'aria-hidden': 'true' }, '✓'), h('p', {}, msg)); }

function renderReviews(items, panel) {
  if (!items.length) { panel.replaceChildren(emptyQueue(t('no_reviews'))); return; }
  panel.replaceChildren(...items.map((r) => {
    const edit = h('textarea', { rows: 4, 'aria-label': t('edited_answer'), id: `edit-${r.id}` }, r.answer);
    const editBox = h('div', { class: 'stack', hidden: true }, edit, h('button', { class: 'btn primary small', type: 'button', 'data-action': 'save-review', onclick: () => decide('edit', edit.value) }, t('save_edit')));
    async function decide(action, answer) {
      try { await api(`/v1/service/reviews/${r.id}`, { method: 'POST', body: { action, ...(answer ? { answer } : {}) } }); toast(t('review_' + action)); card.remove(); }
      catch (err) { toast(err.message, 'error'); }
    }
    const card = h('article', { class: 'card queue-item', dataset: { review: r.id } },
      h('div', { class: 'row between' }, h('strong', {}, r.question), verdictBadge(r.verdict)),
      h('div', { class: 'answer small' }, h('div', { html: renderMarkdown(r.answer, { cites: false }) })),
      h('details', {}, h('summary', {}, t('evidence'), ` (${(r.evidence || []).length})`), h('ul', {}, (r.evidence || []).map((e) => h('li', { class: 'small' }, typeof e === 'string' ? e : e.kind === 'feedback' ? feedbackLine(e) : `${e.title || e.source || ''} ${e.quote || e.text || e.snippet || ''}`.trim() || json(e))))),
      h('div', { class: 'row' },
        h('button', { class: 'btn primary small', type: 'button', 'data-action': 'approve-review', onclick: () => decide('approve') }, t('approve')),
        h('button', { class: 'btn small', type: 'button', 'data-action': 'edit-review', 'aria-expanded': 'false', onclick: (e) => { e.currentTarget.setAttribute('aria-expanded', String(editBox.hidden)); editBox.hidden = !editBox.hidden; if (!editBox.hidden) edit.focus(); } }, t('edit')),
        h('button', { class: 'btn danger small', type: 'button', 'data-action': 'reject-review', onclick: () => decide('reject') }, t('reject'))), editBox,
      h('p', { class: 'muted small' }, `${r.id} · ${r.thread_id ? t('thread_ref') + ' #' + shortRef(r.thread_id) + ' · ' : ''}${fmtTime(r.created_at)}`));
    return card;
  }));
}

function feedbackLine(e) {
  const steps = ((e.trace || [])[0] || {}).trace || [];
  const tr = (e.trace || [])[0] || {};
  return `${e.rating === 'down' ? '▼ ' + t('feedback_down') : '▲ ' + t('feedback_up')} ${e.comment || ''} · ${t('tr_intent')} ${tr.intent || '—'} · ${t('tr_path')} ${tr.path || '—'}${tr.verdict ? ' · ' + (t('verdict_' + tr.verdict) || tr.verdict) : ''}${steps.length ? ' · ' + steps.length + ' ' + t('steps_n') : ''}`;
}

// A thread id is 32 hex characters: people read and say the first six.
function shortRef(id) { return String(id || '').replace(/^api-/, '').slice(0, 6).toUpperCase(); }

function renderApprovals(items, panel) {
  if (!items.length) { panel.replaceChildren(emptyQueue(t('no_approvals'))); return; }
  panel.replaceChildren(...items.map((r) => {
    const note = h('input', { 'aria-label': t('note'), placeholder: t('note'), id: `note-${r.id}`, maxlength: 500 });
    async function decide(approved, btns) {
      btns.forEach((b) => (b.disabled = true));
      try { const res = await api(`/v1/service/refunds/${encodeURIComponent(r.id)}/decision`, { method: 'POST', body: { approved, note: note.value } }); toast(`${r.id}: ${res.refund.status}`); card.remove(); }
      catch (err) { toast(err.message, 'error'); btns.forEach((b) => (b.disabled = false)); }
    }
    const yes = h('button', { class: 'btn primary small', type: 'button', 'data-action': 'approve-refund' }, t('approve'));
    const no = h('button', { class: 'btn danger small', type: 'button', 'data-action': 'reject-refund' }, t('reject'));
    yes.onclick = () => decide(true, [yes, no]); no.onclick = () => decide(false, [yes, no]);
    const card = h('article', { class: 'card queue-item', dataset: { refund: r.id } },
      h('div', { class: 'row between' }, h('strong', {}, `${r.id} · ${t('order')} ${r.order_id}`), h('span', { class: 'amount' }, `¥${Number(r.amount).toFixed(2)}`)),
      h('p', {}, `${t('customer')}: ${r.customer_id} · ${t('reason')}: ${r.reason || ''}`), h('p', { class: 'muted small' }, `${t('thread_ref')} #${shortRef(r.thread_id)} · ${fmtTime(r.created_at)}`),
      h('div', { class: 'row' }, note, yes, no));
    return card;
  }));
}

async function renderHandoffs(items, panel, S) {
  if (!items.length) { panel.replaceChildren(emptyQueue(t('no_handoffs'))); S.selected = null; return; }
  if (!S.selected || !items.find((x) => x.id === S.selected)) S.selected = items[0].id;
  const list = h('ul', { class: 'handoff-list', 'aria-label': t('tab_handoffs') }, items.map((x) => h('li', {},
    h('button', { type: 'button', class: 'handoff-item' + (x.id === S.selected ? ' active' : ''), 'aria-pressed': String(x.id === S.selected), dataset: { handoff: x.id },
      onclick: () => { S.selected = x.id; S.sig = ''; renderHandoffs(items, panel, S); } },
    h('span', { class: 'urg urg-' + x.urgency }, x.urgency), ' ', h('strong', {}, (x.brief && x.brief.headline) || x.reason), h('div', { class: 'muted small' }, `${x.customer_id} · ${t('hs_' + x.status) || x.status} · ${fmtTime(x.created_at)}`)))));
  const hx = items.find((x) => x.id === S.selected);
  const b = hx.brief || {};
  const mood = b.mood || {};
  S.threadBox = h('div', { class: 'thread-view', id: 'handoff-thread', 'aria-live': 'polite' });
  const reply = h('textarea', { id: 'human-reply', rows: 3, placeholder: t('reply_placeholder'), 'aria-label': t('reply_as_human') });
  const send = h('button', { class: 'btn primary', type: 'submit', id: 'send-human-reply' }, t('send_reply'));
  const back = h('button', { class: 'btn', type: 'button', id: 'return-assistant' }, t('return_to_assistant'));
  const form = h('form', { class: 'stack', onsubmit: async (e) => {
    e.preventDefault(); const text = reply.value.trim(); if (!text) return;
    send.disabled = true;
    try { await api(`/v1/service/threads/${encodeURIComponent(hx.thread_id)}/reply`, { method: 'POST', body: { text } }); reply.value = ''; toast(t('reply_sent')); S.sig = ''; await refreshThread(S); }
    catch (err) { toast(err.message, 'error'); } finally { send.disabled = false; }
  } }, h('label', { for: 'human-reply' }, t('reply_as_human')), reply, h('div', { class: 'row' }, send, back));
  back.onclick = async () => {
    try { await api(`/v1/service/threads/${encodeURIComponent(hx.thread_id)}/return`, { method: 'POST' }); toast(t('returned')); S.sig = ''; S.selected = null; }
    catch (err) { toast(err.message, 'error'); }
  };
  const detail = h('div', { class: 'handoff-detail card', dataset: { handoff: hx.id, thread: hx.thread_id } },
    h('h2', {}, (b.headline || hx.reason), ' ', h('span', { class: 'urg urg-' + hx.urgency }, hx.urgency)),
    h('dl', { class: 'kv brief' },
      h('dt', {}, t('customer')), h('dd', {}, `${(b.customer && b.customer.name) || hx.customer_id} (${hx.customer_id})`),
      h('dt', {}, t('wants')), h('dd', {}, b.wants || '—'),
      h('dt', {}, t('mood')), h('dd', {}, `${mood.label || '—'} ${mood.sentiment !== undefined ? '(' + mood.sentiment + ')' : ''}`),
      h('dt', {}, t('reason')), h('dd', {}, hx.reason || b.reason || '—'),
      Object.keys(b.facts || {}).length ? [h('dt', {}, t('facts')), h('dd', {}, Object.entries(b.facts).map(([k, v]) => `${k}: ${typeof v === 'object' ? JSON.stringify(v) : v}`).join(' · '))] : null,
      (b.steps_tried || []).length ? [h('dt', {}, t('steps_tried')), h('dd', {}, b.steps_tried.map((s) => (typeof s === 'string' ? s : (s.tool || JSON.stringify(s)) + (s.ok === false ? ' ✗' : s.ok ? ' ✓' : ''))).join(', '))] : null),
    h('h3', {}, t('conversation')), S.threadBox, form);
  S.threadId = hx.thread_id; S.threadSig = '';
  panel.replaceChildren(h('div', { class: 'handoffs' }, list, detail));
  await refreshThread(S);
}

async function refreshThread(S) {
  if (!S.threadId || !S.threadBox) return;
  try {
    const th = await api(`/v1/service/threads/${encodeURIComponent(S.threadId)}`);
    const sig = JSON.stringify(th.messages);
    if (sig === S.threadSig) return;
    S.threadSig = sig;
    S.threadBox.replaceChildren(...th.messages.map((m) => h('div', { class: 'msg ' + (m.role === 'user' ? 'user' : 'assistant') }, h('div', { class: 'bubble' }, m.content))));
    S.threadBox.scrollTop = S.threadBox.scrollHeight;
  } catch (err) { S.threadBox.replaceChildren(h('p', { class: 'bad' }, err.message)); }
}
