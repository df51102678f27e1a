// KnowZero web UI entry: hash router, language switch, sign-in, connection banner.
import { h, clear, openDialog, toast } from './util.js';
import { api, auth, healthy } from './api.js';
import { t, lang, setLang, applyStatic } from './i18n.js';
import { app, setBanner, metrics } from './state.js';

const main = document.getElementById('main');
const sidebar = document.getElementById('sidebar');
const views = {
  chat: () => import('./chat.js').then((m) => m.renderChat),
  learn: () => import('./learn.js').then((m) => m.renderLearn),
  doc: () => import('./reader.js').then((m) => m.renderReader),
  kb: () => import('./kb.js').then((m) => m.renderKb),
  console: () => import('./console.js').then((m) => m.renderConsole),
};
let cleanup = null;

async function route() {
  const hash = location.hash.replace(/^#\/?/, '');
  const [path, query] = hash.split('?');
  const parts = path.split('/').filter(Boolean);
  const name = views[parts[0]] ? parts[0] : 'chat';
  document.querySelectorAll('[data-nav]').forEach((a) => {
    const on = a.dataset.nav === name || (name === 'doc' && a.dataset.nav === 'learn');
    if (on) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
  });
  document.body.dataset.view = name;
  closeMenu();
  if (cleanup) { try { cleanup(); } catch { /* ignore */ } cleanup = null; }
  try {
    const render = await views[name]();
    const ret = await render(main, sidebar, parts.slice(1), new URLSearchParams(query || ''));
    if (typeof ret === 'function') cleanup = ret;
  } catch (err) {
    console.warn(err);
    clear(main).append(h('div', { class: 'empty error', role: 'alert' }, h('h2', {}, t('error_title')), h('p', {}, err.message || String(err)),
      h('button', { class: 'btn', onclick: route }, t('retry'))));
  }
}
app.route = route;

function closeMenu() { document.body.classList.remove('menu-open'); document.getElementById('menu-btn').setAttribute('aria-expanded', 'false'); }
document.getElementById('menu-btn').addEventListener('click', () => {
  const open = !document.body.classList.contains('menu-open');
  document.body.classList.toggle('menu-open', open);
  document.getElementById('menu-btn').setAttribute('aria-expanded', String(open));
  if (open) sidebar.querySelector('a, button')?.focus();
});

// --- language -------------------------------------------------------------------------------
const langBtn = document.getElementById('lang-btn');
function paintLang() {
  langBtn.textContent = lang() === 'zh' ? 'EN' : '中文';
  langBtn.setAttribute('aria-label', lang() === 'zh' ? 'Switch to English' : '切换到中文');
  applyStatic();
  paintUser();
}
langBtn.addEventListener('click', () => { setLang(lang() === 'zh' ? 'en' : 'zh'); paintLang(); route(); });

// --- sign in (paste an API key) -------------------------------------------------------------
const userBtn = document.getElementById('user-btn');
function paintUser() {
  const u = auth.user;
  userBtn.replaceChildren(u ? `${u.name || u.id} · ${t('role_' + u.role)}` : t('sign_in'));
  document.body.dataset.role = u ? u.role : 'anonymous';
}
async function whoAmI(key) {
  // No /v1/me endpoint: probe the agent queue, then the customer's own account.
  try { await api('/v1/service/reviews', { key }); return { role: 'agent' }; } catch (err) {
    if (err.status === 401) throw err;
    if (err.status !== 403) throw err;
  }
  await api('/v1/me/preferences', { key });
  return { role: 'customer' };
}
export function signInDialog() {
  const u = auth.user;
  const input = h('input', { id: 'api-key', type: 'password', autocomplete: 'off', autofocus: true, placeholder: 'demo-alice', 'aria-describedby': 'key-help' });
  const err = h('p', { class: 'form-error', role: 'alert' });
  const form = h('form', { class: 'stack' },
    u ? h('p', {}, t('signed_in_as'), ' ', h('strong', {}, `${u.name || u.id} (${t('role_' + u.role)})`)) : null,
    h('label', { for: 'api-key' }, t('api_key')), input, h('p', { id: 'key-help', class: 'muted small' }, t('api_key_help')), err,
    h('div', { class: 'row' }, h('button', { class: 'btn primary', type: 'submit' }, t('sign_in')),
      u ? h('button', { class: 'btn', type: 'button', id: 'sign-out', onclick: () => { auth.key = ''; auth.user = null; paintUser(); dlg.close(); toast(t('signed_out')); route(); } }, t('sign_out')) : null));
  const dlg = openDialog({ title: t('sign_in'), body: form, label: t('close') });
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const key = input.value.trim();
    if (!key) { err.textContent = t('api_key_required'); return; }
    try {
      const who = await whoAmI(key);
      const name = key.startsWith('demo-') ? key.slice(5) : who.role;
      auth.key = key; auth.user = { id: name, name, role: who.role };
      paintUser(); dlg.close(); toast(t('signed_in_as') + ' ' + name); route();
    } catch (ex) { err.textContent = ex.status === 401 ? t('bad_key') : ex.message; }
  });
}
userBtn.addEventListener('click', signInDialog);

// --- connection monitor ---------------------------------------------------------------------
let down = false;
async function checkHealth() {
  const ok = await healthy();
  if (!ok && !down) { down = true; setBanner(t('server_down_banner'), 'error', { label: t('retry'), onClick: checkHealth }); }
  else if (ok && down) { down = false; setBanner(null); toast(t('reconnected')); route(); }
  setTimeout(checkHealth, down ? 2000 : 15000);
}
window.addEventListener('online', checkHealth);

// --- performance ----------------------------------------------------------------------------
try {
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.name === 'first-paint') metrics.firstPaint = e.startTime;
      if (e.name === 'first-contentful-paint') metrics.firstContentfulPaint = e.startTime;
    }
  }).observe({ type: 'paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (!e.hadRecentInput) metrics.layoutShift = (metrics.layoutShift || 0) + e.value;
  }).observe({ type: 'layout-shift', buffered: true });
} catch { /* older browsers */ }

document.querySelector('.skip').addEventListener('click', (e) => { e.preventDefault(); (main.querySelector('#composer') || main).focus(); });
window.addEventListener('hashchange', route);
paintLang();
route();
setTimeout(checkHealth, 1000);
