// Learning home: start a topic (entry input, sections stream in), documents, learning paths.
import { h, clear, toast, fmtTime } from './util.js';
import { confirmDelete } from './chat.js';
import { api, streamChat } from './api.js';
import { t } from './i18n.js';
import { createTurn } from './turn.js';
import { openSource } from './source.js';

const TOPICS = ['CNC维护', '首件检验', '差旅报销', '热处理工艺'];

export async function renderLearn(main, sidebar) {
  const topic = h('input', { id: 'topic-input', placeholder: t('topic_placeholder'), 'aria-label': t('topic'), maxlength: 200 });
  const go = h('button', { class: 'btn primary', type: 'submit' }, t('start_learning'));
  const live = h('div', { class: 'live-gen' });
  const form = h('form', { class: 'row', onsubmit: (e) => { e.preventDefault(); if (topic.value.trim()) start(topic.value.trim()); } }, topic, go);
  const docs = h('ul', { class: 'doc-list', id: 'doc-list', 'aria-busy': 'true' });
  const goal = h('input', { id: 'goal-input', placeholder: t('goal_placeholder'), 'aria-label': t('goal'), maxlength: 500 });
  const pathsBox = h('div', { class: 'paths', id: 'paths' });
  const pathNote = h('div', { class: 'path-note', id: 'path-note', 'aria-live': 'polite' });
  const pathForm = h('form', { class: 'row', onsubmit: async (e) => {
    e.preventDefault(); if (!goal.value.trim()) return;
    try {
      const p = await api('/v1/learning/paths', { method: 'POST', body: { goal: goal.value.trim() } });
      if (p.sufficient === false || !(p.steps || []).length) {
        pathNote.replaceChildren(h('p', {}, t('path_insufficient')), h('div', { class: 'chips' }, (p.closest_topics || []).map((x) => h('button', { class: 'chip', type: 'button', onclick: () => start(x) }, x))));
        return;
      }
      pathNote.replaceChildren(); goal.value = ''; loadPaths(p.id);
    } catch (err) { toast(err.message, 'error'); }
  } }, goal, h('button', { class: 'btn', type: 'submit' }, t('plan_path')));
  clear(main).append(h('div', { class: 'learn view' },
    h('h1', {}, t('nav_learn')),
    h('section', { class: 'card' }, h('h2', {}, t('start_topic')), form,
      h('div', { class: 'chips' }, TOPICS.map((x) => h('button', { class: 'chip', type: 'button', onclick: () => start(x) }, x))), live),
    h('div', { class: 'grid2' },
      h('section', { class: 'card' }, h('h2', {}, t('documents')), docs),
      h('section', { class: 'card' }, h('h2', {}, t('learning_paths')), pathForm, pathNote, pathsBox))));
  clear(sidebar).append(h('div', { class: 'side-head' }, h('h2', {}, t('learned_topics'))), h('ul', { class: 'plain', id: 'learned' }));

  loadDocs(); loadPaths(); loadLearned();

  async function loadDocs() {
    try {
      const list = (await api('/v1/learning/documents')).documents || [];
      docs.replaceChildren(...list.map((d) => docItem(d)));
      if (!list.length) docs.append(h('li', { class: 'empty small' }, t('no_documents')));
    } catch (err) { docs.replaceChildren(h('li', { class: 'bad' }, err.message)); }
    docs.setAttribute('aria-busy', 'false');
  }
  function docItem(d) {
    const url = `/v1/learning/documents/${encodeURIComponent(d.id)}`;
    const ren = h('button', { class: 'icon-btn small', type: 'button', 'data-action': 'rename-doc', 'aria-label': `${t('rename')}: ${d.title}`, title: t('rename') }, '✎');
    const del = h('button', { class: 'icon-btn small', type: 'button', 'data-action': 'delete-doc', 'aria-label': `${t('delete')}: ${d.title}`, title: t('delete') }, '✕');
    const li = h('li', { dataset: { doc: d.id } }, h('a', { href: `#/doc/${encodeURIComponent(d.id)}` }, d.title), ' ',
      h('span', { class: 'badge' }, `v${d.version}`), d.mine ? [' ', ren, del] : null, h('div', { class: 'muted small' }, `${d.category_path || ''} · ${fmtTime(d.updated_at)}`));
    del.onclick = () => confirmDelete(d.title, async () => { await api(url, { method: 'DELETE' }); toast(t('deleted')); loadDocs(); });
    ren.onclick = () => {
      const inp = h('input', { value: d.title, 'aria-label': t('rename'), maxlength: 300, class: 'rename-input', id: `rename-${d.id}` });
      let done = false;
      const save = async () => {
        if (done) return; done = true;
        const title = inp.value.trim();
        if (title && title !== d.title) { try { await api(url, { method: 'PATCH', body: { title } }); toast(t('renamed')); } catch (err) { toast(err.message, 'error'); } }
        loadDocs();
      };
      inp.addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); save(); } if (e.key === 'Escape') { done = true; loadDocs(); } });
      inp.addEventListener('blur', save);
      li.replaceChildren(inp); inp.focus(); inp.select();
    };
    return li;
  }
  async function loadLearned() {
    const ul = document.getElementById('learned');
    try {
      const topics = (await api('/v1/learning/topics')).topics || [];
      ul.replaceChildren(...topics.map((x) => h('li', {}, '✓ ', typeof x === 'string' ? x : x.topic)));
      if (!topics.length) ul.append(h('li', { class: 'muted pad' }, t('nothing_learned')));
    } catch { ul.replaceChildren(); }
  }
  async function loadPaths(openId) {
    try {
      const paths = (await api('/v1/learning/paths')).paths || [];
      pathsBox.replaceChildren();
      if (!paths.length) pathsBox.append(h('p', { class: 'muted' }, t('no_paths')));
      for (const p0 of paths) {
        const det = h('details', { class: 'path', open: p0.id === openId || paths.length === 1 }, h('summary', {}, h('strong', {}, p0.goal || p0.topic), ' ', h('span', { class: 'muted small' }, fmtTime(p0.created_at))));
        pathsBox.append(det);
        det.addEventListener('toggle', async () => { if (det.open && !det._loaded) { det._loaded = true; renderPath(det, await api(`/v1/learning/paths/${p0.id}`)); } });
        if (det.open) { det._loaded = true; renderPath(det, await api(`/v1/learning/paths/${p0.id}`)); }
      }
    } catch (err) { pathsBox.replaceChildren(h('p', { class: 'bad' }, err.message)); }
  }
  function renderPath(det, p) {
    const steps = p.steps || [];
    const done = steps.filter((s) => s.learned).length;
    const pct = steps.length ? Math.round((100 * done) / steps.length) : 0;
    det.append(h('div', { class: 'progress', role: 'progressbar', 'aria-valuenow': pct, 'aria-valuemin': 0, 'aria-valuemax': 100, 'aria-label': t('progress') }, h('span', { style: { width: pct + '%' } })),
      h('p', { class: 'muted small' }, `${done}/${steps.length} · ${pct}% · ${t('total_minutes')} ${p.total_minutes ?? steps.filter((s) => !s.learned).reduce((a, s) => a + (s.estimated_minutes || 0), 0)}`),
      h('ol', { class: 'steps' }, steps.map((s) => h('li', { class: s.learned ? 'learned' : '' },
        h('span', { 'aria-hidden': 'true' }, s.learned ? '✓ ' : '○ '), s.document_id ? h('a', { href: `#/doc/${s.document_id}` }, s.topic) : h('button', { class: 'linklike', type: 'button', onclick: () => start(s.topic) }, s.topic),
        h('span', { class: 'muted small' }, ` · ${s.estimated_minutes || '?'} min · ${s.reason || ''}`)))));
  }
  async function start(name) {
    const turn = createTurn({ onCite: openSource, traceOpen: false });
    live.replaceChildren(turn.el);
    let final = null;
    try {
      const res = await streamChat({ source: 'entry', topic: name, thread_id: localStorage.getItem('kz.learnThread') || undefined }, {
        onOpen: (tid) => tid && localStorage.setItem('kz.learnThread', tid),
        onEvent: (ev) => { turn.push(ev); if (ev.type === 'document' && ev.data.status === 'ready') final = ev.data; },
      });
      turn.end(res.ended);
    } catch (err) { turn.fail({ code: err.code, message: err.message }); }
    if (final) location.hash = `#/doc/${encodeURIComponent(final.id)}`;
    else loadDocs();
  }
}
