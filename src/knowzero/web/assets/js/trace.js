// The live decision trace beside an answer: built from the SSE events as they arrive.
import { h, fmtMs, json, short } from './util.js';
import { t } from './i18n.js';

const TIERS = { rule: 'tier_rule', fuzzy: 'tier_fuzzy', semantic: 'tier_semantic', llm: 'tier_llm', source: 'tier_source', resume: 'tier_resume', none: 'tier_none' };
const VERDICT_ICON = { confirmed: '✓', uncertain: '?', insufficient: '∅', contradicted: '✗' };

export function verdictBadge(level, extra = '') {
  return h('span', { class: `verdict v-${level || 'none'} ${extra}` }, h('span', { 'aria-hidden': 'true' }, VERDICT_ICON[level] || '•'), ' ', t('verdict_' + level) || level);
}

export function createTrace({ open = true, onSource } = {}) {
  const summary = h('summary', {}, h('span', { class: 'trace-title' }, t('trace')), h('span', { class: 'trace-sum' }));
  const list = h('ol', { class: 'trace-list', 'aria-live': 'off' });
  const el = h('details', { class: 'trace', open }, summary, list);
  const sum = summary.querySelector('.trace-sum');
  const nodes = new Map();
  let nodeBox = null;
  const state = { intent: null, verdict: null, tools: new Map(), events: 0, t0: performance.now() };

  function row(kind, ...content) {
    const li = h('li', { class: 'tr-row tr-' + kind, dataset: { kind } }, ...content);
    list.append(li);
    return li;
  }
  function label(k) { return h('span', { class: 'tr-label' }, t(k)); }
  function updateSummary() {
    const bits = [];
    if (state.intent) bits.push(h('span', { class: 'tier tier-' + state.intent.method }, t(TIERS[state.intent.method] || 'tier_none')));
    if (state.verdict) bits.push(verdictBadge(state.verdict.level, 'small'));
    sum.replaceChildren(...bits);
  }

  function push({ type, data }) {
    state.events++;
    switch (type) {
      case 'intent_classified': {
        state.intent = data;
        row('intent', label('tr_intent'), h('strong', {}, data.intent),
          h('span', { class: 'tier tier-' + data.method, title: t('tier') }, t(TIERS[data.method] || 'tier_none')),
          h('span', { class: 'ms' }, fmtMs(data.elapsed_ms)),
          data.confidence !== undefined ? h('span', { class: 'muted' }, `${Math.round(data.confidence * 100)}%`) : null,
          data.reasoning ? h('div', { class: 'tr-sub' }, data.reasoning) : null);
        break;
      }
      case 'path_decision':
        row('path', label('tr_path'), h('strong', {}, data.path), data.reason ? h('span', { class: 'muted' }, data.reason) : null);
        break;
      case 'node_start': {
        if (!nodeBox) { nodeBox = h('ul', { class: 'nodes' }); row('nodes', label('tr_nodes'), nodeBox); }
        const li = h('li', { class: 'node running' }, h('span', { class: 'node-name' }, data.node), h('span', { class: 'ms' }, '…'));
        nodes.set(data.node, li); nodeBox.append(li);
        break;
      }
      case 'node_end': {
        const li = nodes.get(data.node);
        if (li) { li.classList.remove('running'); li.querySelector('.ms').textContent = fmtMs(data.elapsed_ms); }
        break;
      }
      case 'reasoning':
        row('reasoning', label('tr_reasoning'), h('span', {}, data.text));
        break;
      case 'retrieval': {
        const srcs = data.sources || [];
        const ul = h('ul', { class: 'sources' }, srcs.map((s, i) => h('li', {},
          h('button', { type: 'button', class: 'linklike', onclick: () => onSource && onSource({ source: s.source, title: s.title, start: s.start, end: s.end, quote: '' }) },
            `${i + 1}. ${s.title || s.source}`),
          s.section ? h('span', { class: 'muted sec' }, ' · ' + short(s.section.split(' / ').slice(-1)[0], 40)) : null,
          h('span', { class: 'score', title: json(s.contributions || {}) }, (s.score ?? 0).toFixed(4)))));
        row('retrieval', label('tr_retrieval'), h('span', { class: 'muted' }, `${srcs.length} · ${t('attempt')} ${data.attempt ?? 1}`), ul);
        break;
      }
      case 'tool_call_start': {
        const res = h('div', { class: 'tool-res muted' }, t('running'));
        const li = row('tool', label('tr_tool'), h('code', {}, data.tool),
          h('details', { class: 'tool-args' }, h('summary', {}, t('args')), h('pre', {}, json(data.args))), res);
        state.tools.set(data.tool, { li, res });
        break;
      }
      case 'tool_call_end': {
        const tool = state.tools.get(data.tool);
        const r = data.result || {};
        const content = [h('span', { class: r.ok === false ? 'bad' : 'good' }, r.ok === false ? '✗ ' : '✓ '),
          h('span', {}, r.summary || (r.error && r.error.message) || ''),
          h('details', {}, h('summary', {}, t('result')), h('pre', {}, json(r)))];
        if (tool) { tool.res.className = 'tool-res'; tool.res.replaceChildren(...content); }
        else row('tool', label('tr_tool'), h('code', {}, data.tool), h('div', { class: 'tool-res' }, ...content));
        break;
      }
      case 'verdict':
        state.verdict = data;
        row('verdict', label('tr_verdict'), verdictBadge(data.level), h('div', { class: 'tr-sub' }, data.reason || ''));
        break;
      case 'human_review_request':
        row('review', label('tr_review'), h('strong', {}, t('kind_' + data.kind) || data.kind));
        break;
      case 'document':
        if (data.status === 'ready' || data.final) row('document', label('tr_document'), h('span', {}, `${data.title || ''} v${data.version || 1}`));
        break;
      case 'error':
        row('error', label('tr_error'), h('span', { class: 'bad' }, `${data.code}: ${data.message}`));
        break;
      case 'done':
        row('done', label('tr_done'), h('span', { class: 'ms' }, fmtMs(data.elapsed_ms)), data.interrupted ? h('span', { class: 'muted' }, t('interrupted')) : null);
        for (const li of nodes.values()) if (li.classList.contains('running')) { li.classList.remove('running'); li.querySelector('.ms').textContent = data.interrupted ? t('interrupted') : ''; }
        break;
      default: break;
    }
    updateSummary();
  }
  // Which knowledge the turn answered from (the thread's knowledge-base pick): one row after the path.
  function scope(text) {
    if (list.querySelector('.tr-scope')) return;
    const li = row('scope', label('tr_scope'), h('strong', {}, text));
    const path = list.querySelector('.tr-path');
    if (path) path.after(li);
  }
  return { el, push, scope, state };
}
