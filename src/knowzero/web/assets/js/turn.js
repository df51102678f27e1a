// One assistant turn: streamed answer, live trace, citations, quick replies, review actions.
import { h, fmtMs, toast, short } from './util.js';
import { t, errorText, pageLabel } from './i18n.js';
import { api } from './api.js';
import { renderMarkdown } from './md.js';
import { createTrace, verdictBadge } from './trace.js';

// A quoted table row reads as its cells ("主要外径：Φ20mm…"), never "| … |" (the source opens the exact span).
export function readableQuote(q) {
  return String(q || '').split('\n').filter((ln) => !/^[\s|:-]+$/.test(ln) || !ln.includes('|')).map((ln) => {
    const m = ln.match(/^\s*\|(.+)\|\s*$/);
    if (!m) return ln;
    const cells = m[1].split('|').map((c) => c.trim()).filter(Boolean);
    return cells.length > 1 ? `${cells[0]}：${cells.slice(1).join('；')}` : (cells[0] || '');
  }).join(' ').trim();
}

export function userBubble(text, extra) {
  return h('div', { class: 'msg user' }, h('div', { class: 'bubble' }, text), extra || null);
}

export function createTurn({ onCite, onQuick, onResume, onRetry, traceOpen = window.innerWidth > 760, live = true } = {}) {
  let pendingError = null; // an `error` event mid-turn: a step failed, the turn goes on (docs/events.md)
  let sawDone = false;
  let ref = null; // {threadId, id} of the stored message, for feedback
  const answer = h('div', { class: 'answer', 'aria-live': live ? 'polite' : 'off', 'aria-busy': live ? 'true' : 'false' });
  const typing = h('span', { class: 'typing', 'aria-label': t('thinking') }, h('i'), h('i'), h('i'));
  if (live) answer.append(typing);
  const streamNode = document.createTextNode('');
  const extras = h('div', { class: 'turn-extras' });
  const meta = h('div', { class: 'turn-meta' });
  const trace = createTrace({ open: traceOpen, onSource: (c) => onCite && onCite(c) });
  const body = h('div', { class: 'turn-body' }, h('div', { class: 'bubble assistant-bubble' }, answer, meta), extras);
  const el = h('article', { class: 'msg assistant turn', 'aria-label': t('answer') }, body, h('aside', { class: 'turn-trace' }, trace.el));
  let text = '';
  let citations = [];
  let streaming = false;
  let docCard = null;
  let firstEventAt = 0;

  answer.addEventListener('click', (e) => {
    const b = e.target.closest('.cite');
    if (!b) return;
    const n = +b.dataset.n;
    const c = citations.find((x) => +x.n === n);
    if (c && onCite) onCite(c);
  });

  function renderAnswer(md) {
    answer.classList.remove('streaming');
    answer.innerHTML = renderMarkdown(md, { citeLabel: t('source') });
    for (const b of answer.querySelectorAll('.cite')) {
      const c = citations.find((x) => +x.n === +b.dataset.n);
      if (c) b.title = `${c.title || c.source}${c.quote ? '\n“' + readableQuote(c.quote) + '”' : ''}`;
      else b.disabled = !citations.length ? false : true;
    }
  }

  function reviewCard(data) {
    if (data.kind === 'refund_confirmation') {
      const yes = h('button', { class: 'btn primary', type: 'button', 'data-action': 'confirm-refund' }, t('confirm_refund'));
      const no = h('button', { class: 'btn', type: 'button', 'data-action': 'cancel-refund' }, t('cancel_refund'));
      const card = h('div', { class: 'card review-card', role: 'group', 'aria-label': t('kind_refund_confirmation') },
        h('div', { class: 'card-title' }, t('kind_refund_confirmation')),
        h('dl', { class: 'kv' }, h('dt', {}, t('order')), h('dd', {}, data.order_id), h('dt', {}, t('amount')), h('dd', {}, `¥${Number(data.amount).toFixed(2)}`),
          data.reason ? [h('dt', {}, t('reason')), h('dd', {}, data.reason)] : null),
        data.needs_agent_approval ? h('p', { class: 'muted' }, t('needs_agent_approval')) : null,
        h('div', { class: 'row' }, yes, no));
      const act = (approved) => { yes.disabled = no.disabled = true; (approved ? yes : no).classList.add('chosen'); onResume && onResume({ approved }); };
      yes.onclick = () => act(true); no.onclick = () => act(false);
      return card;
    }
    if (data.kind === 'refund_approval') {
      return h('div', { class: 'card review-card waiting', 'data-kind': 'refund_approval' },
        h('div', { class: 'card-title' }, h('span', { class: 'spinner small', 'aria-hidden': 'true' }), ' ', t('waiting_agent_approval')),
        h('p', { class: 'muted' }, `${data.refund_id || ''} · ${t('order')} ${data.order_id} · ¥${Number(data.amount).toFixed(2)}`));
    }
    if (data.kind === 'handoff') {
      return h('div', { class: 'card review-card waiting', 'data-kind': 'handoff' },
        h('div', { class: 'card-title' }, t('handed_to_human')),
        h('p', { class: 'muted' }, `${data.handoff_id || ''} · ${data.urgency || ''} · ${(data.brief && data.brief.headline) || ''}`),
        h('p', { class: 'muted' }, t('handoff_hint')));
    }
    if (data.kind === 'answer_review') {
      return h('div', { class: 'card review-card waiting', 'data-kind': 'answer_review' },
        h('div', { class: 'card-title' }, t('sent_for_review')), h('p', { class: 'muted small' }, `${data.review_id || ''} · ${t('verdict_' + data.verdict) || data.verdict || ''}`));
    }
    return h('div', { class: 'card review-card' }, data.message || data.kind);
  }

  function documentCard(data) {
    if (!docCard) {
      docCard = {
        title: h('strong', {}),
        status: h('span', { class: 'muted' }),
        list: h('ol', { class: 'doc-sections' }),
        link: h('a', { class: 'btn primary small', href: '#' }, t('open_document')),
      };
      docCard.el = h('div', { class: 'card doc-card', 'data-doc': data.id }, h('div', { class: 'card-title' }, docCard.title, ' ', docCard.status), docCard.list, docCard.link);
      extras.append(docCard.el);
    }
    docCard.el.dataset.doc = data.id;
    docCard.link.href = `#/doc/${encodeURIComponent(data.id)}`;
    if (data.title) docCard.title.textContent = data.title;
    if (data.section) { docCard.list.append(h('li', {}, data.section.heading)); liveText(null); }
    if (data.status === 'ready') {
      docCard.status.textContent = `v${data.version || 1} · ${t('ready')}`;
      if (!data.section && data.sections) docCard.list.replaceChildren(...data.sections.map((s) => h('li', {}, s.heading)));
      if (data.change_summary) docCard.list.after(h('p', { class: 'change-summary' }, data.change_summary));
    } else docCard.status.textContent = t('generating');
  }

  // A model writing a section: its text as it streams, one span per sentence; a sentence that fails
  // its check (sentence_check, kept: false) is removed. Cleared when the finished section arrives.
  function liveText(data) {
    if (!docCard) return;
    if (!docCard.live) { docCard.live = h('p', { class: 'doc-live muted small', 'aria-live': 'off' }); docCard.list.after(docCard.live); }
    if (!data) { docCard.live.replaceChildren(); docCard.live.hidden = true; return; }
    docCard.live.hidden = false;
    const key = `${data.section}:${data.sentence}`;
    let span = docCard.live.querySelector(`[data-sentence="${key}"]`);
    if (!span) { span = h('span', { dataset: { sentence: key } }); docCard.live.append(span); }
    span.textContent += data.text || '';
  }
  function sentenceChecked(data) {
    const span = docCard && docCard.live && docCard.live.querySelector(`[data-sentence="${data.section}:${data.sentence}"]`);
    if (!span) return;
    if (data.kept) span.classList.add('checked'); else span.remove();
  }

  function push(ev) {
    const { type, data } = ev;
    if (!firstEventAt) firstEventAt = performance.now();
    trace.push(ev);
    if (typing.isConnected && type !== 'llm_token' && type !== 'done' && type !== 'error') { /* keep typing dots */ }
    switch (type) {
      case 'llm_token':
        if (data.document_id) { liveText(data); break; } // a learning section's text, not the reply
        if (!streaming) { streaming = true; answer.replaceChildren(streamNode); answer.classList.add('streaming'); }
        text += data.text || '';
        streamNode.nodeValue = text;
        break;
      case 'document': documentCard(data); break;
      case 'sentence_check': sentenceChecked(data); break;
      case 'human_review_request': extras.append(reviewCard(data)); break;
      case 'error':
        // A refusal ("订单126已取消") or a failed step: the turn goes on and its answer says it. Only a
        // stream that ends without `done` is a failed turn (see end()).
        pendingError = data;
        break;
      case 'done': {
        sawDone = true; pendingError = null;
        answer.setAttribute('aria-busy', 'false');
        const reply = data.reply || text;
        if (reply && !(data.interrupted && extras.querySelector('.review-card'))) renderAnswer(reply);
        else if (data.interrupted) { answer.replaceChildren(h('span', { class: 'muted' }, data.reply || '')); }
        else if (typing.isConnected) typing.remove();
        meta.replaceChildren(h('span', { class: 'muted' }, fmtMs(data.elapsed_ms)));
        if (trace.state.verdict) meta.prepend(verdictBadge(trace.state.verdict.level, 'small'), ' ');
        if (reply && !data.interrupted) meta.append(actions());
        const qr = data.quick_replies || [];
        if (qr.length) {
          extras.append(h('div', { class: 'quick-replies', role: 'group', 'aria-label': t('quick_replies') },
            qr.map((q) => { const label = typeof q === 'string' ? q : (q.label || q.text); return h('button', { class: 'chip', type: 'button', onclick: (e) => { e.target.parentElement.querySelectorAll('button').forEach((b) => (b.disabled = true)); onQuick && onQuick(typeof q === 'string' ? q : (q.text || q.label)); } }, label); })));
        }
        break;
      }
      default: break;
    }
  }

  // The turn failed: an HTTP error before the stream, or a stream that ended without `done`.
  // ``early``: refused before it started (an HTTP error): no answer or trace is left, only the card.
  function fail(data, { early = false } = {}) {
    answer.setAttribute('aria-busy', 'false');
    if (typing.isConnected) typing.remove();
    if (early) { body.querySelector('.assistant-bubble')?.remove(); el.querySelector('.turn-trace')?.remove(); el.classList.add('refused'); }
    extras.append(h('div', { class: 'card error-card', role: 'alert' }, h('strong', {}, t('error_title')), ' ', failText(data),
      onRetry ? h('button', { class: 'btn small', type: 'button', onclick: onRetry }, t('retry')) : null));
  }
  function failText(data) {
    const long = data.code === 'invalid_input' && (data.details || []).find((d) => d.field === 'message' && /longer than (\d+)/.test(d.message || ''));
    if (long) return t('message_too_long').replace('{n}', long.message.match(/longer than (\d+)/)[1]);
    return errorText(data.code, data.message) || data.code;
  }
  function end(ended) {
    if (!sawDone && pendingError && ended !== 'broken') fail(pendingError);
    pendingError = null;
  }
  function stopped() {
    answer.setAttribute('aria-busy', 'false');
    if (typing.isConnected) typing.remove();
    extras.append(h('p', { class: 'muted small stopped-note', role: 'status' }, t('stopped')));
  }

  // What Copy puts on the clipboard: the answer's text with each citation as "[n]" (never a bare number
  // glued to the sentence), then the sources it cites.
  function copyText() {
    const cites = [...answer.querySelectorAll('.cite')];
    const labels = cites.map((b) => b.textContent);
    cites.forEach((b) => { b.textContent = `[${b.dataset.n}]`; });
    const text = answer.innerText.trim();
    cites.forEach((b, i) => { b.textContent = labels[i]; });
    if (!citations.length) return text;
    const sources = citations.map((c) => `[${c.n}] ${c.title || c.source}${c.quote ? ' — “' + short(readableQuote(c.quote), 200) + '”' : ''}`);
    return `${text}\n\n${t('sources')}:\n${sources.join('\n')}`;
  }

  // Copy, 👍, 👎 for a finished answer (feedback needs the stored message: setRef()).
  function actions() {
    const copy = h('button', { class: 'act-btn', type: 'button', 'data-action': 'copy', title: t('copy'), 'aria-label': t('copy') }, t('copy'));
    copy.onclick = async () => {
      const plain = copyText();
      try { await navigator.clipboard.writeText(plain); } catch {
        const ta = h('textarea', { style: { position: 'fixed', opacity: '0' } }, plain); document.body.append(ta); ta.select();
        try { document.execCommand('copy'); } catch { /* nothing more to try */ } ta.remove();
      }
      el.dataset.copied = plain; toast(t('copied'));
    };
    const rate = (rating) => async (e) => {
      const btn = e.currentTarget;
      if (!ref) return;
      try {
        await api('/v1/feedback', { method: 'POST', body: { thread_id: ref.threadId, message_id: ref.id, rating } });
        box.querySelectorAll('[data-rating]').forEach((b) => b.setAttribute('aria-pressed', String(b === btn)));
        toast(t('feedback_thanks'));
      } catch (err) { toast(err.message, 'error'); }
    };
    const up = h('button', { class: 'act-btn', type: 'button', 'data-rating': 'up', 'aria-pressed': 'false', title: t('feedback_up'), 'aria-label': t('feedback_up'), onclick: rate('up') }, '▲ ', t('feedback_up'));
    const down = h('button', { class: 'act-btn', type: 'button', 'data-rating': 'down', 'aria-pressed': 'false', title: t('feedback_down'), 'aria-label': t('feedback_down'), onclick: rate('down') }, '▼ ', t('feedback_down'));
    const box = h('span', { class: 'turn-actions' }, copy, up, down);
    up.hidden = down.hidden = !ref;
    actionsBox = box;
    return box;
  }
  let actionsBox = null;
  function setRef(r) {
    ref = r;
    if (actionsBox) actionsBox.querySelectorAll('[data-rating]').forEach((b) => { b.hidden = !ref; });
  }

  // A card that was answered in an earlier turn (kept in the thread): what was asked and chosen.
  function answeredCard(card) {
    const ok = !!(card.answered && card.answered.approved);
    const chosen = card.kind === 'refund_approval' ? (ok ? t('approved_by_agent') : t('rejected_by_agent')) : (ok ? t('chosen_confirm') : t('chosen_cancel'));
    return h('div', { class: 'card review-card answered', 'data-kind': card.kind, 'data-answered': ok ? 'yes' : 'no' },
      h('div', { class: 'card-title' }, t('kind_' + card.kind)),
      h('dl', { class: 'kv' }, card.refund_id ? [h('dt', {}, t('ref')), h('dd', {}, card.refund_id)] : null,
        h('dt', {}, t('order')), h('dd', {}, card.order_id || ''), h('dt', {}, t('amount')), h('dd', {}, `¥${Number(card.amount || 0).toFixed(2)}`),
        card.reason ? [h('dt', {}, t('reason')), h('dd', {}, card.reason)] : null),
      h('p', { class: 'card-answered' }, (ok ? '✓ ' : '✗ ') + chosen));
  }
  function storedTrace(steps) {
    return h('details', { class: 'stored-trace' }, h('summary', { class: 'muted' }, `${t('step_trace')} · ${steps.length} ${t('steps_n')}`),
      h('ol', {}, steps.map((s) => h('li', {}, [s.agent, s.action, s.method, s.tool,
        Array.isArray(s.collections) && s.collections.length ? `${t('tr_scope')} ${s.collections.join(', ')}` : null, s.confidence !== undefined ? `(${s.confidence})` : null,
        s.elapsed_ms !== undefined ? fmtMs(s.elapsed_ms) : null].filter((x) => x !== undefined && x !== null && x !== '').join(' · ')))));
  }

  function setCitations(list) {
    citations = list || [];
    if (!streaming && !answer.querySelector('.cite')) return;
    for (const b of answer.querySelectorAll('.cite')) {
      const c = citations.find((x) => +x.n === +b.dataset.n);
      if (c) { b.title = `${c.title || c.source}${c.page != null ? ' · ' + pageLabel(c) : ''}${c.quote ? '\n“' + readableQuote(c.quote) + '”' : ''}`; b.disabled = false; }
    }
    if (citations.length) {
      const refs = h('ol', { class: 'refs', 'aria-label': t('sources') }, citations.map((c) => h('li', { value: c.n },
        h('button', { type: 'button', class: 'linklike', 'data-cite': c.n, onclick: () => onCite && onCite(c) }, c.title || c.source),
        c.page != null ? h('span', { class: 'page-ref', title: c.ocr ? t('ocr_mark') : '' }, ` · ${pageLabel(c)}`) : null,
        c.quote ? h('span', { class: 'muted' }, ` — “${short(readableQuote(c.quote), 60)}”`) : null)));
      answer.after(refs);
    }
  }

  // A stored (not live) answer: message content + meta from GET /v1/threads/{id}.
  function fromStored(m) {
    const mt = m.meta || {};
    citations = mt.citations || [];
    renderAnswer(m.content || '');
    answer.setAttribute('aria-busy', 'false');
    setCitations(citations);
    const bits = [];
    const staff = ['agent', 'admin'].includes(document.body.dataset.role);  // internal labels are the staff's, never a customer's
    if (staff && mt.intent) bits.push(h('span', { class: 'muted' }, `${t('tr_intent')} ${mt.intent}`));
    if (staff && mt.path) bits.push(h('span', { class: 'muted' }, ` · ${t('tr_path')} ${mt.path}`));
    if (mt.verdict) bits.push(' ', verdictBadge(typeof mt.verdict === 'string' ? mt.verdict : mt.verdict.level, 'small'));
    meta.replaceChildren(...bits);
    if (mt.card) extras.append(answeredCard(mt.card));
    else if (m.content) meta.append(actions());
    if ((mt.trace || []).length) extras.append(storedTrace(mt.trace));
    el.classList.add('stored');
    el.querySelector('.turn-trace').remove();
  }

  return { el, push, fail, end, stopped, setRef, setCitations, fromStored, extras, trace, get text() { return text; }, get firstEventAt() { return firstEventAt; } };
}
