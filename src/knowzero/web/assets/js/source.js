// Open a cited source with the quoted span highlighted.
import { h, openDialog } from './util.js';
import { api } from './api.js';
import { t } from './i18n.js';

export async function openSource(c) {
  const body = h('div', { class: 'source-view', tabindex: '0', 'aria-busy': 'true' }, h('div', { class: 'spinner' }));
  const dlg = openDialog({ title: c.title || c.source, body, wide: true, label: t('close') });
  dlg.el.classList.add('source-dialog');
  try {
    const q = new URLSearchParams({ path: c.source });
    const res = await api('/v1/kb/source?' + q.toString());
    const text = res.text || '';
    let s = Number.isInteger(c.start) ? c.start : -1, e = Number.isInteger(c.end) ? c.end : -1;
    if (c.quote && (s < 0 || text.slice(s, e) !== c.quote)) { const i = text.indexOf(c.quote); if (i >= 0) { s = i; e = i + c.quote.length; } }
    const pre = h('pre', { class: 'source-text' });
    if (s >= 0 && e > s && e <= text.length) {
      const mark = h('mark', { class: 'cited', id: 'cited-span' }, text.slice(s, e));
      pre.append(text.slice(0, s), mark, text.slice(e));
      body.replaceChildren(h('p', { class: 'muted path' }, `${c.source} · ${t('chars')} ${s}–${e}`), pre);
      requestAnimationFrame(() => mark.scrollIntoView({ block: 'center' }));
    } else {
      pre.append(text);
      body.replaceChildren(h('p', { class: 'muted path' }, c.source), pre);
    }
  } catch (err) {
    body.replaceChildren(h('div', { class: 'empty error' }, h('strong', {}, t('source_unavailable')), h('p', {}, err.message)));
  }
  body.setAttribute('aria-busy', 'false');
  return dlg;
}
