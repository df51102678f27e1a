// Settings: which chat model answers (or the offline-mode notice), appearance, for staff/editors the
// data directory, models and index sizes (GET /v1/settings decides what each caller sees), and for
// admins the model set-up and people and keys (admin.js).
import { h, clear } from './util.js';
import { api, auth } from './api.js';
import { t } from './i18n.js';
import { modelCard, peopleCard } from './admin.js';

function bytes(n) {
  if (!n && n !== 0) return '';
  const u = ['B', 'KB', 'MB', 'GB']; let i = 0; let v = n;
  while (v >= 1024 && i < u.length - 1) { v /= 1024; i++; }
  return `${v.toFixed(i ? 1 : 0)} ${u[i]}`;
}

export async function renderSettings(main, sidebar) {
  const again = () => renderSettings(main, sidebar);
  clear(sidebar);
  const box = h('div', { class: 'settings view', id: 'settings' }, h('h1', {}, t('settings')), h('div', { class: 'spinner' }));
  clear(main).append(box);
  let s;
  try { s = await api('/v1/settings'); } catch (err) { box.replaceChildren(h('h1', {}, t('settings')), h('p', { class: 'bad' }, err.message)); return; }
  const llm = s.llm || {};
  const llmCard = h('section', { class: 'card', id: 'llm-card' }, h('h2', {}, t('llm_provider')),
    llm.offline ? h('p', { class: 'notice', id: 'offline-notice' }, t('offline_notice'))
      : h('p', { id: 'online-notice' }, t('llm_online'), h('strong', {}, `${llm.provider}${llm.model ? ' · ' + llm.model : ''}`)),
    h('p', { class: 'muted small' }, `${t('version')} ${s.version || ''}`));
  const theme = localStorage.getItem('kz.theme') || 'auto';
  const themeSel = h('select', { id: 'theme-select', 'aria-label': t('theme') }, ['auto', 'light', 'dark'].map((v) => h('option', { value: v, selected: v === theme }, t('theme_' + v))));
  themeSel.addEventListener('change', () => {
    localStorage.setItem('kz.theme', themeSel.value);
    if (themeSel.value === 'auto') delete document.documentElement.dataset.theme; else document.documentElement.dataset.theme = themeSel.value;
    document.getElementById('theme-btn')?.dispatchEvent(new Event('kz-theme'));
  });
  const look = h('section', { class: 'card' }, h('h2', {}, t('theme')), h('div', { class: 'row' }, h('label', { for: 'theme-select' }, t('theme')), themeSel));
  const admin = auth.user && auth.user.role === 'admin';
  const keys = admin ? peopleCard() : h('section', { class: 'card' }, h('h2', {}, t('api_key')), h('p', { class: 'muted' }, t('keys_how')), s.demo_keys ? h('p', { class: 'muted small' }, t('api_key_demo')) : null);
  let detail;
  if (s.detail) {
    const ix = s.index || {};
    detail = h('section', { class: 'card', id: 'system-card' }, h('h2', {}, t('index_size')),
      h('dl', { class: 'kv' },
        h('dt', {}, t('data_dir')), h('dd', { id: 'data-dir' }, h('code', {}, s.data_dir)),
        h('dt', {}, t('database')), h('dd', {}, s.database + (s.redis ? ' + redis' : '')),
        h('dt', {}, t('embedding_model')), h('dd', {}, (s.models || {}).embedding || ''),
        (s.models || {}).llm ? [h('dt', {}, t('llm_provider')), h('dd', {}, s.models.llm)] : null,
        h('dt', {}, t('index_size')), h('dd', { id: 'index-size' }, `${ix.files ?? 0} ${t('files_n')} · ${ix.passages ?? 0} ${t('passages_n')} · ${ix.collections ?? 0} ${t('collections')}`),
        h('dt', {}, t('data_size')), h('dd', {}, bytes(ix.data_bytes))));
  } else detail = h('p', { class: 'muted small' }, t('settings_staff_only'));
  box.replaceChildren(h('h1', {}, t('settings')), llmCard, admin ? modelCard(again) : null, detail, look, keys);
}
