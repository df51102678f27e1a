// Settings → admin cards: the chat model (test, save, switch off) and people and keys (create with a
// key shown once, new key, revoke, restore). Both call the admin routes (/v1/admin/…), which use the
// same store methods as `knowzero keys`. The model's key is write-only: the server returns only whether
// one is set and its last 4 characters, and this page never shows or stores more.
import { h, clear, openDialog, toast, fmtMs } from './util.js';
import { api, auth } from './api.js';
import { t } from './i18n.js';

function field(id, label, input, help) {
  return h('div', { class: 'field' }, h('label', { for: id }, label), input, help ? h('p', { class: 'muted small', id: id + '-help' }, help) : null);
}

export function modelCard(onChange) {
  const card = h('section', { class: 'card', id: 'model-card' }, h('h2', {}, t('model_setup')), h('div', { class: 'spinner' }));
  const url = h('input', { id: 'model-url', inputmode: 'url', spellcheck: 'false', autocomplete: 'off', placeholder: 'http://127.0.0.1:11434/v1', 'aria-describedby': 'model-url-help' });
  const name = h('input', { id: 'model-name', autocomplete: 'off', placeholder: 'qwen2.5:7b' });
  const key = h('input', { id: 'model-key', type: 'password', autocomplete: 'new-password', 'aria-describedby': 'model-key-help' });
  const result = h('p', { id: 'model-result', role: 'status', 'aria-live': 'polite' });
  const err = h('p', { class: 'form-error', role: 'alert' });
  const status = h('p', { id: 'model-status' });
  let saved = null;
  function body() {
    const b = { base_url: url.value.trim(), model: name.value.trim() };
    if (key.value) b.api_key = key.value;
    return b;
  }
  function paint(view) {
    saved = view.saved;
    const a = view.active || {};
    status.replaceChildren(a.offline ? t('model_now_offline') : `${t('model_now')} ${a.model || a.provider}`,
      ' · ', h('span', { class: 'muted small' }, t('model_source_' + (a.source || 'none'))));
    const s = saved || (view.environment && view.environment.provider === 'openai' ? view.environment : null);
    if (s) { url.value = s.base_url || ''; name.value = s.model || ''; }
    key.value = '';
    key.placeholder = saved && saved.key_set ? `•••• ${saved.key_last4 || ''} ${t('model_key_kept')}` : t('model_key_none');
    offBtn.hidden = !!a.offline;
  }
  async function run(fn) {
    err.textContent = '';
    card.setAttribute('aria-busy', 'true');
    try { await fn(); } catch (ex) {
      const bad = (ex.details || []).map((d) => d.field).filter(Boolean);
      err.textContent = ex.message + (bad.length ? ` (${bad.join(', ')})` : '');
    } finally { card.removeAttribute('aria-busy'); }
  }
  const testBtn = h('button', { class: 'btn', type: 'button', id: 'model-test' }, t('model_test'));
  const saveBtn = h('button', { class: 'btn primary', type: 'submit', id: 'model-save' }, t('model_save'));
  const offBtn = h('button', { class: 'btn', type: 'button', id: 'model-off' }, t('model_off'));
  testBtn.addEventListener('click', () => run(async () => {
    result.className = 'muted'; result.textContent = t('model_testing');
    const r = await api('/v1/admin/model/test', { method: 'POST', body: body() });
    result.className = r.ok ? 'good' : 'bad';
    result.textContent = r.ok ? `${t('model_test_ok')} · ${fmtMs(r.latency_ms)} · “${r.reply}”`
      : `${t('model_test_failed')} (${fmtMs(r.latency_ms)}): ${r.error}`;
  }));
  offBtn.addEventListener('click', () => run(async () => {
    paint(await api('/v1/admin/model/off', { method: 'POST' }));
    toast(t('model_switched_off')); onChange && onChange();
  }));
  const form = h('form', { class: 'stack', id: 'model-form' },
    field('model-url', t('model_url'), url, t('model_url_help')), field('model-name', t('model_name'), name),
    field('model-key', t('model_key'), key, t('model_key_help')),
    h('div', { class: 'row wrap' }, testBtn, saveBtn, offBtn), result, err);
  form.addEventListener('submit', (e) => { e.preventDefault(); run(async () => {
    paint(await api('/v1/admin/model', { method: 'PUT', body: body() }));
    toast(t('model_saved')); onChange && onChange();
  }); });
  api('/v1/admin/model').then((view) => { card.replaceChildren(h('h2', {}, t('model_setup')), status, form); paint(view); })
    .catch((ex) => card.replaceChildren(h('h2', {}, t('model_setup')), h('p', { class: 'bad' }, ex.message)));
  return card;
}

function showKey(userId, key) {
  const input = h('input', { id: 'new-key', readonly: true, value: key, 'aria-describedby': 'new-key-help' });
  const copy = h('button', { class: 'btn', type: 'button', id: 'copy-key' }, t('copy'));
  copy.addEventListener('click', async () => { try { await navigator.clipboard.writeText(key); toast(t('copied')); } catch { input.select(); } });
  openDialog({ title: `${t('key_for')} ${userId}`, label: t('close'),
    body: h('div', { class: 'stack' }, h('p', { id: 'new-key-help' }, t('key_shown_once')), h('div', { class: 'row' }, input, copy)) });
  setTimeout(() => input.select(), 0);
}

export function peopleCard() {
  const card = h('section', { class: 'card', id: 'people-card' });
  const tbody = h('tbody');
  const err = h('p', { class: 'form-error', role: 'alert' });
  async function act(fn) { err.textContent = ''; try { await fn(); await load(); } catch (ex) { err.textContent = ex.message; } }
  function row(u) {
    const me = auth.user && auth.user.id === u.id;
    const state = u.revoked ? h('span', { class: 'badge bad' }, t('user_revoked')) : u.has_key ? h('span', { class: 'badge good' }, t('user_active')) : h('span', { class: 'badge' }, t('user_no_key'));
    const actions = u.revoked
      ? [h('button', { class: 'btn small', type: 'button', 'data-action': 'restore', onclick: () => act(async () => {
        const r = await api(`/v1/admin/users/${encodeURIComponent(u.id)}/restore`, { method: 'POST' }); showKey(u.id, r.api_key); }) }, t('user_restore'))]
      : [h('button', { class: 'btn small', type: 'button', 'data-action': 'key', onclick: () => act(async () => {
        if (u.has_key && !confirm(t('new_key_confirm').replace('{id}', u.id))) return;
        const r = await api(`/v1/admin/users/${encodeURIComponent(u.id)}/key`, { method: 'POST' }); showKey(u.id, r.api_key); }) }, t('user_new_key')),
      me ? null : h('button', { class: 'btn small danger', type: 'button', 'data-action': 'revoke', onclick: () => act(async () => {
        if (!confirm(t('revoke_confirm').replace('{id}', u.id))) return;
        await api(`/v1/admin/users/${encodeURIComponent(u.id)}/revoke`, { method: 'POST' }); toast(t('user_revoked_toast').replace('{id}', u.id)); }) }, t('user_revoke'))];
    return h('tr', { 'data-user': u.id }, h('td', {}, h('code', {}, u.id)), h('td', {}, u.name), h('td', {}, t('role_' + u.role) || u.role), h('td', {}, state),
      h('td', { class: 'row wrap' }, actions));
  }
  async function load() {
    const r = await api('/v1/admin/users');
    clear(tbody).append(...r.users.map(row));
  }
  const id = h('input', { id: 'new-user-id', required: true, pattern: '[A-Za-z0-9][A-Za-z0-9_.@\\-]{0,63}', autocomplete: 'off', placeholder: 'carol' });
  const name = h('input', { id: 'new-user-name', required: true, maxlength: 80, autocomplete: 'off', placeholder: 'Carol' });
  const role = h('select', { id: 'new-user-role' }, ['customer', 'editor', 'agent', 'admin'].map((r) => h('option', { value: r }, t('role_' + r))));
  const form = h('form', { class: 'row wrap', id: 'new-user-form' },
    field('new-user-id', t('user_id'), id), field('new-user-name', t('user_name'), name), field('new-user-role', t('user_role'), role),
    h('button', { class: 'btn primary', type: 'submit' }, t('user_create')));
  form.addEventListener('submit', (e) => { e.preventDefault(); act(async () => {
    const r = await api('/v1/admin/users', { method: 'POST', body: { id: id.value.trim(), name: name.value.trim(), role: role.value } });
    id.value = ''; name.value = ''; showKey(r.user.id, r.api_key);
  }); });
  card.append(h('h2', {}, t('people_keys')), h('p', { class: 'muted small' }, t('people_help')),
    h('div', { class: 'table-wrap' }, h('table', { class: 'table', id: 'users-table' },
      h('thead', {}, h('tr', {}, [t('user_id'), t('user_name'), t('user_role'), t('kb_status'), t('actions')].map((x) => h('th', { scope: 'col' }, x)))), tbody)),
    err, h('h3', {}, t('user_add')), form);
  load().catch((ex) => { err.textContent = ex.message; });
  return card;
}
